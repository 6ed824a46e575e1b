/* cli-values-fuzz.c - libFuzzer harness for the parsers of `trivium run`'s
 * option values (src/run-values.c): what a user types after -j, --chunk,
 * --cells, --role, --controllers, --set, --fault and --sweep, or what a
 * job list's manifest (jobs.json) hands the merge as that command line.
 *
 * The input's first byte chooses the parser; the rest, up to its first
 * NUL (as in an argv string), is the value.  --sweep values are applied,
 * one by one, to a point with the table's defaults and one fault of each
 * kind (a link-flap with Weibull up times and exponential down times).
 * An accepted value must give what the run relies on: counts within their
 * bounds, cells FIRST <= LAST, a known role with patterns, known
 * controllers, every fault time within the one range of trv_fault_seconds
 * (a link-flap's stop after its start), every shape within its law's
 * range, at most TRV_SCENARIO_MAX_SWEEP_VALUES sweep values, none empty.
 * A refused one must be TRV_ERROR_INPUT with one line of valid UTF-8, no
 * control character in it and of bounded length, whatever the value held.
 * Any crash, sanitizer report, leak or failed assertion is a bug.  Built
 * and run by fuzz/run.sh. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "run-values.h"
#include "fuzz-registries.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void assert_refusal(GError *err) {
  g_assert(err && err->domain == TRV_ERROR && err->code == TRV_ERROR_INPUT);
  g_assert(g_utf8_validate(err->message, -1, NULL));
  for (const char *p = err->message; *p; p = g_utf8_next_char(p)) {
    gunichar u = g_utf8_get_char(p);
    g_assert(u >= 0x20 && !(u >= 0x7f && u < 0xa0));
  }
  g_assert(strlen(err->message) < 4096);
  g_error_free(err);
}

static bool time_ok(const char *attr, double v) {
  double lo = !strcmp(attr, "mtbf") || !strcmp(attr, "mttr") ? TRV_FAULT_MIN_PERIOD : 0;
  return isfinite(v) && v >= lo && v <= TRV_FAULT_MAX_SECONDS;
}

static bool shape_ok(TrvFaultLaw law, double shape) {
  if (law == TRV_FAULT_EXPONENTIAL) return true;
  double lo, hi;
  trv_fault_shape_range(law, &lo, &hi);
  return shape >= lo && shape <= hi;
}

static void assert_fault(const TrvFaultSpec *f) {
  g_assert(f->pattern && f->pattern[0]);
  for (const char *p = f->pattern; *p; p++) g_assert((unsigned char)*p >= 0x20 && *p != 0x7f);
  if (f->kind == TRV_FAULT_LINK_FLAP) {
    g_assert(time_ok("mtbf", f->mtbf) && time_ok("mttr", f->mttr) && time_ok("start", f->start));
    g_assert((isinf(f->stop) && f->stop > 0) || time_ok("stop", f->stop));
    g_assert(f->stop > f->start);
    g_assert(shape_ok(f->up, f->up_shape) && shape_ok(f->down, f->down_shape));
  } else {
    g_assert(f->kind == TRV_FAULT_HOST_CRASH || f->kind == TRV_FAULT_PARTITION);
    g_assert(time_ok("at", f->at) && time_ok("duration", f->duration));
  }
}

/* A point with one fault of each kind, as a scenario would give it. */
static GArray *point_faults(void) {
  GArray *faults = g_array_new(FALSE, TRUE, sizeof(TrvFaultSpec));
  TrvFaultSpec f[] = {
      {.kind = TRV_FAULT_LINK_FLAP,
       .pattern = "agent-*-uplink",
       .mtbf = 5,
       .mttr = 0.5,
       .start = 10,
       .stop = INFINITY,
       .up = TRV_FAULT_WEIBULL,
       .up_shape = 0.6},
      {.kind = TRV_FAULT_HOST_CRASH, .pattern = "agent-*", .at = 20, .duration = 5},
      {.kind = TRV_FAULT_PARTITION, .pattern = "agent-0,agent-1", .at = 30, .duration = 5},
  };
  g_array_append_vals(faults, f, G_N_ELEMENTS(f));
  return faults;
}

static void sweep(const char *text) {
  char *key = NULL, **values = NULL;
  GError *err = NULL;
  if (!trv_run_parse_sweep(text, &key, &values, &err)) {
    assert_refusal(err);
    return;
  }
  guint n = g_strv_length(values);
  g_assert(n >= 1 && n <= TRV_SCENARIO_MAX_SWEEP_VALUES);
  g_assert(trv_param_lookup(key) || g_strv_contains(trv_scn_fault_sweep_keys, key));
  GArray *faults = point_faults();
  TrvParams params;
  trv_params_defaults(&params);
  for (guint i = 0; i < n; i++) {
    g_assert(values[i][0]);
    if (!trv_run_apply_sweep_value(&params, faults, key, values[i], &err)) {
      assert_refusal(err);
      err = NULL;
      continue;
    }
    for (guint k = 0; k < faults->len; k++) assert_fault(&g_array_index(faults, TrvFaultSpec, k));
  }
  g_array_free(faults, TRUE);
  g_free(key);
  g_strfreev(values);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  char *text = g_strndup((const char *)data + 1, size - 1); /* an argv string ends at its first NUL */
  GError *err = NULL;
  bool ok = true;
  switch (data[0] % 8) {
    case 0: {
      TrvParams params;
      trv_params_defaults(&params);
      ok = trv_run_apply_set(&params, text, &err);
      break;
    }
    case 1: sweep(text); break;
    case 2: {
      TrvFaultSpec f;
      if ((ok = trv_run_parse_fault(text, &f, &err))) {
        assert_fault(&f);
        g_free(f.pattern);
      }
      break;
    }
    case 3: {
      int first = -1, last = -1;
      if ((ok = trv_run_parse_cells(text, &first, &last, &err)))
        g_assert(first >= 0 && first <= last && last <= INT_MAX / 2);
      break;
    }
    case 4: {
      int jobs = 0;
      if ((ok = trv_run_parse_count("--jobs", "a number of parallel cells", text, 1, 4096, &jobs, &err)))
        g_assert(jobs >= 1 && jobs <= 4096);
      break;
    }
    case 5: {
      int role = -1;
      char *globs = NULL;
      if ((ok = trv_run_parse_role(text, &role, &globs, &err))) {
        g_assert(role >= 0 && role < 3 && globs && globs[0]);
        g_free(globs);
      }
      break;
    }
    case 6: {
      char **names = NULL;
      if ((ok = trv_run_parse_controllers(text, &names, &err))) {
        g_assert(names[0]);
        for (int i = 0; names[i]; i++) g_assert(g_strv_contains(trv_controller_names(), names[i]));
        g_strfreev(names);
      }
      break;
    }
    default: {
      char *q = trv_run_quote(text);
      g_assert(g_utf8_validate(q, -1, NULL) && strlen(q) <= 4 * 200 + 3);
      g_free(q);
    }
  }
  if (!ok) assert_refusal(err);
  g_free(text);
  return 0;
}
