/* jssp-schedule.c - dispatch rules, the plain-C list scheduler, and the
 * feasibility check of a schedule.
 *
 * The list scheduler is written independently of the SimGrid execution
 * (jssp-sim.c): that one is event-driven (completions, then a dispatch round
 * of the idle machines); this one advances by the earliest possible start
 * t* of any unscheduled operation, Giffler-Thompson style, and plays one
 * dispatch round at t* over a snapshot of the operations ready by then.  The
 * two share only the rule order (trv_jssp_rule_prefers), which is the
 * definition of the rules.  Both must produce the same schedule; the tests
 * compare them on every benchmark instance and on random instances with
 * zero durations (the case where rounds at one time t matter).
 *
 * Times are doubles holding integers, so sums are exact and comparisons of
 * times are exact; the check allows a relative 1e-9 only for schedules that
 * come from elsewhere (the simulator's clock). */
#include "jssp.h"

#include <math.h>
#include <string.h>

static const char *const rule_names[TRV_JSSP_N_RULES] = {"fifo", "spt", "lpt", "mwkr"};

const char *trv_jssp_rule_name(TrvJsspRule rule) {
  g_assert(rule >= 0 && rule < TRV_JSSP_N_RULES);
  return rule_names[rule];
}

int trv_jssp_rule_parse(const char *name) {
  for (int r = 0; r < TRV_JSSP_N_RULES; r++)
    if (!g_ascii_strcasecmp(name, rule_names[r])) return r;
  return -1;
}

gboolean trv_jssp_rule_prefers(TrvJsspRule rule, const TrvJsspCandidate *a, const TrvJsspCandidate *b) {
  double ka, kb; /* smaller key preferred */
  switch (rule) {
    case TRV_JSSP_FIFO: ka = a->arrival, kb = b->arrival; break;
    case TRV_JSSP_SPT: ka = a->duration, kb = b->duration; break;
    case TRV_JSSP_LPT: ka = -a->duration, kb = -b->duration; break;
    case TRV_JSSP_MWKR: ka = -a->remaining, kb = -b->remaining; break;
    default: g_assert_not_reached();
  }
  if (ka != kb) return ka < kb;
  return a->job < b->job;
}

TrvJsspSchedule *trv_jssp_schedule_new(const TrvJsspInstance *inst) {
  TrvJsspSchedule *s = g_new0(TrvJsspSchedule, 1);
  s->n = inst->n_jobs * inst->n_ops;
  s->start = g_new0(double, s->n);
  s->end = g_new0(double, s->n);
  return s;
}

void trv_jssp_schedule_free(TrvJsspSchedule *s) {
  if (!s) return;
  g_free(s->start);
  g_free(s->end);
  g_free(s);
}

TrvJsspSchedule *trv_jssp_list_schedule(const TrvJsspInstance *inst, TrvJsspRule rule) {
  const int J = inst->n_jobs, K = inst->n_ops, M = inst->n_machines;
  TrvJsspSchedule *s = trv_jssp_schedule_new(inst);
  int *next = g_new0(int, J), *best = g_new(int, M);
  TrvJsspCandidate *best_c = g_new(TrvJsspCandidate, M);
  double *job_ready = g_new0(double, J), *remaining = g_new0(double, J), *machine_free = g_new0(double, M);
  for (int j = 0; j < J; j++)
    for (int k = 0; k < K; k++) remaining[j] += inst->duration[j * K + k];
  int left = J * K;
  while (left > 0) {
    /* t*: the earliest time any unscheduled operation can start. */
    double tstar = INFINITY;
    for (int j = 0; j < J; j++)
      if (next[j] < K) tstar = fmin(tstar, fmax(job_ready[j], machine_free[inst->machine[j * K + next[j]]]));
    /* One round at t*, over the operations ready by t* (an operation that
     * ends at t* with duration 0 releases its successor for the next
     * round).  A job has one ready operation, on one machine, so each
     * machine's choice is made in one pass over the jobs, independently of
     * the other machines' choices in this round. */
    for (int m = 0; m < M; m++) best[m] = -1;
    for (int j = 0; j < J; j++) {
      if (next[j] == K || job_ready[j] > tstar) continue;
      int op = j * K + next[j], m = inst->machine[op];
      if (machine_free[m] > tstar) continue;
      TrvJsspCandidate c = {
          .job = j, .arrival = job_ready[j], .duration = inst->duration[op], .remaining = remaining[j]};
      if (best[m] < 0 || trv_jssp_rule_prefers(rule, &c, &best_c[m])) best[m] = j, best_c[m] = c;
    }
    int placed = 0;
    for (int m = 0; m < M; m++) {
      if (best[m] < 0) continue;
      int j = best[m], op = j * K + next[j];
      s->start[op] = tstar;
      s->end[op] = tstar + inst->duration[op];
      machine_free[m] = s->end[op];
      job_ready[j] = s->end[op];
      remaining[j] -= inst->duration[op];
      next[j]++;
      placed++;
      left--;
    }
    g_assert(placed > 0); /* t* is attained by some operation, so the round places it */
  }
  s->makespan = 0;
  for (int i = 0; i < s->n; i++) s->makespan = fmax(s->makespan, s->end[i]);
  g_free(next);
  g_free(best);
  g_free(best_c);
  g_free(job_ready);
  g_free(remaining);
  g_free(machine_free);
  return s;
}

static gboolean close_to(double a, double b) { return fabs(a - b) <= 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b))); }

int trv_jssp_slot_cmp(const void *pa, const void *pb) {
  const TrvJsspSlot *a = pa, *b = pb;
  if (a->start != b->start) return a->start < b->start ? -1 : 1;
  if (a->end != b->end) return a->end < b->end ? -1 : 1;
  return a->op - b->op;
}

gboolean trv_jssp_schedule_check(const TrvJsspInstance *inst, const TrvJsspSchedule *s, GError **error) {
  const int J = inst->n_jobs, K = inst->n_ops;
  if (s->n != J * K) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: schedule has %d operations, instance %d", inst->name, s->n, J * K);
    return FALSE;
  }
  double makespan = 0;
  for (int j = 0; j < J; j++)
    for (int k = 0; k < K; k++) {
      int op = j * K + k;
      if (!(s->start[op] >= 0) || !close_to(s->end[op] - s->start[op], inst->duration[op])) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_IO,
                    "%s: job %d op %d runs [%.17g, %.17g], expected a start >= 0 and a duration of %d", inst->name, j,
                    k, s->start[op], s->end[op], inst->duration[op]);
        return FALSE;
      }
      if (k > 0 && s->start[op] < s->end[op - 1] && !close_to(s->start[op], s->end[op - 1])) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_IO,
                    "%s: job %d op %d starts at %.17g before op %d ends at %.17g (precedence)", inst->name, j, k,
                    s->start[op], k - 1, s->end[op - 1]);
        return FALSE;
      }
      makespan = fmax(makespan, s->end[op]);
    }
  /* The operations grouped by machine (a counting sort), then each
   * machine's in time order: adjacent ones must not overlap.  Sized by the
   * operation count, not by any assumption on how many a machine runs. */
  const int M = inst->n_machines, N = J * K;
  int *first = g_new0(int, M + 1), *fill = g_new(int, M);
  for (int op = 0; op < N; op++) first[inst->machine[op] + 1]++;
  for (int m = 0; m < M; m++) first[m + 1] += first[m];
  memcpy(fill, first, sizeof(int) * (size_t)M);
  TrvJsspSlot *slots = g_new(TrvJsspSlot, MAX(N, 1));
  for (int op = 0; op < N; op++) slots[fill[inst->machine[op]]++] = (TrvJsspSlot){s->start[op], s->end[op], op};
  gboolean ok = TRUE;
  for (int m = 0; m < M && ok; m++) {
    TrvJsspSlot *on_m = slots + first[m];
    int n = first[m + 1] - first[m];
    qsort(on_m, (size_t)n, sizeof *on_m, trv_jssp_slot_cmp);
    for (int i = 1; i < n && ok; i++)
      if (on_m[i].start < on_m[i - 1].end && !close_to(on_m[i].start, on_m[i - 1].end)) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_IO,
                    "%s: machine %d runs job %d op %d [%.17g, %.17g] and job %d op %d [%.17g, %.17g] at once",
                    inst->name, m, on_m[i - 1].op / K, on_m[i - 1].op % K, on_m[i - 1].start, on_m[i - 1].end,
                    on_m[i].op / K, on_m[i].op % K, on_m[i].start, on_m[i].end);
        ok = FALSE;
      }
  }
  g_free(first);
  g_free(fill);
  g_free(slots);
  if (ok && !close_to(makespan, s->makespan)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: makespan %.17g but the last operation ends at %.17g", inst->name,
                s->makespan, makespan);
    ok = FALSE;
  }
  return ok;
}

gboolean trv_jssp_schedule_write_csv(const TrvJsspInstance *inst, const TrvJsspSchedule *s, const char *path,
                                     gboolean force, GError **error) {
  GString *csv = g_string_new(TRV_JSSP_SCHEDULE_MARKER);
  for (int j = 0; j < inst->n_jobs; j++)
    for (int k = 0; k < inst->n_ops; k++) {
      int op = j * inst->n_ops + k;
      g_string_append_printf(csv, "%d,%d,%d,%.17g,%.17g\n", j, k, inst->machine[op], s->start[op], s->end[op]);
    }
  gboolean ok = trv_jssp_output_write(path, TRV_JSSP_SCHEDULE_MARKER, csv, force, error);
  g_string_free(csv, TRUE);
  return ok;
}
