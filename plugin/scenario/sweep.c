/* sweep.c - the points of a scenario's sweep grid.  See scenario.h.
 *
 * Sweeps combine as a grid in document order, the last one varying fastest,
 * so point k is a mixed-radix number whose digits index each sweep's
 * values.  Every value was checked when the scenario was loaded, so
 * applying one cannot fail, and the loader bounded the grid at
 * TRV_SCENARIO_MAX_POINTS, so the product below cannot overflow (asserted:
 * a TrvScenario built by hand must keep the bound too). */
#include "scenario.h"

#include <stdint.h>
#include <string.h>

size_t trv_scenario_n_points(const TrvScenario *s) {
  size_t n = 1;
  for (guint i = 0; i < s->sweeps->len; i++) {
    size_t values = g_strv_length(g_array_index(s->sweeps, TrvSweepSpec, i).values);
    g_assert(values > 0 && n <= SIZE_MAX / values);
    n *= values;
  }
  return n;
}

/* The value index of each sweep at point k (last sweep fastest). */
static guint *point_indices(const TrvScenario *s, size_t k) {
  g_assert(k < trv_scenario_n_points(s));
  guint *idx = g_new0(guint, s->sweeps->len + 1);
  for (guint i = s->sweeps->len; i-- > 0;) {
    size_t n = g_strv_length(g_array_index(s->sweeps, TrvSweepSpec, i).values);
    idx[i] = (guint)(k % n);
    k /= n;
  }
  return idx;
}

GArray *trv_scenario_point(const TrvScenario *s, size_t k, TrvParams *params) {
  guint *idx = point_indices(s, k);
  *params = s->params;
  GArray *faults = g_array_sized_new(FALSE, FALSE, sizeof(TrvFaultSpec), s->faults->len);
  g_array_append_vals(faults, s->faults->data, s->faults->len);
  for (guint i = 0; i < s->sweeps->len; i++) {
    const TrvSweepSpec *sw = &g_array_index(s->sweeps, TrvSweepSpec, i);
    const char *value = sw->values[idx[i]];
    if (trv_param_lookup(sw->param)) {
      /* checked at load time */
      bool ok = trv_params_set(params, sw->param, value, NULL);
      g_assert(ok);
      continue;
    }
    const char *dot = strchr(sw->param, '.');
    g_assert(dot);
    double v = trv_fault_value(dot + 1, value); /* checked at load time */
    for (guint f = 0; f < faults->len; f++) {
      TrvFaultSpec *fs = &g_array_index(faults, TrvFaultSpec, f);
      const char *kind = trv_scn_fault_elements[fs->kind];
      if (strlen(kind) != (size_t)(dot - sw->param) || strncmp(kind, sw->param, (size_t)(dot - sw->param))) continue;
      const char *field = dot + 1;
      if (!strcmp(field, "mtbf"))
        fs->mtbf = v;
      else if (!strcmp(field, "mttr"))
        fs->mttr = v;
      else if (!strcmp(field, "start"))
        fs->start = v;
      else if (!strcmp(field, "stop"))
        fs->stop = v;
      else if (!strcmp(field, "up_shape"))
        fs->up_shape = v;
      else if (!strcmp(field, "down_shape"))
        fs->down_shape = v;
      else if (!strcmp(field, "at"))
        fs->at = v;
      else if (!strcmp(field, "duration"))
        fs->duration = v;
      else
        g_assert_not_reached();
    }
  }
  g_free(idx);
  return faults;
}

char **trv_scenario_point_values(const TrvScenario *s, size_t k) {
  guint *idx = point_indices(s, k);
  char **v = g_new0(char *, s->sweeps->len + 1);
  for (guint i = 0; i < s->sweeps->len; i++) v[i] = g_strdup(g_array_index(s->sweeps, TrvSweepSpec, i).values[idx[i]]);
  g_free(idx);
  return v;
}

char *trv_scenario_point_label(const TrvScenario *s, size_t k) {
  char **v = trv_scenario_point_values(s, k);
  GString *label = g_string_new(NULL);
  for (guint i = 0; i < s->sweeps->len; i++)
    g_string_append_printf(label, "%s%s=%s", i ? " " : "", g_array_index(s->sweeps, TrvSweepSpec, i).param, v[i]);
  g_strfreev(v);
  return g_string_free(label, FALSE);
}
