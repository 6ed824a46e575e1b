/* The URS zone grid (urs/hexgrid.c): pointy-top axial hexagons over a
 * local equirectangular projection.  Each test states one geometric
 * property and checks it with numbers on the three cities' boxes. */
#include <glib.h>
#include <math.h>

#include "urs/hexgrid.h"
#include "urs/import.h"

static TrvHexGrid grid_of(const char *city, double cell_km2) {
  const TrvCity *c = trv_city_find(city);
  g_assert_nonnull(c);
  TrvHexGrid g;
  g_assert_true(trv_hex_grid_init(&g, c->lat_min, c->lat_max, c->lon_min, c->lon_max, cell_km2, NULL));
  return g;
}

static void cell_area_equals_request_within_1_percent(void) {
  const double areas[] = {0.1, 0.5, 1.0, 4.0};
  const char *cities[] = {"sf", "nyc", "sg"};
  for (size_t c = 0; c < G_N_ELEMENTS(cities); c++)
    for (size_t i = 0; i < G_N_ELEMENTS(areas); i++) {
      TrvHexGrid g = grid_of(cities[c], areas[i]);
      g_assert_cmpfloat(fabs(trv_hex_cell_area_km2(&g) - areas[i]) / areas[i], <, 0.01);
      /* The hexagon's area by the shoelace formula over its 6 corners. */
      double s = g.size_km, a = 0;
      for (int k = 0; k < 6; k++) {
        double t0 = M_PI / 180 * (60 * k - 30), t1 = M_PI / 180 * (60 * (k + 1) - 30);
        a += s * cos(t0) * s * sin(t1) - s * cos(t1) * s * sin(t0);
      }
      g_assert_cmpfloat(fabs(0.5 * a - areas[i]) / areas[i], <, 1e-9);
    }
  /* Default: 0.1 km^2, circumradius 196.2 m, centre spacing 339.8 m. */
  TrvHexGrid g = grid_of("sf", TRV_HEX_DEFAULT_CELL_KM2);
  g_assert_cmpfloat(fabs(g.size_km - 0.19618), <, 1e-5);
  g_assert_cmpfloat(fabs(trv_hex_spacing_km(&g) - 0.33980), <, 1e-5);
}

static void neighbours_are_one_step_and_one_spacing_away(void) {
  TrvHexGrid g = grid_of("nyc", 0.1);
  TrvHexCell cells[] = {{0, 0}, {5, -3}, {-40, 17}, {123, -80}};
  for (size_t i = 0; i < G_N_ELEMENTS(cells); i++) {
    TrvHexCell nb[6];
    trv_hex_neighbors(cells[i], nb);
    double cx, cy;
    trv_hex_cell_center_xy(&g, cells[i], &cx, &cy);
    for (int k = 0; k < 6; k++) {
      g_assert_cmpint(trv_hex_distance(cells[i], nb[k]), ==, 1);
      double x, y;
      trv_hex_cell_center_xy(&g, nb[k], &x, &y);
      g_assert_cmpfloat(fabs(hypot(x - cx, y - cy) - trv_hex_spacing_km(&g)), <, 1e-12);
      for (int j = 0; j < k; j++) g_assert_false(nb[j].q == nb[k].q && nb[j].r == nb[k].r);
    }
  }
}

static void point_of_a_cell_centre_is_that_cell(void) {
  TrvHexGrid g = grid_of("sg", 0.1);
  for (int q = -60; q <= 60; q += 7)
    for (int r = -60; r <= 60; r += 5) {
      TrvHexCell c = {q, r};
      double lat, lon;
      trv_hex_cell_center(&g, c, &lat, &lon);
      TrvHexCell back = trv_hex_cell_of_point(&g, lat, lon);
      g_assert_cmpint(back.q, ==, q);
      g_assert_cmpint(back.r, ==, r);
    }
}

static void random_points_go_to_the_nearest_centre(void) {
  /* Round trip: the cell of a point has the nearest centre of all cells
   * within two steps, and lies within one circumradius of the point. */
  TrvHexGrid g = grid_of("sf", 0.1);
  GRand *rng = g_rand_new_with_seed(20240301);
  for (int i = 0; i < 20000; i++) {
    double lat = g_rand_double_range(rng, g.lat_min, g.lat_max);
    double lon = g_rand_double_range(rng, g.lon_min, g.lon_max);
    double x, y, cx, cy;
    trv_hex_project(&g, lat, lon, &x, &y);
    double lat2, lon2;
    trv_hex_unproject(&g, x, y, &lat2, &lon2);
    g_assert_cmpfloat(fabs(lat2 - lat) + fabs(lon2 - lon), <, 1e-12);
    TrvHexCell c = trv_hex_cell_of_point(&g, lat, lon);
    trv_hex_cell_center_xy(&g, c, &cx, &cy);
    double best = hypot(x - cx, y - cy);
    g_assert_cmpfloat(best, <=, g.size_km * (1 + 1e-12));
    for (int dq = -2; dq <= 2; dq++)
      for (int dr = -2; dr <= 2; dr++) {
        TrvHexCell o = {c.q + dq, c.r + dr};
        trv_hex_cell_center_xy(&g, o, &cx, &cy);
        g_assert_cmpfloat(hypot(x - cx, y - cy), >=, best - 1e-12);
      }
    TrvHexCell o = trv_hex_cell_of_xy(&g, x + 0.5, y - 0.3);
    g_assert_cmpint(trv_hex_distance(c, o), ==, trv_hex_distance(o, c));
  }
  g_rand_free(rng);
}

static void distance_counts_cell_steps(void) {
  TrvHexCell a = {0, 0}, b = {3, -1}, c = {-2, 5}, d = {4, 4};
  g_assert_cmpint(trv_hex_distance(a, b), ==, 3);
  g_assert_cmpint(trv_hex_distance(a, c), ==, 5);
  g_assert_cmpint(trv_hex_distance(a, d), ==, 8);
  g_assert_cmpint(trv_hex_distance(b, c), ==, 6);
  /* Walking k times east then k times north-east is 2k steps away. */
  TrvHexGrid g = grid_of("sf", 1.0);
  double x0, y0, x1, y1;
  TrvHexCell far = {7, 0};
  trv_hex_cell_center_xy(&g, a, &x0, &y0);
  trv_hex_cell_center_xy(&g, far, &x1, &y1);
  g_assert_cmpfloat(fabs(hypot(x1 - x0, y1 - y0) - 7 * trv_hex_spacing_km(&g)), <, 1e-12);
}

static void bad_grid_parameters_are_input_errors(void) {
  TrvHexGrid g;
  GError *err = NULL;
  g_assert_false(trv_hex_grid_init(&g, 37.6, 37.8, -122.5, -122.3, 0.0, &err));
  g_assert_nonnull(err);
  g_assert_true(strstr(err->message, "cell area") != NULL);
  g_clear_error(&err);
  g_assert_false(trv_hex_grid_init(&g, 37.8, 37.6, -122.5, -122.3, 0.1, &err));
  g_assert_nonnull(err);
  g_clear_error(&err);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/urs/grid/cell_area_equals_request_within_1_percent", cell_area_equals_request_within_1_percent);
  g_test_add_func("/urs/grid/neighbours_are_one_step_and_one_spacing_away",
                  neighbours_are_one_step_and_one_spacing_away);
  g_test_add_func("/urs/grid/point_of_a_cell_centre_is_that_cell", point_of_a_cell_centre_is_that_cell);
  g_test_add_func("/urs/grid/random_points_go_to_the_nearest_centre", random_points_go_to_the_nearest_centre);
  g_test_add_func("/urs/grid/distance_counts_cell_steps", distance_counts_cell_steps);
  g_test_add_func("/urs/grid/bad_grid_parameters_are_input_errors", bad_grid_parameters_are_input_errors);
  return g_test_run();
}
