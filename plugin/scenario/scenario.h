/* scenario.h - scenario XML files (SPEC 6): what a run simulates.
 *
 * A scenario names a SimGrid platform and the roles its hosts play, a world
 * and its parameters, the controllers, every parameter of the run (by the
 * keys of the parameter table, params.h), fault processes and sweeps.  The
 * loader reads it with Expat and checks it against the rules of
 * scenarios/trivium-scenario.dtd itself (Expat does not validate), so that
 * every mistake a user can make is reported as one GError (TRV_ERROR,
 * TRV_ERROR_INPUT) of the form
 *     FILE:LINE:COLUMN: what was found; what was expected[; did you mean 'X'?]
 * External entities are never loaded and entity declarations are refused
 * (no XXE, no billion laughs).  The element and attribute reference is
 * docs/scenarios.md.
 *
 * No SimGrid header here: the platform is read as plain XML (host and link
 * names, trivium.role properties) only to check the scenario's patterns
 * against it. */
#ifndef TRV_SCENARIO_H
#define TRV_SCENARIO_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/params.h"

typedef enum { TRV_FAULT_LINK_FLAP, TRV_FAULT_HOST_CRASH, TRV_FAULT_PARTITION } TrvFaultKind;

/* One scenario fault process; times are simulated seconds.
 *   link-flap:  every link matching `pattern` alternates up (exponential
 *               time, mean mtbf) and down (mean mttr) from `start` to `stop`
 *               (stop = +inf: to the end of the run); at, duration = 0.
 *   host-crash: hosts matching `pattern` go off at `at` for `duration`.
 *   partition:  hosts matching `pattern` (comma-separated globs) are cut off
 *               from the others at `at` for `duration`.
 * Unused fields are 0.  `line` is the element's line in the scenario file. */
typedef struct {
  TrvFaultKind kind;
  char *pattern;
  double mtbf, mttr, start, stop, at, duration;
  int line;
} TrvFaultSpec;

/* A sweep: `param` is a key of the parameter table, or KIND.ATTR for a
 * numeric fault attribute (link-flap.mtbf, host-crash.at, ...), which then
 * applies to every fault of that kind.  `values` is NULL-terminated text,
 * each already checked. */
typedef struct {
  char *param;
  char **values;
} TrvSweepSpec;

/* Index of role_hosts[]. */
typedef enum { TRV_ROLE_CONTROLLER = 0, TRV_ROLE_CTL = 1, TRV_ROLE_AGENT = 2 } TrvRole;
extern const char *const trv_role_names[]; /* "controller", "ctl", "agent", NULL */

typedef struct {
  char *file;          /* the scenario path as given (or the name given to _from_memory) */
  char *platform;      /* absolute path */
  char *role_hosts[3]; /* TrvRole -> comma-separated globs, or NULL: use the trivium.role host property */
  char *world;         /* "causalbench" */
  TrvParams params;    /* the table's defaults + everything the file set */
  char **controllers;  /* NULL-terminated; NULL = all of trv_controller_names */
  char *ctl_file;      /* absolute or NULL */
  char *out_dir;       /* absolute or NULL */
  GArray *faults;      /* TrvFaultSpec, in document order */
  GArray *sweeps;      /* TrvSweepSpec, in document order */
} TrvScenario;

/* Reads and checks the scenario at `path`.  Relative paths inside it are
 * resolved against the scenario file's directory.  NULL with *error
 * (TRV_ERROR_INPUT) on any problem; free the result with trv_scenario_free. */
TrvScenario *trv_scenario_load(const char *path, GError **error);
/* The same from a buffer: `name` is used in messages and as s->file,
 * `base_dir` (NULL: the current directory) resolves relative paths. */
TrvScenario *trv_scenario_load_from_memory(const char *xml, size_t len, const char *name, const char *base_dir,
                                           GError **error);
void trv_scenario_free(TrvScenario *s);

/* Sweeps combine as a grid, the last sweep varying fastest; a scenario
 * without sweeps has one point.  trv_scenario_point() fills *params with the
 * parameters of point k (0 <= k < n_points) and returns that point's faults:
 * a new GArray of TrvFaultSpec whose patterns belong to s (free the array
 * with g_array_free(a, TRUE), not the patterns). */
size_t trv_scenario_n_points(const TrvScenario *s);
GArray *trv_scenario_point(const TrvScenario *s, size_t k, TrvParams *params);
/* "agents.count=4 link-flap.mtbf=10" for point k; "" without sweeps.  Caller frees. */
char *trv_scenario_point_label(const TrvScenario *s, size_t k);

/* The attributes an element of the scenario language accepts (a new
 * NULL-terminated vector, g_strfreev), or NULL for an unknown element.  For
 * the parameter elements (run, posterior, ..., ctl, agents, sim) these are
 * the table's keys of that section plus the element's special attributes;
 * the tests compare them with the DTD. */
char **trv_scenario_element_attributes(const char *element);

/* Names declared by a SimGrid platform file, read as plain XML: hosts (host,
 * peer, and the hosts a cluster or cabinet generates), the trivium.role
 * property of each host (NULL when it has none), links (link, backbone).
 * links_complete is false when the platform also generates links (cluster,
 * cabinet) whose names this reader does not reproduce. */
typedef struct {
  GPtrArray *hosts; /* char * */
  GPtrArray *roles; /* char * or NULL, parallel to hosts */
  GPtrArray *links; /* char * */
  bool links_complete;
} TrvPlatformNames;

TrvPlatformNames *trv_platform_names_read(const char *path, GError **error);
void trv_platform_names_free(TrvPlatformNames *names);

#endif
