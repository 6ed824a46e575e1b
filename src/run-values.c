/* run-values.c - the values of `trivium run`'s command line (run-values.h).
 *
 * Invariants: a parser reads only its text (no locale: decimal digits and
 * the scenario layer's plain decimal numbers), never trusts it to be short
 * or printable (a message quotes it through trv_run_quote), and accepts
 * only what the run can use as it is: counts within their bounds, fault
 * times within the one range the scenario loader applies, sweeps of at
 * most TRV_SCENARIO_MAX_SWEEP_VALUES values. */
#include <config.h>

#include <limits.h>
#include <math.h>
#include <string.h>

#include "core/controller.h"
#include "run-values.h"
#include <trivium/error.h>

#define QUOTE_MAX 200

char *trv_run_quote(const char *text) {
  char *cut = trv_scn_shorten(text, QUOTE_MAX);
  char *quoted = trv_scn_printable(cut);
  g_free(cut);
  return quoted;
}

/* Fails with "WHERE 'TEXT'SEPexpected WHAT" (TEXT quoted). */
static bool refuse(GError **error, const char *where, const char *text, const char *sep, const char *what) {
  char *q = trv_run_quote(text);
  g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s '%s'%sexpected %s", where, q, sep, what);
  g_free(q);
  return false;
}

/* Fails with "OPTION 'TEXT': expected WHAT". */
static bool expected(GError **error, const char *option, const char *text, const char *what) {
  return refuse(error, option, text, ": ", what);
}

/* Decimal digits from *p, at most max: the number, *p past them; -1 when
 * there is no digit or the number is above max. */
static long long digits(const char **p, long long max) {
  long long v = 0;
  const char *s = *p;
  if (!g_ascii_isdigit(*s)) return -1;
  for (; g_ascii_isdigit(*s); s++) {
    v = v * 10 + (*s - '0');
    if (v > max) return -1;
  }
  *p = s;
  return v;
}

bool trv_run_parse_count(const char *option, const char *what, const char *text, int lo, int hi, int *out,
                         GError **error) {
  const char *p = text;
  long long v = digits(&p, hi);
  if (v < lo || *p) {
    char *range = g_strdup_printf("%s in [%d, %d]", what, lo, hi);
    expected(error, option, text, range);
    g_free(range);
    return false;
  }
  *out = (int)v;
  return true;
}

bool trv_run_parse_cells(const char *text, int *first, int *last, GError **error) {
  const char *p = text;
  long long a = digits(&p, INT_MAX / 2), b = a;
  if (a >= 0 && *p == '-') {
    p++;
    b = digits(&p, INT_MAX / 2);
  }
  if (a < 0 || b < a || *p)
    return expected(error, "--cells", text, "FIRST-LAST (or one cell), counted from 0, FIRST <= LAST");
  *first = (int)a;
  *last = (int)b;
  return true;
}

bool trv_run_parse_role(const char *text, int *role, char **globs, GError **error) {
  const char *eq = strchr(text, '=');
  for (int k = 0; eq && eq[1] && trv_role_names[k]; k++)
    if ((size_t)(eq - text) == strlen(trv_role_names[k]) && !strncmp(text, trv_role_names[k], (size_t)(eq - text))) {
      *role = k;
      *globs = g_strdup(eq + 1);
      return true;
    }
  return expected(error, "--role", text, "controller|ctl|agent=GLOB[,GLOB]");
}

bool trv_run_parse_controllers(const char *text, char ***names, GError **error) {
  char **list = g_strsplit(text, ",", -1);
  bool ok = list[0] != NULL;
  if (!ok) expected(error, "--controllers", text, "at least one controller");
  for (int c = 0; ok && list[c]; c++)
    if (!g_strv_contains(trv_controller_names(), list[c])) {
      char *all = g_strjoinv(", ", (char **)trv_controller_names()), *q = trv_run_quote(list[c]);
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "unknown controller '%s'; known controllers: %s", q, all);
      g_free(q);
      g_free(all);
      ok = false;
    }
  if (ok)
    *names = list;
  else
    g_strfreev(list);
  return ok;
}

/* *error's message made printable: for messages that quote what a user
 * typed, built where nothing escaped it. */
static bool printable_error(GError **error) {
  if (error && *error) {
    char *p = trv_scn_printable((*error)->message);
    g_free((*error)->message);
    (*error)->message = p;
  }
  return false;
}

bool trv_run_apply_set(TrvParams *params, const char *assignment, GError **error) {
  return trv_params_set_assignment(params, assignment, error) || printable_error(error);
}

bool trv_run_parse_fault(const char *text, TrvFaultSpec *f, GError **error) {
  return trv_fault_parse_spec("--fault", text, f, error);
}

bool trv_run_parse_sweep(const char *text, char **key, char ***values, GError **error) {
  const char *eq = strchr(text, '=');
  if (!eq || eq == text || !eq[1]) return expected(error, "--sweep", text, "KEY=V1,V2,...");
  char *k = g_strndup(text, (size_t)(eq - text));
  char **v = g_strsplit(eq + 1, ",", -1);
  guint n = g_strv_length(v);
  bool known = trv_param_lookup(k) || g_strv_contains(trv_scn_fault_sweep_keys, k), empty = false;
  for (guint i = 0; i < n; i++) empty = empty || !v[i][0];
  if (!known) {
    const char *best = trv_params_suggest(k);
    if (!best) best = trv_suggest(k, trv_scn_fault_sweep_keys);
    char *q = trv_run_quote(k);
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "--sweep: unknown key '%s'; expected a key of the parameter table (`trivium params`) or a fault "
                "attribute (link-flap.mtbf, ...)%s%s%s",
                q, best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
    g_free(q);
  } else if (n > TRV_SCENARIO_MAX_SWEEP_VALUES || empty) {
    char *what =
        g_strdup_printf("KEY=V1,V2,... with 1 to %d values, none empty (%u given)", TRV_SCENARIO_MAX_SWEEP_VALUES, n);
    expected(error, "--sweep", text, what);
    g_free(what);
  }
  if (!known || n > TRV_SCENARIO_MAX_SWEEP_VALUES || empty) {
    g_free(k);
    g_strfreev(v);
    return false;
  }
  *key = k;
  *values = v;
  return true;
}

/* A sweep's value refused: "--sweep KEY: 'VALUE'; expected WHAT". */
static bool sweep_refused(GError **error, const char *key, const char *value, const char *what) {
  char *where = g_strdup_printf("--sweep %s:", key);
  refuse(error, where, value, "; ", what);
  g_free(where);
  return false;
}

bool trv_run_apply_sweep_value(TrvParams *params, GArray *faults, const char *key, const char *value, GError **error) {
  const char *dot = strchr(key, '.');
  int kind = -1;
  for (int k = 0; dot && g_strv_contains(trv_scn_fault_sweep_keys, key) && trv_scn_fault_elements[k]; k++)
    if (strlen(trv_scn_fault_elements[k]) == (size_t)(dot - key) && !strncmp(key, trv_scn_fault_elements[k], dot - key))
      kind = k;
  if (kind < 0) {
    if (trv_params_set(params, key, value, error)) return true;
    g_prefix_error(error, "--sweep: ");
    return printable_error(error);
  }
  const char *attr = dot + 1;
  bool shape = !strcmp(attr, "up_shape") || !strcmp(attr, "down_shape"), up = !strcmp(attr, "up_shape");
  double v = 0;
  if (!shape && !trv_fault_seconds(attr, value, &v)) {
    char *range = trv_fault_seconds_expected(attr);
    sweep_refused(error, key, value, range);
    g_free(range);
    return false;
  }
  int hit = 0;
  for (guint i = 0; i < faults->len; i++) {
    const TrvFaultSpec *f = &g_array_index(faults, TrvFaultSpec, i);
    if ((int)f->kind != kind) continue;
    TrvFaultLaw law = up ? f->up : f->down;
    if (shape && (!trv_fault_law_shaped(law) || !trv_fault_shape_value(law, value, &v))) {
      char *range = !trv_fault_law_shaped(law) ? NULL : trv_fault_shape_expected(law), *q = trv_run_quote(value);
      g_set_error(
          error, TRV_ERROR, TRV_ERROR_INPUT, "--sweep %s: '%s' for a link-flap whose %s times are %s; expected %s", key,
          q, up ? "up" : "down", trv_fault_law_names[law],
          range ? range : "a weibull or lognormal law on that side (an exponential or fixed one takes no shape)");
      g_free(q);
      g_free(range);
      return false;
    }
    double start = !strcmp(attr, "start") ? v : f->start, stop = !strcmp(attr, "stop") ? v : f->stop;
    if (kind == TRV_FAULT_LINK_FLAP && stop <= start) {
      char *what = g_strdup_printf("a value that keeps every link-flap's stop after its start (one has %s %g)",
                                   !strcmp(attr, "start") ? "stop" : "start", !strcmp(attr, "start") ? stop : start);
      sweep_refused(error, key, value, what);
      g_free(what);
      return false;
    }
    hit++;
  }
  if (!hit) {
    char *what = g_strdup_printf("a run with a %s fault to apply it to (the scenario's or --fault)",
                                 trv_scn_fault_elements[kind]);
    sweep_refused(error, key, value, what);
    g_free(what);
    return false;
  }
  for (guint i = 0; i < faults->len; i++) {
    TrvFaultSpec *f = &g_array_index(faults, TrvFaultSpec, i);
    if ((int)f->kind != kind) continue;
    double *field = !strcmp(attr, "mtbf")       ? &f->mtbf
                    : !strcmp(attr, "mttr")     ? &f->mttr
                    : !strcmp(attr, "at")       ? &f->at
                    : !strcmp(attr, "duration") ? &f->duration
                    : !strcmp(attr, "start")    ? &f->start
                    : !strcmp(attr, "stop")     ? &f->stop
                    : up                        ? &f->up_shape
                                                : &f->down_shape;
    *field = v;
  }
  return true;
}
