/* test-urs-fleet.c - the URS fleets' clocks and the rebalancing
 * baseline, driven directly, no SimGrid: with world.travel = table (the
 * default) trips take the calibration table's travel times and read the
 * same request stream as with hops; a table without travel times gives
 * hops; the baseline sends drivers toward the forecast demand where the
 * greedy fleets cannot see it (docs/urs.md, "The URS world").  Uses the
 * committed data/urs/sf.cal (found through the source tree), so it needs
 * no ../shared. */
#include <math.h>
#include <glib/gstdio.h>
#include <string.h>

#include "urs/world-internal.h"
#include "api/modules.h"
#include "worlds.h"
#include "sim/sim-params.h"
#include <trivium/results.h>

#include "test-urs-world-util.h"

/* With world.travel = table a trip takes its origin-destination pair's
 * estimate in the band of the minute it was requested (the pair's
 * shrunk mean when the table has trips for it, else the band's line);
 * with hops it takes a draw from the duration histogram.  Both read the
 * same stream: the requests' cells and times are equal. */
static void test_trips_take_the_tables_travel_times(void) {
  TrvParams p;
  trv_params_defaults(&p);
  g_assert_cmpint(urs(&p)->travel, ==, 0); /* table is the default */
  trv_sim_params_mut(&p)->agents = 8;
  p.steps = 120;
  p.episodes = 10;
  GError *err = NULL;
  UrsWorld *w[2];
  for (int k = 0; k < 2; k++) {
    urs(&p)->travel = k;
    w[k] = trv_world_urs.init(&p, 5, &err);
    g_assert_no_error(err);
    g_assert_true(w[k]->travel == (k == 0));
  }
  int64_t from_pairs = 0, differ = 0, n = 0;
  for (int e = 0; e < 3; e++) {
    for (int k = 0; k < 2; k++) {
      trv_world_urs.episode_begin(w[k], e);
      for (int t = 0; t < 120; t++) trv_world_urs.agent->step_end(w[k], t);
    }
    g_assert_cmpuint(w[0]->requests->len, ==, w[1]->requests->len);
    for (guint i = 0; i < w[0]->requests->len; i++) {
      const UrsRequest *a = &g_array_index(w[0]->requests, UrsRequest, i),
                       *b = &g_array_index(w[1]->requests, UrsRequest, i);
      g_assert_cmpint(a->origin, ==, b->origin);
      g_assert_cmpint(a->dest, ==, b->dest);
      g_assert_cmpint(a->created, ==, b->created);
      int oz = w[0]->zone_of_cell[a->origin], dz = w[0]->zone_of_cell[a->dest];
      int band = trv_travel_band_of_hour((w[0]->start_minute + a->created) / 60 % 24);
      /* the pair's estimate computed here from the table's rows */
      const TrvTravel *tr = w[0]->table->travel;
      double km = trv_travel_km(w[0]->table, g_array_index(w[0]->table->zones, TrvZoneDemand, oz).cell,
                                g_array_index(w[0]->table->zones, TrvZoneDemand, dz).cell);
      double expect = trv_travel_estimate(tr, band, km, 0, 0);
      for (guint j = 0; j < tr->pairs->len; j++) {
        const TrvTravelPair *q = &g_array_index(tr->pairs, TrvTravelPair, j);
        if (q->origin == oz && q->destination == dz && q->band == band) {
          expect = trv_travel_estimate(tr, band, km, q->trips, q->mean_min);
          from_pairs++;
        }
      }
      g_assert_cmpint(a->trip, ==, MAX(1, (int)lround(expect)));
      differ += a->trip != b->trip;
      n++;
    }
  }
  g_test_message("%" G_GINT64_FORMAT " requests, %" G_GINT64_FORMAT " from pairs with trips, %" G_GINT64_FORMAT
                 " with another time than the histogram's draw",
                 n, from_pairs, differ);
  g_assert_cmpint(n, >, 100);
  g_assert_cmpint(from_pairs, >, n / 4);
  g_assert_cmpint(differ, >, n / 2);
  for (int k = 0; k < 2; k++) trv_world_urs.free(w[k]);
}

/* A city of two zones 8 km apart whose demand is all in the east zone:
 * drivers start at either.  The stay fleet's western drivers never
 * serve, nor do the oracle's (a driver scores its 6 neighbours, and no
 * demand is within reach of the west), so oracle and stay serve alike;
 * the baseline wants every driver in the east (desired = V x 1) and
 * sends the western ones there one cell a move, so it serves more, its
 * regret (the metric) is negative, and at the end no baseline driver is
 * still idle in the west. */
static void test_baseline_rebalances_toward_the_only_demand(void) {
  TrvHexGrid g;
  g_assert_true(trv_hex_grid_init(&g, 37.70, 37.72, -122.50, -122.40, 0.1, NULL));
  TrvCalTable *t = trv_cal_table_new("sf", "cabspotting", &g);
  TrvHexCell west = trv_hex_cell_of_point(&g, 37.71, -122.495), east = trv_hex_cell_of_point(&g, 37.71, -122.405);
  trv_cal_table_zone(t, west);
  for (int s = 0; s < TRV_SLOTS_PER_WEEK; s++) {
    t->exposure_hours[s] = 1;
    trv_cal_table_add_demand(t, east, s, 1.0);
  }
  trv_cal_table_finish(t);
  char *path = g_build_filename(g_get_tmp_dir(), "trv-urs-two-zones.cal", NULL);
  GError *err = NULL;
  g_assert_true(trv_cal_table_write(t, path, &err));
  trv_cal_table_free(t);
  TrvParams p;
  trv_params_defaults(&p);
  trv_sim_params_mut(&p)->agents = 16;
  p.steps = 120;
  p.episodes = 10;
  g_strlcpy(urs(&p)->table, path, sizeof urs(&p)->table);
  urs(&p)->load = 200; /* 53 requests a minute: the eastern drivers alone cannot serve them all */
  UrsWorld *w = trv_world_urs.init(&p, 3, &err);
  g_assert_no_error(err);
  g_assert_false(w->travel); /* world.travel = table, but the table has no travel times: hops */
  int ez = trv_cal_table_find_zone(w->table, east);
  int wcell = w->zone_cell[1 - ez], ecell = w->zone_cell[ez];
  for (int e = 0; e < 4; e++) {
    trv_world_urs.episode_begin(w, e);
    int in_west = 0;
    for (int d = 0; d < 16; d++) in_west += w->start_cells[d] == wcell;
    for (int t = 0; t < 120; t++) {
      trv_world_urs.agent->step_end(w, t);
      check_fleets(w);
    }
    const UrsFleet *b = &w->fleet[URS_FLEET_BASELINE], *o = &w->fleet[URS_FLEET_ORACLE],
                   *st = &w->fleet[URS_FLEET_STAY];
    double metrics[TRV_WORLD_METRICS_MAX];
    trv_world_urs.referee->episode_metrics(w, metrics, TRV_WORLD_METRICS_MAX);
    g_test_message("episode %d: %d of 16 drivers start in the west; served: oracle %" G_GINT64_FORMAT
                   ", stay %" G_GINT64_FORMAT ", baseline %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT,
                   e, in_west, o->served, st->served, b->served, w->created);
    g_assert_cmpint(in_west, >, 0);
    g_assert_cmpint(o->served, ==, st->served);
    g_assert_cmpint(b->served, >, st->served);
    g_assert_cmpfloat(metrics[7], ==, (double)(o->served - b->served));
    g_assert_cmpfloat(metrics[7], <, 0);
    for (int d = 0; d < 16; d++) g_assert_true(b->drivers[d].state != URS_IDLE || b->drivers[d].cell != wcell);
    (void)ecell;
  }
  trv_world_urs.free(w);
  g_unlink(path);
  g_free(path);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  trv_modules_register_builtin();
  g_test_add_func("/urs-fleet/trips_take_the_tables_travel_times", test_trips_take_the_tables_travel_times);
  g_test_add_func("/urs-fleet/baseline_rebalances_toward_the_only_demand",
                  test_baseline_rebalances_toward_the_only_demand);
  return g_test_run();
}
