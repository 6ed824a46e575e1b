/* jssp-fuzz.c - libFuzzer harness for the job-shop instance reader and
 * what consumes its output.
 *
 * Feeds arbitrary bytes to trv_jssp_instance_parse (the one reader of
 * instance files and of the jobs.txt of a platform directory).  A refusal
 * must be one TRV_ERROR_INPUT line naming the file.  An accepted instance
 * must keep the reader's invariants (counts within the limits, every job
 * visiting every machine exactly once, durations within the limit), must
 * survive a round trip through the job description the platform writer
 * produces (parsed back to the same instance) and give well-formed
 * platform XML, and every rule's list schedule must pass the feasibility
 * check; small instances also build the confounded variant's plans and
 * replay each on its planning durations.  Any crash, sanitizer report,
 * leak or failed assertion is a bug.  Built and run by fuzz/run.sh. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "jssp/jssp-confounded.h"
#include "jssp/jssp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_invariants(const TrvJsspInstance *inst) {
  const int J = inst->n_jobs, M = inst->n_machines;
  g_assert(J >= 1 && J <= TRV_JSSP_MAX_JOBS && M >= 1 && M <= TRV_JSSP_MAX_MACHINES);
  g_assert((gint64)J * M <= TRV_JSSP_MAX_OPERATIONS && inst->n_ops == M);
  guint8 *seen = g_new0(guint8, M);
  for (int j = 0; j < J; j++) {
    memset(seen, 0, (size_t)M);
    for (int k = 0; k < M; k++) {
      int m = inst->machine[j * M + k], d = inst->duration[j * M + k];
      g_assert(m >= 0 && m < M && !seen[m]);
      g_assert(d >= 0 && d <= TRV_JSSP_MAX_DURATION);
      seen[m] = 1;
    }
  }
  g_free(seen);
}

/* The job description parses back to the same instance; the platform is
 * well-formed XML. */
static void check_round_trip(const TrvJsspInstance *inst) {
  const int N = inst->n_jobs * inst->n_ops;
  GString *jobs = trv_jssp_jobs_text(inst), *xml = trv_jssp_platform_xml(inst);
  GError *err = NULL;
  TrvJsspInstance *back = trv_jssp_instance_parse(jobs->str, (gssize)jobs->len, "jobs.txt", &err);
  g_assert(back && !err);
  g_assert(back->n_jobs == inst->n_jobs && back->n_machines == inst->n_machines);
  g_assert(!memcmp(back->machine, inst->machine, sizeof(int) * (size_t)N));
  g_assert(!memcmp(back->duration, inst->duration, sizeof(int) * (size_t)N));
  GMarkupParser none = {0};
  GMarkupParseContext *ctx = g_markup_parse_context_new(&none, 0, NULL, NULL);
  g_assert(g_markup_parse_context_parse(ctx, xml->str, (gssize)xml->len, &err) &&
           g_markup_parse_context_end_parse(ctx, &err));
  g_markup_parse_context_free(ctx);
  trv_jssp_instance_free(back);
  g_string_free(jobs, TRUE);
  g_string_free(xml, TRUE);
}

static void check_consumers(const TrvJsspInstance *inst) {
  const int N = inst->n_jobs * inst->n_ops;
  for (int r = 0; r < TRV_JSSP_N_RULES; r++) {
    TrvJsspSchedule *s = trv_jssp_list_schedule(inst, (TrvJsspRule)r);
    GError *err = NULL;
    g_assert(trv_jssp_schedule_check(inst, s, &err));
    trv_jssp_schedule_free(s);
  }
  /* The confounded plans: only for small shops (each input is run many
   * thousand times); every plan replayed on its planning durations ends
   * where the list scheduler's schedule does. */
  if (inst->n_machines > 6 || N > 64) return;
  g_assert(trv_confounded_instance_fits(inst, "fuzz", NULL));
  TrvConfoundedPlans *plans = trv_confounded_plans_new(inst);
  TrvJsspInstance planning = *inst;
  planning.duration = g_new(int, N);
  double *dur = g_new(double, N);
  for (int k = 0; k < trv_confounded_plans_count(plans); k++) {
    uint32_t set = trv_confounded_plan_slow_set(plans, k);
    for (int op = 0; op < N; op++)
      dur[op] = planning.duration[op] = inst->duration[op] * ((set >> inst->machine[op]) & 1u ? 3 : 2);
    TrvJsspSchedule *s = trv_jssp_list_schedule(&planning, trv_confounded_plan_rule(plans, k));
    g_assert(trv_confounded_plan_execute(plans, k, dur, NULL, NULL) == s->makespan);
    trv_jssp_schedule_free(s);
  }
  g_free(dur);
  g_free(planning.duration);
  trv_confounded_plans_free(plans);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  GError *err = NULL;
  TrvJsspInstance *inst = trv_jssp_instance_parse((const char *)data, (gssize)size, "fuzz", &err);
  if (!inst) {
    /* One line that names the file: "fuzz:LINE: ...". */
    g_assert(err && err->domain == TRV_ERROR && err->code == TRV_ERROR_INPUT);
    g_assert(g_str_has_prefix(err->message, "fuzz:") && !strchr(err->message, '\n'));
    g_error_free(err);
    return 0;
  }
  g_assert(!err);
  check_invariants(inst);
  check_round_trip(inst);
  check_consumers(inst);
  trv_jssp_instance_free(inst);
  return 0;
}
