/* faults.c - the fault processes of a scenario (<link-flap>, <host-crash>,
 * <partition>, <fault-trace> inside <faults>) and its sweeps (<sweep param
 * values>): their numbers, their counts, and the checks of the sweep grid
 * that need the whole file.  See TrvFaultSpec and TrvSweepSpec in
 * scenario.h.  A <fault-trace> names a file of recorded outages, read here
 * (fault-trace.c) from the scenario's own directory (paths.c), its events
 * counted over all the scenario's traces; its names are checked against
 * the platform with the other patterns (scenario.c).
 *
 * A fault time is a plain decimal number (no blanks, hexadecimal, inf or
 * nan, which strtod would take) of seconds, or such a number followed by
 * a unit (ms, s, min or m, h, d), within [0, TRV_FAULT_MAX_SECONDS], and a
 * period (mtbf, mttr) at least TRV_FAULT_MIN_PERIOD, so that every fault
 * schedule the runner builds is finite.  Counts are bounded as they grow:
 * TRV_SCENARIO_MAX_FAULTS faults, TRV_SCENARIO_MAX_SWEEP_VALUES values per
 * sweep, TRV_SCENARIO_MAX_POINTS points in the grid, which keeps the grid's
 * mixed-radix index (sweep.c) from overflowing.  Every point of the grid
 * is valid: a value checked alone must also be valid with every value of
 * the other sweeps (link-flap start and stop).
 *
 * A link-flap's up and down times each follow a law (up="...",
 * down="...": exponential by default, weibull or lognormal) whose mean is
 * mtbf or mttr; weibull and lognormal need their shape (up_shape,
 * down_shape: the Weibull k or the lognormal sigma of the log, within the
 * TRV_FAULT_*_SHAPE bounds of scenario.h) and the exponential takes none,
 * so that a shape is never silently ignored.  A sweep over a shape applies
 * to every link-flap, so each must have that side's law non-exponential
 * and every swept value within that law's range. */
#include <math.h>
#include <string.h>

#include "scenario-internal.h"

const char *const trv_scn_fault_elements[] = {"link-flap", "host-crash", "partition", "fault-trace", NULL};
const char *const trv_fault_law_names[] = {"exponential", "weibull", "lognormal", "fixed", NULL};
/* Numeric fault attributes a <sweep> may name as KIND.ATTR. */
const char *const trv_scn_fault_sweep_keys[] = {"link-flap.mtbf",
                                                "link-flap.mttr",
                                                "link-flap.start",
                                                "link-flap.stop",
                                                "link-flap.up_shape",
                                                "link-flap.down_shape",
                                                "host-crash.at",
                                                "host-crash.duration",
                                                "partition.at",
                                                "partition.duration",
                                                NULL};

/* A plain decimal number: [+-]digits[.digits][(e|E)[+-]digits], at least
 * one digit before the exponent.  No blanks, hexadecimal, "inf" or "nan",
 * which strtod would take. */
static bool is_decimal(const char *t) {
  const char *p = t + (*t == '+' || *t == '-');
  bool digits = false;
  while (g_ascii_isdigit(*p)) p++, digits = true;
  if (*p == '.')
    for (p++; g_ascii_isdigit(*p); p++) digits = true;
  if (!digits) return false;
  if (*p == 'e' || *p == 'E') {
    p += 1 + (p[1] == '+' || p[1] == '-');
    if (!g_ascii_isdigit(*p)) return false;
    while (g_ascii_isdigit(*p)) p++;
  }
  return *p == '\0';
}

/* The range of fault attribute `attr`: mtbf and mttr at least
 * TRV_FAULT_MIN_PERIOD (a shorter period makes a run of endless events),
 * every time at most TRV_FAULT_MAX_SECONDS (so that at + duration and the
 * flap schedule stay finite).  The one range of a scenario's faults and
 * sweeps, --fault and --sweep (scenario.h). */
static double fault_min(const char *attr) {
  return !strcmp(attr, "mtbf") || !strcmp(attr, "mttr") ? TRV_FAULT_MIN_PERIOD : 0;
}

static bool is_shape(const char *attr);

/* The units a fault time may carry after its number: a number alone is
 * in seconds. */
static const struct {
  const char *name;
  double seconds;
} time_units[] = {{"ms", 1e-3}, {"s", 1}, {"min", 60}, {"m", 60}, {"h", 3600}, {"d", 86400}};

bool trv_fault_seconds(const char *attr, const char *text, double *out) {
  size_t len = strlen(text), num = len;
  double scale = 1;
  for (size_t u = 0; u < G_N_ELEMENTS(time_units); u++) {
    size_t k = strlen(time_units[u].name);
    if (len > k && !strcmp(text + len - k, time_units[u].name) && g_ascii_isdigit(text[len - k - 1])) {
      num = len - k, scale = time_units[u].seconds;
      break;
    }
  }
  if (num > 64) return false;
  char number[65];
  memcpy(number, text, num);
  number[num] = '\0';
  if (!is_decimal(number)) return false;
  double v = g_ascii_strtod(number, NULL) * scale;
  if (!isfinite(v) || v < fault_min(attr) || v > TRV_FAULT_MAX_SECONDS) return false;
  *out = v;
  return true;
}

double trv_fault_value(const char *attr, const char *text) {
  double v = g_ascii_strtod(text, NULL);
  if (!is_shape(attr)) trv_fault_seconds(attr, text, &v);
  return v;
}

char *trv_fault_seconds_expected(const char *attr) {
  char lo[G_ASCII_DTOSTR_BUF_SIZE], hi[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd(lo, sizeof lo, "%g", fault_min(attr));
  g_ascii_formatd(hi, sizeof hi, "%g", TRV_FAULT_MAX_SECONDS);
  return g_strdup_printf("a number of simulated seconds in [%s, %s], or of a unit (ms, s, min or m, h, d: 10min, 6h)",
                         lo, hi);
}

/* Simulated seconds for attribute `attr` of fault element `el`. */
static bool seconds(Loader *L, const char *el, const char *attr, const char *value, double *out) {
  if (trv_fault_seconds(attr, value, out)) return true;
  char *range = trv_fault_seconds_expected(attr);
  trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, attr), "%s=\"%s\" on <%s>; expected %s", attr, value, el, range);
  g_free(range);
  return false;
}

static bool is_shape(const char *attr) { return !strcmp(attr, "up_shape") || !strcmp(attr, "down_shape"); }

void trv_fault_shape_range(TrvFaultLaw law, double *lo, double *hi) {
  *lo = law == TRV_FAULT_WEIBULL ? TRV_FAULT_WEIBULL_MIN_SHAPE : TRV_FAULT_LOGNORMAL_MIN_SHAPE;
  *hi = law == TRV_FAULT_WEIBULL ? TRV_FAULT_WEIBULL_MAX_SHAPE : TRV_FAULT_LOGNORMAL_MAX_SHAPE;
}

bool trv_fault_shape_value(TrvFaultLaw law, const char *text, double *out) {
  double lo, hi;
  trv_fault_shape_range(law, &lo, &hi);
  if (!is_decimal(text)) return false;
  double v = g_ascii_strtod(text, NULL);
  if (!isfinite(v) || v < lo || v > hi) return false;
  *out = v;
  return true;
}

char *trv_fault_shape_expected(TrvFaultLaw law) {
  double lo, hi;
  trv_fault_shape_range(law, &lo, &hi);
  char l[G_ASCII_DTOSTR_BUF_SIZE], h[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd(l, sizeof l, "%g", lo);
  g_ascii_formatd(h, sizeof h, "%g", hi);
  return g_strdup_printf("%s, a number in [%s, %s]",
                         law == TRV_FAULT_WEIBULL ? "the Weibull shape k" : "the lognormal sigma of the log", l, h);
}

/* The law of one side ("up" or "down") of a <link-flap> and its shape
 * (`side`_shape): false after reporting the first mistake. */
static bool flap_law(Loader *L, const XML_Char **atts, const char *side, TrvFaultLaw *law, double *shape) {
  char shape_attr[16];
  g_snprintf(shape_attr, sizeof shape_attr, "%s_shape", side);
  const char *name = trv_scn_attr_value(atts, side), *sv = trv_scn_attr_value(atts, shape_attr);
  *law = TRV_FAULT_EXPONENTIAL;
  if (name) {
    int k = 0;
    while (trv_fault_law_names[k] && strcmp(trv_fault_law_names[k], name)) k++;
    if (!trv_fault_law_names[k]) {
      const char *best = trv_suggest(name, trv_fault_law_names);
      trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, side),
                   "%s=\"%s\" on <link-flap>; expected exponential, weibull, lognormal or fixed%s%s%s", side, name,
                   best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
      return false;
    }
    *law = (TrvFaultLaw)k;
  }
  if (!trv_fault_law_shaped(*law)) {
    if (sv) {
      trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, shape_attr),
                   "%s=\"%s\" on <link-flap> whose %s times are %s; expected %s=\"weibull\" or "
                   "%s=\"lognormal\" with it, or no %s",
                   shape_attr, sv, side, trv_fault_law_names[*law], side, side, shape_attr);
      return false;
    }
    return true;
  }
  char *expected = trv_fault_shape_expected(*law);
  bool ok = sv && trv_fault_shape_value(*law, sv, shape);
  if (!sv)
    trv_xml_fail(&L->xml, L->xml.tag, "<link-flap %s=\"%s\"> without %s; expected %s=\"...\", %s", side, name,
                 shape_attr, shape_attr, expected);
  else if (!ok)
    trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, shape_attr), "%s=\"%s\" on <link-flap %s=\"%s\">; expected %s",
                 shape_attr, sv, side, name, expected);
  g_free(expected);
  return ok;
}

void trv_fault_spec_clear(TrvFaultSpec *f) {
  g_clear_pointer(&f->pattern, g_free);
  g_clear_pointer(&f->trace, trv_fault_trace_free);
}

/* <fault-trace file="F">: F relative to the scenario's directory and
 * confined to it, read and checked whole now (its names later, against the
 * platform); the pattern keeps F as written, for messages. */
static void start_trace(Loader *L, const XML_Char **atts) {
  const char *v = trv_scn_required(L, "fault-trace", atts, "file",
                                   "<fault-trace file=\"TRACE\"> (relative to the scenario's directory)");
  if (!v) return;
  Loc at = trv_xml_attr_loc(&L->xml, "file");
  char *found, *path = trv_scn_input_path(v, L->base_dir, &found);
  if (!path) {
    trv_xml_fail(&L->xml, at,
                 "file=\"%s\" on <fault-trace> %s; expected a trace file inside the scenario's directory, relative and "
                 "without '..', e.g. file=\"faults/outages.trace\"",
                 v, found);
    g_free(found);
    return;
  }
  GError *e = NULL;
  TrvFaultTrace *trace = trv_fault_trace_load(path, &e);
  g_free(path);
  if (!trace) {
    trv_xml_fail(&L->xml, at, "fault trace '%s' refused: %s", v, e->message);
    g_error_free(e);
    return;
  }
  if (trace->n_events > TRV_FAULT_TRACE_MAX_EVENTS - L->trace_events) {
    trv_xml_fail(&L->xml, at,
                 "fault trace '%s' brings the scenario to %zu events; expected at most %d in all its traces", v,
                 L->trace_events + trace->n_events, TRV_FAULT_TRACE_MAX_EVENTS);
    trv_fault_trace_free(trace);
    return;
  }
  L->trace_events += trace->n_events;
  TrvFaultSpec f = {.kind = TRV_FAULT_TRACE, .pattern = g_strdup(v), .trace = trace, .line = L->xml.tag.line};
  g_array_append_val(L->s->faults, f);
  g_array_append_val(L->fault_locs, at);
}

void trv_scn_start_fault(Loader *L, const char *el, const XML_Char **atts) {
  if (L->s->faults->len >= TRV_SCENARIO_MAX_FAULTS) {
    trv_xml_fail(&L->xml, L->xml.tag, "fault number %u; expected at most %d faults", L->s->faults->len + 1,
                 TRV_SCENARIO_MAX_FAULTS);
    return;
  }
  if (!strcmp(el, "fault-trace")) {
    start_trace(L, atts);
    return;
  }
  TrvFaultSpec f = {0};
  const char *pattern_attr;
  if (!strcmp(el, "link-flap")) {
    f.kind = TRV_FAULT_LINK_FLAP, pattern_attr = "links";
    f.stop = INFINITY;
  } else if (!strcmp(el, "host-crash")) {
    f.kind = TRV_FAULT_HOST_CRASH, pattern_attr = "host";
  } else {
    f.kind = TRV_FAULT_PARTITION, pattern_attr = "hosts";
  }
  Loc at = trv_xml_attr_loc(&L->xml, pattern_attr);
  char *globs =
      trv_scn_patterns(L, el, atts, pattern_attr, f.kind == TRV_FAULT_LINK_FLAP ? "agent-*-uplink" : "agent-*");
  if (!globs) return;
  const char *names[4];
  double *fields[4];
  int n;
  if (f.kind == TRV_FAULT_LINK_FLAP) {
    const char *nm[] = {"mtbf", "mttr", "start", "stop"};
    double *fd[] = {&f.mtbf, &f.mttr, &f.start, &f.stop};
    for (n = 0; n < 4; n++) names[n] = nm[n], fields[n] = fd[n];
  } else {
    const char *nm[] = {"at", "duration"};
    double *fd[] = {&f.at, &f.duration};
    for (n = 0; n < 2; n++) names[n] = nm[n], fields[n] = fd[n];
  }
  bool ok = true;
  for (int i = 0; ok && i < n; i++) {
    const char *v = trv_scn_attr_value(atts, names[i]);
    bool optional = f.kind == TRV_FAULT_LINK_FLAP && i >= 2;
    if (!v && !optional) {
      char *usage = f.kind == TRV_FAULT_LINK_FLAP
                        ? g_strdup("<link-flap links=\"GLOB\" mtbf=\"S\" mttr=\"S\" [start=\"S\"] [stop=\"S\"]>")
                        : g_strdup_printf("<%s %s=\"GLOB\" at=\"S\" duration=\"S\">", el, pattern_attr);
      trv_xml_fail(&L->xml, L->xml.tag, "<%s> without %s; expected %s", el, names[i], usage);
      g_free(usage);
      ok = false;
    } else if (v) {
      ok = seconds(L, el, names[i], v, fields[i]);
    }
  }
  if (ok && f.kind == TRV_FAULT_LINK_FLAP && f.stop <= f.start) {
    trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, "stop"),
                 "stop=\"%s\" on <link-flap> is not after start=\"%s\"; expected stop > start",
                 trv_scn_attr_value(atts, "stop"),
                 trv_scn_attr_value(atts, "start") ? trv_scn_attr_value(atts, "start") : "0");
    ok = false;
  }
  if (ok && f.kind == TRV_FAULT_LINK_FLAP)
    ok = flap_law(L, atts, "up", &f.up, &f.up_shape) && flap_law(L, atts, "down", &f.down, &f.down_shape);
  if (!ok) {
    g_free(globs);
    return;
  }
  f.pattern = globs;
  f.line = L->xml.tag.line;
  g_array_append_val(L->s->faults, f);
  g_array_append_val(L->fault_locs, at);
}

/* A sweep of n values: at most TRV_SCENARIO_MAX_SWEEP_VALUES, and the grid
 * with it at most TRV_SCENARIO_MAX_POINTS points (the grid so far is within
 * the bound, so neither product below can overflow). */
static void check_grid_size(Loader *L, const char *key, guint n) {
  if (n > TRV_SCENARIO_MAX_SWEEP_VALUES) {
    trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, "values"),
                 "sweep over %s has %u values; expected at most %d values per sweep", key, n,
                 TRV_SCENARIO_MAX_SWEEP_VALUES);
    return;
  }
  size_t points = trv_scenario_n_points(L->s);
  if (points * n > TRV_SCENARIO_MAX_POINTS)
    trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, "values"),
                 "sweep over %s makes a grid of %zu points (%zu x %u); expected at "
                 "most %d points",
                 key, points * n, points, n, TRV_SCENARIO_MAX_POINTS);
}

void trv_scn_start_sweep(Loader *L, const XML_Char **atts) {
  const char *key = trv_scn_required(L, "sweep", atts, "param", "<sweep param=\"KEY\" values=\"V1,V2,...\">");
  const char *v =
      key ? trv_scn_required(L, "sweep", atts, "values", "<sweep param=\"KEY\" values=\"V1,V2,...\">") : NULL;
  if (!v) return;
  Loc at = trv_xml_attr_loc(&L->xml, "param");
  bool is_fault = g_strv_contains(trv_scn_fault_sweep_keys, key);
  if (!is_fault && !trv_param_lookup(key)) {
    const char *best = trv_params_suggest(key);
    if (!best) best = trv_suggest(key, trv_scn_fault_sweep_keys);
    trv_xml_fail(&L->xml, at,
                 "unknown sweep parameter '%s'; expected a key of the parameter table (`trivium params`) or a fault "
                 "attribute (link-flap.mtbf, ...)%s%s%s",
                 key, best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
    return;
  }
  for (guint i = 0; i < L->s->sweeps->len; i++)
    if (!strcmp(g_array_index(L->s->sweeps, TrvSweepSpec, i).param, key)) {
      trv_xml_fail(&L->xml, at,
                   "second <sweep param=\"%s\">; expected one sweep per parameter (the first is at line %d)", key,
                   g_array_index(L->sweep_locs, Loc, i).line);
      return;
    }
  char **values = trv_scn_split_list(L, "sweep", "values", v, "values");
  if (values) check_grid_size(L, key, g_strv_length(values));
  for (int i = 0; values && values[i] && !L->xml.error; i++) {
    if (is_fault) {
      double x;
      const char *attr = strchr(key, '.') + 1;
      if (is_shape(attr)) {
        /* within one of the laws' ranges here; against each link-flap's law at the end */
        if (!trv_fault_shape_value(TRV_FAULT_WEIBULL, values[i], &x) &&
            !trv_fault_shape_value(TRV_FAULT_LOGNORMAL, values[i], &x)) {
          char *w = trv_fault_shape_expected(TRV_FAULT_WEIBULL), *l = trv_fault_shape_expected(TRV_FAULT_LOGNORMAL);
          trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, "values"), "sweep value '%s' of %s; expected %s, or %s",
                       values[i], key, w, l);
          g_free(w);
          g_free(l);
        }
      } else if (!trv_fault_seconds(attr, values[i], &x)) {
        char *range = trv_fault_seconds_expected(attr);
        trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, "values"), "sweep value '%s' of %s; expected %s", values[i],
                     key, range);
        g_free(range);
      }
    } else {
      TrvParams scratch = L->s->params;
      GError *e = NULL;
      if (!trv_params_set(&scratch, key, values[i], &e)) {
        trv_xml_fail(&L->xml, trv_xml_attr_loc(&L->xml, "values"), "%s", e->message);
        g_error_free(e);
      }
    }
  }
  if (L->xml.error) {
    g_strfreev(values);
    return;
  }
  TrvSweepSpec sw = {g_strdup(key), values};
  g_array_append_val(L->s->sweeps, sw);
  g_array_append_val(L->sweep_locs, at);
}

/* ---- checks of the whole file ---- */

/* The sweep over link-flap.start or link-flap.stop (index, or -1) and its
 * extreme value, as written: the largest start, the smallest stop. */
static int window_sweep(const TrvScenario *s, const char *key, bool largest, double *extreme, const char **text) {
  for (guint i = 0; i < s->sweeps->len; i++) {
    const TrvSweepSpec *sw = &g_array_index(s->sweeps, TrvSweepSpec, i);
    if (strcmp(sw->param, key)) continue;
    const char *attr = strchr(key, '.') + 1;
    *extreme = trv_fault_value(attr, sw->values[0]);
    *text = sw->values[0];
    for (int v = 1; sw->values[v]; v++) {
      double x = trv_fault_value(attr, sw->values[v]);
      if (largest ? x > *extreme : x < *extreme) *extreme = x, *text = sw->values[v];
    }
    return (int)i;
  }
  return -1;
}

/* Every point of the grid keeps stop > start on every <link-flap>: start
 * and stop each come from the fault or from a sweep, and the grid holds
 * every combination, so the largest start must be below the smallest stop. */
static void check_flap_window_sweeps(Loader *L) {
  const TrvScenario *s = L->s;
  double max_start = 0, min_stop = 0;
  const char *start_text = NULL, *stop_text = NULL;
  int si = window_sweep(s, "link-flap.start", true, &max_start, &start_text);
  int ti = window_sweep(s, "link-flap.stop", false, &min_stop, &stop_text);
  if (si < 0 && ti < 0) return;
  Loc at = g_array_index(L->sweep_locs, Loc, (guint)MAX(si, ti)); /* the later sweep completes the conflict */
  for (guint k = 0; k < s->faults->len && !L->xml.error; k++) {
    const TrvFaultSpec *f = &g_array_index(s->faults, TrvFaultSpec, k);
    if (f->kind != TRV_FAULT_LINK_FLAP) continue;
    double start = si >= 0 ? max_start : f->start, stop = ti >= 0 ? min_stop : f->stop;
    if (start < stop) continue;
    if (si >= 0 && ti >= 0)
      trv_xml_fail(&L->xml, at,
                   "sweeps give the <link-flap> at line %d a point with start=%s and stop=%s; expected every "
                   "stop value above every start value",
                   f->line, start_text, stop_text);
    else
      trv_xml_fail(&L->xml, at, "sweep value %s=%s against the <link-flap> at line %d; expected stop > start",
                   si >= 0 ? "link-flap.start" : "link-flap.stop", si >= 0 ? start_text : stop_text, f->line);
  }
}

/* Every value of a sweep over link-flap.up_shape or down_shape is a shape
 * of every link-flap's law on that side: none exponential, each value in
 * the law's range. */
static void check_shape_sweeps(Loader *L) {
  const TrvScenario *s = L->s;
  for (guint i = 0; i < s->sweeps->len && !L->xml.error; i++) {
    const TrvSweepSpec *sw = &g_array_index(s->sweeps, TrvSweepSpec, i);
    if (strcmp(sw->param, "link-flap.up_shape") && strcmp(sw->param, "link-flap.down_shape")) continue;
    bool up = !strcmp(sw->param, "link-flap.up_shape");
    const char *side = up ? "up" : "down";
    Loc at = g_array_index(L->sweep_locs, Loc, i);
    for (guint k = 0; k < s->faults->len && !L->xml.error; k++) {
      const TrvFaultSpec *f = &g_array_index(s->faults, TrvFaultSpec, k);
      if (f->kind != TRV_FAULT_LINK_FLAP) continue;
      TrvFaultLaw law = up ? f->up : f->down;
      if (!trv_fault_law_shaped(law)) {
        trv_xml_fail(&L->xml, at,
                     "sweep over %s but the <link-flap> at line %d has %s %s times; expected %s=\"weibull\" "
                     "or %s=\"lognormal\" on every <link-flap>",
                     sw->param, f->line, trv_fault_law_names[law], side, side, side);
        break;
      }
      for (int v = 0; sw->values[v]; v++) {
        double x;
        if (trv_fault_shape_value(law, sw->values[v], &x)) continue;
        char *expected = trv_fault_shape_expected(law);
        trv_xml_fail(&L->xml, at, "sweep value %s=%s against the <link-flap %s=\"%s\"> at line %d; expected %s",
                     sw->param, sw->values[v], side, trv_fault_law_names[law], f->line, expected);
        g_free(expected);
        break;
      }
    }
  }
}

void trv_scn_finish_sweeps(Loader *L) {
  TrvScenario *s = L->s;
  for (guint i = 0; i < s->sweeps->len && !L->xml.error; i++) {
    const char *key = g_array_index(s->sweeps, TrvSweepSpec, i).param;
    if (!g_strv_contains(trv_scn_fault_sweep_keys, key)) continue;
    size_t kind_len = (size_t)(strchr(key, '.') - key);
    bool found = false;
    for (guint k = 0; k < s->faults->len && !found; k++) {
      const char *kind = trv_scn_fault_elements[g_array_index(s->faults, TrvFaultSpec, k).kind];
      found = strlen(kind) == kind_len && !strncmp(kind, key, kind_len);
    }
    if (!found)
      trv_xml_fail(&L->xml, g_array_index(L->sweep_locs, Loc, i),
                   "sweep over %s but the scenario has no <%.*s>; expected a <%.*s> "
                   "inside <faults>",
                   key, (int)kind_len, key, (int)kind_len, key);
  }
  if (!L->xml.error) check_flap_window_sweeps(L);
  if (!L->xml.error) check_shape_sweeps(L);
}

/* TEXT shortened and made printable, for a message. */
static char *quoted(const char *text) {
  char *cut = trv_scn_shorten(text, 200);
  char *q = trv_scn_printable(cut);
  g_free(cut);
  return q;
}

bool trv_fault_parse_spec(const char *option, const char *text, TrvFaultSpec *f, GError **error) {
  static const char *const flap[] = {"mtbf", "mttr", "start", "stop"}, *const once[] = {"at", "duration"};
  char **part = g_strsplit(text, ":", -1);
  int n = (int)g_strv_length(part), kind = -1;
  for (int k = 0; n >= 4 && k <= TRV_FAULT_PARTITION; k++) /* a fault trace comes from a scenario only */
    if (!strcmp(part[0], trv_scn_fault_elements[k])) kind = k;
  bool ok = kind == TRV_FAULT_LINK_FLAP ? n <= 6 : kind >= 0 && n == 4;
  ok = ok && part[1][0] && strlen(part[1]) <= TRV_SCENARIO_MAX_VALUE;
  for (const char *p = ok ? part[1] : ""; *p; p++) ok = ok && (unsigned char)*p >= 0x20 && *p != 0x7f;
  if (!ok) {
    char *q = quoted(text);
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "%s '%s': expected link-flap:GLOB:MTBF:MTTR[:START[:STOP]], host-crash:GLOB:AT:DURATION or "
                "partition:GLOB[,GLOB]:AT:DURATION (seconds of simulated time)",
                option, q);
    g_free(q);
  }
  TrvFaultSpec g = {.kind = (TrvFaultKind)kind, .stop = kind == TRV_FAULT_LINK_FLAP ? INFINITY : 0};
  double *flap_field[] = {&g.mtbf, &g.mttr, &g.start, &g.stop}, *once_field[] = {&g.at, &g.duration};
  for (int i = 2; ok && i < n; i++) {
    const char *attr = kind == TRV_FAULT_LINK_FLAP ? flap[i - 2] : once[i - 2];
    if (trv_fault_seconds(attr, part[i], kind == TRV_FAULT_LINK_FLAP ? flap_field[i - 2] : once_field[i - 2])) continue;
    char *q = quoted(text), *v = quoted(part[i]), *range = trv_fault_seconds_expected(attr);
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s '%s': %s '%s'; expected %s", option, q, attr, v, range);
    g_free(q), g_free(v), g_free(range);
    ok = false;
  }
  if (ok && kind == TRV_FAULT_LINK_FLAP && g.stop <= g.start) {
    char *q = quoted(text);
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s '%s': stop is not after start; expected STOP > START", option,
                q);
    g_free(q);
    ok = false;
  }
  if (ok) {
    g.pattern = g_strdup(part[1]);
    *f = g;
  }
  g_strfreev(part);
  return ok;
}
