/* hexgrid.h - the zones of the URS world: a hexagonal grid over a city.
 *
 * The city's bounding box is projected to kilometres with a local
 * equirectangular projection centred on the box (x east, y north); cells
 * are pointy-top hexagons in axial coordinates (q, r) of circumradius
 * size_km, so that a cell's area 3*sqrt(3)/2 * size_km^2 equals the
 * requested cell_km2 exactly (0.1 km^2 by default, like an H3 resolution-9
 * cell; any coarser size is accepted).  Cell (0, 0) is centred on the box
 * centre.  No allocation: a TrvHexGrid is a plain value. */
#ifndef TRV_URS_HEXGRID_H
#define TRV_URS_HEXGRID_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#define TRV_HEX_DEFAULT_CELL_KM2 0.1
#define TRV_HEX_MIN_CELL_KM2 0.001
#define TRV_HEX_MAX_CELL_KM2 100.0

typedef struct {
  int q, r;
} TrvHexCell;

typedef struct {
  double lat_min, lat_max, lon_min, lon_max; /* the city's bounding box, degrees */
  double cell_km2;                           /* requested (and exact) cell area */
  /* derived by trv_hex_grid_init */
  double lat0, lon0; /* projection centre */
  double km_per_deg_lat, km_per_deg_lon;
  double size_km; /* hexagon circumradius */
} TrvHexGrid;

/* Fills *grid for a bounding box and a cell area.  Returns false with
 * TRV_ERROR_INPUT if the box is empty or the area is outside
 * [TRV_HEX_MIN_CELL_KM2, TRV_HEX_MAX_CELL_KM2]. */
bool trv_hex_grid_init(TrvHexGrid *grid, double lat_min, double lat_max, double lon_min, double lon_max,
                       double cell_km2, GError **error);

/* Area of one cell in km^2 (from size_km; equals cell_km2 up to rounding). */
double trv_hex_cell_area_km2(const TrvHexGrid *grid);
/* Centre-to-centre distance of two neighbouring cells, km (sqrt(3) * size). */
double trv_hex_spacing_km(const TrvHexGrid *grid);

bool trv_hex_grid_contains(const TrvHexGrid *grid, double lat, double lon);
void trv_hex_project(const TrvHexGrid *grid, double lat, double lon, double *x_km, double *y_km);
void trv_hex_unproject(const TrvHexGrid *grid, double x_km, double y_km, double *lat, double *lon);

TrvHexCell trv_hex_cell_of_xy(const TrvHexGrid *grid, double x_km, double y_km);
TrvHexCell trv_hex_cell_of_point(const TrvHexGrid *grid, double lat, double lon);
void trv_hex_cell_center_xy(const TrvHexGrid *grid, TrvHexCell cell, double *x_km, double *y_km);
void trv_hex_cell_center(const TrvHexGrid *grid, TrvHexCell cell, double *lat, double *lon);

/* The 6 neighbours, in a fixed order starting with the east one. */
void trv_hex_neighbors(TrvHexCell cell, TrvHexCell out[6]);
/* Number of cell steps between two cells (hex distance). */
int trv_hex_distance(TrvHexCell a, TrvHexCell b);
/* Projected straight-line distance between two points, km. */
double trv_hex_point_distance_km(const TrvHexGrid *grid, double lat1, double lon1, double lat2, double lon2);

/* A cell packed into one integer (a hash key) and back. */
static inline uint64_t trv_hex_cell_key(TrvHexCell c) { return ((uint64_t)(uint32_t)c.q << 32) | (uint32_t)c.r; }
static inline TrvHexCell trv_hex_cell_from_key(uint64_t key) {
  TrvHexCell c = {(int)(int32_t)(uint32_t)(key >> 32), (int)(int32_t)(uint32_t)key};
  return c;
}

#endif
