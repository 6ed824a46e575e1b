/* graph.h - candidate components G_inf and committed graphs G_hat.
 *
 * A world declares its variables and its candidate components (an edge
 * source -> target between variables, each with an id = its index).  A
 * graph over G_inf is one presence flag per component plus, for present
 * ones, an effect size; the committed graph G_hat also remembers which
 * components are frozen (ideal commit: docs/controller.md, "Commit rules"). */
#ifndef TRV_GRAPH_H
#define TRV_GRAPH_H

#include <stdbool.h>
#include <stdint.h>
#include <trivium/world.h>

void trv_graph_clear(TrvGraph *g, int n);
/* Bitmask of present components (n <= 64). */
uint64_t trv_graph_mask(const TrvGraph *g);
/* Number of components whose presence differs. */
int trv_graph_diff(const TrvGraph *a, const TrvGraph *b);
/* Out-degree of component j's source variable in G_inf. */
int trv_candidates_out_degree(const TrvCandidates *c, int j);
/* true iff components i and j share a variable. */
bool trv_candidates_adjacent(const TrvCandidates *c, int i, int j);

#endif
