/* world-call.c - a world's answers, checked where they come in (see
 * world-call.h): the checks of a count, of a number, and the calls of the
 * world's functions that are made in more than one place (init, an
 * agent's instance, the observational pairs, the inputs, the
 * change-points, the probe value).  The calls made in one place only are
 * checked there, with the same two checks (episode.c, referee.c, the
 * SimGrid agent). */
#include "world-call.h"

#include <math.h>
#include <stdarg.h>

bool trv_world_refuse(GError **error, const char *world, const char *function, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  GError *answer = g_error_new_valist(TRV_ERROR, TRV_ERROR_INPUT, fmt, ap);
  va_end(ap);
  g_propagate_prefixed_error(error, answer, "world %s: %s ", world, function);
  return false;
}

bool trv_world_check_count(const char *world, const char *function, int n, int max, GError **error) {
  if (n >= 0 && n <= max) return true;
  return trv_world_refuse(error, world, function, "returned %d; expected a count in [0, %d] (its max)", n, max);
}

bool trv_world_check_number(const char *world, const char *function, double v, double min, double max, GError **error) {
  if (isfinite(v) && v >= min && v <= max) return true;
  if (isinf(min) && isinf(max))
    return trv_world_refuse(error, world, function, "returned %g; expected a finite number", v);
  if (isinf(max))
    return trv_world_refuse(error, world, function, "returned %g; expected a finite number >= %g", v, min);
  return trv_world_refuse(error, world, function, "returned %g; expected a number in [%g, %g]", v, min, max);
}

void *trv_world_new(const TrvWorldClass *wc, const TrvParams *params, uint64_t seed, GError **error) {
  GError *own = NULL;
  void *world = wc->init(params, seed, &own);
  if (world && !own) return world;
  if (world) { /* an error beside a world: the world is not trusted */
    wc->free(world);
    g_propagate_error(error, own);
  } else if (own) {
    g_propagate_error(error, own);
  } else {
    trv_world_refuse(error, wc->name, "init",
                     "returned NULL without an error; expected a world, or NULL with "
                     "an error saying why");
  }
  return NULL;
}

void *trv_world_agent_new(const TrvWorldClass *wc, void *world, int agent, GError **error) {
  void *handle = wc->agent->instance(world, agent);
  if (!handle)
    trv_world_refuse(error, wc->name, "agent.instance",
                     "returned NULL for agent %d; expected the "
                     "agent's handle on the world",
                     agent);
  return handle;
}

int trv_world_observational_pairs(const TrvWorldInfo *info, const double *context, int n_context, int *component,
                                  double *z, double *w, int max, GError **error) {
  if (!info->observational_pairs) return 0;
  const char *fn = "observational_pairs";
  int m = info->observational_pairs(context, n_context, component, z, w, max);
  if (!trv_world_check_count(info->name, fn, m, max, error)) return -1;
  int nc = info->cand->n_components;
  for (int i = 0; i < m; i++) {
    if (component[i] < 0 || component[i] >= nc) {
      trv_world_refuse(error, info->name, fn, "returned component %d in pair %d; expected a component in [0, %d)",
                       component[i], i, nc);
      return -1;
    }
    if (!isfinite(z[i]) || !isfinite(w[i])) {
      trv_world_refuse(error, info->name, fn, "returned z = %g, w = %g in pair %d; expected finite numbers", z[i], w[i],
                       i);
      return -1;
    }
  }
  return m;
}

int trv_world_inputs(const TrvWorldClass *wc, void *world, const char **paths, int max, GError **error) {
  int n = wc->inputs ? wc->inputs(world, paths, max) : 0;
  if (!trv_world_check_count(wc->name, "inputs", n, max, error)) return -1;
  for (int i = 0; i < n; i++)
    if (!paths[i]) {
      trv_world_refuse(error, wc->name, "inputs", "returned a NULL path at %d; expected %d paths", i, n);
      return -1;
    }
  paths[n] = NULL;
  return n;
}

int trv_world_change_points(const TrvWorldClass *wc, void *world, int *out, int max, GError **error) {
  const TrvRefereeClass *ref = wc->referee;
  const char *fn = "referee.change_points";
  int n = ref->change_points ? ref->change_points(world, out, max) : 0;
  if (!trv_world_check_count(wc->name, fn, n, max, error)) return -1;
  for (int i = 0; i < n; i++)
    if (out[i] < 0 || (i > 0 && out[i] < out[i - 1])) {
      trv_world_refuse(error, wc->name, fn,
                       "returned episode %d at %d; expected episodes >= 0 in non-decreasing "
                       "order",
                       out[i], i);
      return -1;
    }
  return n;
}

bool trv_world_probe_value(const TrvWorldClass *wc, void *world, int agent, double *value, GError **error) {
  *value = wc->probe_value(world, agent);
  return trv_world_check_number(wc->name, "probe_value", *value, 0, 1, error);
}
