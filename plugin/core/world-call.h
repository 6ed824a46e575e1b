/* world-call.h - a world's answers, checked where they come in.
 *
 * A world is the user's code (trivium/world.h): what its functions return
 * is input, like a scenario file, and a run checks it before using it.
 * The functions here call one function of a world, or check one answer a
 * caller got from it, and fail with *error (code TRV_ERROR_INPUT) when the
 * answer is out of bounds: a count outside [0, max], a number that is not
 * finite or outside its range, a component outside G_inf, a NULL handle.
 * The message reads "world NAME: FUNCTION returned VALUE; expected WHAT",
 * FUNCTION spelt as the field of trivium/world.h (observational_pairs,
 * agent.observe, referee.change_points, ...).  The caller stops its cell
 * with that error: nothing a world returns is asserted on. */
#ifndef TRV_WORLD_CALL_H
#define TRV_WORLD_CALL_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <trivium/world.h>

#include "world.h"

/* Fails with "world NAME: FUNCTION " and the formatted rest; returns false. */
bool trv_world_refuse(GError **error, const char *world, const char *function, const char *fmt, ...)
    G_GNUC_PRINTF(4, 5);
/* true when 0 <= n <= max, else false with *error. */
bool trv_world_check_count(const char *world, const char *function, int n, int max, GError **error);
/* true when v is finite and within [min, max] (either may be infinite:
 * unbounded on that side), else false with *error. */
bool trv_world_check_number(const char *world, const char *function, double v, double min, double max, GError **error);

/* init: the world for `seed`, or NULL with *error (the world's own, or one
 * saying init failed without a message). */
void *trv_world_new(const TrvWorldClass *wc, const TrvParams *params, uint64_t seed, GError **error);
/* agent.instance: agent a's handle on the world, or NULL with *error. */
void *trv_world_agent_new(const TrvWorldClass *wc, void *world, int agent, GError **error);
/* observational_pairs of one observation into arrays of room max: how
 * many pairs, or -1 with *error (a count outside [0, max], a component
 * outside G_inf, z or w not finite).  0 when the world declares none. */
int trv_world_observational_pairs(const TrvWorldInfo *info, const double *context, int n_context, int *component,
                                  double *z, double *w, int max, GError **error);
/* inputs into paths (room max + 1): how many, NULL-terminated after them;
 * -1 with *error for a bad count or a NULL path.  0 without inputs. */
int trv_world_inputs(const TrvWorldClass *wc, void *world, const char **paths, int max, GError **error);
/* referee.change_points: how many, or -1 with *error (a bad count, a
 * negative episode, a decrease).  0 without change_points. */
int trv_world_change_points(const TrvWorldClass *wc, void *world, int *out, int max, GError **error);
/* probe_value of agent a into *value, in [0, 1]; false with *error. */
bool trv_world_probe_value(const TrvWorldClass *wc, void *world, int agent, double *value, GError **error);

#endif
