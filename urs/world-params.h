/* world-params.h - the URS world's parameters (world.*): the city and its
 * calibration table, which confounders are informative and from when,
 * their effects, the load and busyness of the city, and the drivers'
 * repositioning and acceptance (docs/urs.md, "The URS world").  The rows
 * are declared in world.c; the world's files and its tests include this
 * header, nothing else. */
#ifndef TRV_URS_WORLD_PARAMS_H
#define TRV_URS_WORLD_PARAMS_H

#include <trivium/world.h>

typedef struct {
  int city;                       /* 0 sf, 1 nyc, 2 sg */
  char table[TRV_PARAM_TEXT_MAX]; /* "" the city's shipped table; else a calibration table file */
  int informative, informative_after, change_at;
  double effect;
  int grounded;        /* effects of confounders 2, 3, 10 from the table's estimates */
  double effect_floor; /* a table estimate below this (absolute) is no effect */
  double load, busyness;
  double temperature; /* repositioning distribution (0: greedy) */
  int accept_rings;   /* offers farther than this are declined */
  int travel;         /* 0 the table's travel times (hops when it has none), 1 hops */
} TrvUrsParams;

extern const TrvParamBlock trv_urs_params;

#endif
