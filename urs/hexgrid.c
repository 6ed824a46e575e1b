/* hexgrid.c - pointy-top axial hexagons over an equirectangular projection.
 *
 * Projection: x = (lon - lon0) * km_per_deg_lon, y = (lat - lat0) *
 * km_per_deg_lat, with km_per_deg_lat = 111.32 and km_per_deg_lon = 111.32 *
 * cos(lat0).  Over a city (< 60 km) the distortion is below 0.5%, far less
 * than GPS noise.  Axial layout (Red Blob Games' "pointy" orientation):
 * centre(q, r) = size * (sqrt(3) * (q + r/2), 3/2 * r); a point goes to the
 * cell whose centre is nearest, found by cube rounding.  Invariants the tests
 * check: cell_of(centre(c)) == c, every neighbour is at distance 1 and
 * sqrt(3) * size away, area == cell_km2. */
#include <config.h>

#include "urs/hexgrid.h"

#include <math.h>
#include <stdlib.h>

#include "core/posterior.h"

#define KM_PER_DEG 111.32
#define SQRT3 1.7320508075688772

bool trv_hex_grid_init(TrvHexGrid *grid, double lat_min, double lat_max, double lon_min, double lon_max,
                       double cell_km2, GError **error) {
  if (!(lat_min < lat_max && lon_min < lon_max && lat_min >= -85 && lat_max <= 85 && lon_min >= -180 &&
        lon_max <= 180)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "bounding box lat %g..%g lon %g..%g is empty or out of range",
                lat_min, lat_max, lon_min, lon_max);
    return false;
  }
  if (!(cell_km2 >= TRV_HEX_MIN_CELL_KM2 && cell_km2 <= TRV_HEX_MAX_CELL_KM2)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "cell area %g km^2 is outside [%g, %g] (use e.g. --cell-km2 0.1)",
                cell_km2, TRV_HEX_MIN_CELL_KM2, TRV_HEX_MAX_CELL_KM2);
    return false;
  }
  grid->lat_min = lat_min;
  grid->lat_max = lat_max;
  grid->lon_min = lon_min;
  grid->lon_max = lon_max;
  grid->cell_km2 = cell_km2;
  grid->lat0 = 0.5 * (lat_min + lat_max);
  grid->lon0 = 0.5 * (lon_min + lon_max);
  grid->km_per_deg_lat = KM_PER_DEG;
  grid->km_per_deg_lon = KM_PER_DEG * cos(grid->lat0 * M_PI / 180.0);
  grid->size_km = sqrt(2.0 * cell_km2 / (3.0 * SQRT3));
  return true;
}

double trv_hex_cell_area_km2(const TrvHexGrid *grid) { return 1.5 * SQRT3 * grid->size_km * grid->size_km; }

double trv_hex_spacing_km(const TrvHexGrid *grid) { return SQRT3 * grid->size_km; }

bool trv_hex_grid_contains(const TrvHexGrid *grid, double lat, double lon) {
  return lat >= grid->lat_min && lat <= grid->lat_max && lon >= grid->lon_min && lon <= grid->lon_max;
}

void trv_hex_project(const TrvHexGrid *grid, double lat, double lon, double *x_km, double *y_km) {
  *x_km = (lon - grid->lon0) * grid->km_per_deg_lon;
  *y_km = (lat - grid->lat0) * grid->km_per_deg_lat;
}

void trv_hex_unproject(const TrvHexGrid *grid, double x_km, double y_km, double *lat, double *lon) {
  *lon = grid->lon0 + x_km / grid->km_per_deg_lon;
  *lat = grid->lat0 + y_km / grid->km_per_deg_lat;
}

/* Cube rounding: round each of (q, r, s = -q-r) and fix the coordinate with
 * the largest rounding error so that q + r + s = 0 again. */
static TrvHexCell cube_round(double fq, double fr) {
  double fs = -fq - fr;
  double q = round(fq), r = round(fr), s = round(fs);
  double dq = fabs(q - fq), dr = fabs(r - fr), ds = fabs(s - fs);
  if (dq > dr && dq > ds)
    q = -r - s;
  else if (dr > ds)
    r = -q - s;
  TrvHexCell c = {(int)q, (int)r};
  return c;
}

TrvHexCell trv_hex_cell_of_xy(const TrvHexGrid *grid, double x_km, double y_km) {
  double fq = (SQRT3 / 3.0 * x_km - y_km / 3.0) / grid->size_km;
  double fr = (2.0 / 3.0 * y_km) / grid->size_km;
  return cube_round(fq, fr);
}

TrvHexCell trv_hex_cell_of_point(const TrvHexGrid *grid, double lat, double lon) {
  double x, y;
  trv_hex_project(grid, lat, lon, &x, &y);
  return trv_hex_cell_of_xy(grid, x, y);
}

void trv_hex_cell_center_xy(const TrvHexGrid *grid, TrvHexCell cell, double *x_km, double *y_km) {
  *x_km = grid->size_km * SQRT3 * (cell.q + 0.5 * cell.r);
  *y_km = grid->size_km * 1.5 * cell.r;
}

void trv_hex_cell_center(const TrvHexGrid *grid, TrvHexCell cell, double *lat, double *lon) {
  double x, y;
  trv_hex_cell_center_xy(grid, cell, &x, &y);
  trv_hex_unproject(grid, x, y, lat, lon);
}

void trv_hex_neighbors(TrvHexCell cell, TrvHexCell out[6]) {
  static const int dir[6][2] = {{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}};
  for (int i = 0; i < 6; i++) {
    out[i].q = cell.q + dir[i][0];
    out[i].r = cell.r + dir[i][1];
  }
}

int trv_hex_distance(TrvHexCell a, TrvHexCell b) {
  int dq = a.q - b.q, dr = a.r - b.r;
  return (abs(dq) + abs(dr) + abs(dq + dr)) / 2;
}

double trv_hex_point_distance_km(const TrvHexGrid *grid, double lat1, double lon1, double lat2, double lon2) {
  double x1, y1, x2, y2;
  trv_hex_project(grid, lat1, lon1, &x1, &y1);
  trv_hex_project(grid, lat2, lon2, &x2, &y2);
  return hypot(x2 - x1, y2 - y1);
}
