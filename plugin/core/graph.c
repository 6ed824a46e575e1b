/* graph.c - helpers over G_inf and committed graphs.  See graph.h. */
#include "graph.h"

#include <string.h>

void trv_graph_clear(TrvGraph *g, int n) {
  memset(g, 0, sizeof *g);
  g->n = n;
}

uint64_t trv_graph_mask(const TrvGraph *g) {
  uint64_t m = 0;
  for (int j = 0; j < g->n && j < 64; j++)
    if (g->present[j]) m |= 1ULL << j;
  return m;
}

int trv_graph_diff(const TrvGraph *a, const TrvGraph *b) {
  int d = 0;
  for (int j = 0; j < a->n; j++) d += a->present[j] != b->present[j];
  return d;
}

int trv_candidates_out_degree(const TrvCandidates *c, int j) {
  int d = 0;
  for (int i = 0; i < c->n_components; i++) d += c->components[i].source == c->components[j].source;
  return d;
}

bool trv_candidates_adjacent(const TrvCandidates *c, int i, int j) {
  const TrvComponent *a = &c->components[i], *b = &c->components[j];
  return a->source == b->source || a->source == b->target || a->target == b->source || a->target == b->target;
}
