/* The Warehouse world's floor and fleets (envs/warehouse/floor.c), without
 * the simulator: a fleet is a deterministic function of its seed and
 * episode; the noise scale never shifts the random streams; the noise
 * costs deliveries; planning with the true effects pays; a docking manoeuvre without
 * noise has no excess; the floor's causes are standardised as documented
 * (docs/warehouse.md). */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "warehouse/warehouse.h"

#define ROBOTS 8
#define STEPS 90

/* Deliveries of a fleet over `episodes` episodes of STEPS steps, every robot
 * planning with the true effects (policy 1) or first come, first served. */
static double deliveries(double eps, double eta, int policy, int episodes, double *per_episode) {
  WhFloor floor;
  wh_floor_init(&floor, 7, 1.5, 7);
  int pol[ROBOTS];
  double w[ROBOTS * WH_CAUSES];
  for (int r = 0; r < ROBOTS; r++) {
    pol[r] = policy;
    memcpy(&w[r * WH_CAUSES], floor.kappa, sizeof floor.kappa);
  }
  static WhFleet fleet;
  double total = 0;
  for (int e = 0; e < episodes; e++) {
    wh_floor_episode(&floor, 7, e);
    wh_fleet_reset(&fleet, &floor, ROBOTS, eps, eta, 7, e);
    for (int t = 0; t < STEPS; t++) wh_fleet_step(&fleet, &floor, pol, w);
    if (per_episode) per_episode[e] = fleet.deliveries;
    total += fleet.deliveries;
  }
  return total / episodes;
}

static void zero_noise_fleets_are_one_simulation(void) {
  double a[20], b[20];
  deliveries(0, 0, 1, 20, a);
  deliveries(0, 0, 1, 20, b);
  for (int e = 0; e < 20; e++) g_assert_cmpfloat(a[e], ==, b[e]);
  g_assert_cmpfloat(a[0], >, 20); /* eight robots deliver about 5 parcels each in 90 s */
}

/* The noise scale never changes which random numbers a robot draws: after
 * an episode, the actuator and observation streams of a noisy fleet are
 * where the noise-free fleet's are (the orders' stream follows the
 * decisions, which noise changes). */
static void noise_scale_leaves_the_streams_aligned(void) {
  WhFloor floor;
  wh_floor_init(&floor, 5, 1.5, 7);
  wh_floor_episode(&floor, 5, 3);
  static WhFleet quiet, noisy;
  wh_fleet_reset(&quiet, &floor, ROBOTS, 0, 0, 5, 3);
  wh_fleet_reset(&noisy, &floor, ROBOTS, 0.15, 0.1, 5, 3);
  int pol[ROBOTS] = {0};
  double w[ROBOTS * WH_CAUSES] = {0};
  for (int t = 0; t < STEPS; t++) {
    wh_fleet_step(&quiet, &floor, pol, w);
    wh_fleet_step(&noisy, &floor, pol, w);
  }
  for (int r = 0; r < ROBOTS; r++) {
    g_assert_true(!memcmp(&quiet.robots[r].act_rng, &noisy.robots[r].act_rng, sizeof(TrvRng)));
    g_assert_true(!memcmp(&quiet.robots[r].obs_rng, &noisy.robots[r].obs_rng, sizeof(TrvRng)));
  }
  g_assert_cmpint(noisy.deliveries, <, quiet.deliveries + 3); /* and the noise did something */
  g_assert_true(noisy.deliveries != quiet.deliveries || noisy.misses != quiet.misses);
}

static void noise_costs_deliveries(void) {
  double ideal = deliveries(0, 0, 1, 60, NULL);
  double eps = deliveries(0.15, 0, 1, 60, NULL), eta = deliveries(0, 0.1, 1, 60, NULL);
  double both = deliveries(0.15, 0.1, 1, 60, NULL);
  g_assert_cmpfloat(eps, <, ideal - 0.5);
  g_assert_cmpfloat(eta, <, ideal - 1.0);
  g_assert_cmpfloat(both, <, MIN(eps, eta));
}

static void planning_with_the_true_effects_beats_first_come_first_served(void) {
  g_assert_cmpfloat(deliveries(0, 0, 1, 60, NULL), >, deliveries(0, 0, 0, 60, NULL) + 2.0);
}

static void docking_without_noise_has_no_excess(void) {
  TrvRng rng;
  trv_rng_init(&rng, 3, 1);
  for (int i = 0; i < 10; i++) g_assert_cmpfloat(wh_dock_excess(0, 0, &rng), ==, 0.0);
  double sum = 0;
  for (int i = 0; i < 200; i++) sum += wh_dock_excess(0.15, 0.1, &rng);
  g_assert_cmpfloat(sum / 200, >, 0.0); /* noise makes docking slower on average */
}

static void floor_causes_are_standardised(void) {
  WhFloor f;
  wh_floor_init(&f, 11, 1.5, 7);
  double mean_c = 0, var_c = 0, mean_f = 0, mean_h = 0;
  int in_zone = 0;
  for (int s = 0; s < WH_SHELVES; s++) {
    mean_c += f.charger[s] / WH_SHELVES;
    mean_f += f.friction[s] / WH_SHELVES;
    mean_h += f.height[s] / WH_SHELVES;
    in_zone += f.friction[s] == 1.0;
    g_assert_true(f.shelf[s].x >= 0 && f.shelf[s].x <= 10 && f.shelf[s].y >= 0 && f.shelf[s].y <= 10);
  }
  for (int s = 0; s < WH_SHELVES; s++) var_c += (f.charger[s] - mean_c) * (f.charger[s] - mean_c) / WH_SHELVES;
  g_assert_cmpfloat(fabs(mean_c), <, 1e-12);
  g_assert_cmpfloat(fabs(var_c - 1), <, 1e-12);
  g_assert_cmpfloat(fabs(mean_f), <, 1e-12);
  g_assert_cmpfloat(fabs(mean_h), <, 1e-12);
  g_assert_cmpint(in_zone, ==, 10);
  /* causes 1 + 2 + 4: congestion, friction, shelf height; battery and charger are not causes */
  g_assert_cmpfloat(f.kappa[WH_CONGESTION], ==, 1.5);
  g_assert_cmpfloat(f.kappa[WH_HEIGHT], ==, 1.5);
  g_assert_cmpfloat(f.kappa[WH_BATTERY], ==, 0.0);
  g_assert_cmpfloat(f.kappa[WH_CHARGER], ==, 0.0);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/warehouse/zero_noise_fleets_are_one_simulation", zero_noise_fleets_are_one_simulation);
  g_test_add_func("/warehouse/noise_scale_leaves_the_streams_aligned", noise_scale_leaves_the_streams_aligned);
  g_test_add_func("/warehouse/noise_costs_deliveries", noise_costs_deliveries);
  g_test_add_func("/warehouse/planning_with_the_true_effects_beats_first_come_first_served",
                  planning_with_the_true_effects_beats_first_come_first_served);
  g_test_add_func("/warehouse/docking_without_noise_has_no_excess", docking_without_noise_has_no_excess);
  g_test_add_func("/warehouse/floor_causes_are_standardised", floor_causes_are_standardised);
  return g_test_run();
}
