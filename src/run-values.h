/* run-values.h - the values of `trivium run`'s command line (run-values.c):
 * the text of -j, --chunk, --cells, --role, --controllers, --set, --fault
 * and --sweep, as a user typed it or as a job list's manifest holds it,
 * parsed and checked before anything runs.
 *
 * Every parser either fills its outputs or fails, outputs untouched or
 * freed, with one TRV_ERROR_INPUT line that names the option, quotes the
 * text printable and bounded (trv_run_quote) and says what was expected.
 * Fault times and shapes follow the scenario layer's one rule
 * (trv_fault_seconds, trv_fault_shape_value: scenario.h), so a value a
 * scenario refuses is refused on the command line too.  No SimGrid, no
 * run context: a parser sees its text and what it changes. */
#ifndef TRV_RUN_VALUES_H
#define TRV_RUN_VALUES_H

#include <glib.h>
#include <stdbool.h>

#include "core/params.h"
#include "scenario/scenario.h"

/* A user's text for a message: at most 200 bytes of it ("..." when cut),
 * control characters and bytes that are not UTF-8 escaped (g_free). */
char *trv_run_quote(const char *text);

/* A count option (-j/--jobs, --chunk): decimal digits only, in [lo, hi]. */
bool trv_run_parse_count(const char *option, const char *what, const char *text, int lo, int hi, int *out,
                         GError **error);

/* --cells FIRST-LAST (or one cell): 0 <= first <= last <= INT_MAX / 2. */
bool trv_run_parse_cells(const char *text, int *first, int *last, GError **error);

/* --role ROLE=GLOB[,GLOB]: *role a TrvRole, *globs (g_free) the patterns. */
bool trv_run_parse_role(const char *text, int *role, char **globs, GError **error);

/* --controllers LIST: comma-separated names of trv_controller_names(), at
 * least one; *names (g_strfreev) in the order given. */
bool trv_run_parse_controllers(const char *text, char ***names, GError **error);

/* --set KEY=VALUE applied to params (trv_params_set_assignment), its
 * message made printable. */
bool trv_run_apply_set(TrvParams *params, const char *assignment, GError **error);

/* --fault KIND:GLOB:A:B[:C:D] into *f (f->pattern g_free):
 *   link-flap:GLOB:MTBF:MTTR[:START[:STOP]]   host-crash:GLOB:AT:DURATION
 *   partition:GLOB[,GLOB]:AT:DURATION        (simulated seconds)
 * times by trv_fault_seconds, a link-flap's stop after its start. */
bool trv_run_parse_fault(const char *text, TrvFaultSpec *f, GError **error);

/* --sweep KEY=V1,V2,...: the key, a parameter of the table or a fault
 * attribute (trv_scn_fault_sweep_keys), and its values, 1 to
 * TRV_SCENARIO_MAX_SWEEP_VALUES of them, none empty (g_free, g_strfreev).
 * What each value means is checked where it applies
 * (trv_run_apply_sweep_value). */
bool trv_run_parse_sweep(const char *text, char **key, char ***values, GError **error);

/* One value of a swept key at a point: a parameter set in params, or
 * KIND.ATTR set on every fault of that kind in faults (TrvFaultSpec), by
 * trv_fault_seconds (mtbf, mttr, start, stop, at, duration) or, for
 * link-flap.up_shape and down_shape, trv_fault_shape_value of each
 * link-flap's law on that side; every link-flap still stops after it
 * starts.  The run has a fault of that kind. */
bool trv_run_apply_sweep_value(TrvParams *params, GArray *faults, const char *key, const char *value, GError **error);

#endif
