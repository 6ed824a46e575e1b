/* jssp-confounded.c - the real-instance confounded variant's world (the
 * model is in jssp-confounded.h, the argument in docs/jssp.md, "The
 * real-instance confounded variant"): candidate plans built by the list
 * scheduler, their execution on an episode's true durations, the seed's
 * world, and the probe.
 *
 * Invariants: a plan's topological order respects both its job chains and
 * its machine sequences (checked when built: a cycle aborts), so executing
 * it is one pass; executing a plan on its own planning durations reproduces
 * the list scheduler's start times exactly (a non-delay list schedule
 * starts every operation at max(job ready, machine free)); the oracle plan
 * minimises the true makespan over the same candidate set the controllers
 * choose from, and the congestion factor exp(rho C_e) scales every plan's
 * makespan alike, so regret is >= 0 in every episode. */
#include "jssp-confounded.h"

#include "core/params.h"

#include <glib.h>
#include <math.h>
#include <string.h>

struct TrvConfoundedPlans {
  const TrvJsspInstance *inst;
  int n_plans, n_ops;
  TrvJsspRule *rule;
  uint32_t *slow_set;
  int *order;        /* [k*n_ops + t]: plan k's t-th operation in topological order */
  int *machine_prev; /* [k*n_ops + op]: op's predecessor on its machine, -1 if first */
};

void trv_confounded_params_from(const TrvJsspParams *t, TrvConfoundedParams *p) {
  *p = (TrvConfoundedParams){.rho = t->log_congestion,
                             .sigma = t->reading_sd,
                             .slow_lo = t->slow_lo,
                             .slow_hi = t->slow_hi,
                             .slow_max = t->slow_max,
                             .threshold = t->slow_threshold};
}

void trv_confounded_defaults(TrvConfoundedParams *p) {
  TrvJsspParams t;
  trv_param_block_defaults(&trv_jssp_params, &t);
  trv_confounded_params_from(&t, p);
}

/* Fills plan k's machine predecessors and topological order from the list
 * scheduler's schedule s (Kahn's algorithm over job and machine edges). */
static void build_plan(TrvConfoundedPlans *pl, int k, const TrvJsspSchedule *s) {
  const TrvJsspInstance *inst = pl->inst;
  const int N = pl->n_ops, K = inst->n_ops;
  int *prev = pl->machine_prev + (size_t)k * N, *order = pl->order + (size_t)k * N;
  int *next_on_machine = g_new(int, N), *indegree = g_new0(int, N);
  TrvJsspSlot *slots = g_new(TrvJsspSlot, N);
  for (int op = 0; op < N; op++) next_on_machine[op] = -1;
  for (int m = 0; m < inst->n_machines; m++) {
    int n = 0;
    for (int op = 0; op < N; op++)
      if (inst->machine[op] == m) slots[n++] = (TrvJsspSlot){s->start[op], s->end[op], op};
    qsort(slots, (size_t)n, sizeof *slots, trv_jssp_slot_cmp);
    for (int i = 0; i < n; i++) {
      prev[slots[i].op] = i > 0 ? slots[i - 1].op : -1;
      if (i > 0) next_on_machine[slots[i - 1].op] = slots[i].op;
    }
  }
  for (int op = 0; op < N; op++) indegree[op] = (op % K > 0) + (prev[op] >= 0);
  int head = 0, tail = 0;
  for (int op = 0; op < N; op++)
    if (indegree[op] == 0) order[tail++] = op;
  while (head < tail) {
    int op = order[head++];
    int succ[2] = {op % K + 1 < K ? op + 1 : -1, next_on_machine[op]};
    for (int i = 0; i < 2; i++)
      if (succ[i] >= 0 && --indegree[succ[i]] == 0) order[tail++] = succ[i];
  }
  g_assert(tail == N); /* the list scheduler's sequences are acyclic */
  g_free(next_on_machine);
  g_free(indegree);
  g_free(slots);
}

int trv_confounded_plans_count_for(int machines) {
  g_assert(machines >= 1 && machines <= TRV_CONFOUNDED_MAX_M);
  return TRV_JSSP_N_RULES * (1 + machines + machines * (machines - 1) / 2);
}

gboolean trv_confounded_instance_fits(const TrvJsspInstance *inst, const char *file, GError **error) {
  const int M = inst->n_machines;
  if (M > TRV_CONFOUNDED_MAX_M) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: %d machines; the confounded variant takes at most %d", file, M,
                TRV_CONFOUNDED_MAX_M);
    return FALSE;
  }
  gint64 plan_ops = (gint64)trv_confounded_plans_count_for(M) * inst->n_jobs * inst->n_ops;
  if (plan_ops > TRV_CONFOUNDED_MAX_PLAN_OPS) {
    g_set_error(
        error, TRV_ERROR, TRV_ERROR_INPUT,
        "%s: %d plans x %d operations = %" G_GINT64_FORMAT " plan steps; the confounded variant keeps at most %d", file,
        trv_confounded_plans_count_for(M), inst->n_jobs * inst->n_ops, plan_ops, TRV_CONFOUNDED_MAX_PLAN_OPS);
    return FALSE;
  }
  return TRUE;
}

TrvConfoundedPlans *trv_confounded_plans_new(const TrvJsspInstance *inst) {
  const int M = inst->n_machines, N = inst->n_jobs * inst->n_ops;
  g_assert(trv_confounded_instance_fits(inst, inst->name, NULL));
  GArray *sets = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  uint32_t none = 0;
  g_array_append_val(sets, none);
  for (int i = 0; i < M; i++) {
    uint32_t one = 1u << i;
    g_array_append_val(sets, one);
  }
  for (int i = 0; i < M; i++)
    for (int j = i + 1; j < M; j++) {
      uint32_t two = (1u << i) | (1u << j);
      g_array_append_val(sets, two);
    }
  TrvConfoundedPlans *pl = g_new0(TrvConfoundedPlans, 1);
  pl->inst = inst;
  pl->n_ops = N;
  pl->n_plans = TRV_JSSP_N_RULES * (int)sets->len;
  pl->rule = g_new(TrvJsspRule, pl->n_plans);
  pl->slow_set = g_new(uint32_t, pl->n_plans);
  pl->order = g_new(int, (size_t)pl->n_plans *N);
  pl->machine_prev = g_new(int, (size_t)pl->n_plans *N);
  /* Planning durations: 2*base, 3*base on the believed-slow machines. */
  TrvJsspInstance planning = *inst;
  planning.duration = g_new(int, N);
  int k = 0;
  for (guint si = 0; si < sets->len; si++) {
    uint32_t set = g_array_index(sets, uint32_t, si);
    for (int op = 0; op < N; op++)
      planning.duration[op] = inst->duration[op] * ((set >> inst->machine[op]) & 1u ? 3 : 2);
    for (int r = 0; r < TRV_JSSP_N_RULES; r++, k++) {
      pl->rule[k] = (TrvJsspRule)r;
      pl->slow_set[k] = set;
      TrvJsspSchedule *s = trv_jssp_list_schedule(&planning, (TrvJsspRule)r);
      build_plan(pl, k, s);
      trv_jssp_schedule_free(s);
    }
  }
  g_free(planning.duration);
  g_array_free(sets, TRUE);
  return pl;
}

void trv_confounded_plans_free(TrvConfoundedPlans *pl) {
  if (!pl) return;
  g_free(pl->rule);
  g_free(pl->slow_set);
  g_free(pl->order);
  g_free(pl->machine_prev);
  g_free(pl);
}

int trv_confounded_plans_count(const TrvConfoundedPlans *pl) { return pl->n_plans; }

const TrvJsspInstance *trv_confounded_plans_instance(const TrvConfoundedPlans *pl) { return pl->inst; }

TrvJsspRule trv_confounded_plan_rule(const TrvConfoundedPlans *pl, int k) {
  g_assert(k >= 0 && k < pl->n_plans);
  return pl->rule[k];
}

uint32_t trv_confounded_plan_slow_set(const TrvConfoundedPlans *pl, int k) {
  g_assert(k >= 0 && k < pl->n_plans);
  return pl->slow_set[k];
}

double trv_confounded_plan_execute(const TrvConfoundedPlans *pl, int k, const double *dur, double *start, double *end) {
  g_assert(k >= 0 && k < pl->n_plans);
  const int N = pl->n_ops, K = pl->inst->n_ops;
  const int *order = pl->order + (size_t)k * N, *prev = pl->machine_prev + (size_t)k * N;
  double *e = end ? end : g_new(double, N), makespan = 0;
  for (int t = 0; t < N; t++) {
    int op = order[t];
    double st = op % K > 0 ? e[op - 1] : 0.0;
    if (prev[op] >= 0) st = fmax(st, e[prev[op]]);
    if (start) start[op] = st;
    e[op] = st + dur[op];
    makespan = fmax(makespan, e[op]);
  }
  if (!end) g_free(e);
  return makespan;
}

int trv_confounded_best_plan(const TrvConfoundedPlans *pl, const double *factor, double *makespans) {
  const int N = pl->n_ops;
  double *dur = g_new(double, N), best_ms = INFINITY;
  for (int op = 0; op < N; op++) dur[op] = pl->inst->duration[op] * factor[pl->inst->machine[op]];
  int best = -1;
  for (int k = 0; k < pl->n_plans; k++) {
    double ms = trv_confounded_plan_execute(pl, k, dur, NULL, NULL);
    if (makespans) makespans[k] = ms;
    if (ms < best_ms) best_ms = ms, best = k;
  }
  g_free(dur);
  return best;
}

void trv_confounded_world_draw(const TrvJsspInstance *inst, const TrvConfoundedParams *p, uint64_t seed,
                               TrvConfoundedWorld *w, TrvRng *rng) {
  const int M = inst->n_machines;
  /* An instance may have fewer machines than slow_max (a one-machine
   * shop): then at most every machine is slow. */
  const int slow_max = MIN(p->slow_max, M);
  g_assert(M <= TRV_CONFOUNDED_MAX_M && p->slow_max >= 0);
  trv_rng_init(rng, seed, TRV_STREAM_WORLD);
  memset(w, 0, sizeof *w);
  w->machines = M;
  for (int i = 0; i < M; i++) w->slowdown[i] = 1.0;
  int n_slow = slow_max > 0 ? 1 + (int)trv_rng_below(rng, (uint64_t)slow_max) : 0;
  while (n_slow > 0) {
    int i = (int)trv_rng_below(rng, (uint64_t)M);
    if (w->slow_set >> i & 1u) continue;
    w->slow_set |= 1u << i;
    w->slowdown[i] = p->slow_lo + (p->slow_hi - p->slow_lo) * trv_rng_uniform(rng);
    n_slow--;
  }
  double best = -1;
  for (int i = 0; i < M; i++) {
    double work = 0;
    for (int op = 0; op < inst->n_jobs * inst->n_ops; op++)
      if (inst->machine[op] == i) work += inst->duration[op];
    if (w->slowdown[i] * work > best) best = w->slowdown[i] * work, w->busiest = i;
  }
}

double trv_confounded_probe(const TrvConfoundedWorld *w, const TrvConfoundedParams *p, int machine, TrvRng *rng) {
  g_assert(machine >= 0 && machine < w->machines);
  double C = trv_rng_normal(rng);
  double on_machine = log(w->slowdown[machine]) + p->rho * C + p->sigma * trv_rng_normal(rng);
  double on_reference = p->rho * C + p->sigma * trv_rng_normal(rng);
  return on_machine - on_reference;
}
