/* world-baseline.c - the rebalancing baseline: a fourth fleet on the same
 * request stream whose idle drivers are rebalanced by a policy from the
 * literature, so that a controller's R_out can be read against it
 * (docs/urs.md, "The rebalancing baseline").
 *
 * The policy is the real-time rebalancing of Pavone, Smith, Frazzoli and
 * Rus (Robotic load balancing for mobility-on-demand systems, IJRR 31(7),
 * 2012), on regions: the city is cut into hexagonal regions of
 * URS_BASELINE_REGION_KM2; every URS_BASELINE_PERIOD minutes each region
 * r is given a desired number of drivers proportional to its forecast
 * demand, desired_r = V lambda_r / sum lambda, where V counts the idle
 * drivers and those already sent somewhere and lambda_r the base rate of
 * the region's zones in the current slot (the calibrated forecast: no
 * confounder, no graph); a region holding at least one driver more than
 * it wants sends its idle drivers beyond that, each to the nearest region
 * still short of half a driver or more (a greedy solution of the paper's
 * transport problem, which minimises the rebalancing distance: drivers in
 * index order, regions by the distance between their centres).  A sent
 * driver heads one cell at a time, each move costing the world's travel
 * time of a cell, to the cell of its target region's busiest zone, and
 * stays there; a dispatch cancels its target.  Matching is the world's,
 * like every fleet's.
 *
 * Invariants: a driver has a target only while it is idle or moving
 * toward it; the baseline draws no random number, so it changes nothing
 * the other fleets see. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "urs/world-internal.h"

bool urs_baseline_init(UrsWorld *w, GError **error) {
  const TrvHexGrid *g = &w->table->grid;
  TrvHexGrid rg;
  if (!trv_hex_grid_init(&rg, g->lat_min, g->lat_max, g->lon_min, g->lon_max, MAX(URS_BASELINE_REGION_KM2, g->cell_km2),
                         error))
    return false;
  GHashTable *index = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
  GArray *keys = g_array_new(FALSE, FALSE, sizeof(gint64));
  w->region_of_cell = g_new(int, w->ncells);
  for (int c = 0; c < w->ncells; c++) {
    int q, r;
    double lat, lon;
    urs_cell_qr(w, c, &q, &r);
    trv_hex_cell_center(g, (TrvHexCell){q, r}, &lat, &lon);
    gint64 key = (gint64)trv_hex_cell_key(trv_hex_cell_of_point(&rg, lat, lon));
    gpointer found = g_hash_table_lookup(index, &key);
    if (!found) {
      g_array_append_val(keys, key);
      found = GINT_TO_POINTER((int)keys->len);
      g_hash_table_insert(index, g_memdup2(&key, sizeof key), found);
    }
    w->region_of_cell[c] = GPOINTER_TO_INT(found) - 1;
  }
  g_hash_table_destroy(index);
  int n = w->nregions = (int)keys->len;
  w->region_x = g_new(double, n);
  w->region_y = g_new(double, n);
  w->region_rate = g_new0(double, n);
  w->region_count = g_new0(double, n);
  w->region_desired = g_new0(double, n);
  w->region_cell = g_new(int, n);
  w->demand_regions = g_new(int, n);
  for (int i = 0; i < n; i++) {
    double lat, lon;
    trv_hex_cell_center(&rg, trv_hex_cell_from_key((uint64_t)g_array_index(keys, gint64, i)), &lat, &lon);
    trv_hex_project(g, lat, lon, &w->region_x[i], &w->region_y[i]);
    w->region_cell[i] = -1;
  }
  g_array_free(keys, TRUE);
  double *best = g_new(double, n);
  for (int z = 0; z < w->nzones; z++) {
    int r = w->region_of_cell[w->zone_cell[z]];
    if (w->region_cell[r] < 0 || w->zone_mean_rate[z] > best[r])
      best[r] = w->zone_mean_rate[z], w->region_cell[r] = w->zone_cell[z];
  }
  g_free(best);
  w->n_demand_regions = 0;
  for (int i = 0; i < n; i++)
    if (w->region_cell[i] >= 0) w->demand_regions[w->n_demand_regions++] = i;
  return true;
}

void urs_baseline_free(UrsWorld *w) {
  g_free(w->region_of_cell);
  g_free(w->region_x);
  g_free(w->region_y);
  g_free(w->region_rate);
  g_free(w->region_count);
  g_free(w->region_desired);
  g_free(w->region_cell);
  g_free(w->demand_regions);
}

/* The nearest region with a deficit of at least half a driver, or -1. */
static int nearest_deficit(const UrsWorld *w, int from) {
  int best = -1;
  double best_d = INFINITY;
  for (int i = 0; i < w->n_demand_regions; i++) {
    int r = w->demand_regions[i];
    if (w->region_desired[r] - w->region_count[r] < 0.5) continue;
    double d = hypot(w->region_x[r] - w->region_x[from], w->region_y[r] - w->region_y[from]);
    if (d < best_d) best_d = d, best = r;
  }
  return best;
}

static void rebalance(UrsWorld *w, UrsFleet *f) {
  int n = w->nregions;
  memset(w->region_rate, 0, sizeof(double) * n);
  memset(w->region_count, 0, sizeof(double) * n);
  double total = 0, drivers = 0;
  for (int z = 0; z < w->nzones; z++) {
    double rate = urs_zone_base(w, z);
    w->region_rate[w->region_of_cell[w->zone_cell[z]]] += rate;
    total += rate;
  }
  if (!(total > 0)) return;
  for (int d = 0; d < f->n; d++) {
    const UrsDriver *v = &f->drivers[d];
    if (f->target[d] >= 0 && (v->state == URS_IDLE || v->state == URS_REPOSITIONING))
      w->region_count[w->region_of_cell[f->target[d]]]++, drivers++;
    else if (v->state == URS_IDLE)
      w->region_count[w->region_of_cell[v->cell]]++, drivers++;
  }
  for (int r = 0; r < n; r++) w->region_desired[r] = drivers * w->region_rate[r] / total;
  for (int d = 0; d < f->n; d++) {
    const UrsDriver *v = &f->drivers[d];
    if (v->state != URS_IDLE || f->target[d] >= 0) continue;
    int from = w->region_of_cell[v->cell];
    if (w->region_count[from] - w->region_desired[from] < 1) continue;
    int to = nearest_deficit(w, from);
    if (to < 0) return; /* no region is short any more */
    if (to == from) continue;
    f->target[d] = w->region_cell[to];
    w->region_count[from]--;
    w->region_count[to]++;
  }
}

void urs_baseline_step(UrsWorld *w, UrsFleet *f, int t) {
  if (t % URS_BASELINE_PERIOD == 0) rebalance(w, f);
  int tq, tr;
  for (int d = 0; d < f->n; d++) {
    const UrsDriver *v = &f->drivers[d];
    if (v->state != URS_IDLE || f->target[d] < 0) continue;
    if (v->cell == f->target[d]) {
      f->target[d] = -1; /* arrived */
      continue;
    }
    /* one cell toward the target: the neighbour nearest to it (the first
     * in the disc's order on ties) */
    urs_cell_qr(w, f->target[d], &tq, &tr);
    const int *disc = urs_disc(w, v->cell);
    int next = -1, next_d = INT32_MAX;
    for (int i = 1; i < urs_ring_end[1]; i++) {
      if (disc[i] < 0) continue;
      int q, r;
      urs_cell_qr(w, disc[i], &q, &r);
      int dist = trv_hex_distance((TrvHexCell){q, r}, (TrvHexCell){tq, tr});
      if (dist < next_d) next_d = dist, next = disc[i];
    }
    if (next < 0) {
      f->target[d] = -1; /* boxed in: cannot happen inside the grid's box */
      continue;
    }
    urs_fleet_move(w, f, t, d, next);
  }
}
