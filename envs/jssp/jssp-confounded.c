/* jssp-confounded.c - the real-instance confounded variant (the model is in
 * jssp-confounded.h, the argument in docs/jssp.md, "The real-instance
 * confounded variant"): candidate plans built by the list scheduler, their
 * execution on an episode's true durations, the seed's world, and the two
 * controllers.
 *
 * Invariants: a plan's topological order respects both its job chains and
 * its machine sequences (checked when built: a cycle aborts), so executing
 * it is one pass; executing a plan on its own planning durations reproduces
 * the list scheduler's start times exactly (a non-delay list schedule
 * starts every operation at max(job ready, machine free)); the oracle plan
 * minimises the true makespan over the same candidate set the controllers
 * choose from, and the congestion factor exp(rho C_e) scales every plan's
 * makespan alike, so regret is >= 0 in every episode.
 *
 * Why the outcome-only controller is wrong and stays wrong: the timing log
 * picks which machine to time from the congestion (the busiest machine
 * when C_e > 0), so congestion is a common cause of "which machine is
 * observed" and "how long its operations take".  Its mean reading of
 * machine i converges to log s_i + rho E[C_e | i timed], not log s_i: the
 * busiest machine looks slower than it is, every other machine (timed only
 * in calm episodes, E[C | C <= 0] = -0.80) faster.  Trivium's probe is an
 * intervention do(machine = i) in a slot of its own, and the reference
 * operation under the same congestion draw cancels rho C exactly. */
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
  *p = (TrvConfoundedParams){.episodes = 200,
                             .rho = t->log_congestion,
                             .sigma = t->reading_sd,
                             .slow_lo = t->slow_lo,
                             .slow_hi = t->slow_hi,
                             .slow_max = t->slow_max,
                             .prior_sd = 0.25,
                             .threshold = t->slow_threshold,
                             .m0 = 1.0,
                             .budget_cap = 4};
}

void trv_confounded_defaults(TrvConfoundedParams *p) {
  TrvJsspParams t;
  trv_param_block_defaults(&trv_jssp_params, &t);
  trv_confounded_params_from(&t, p);
}

const char *trv_confounded_controller_name(TrvConfoundedController c) {
  static const char *const names[] = {"trivium", "outcome"};
  g_assert(c >= 0 && c < TRV_CONFOUNDED_N_CONTROLLERS);
  return names[c];
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

/* Conjugate Gaussian update of machine i's posterior with reading x of
 * noise variance v. */
static void update(double *mu, double *var, int i, double x, double v) {
  double prec = 1.0 / var[i] + 1.0 / v;
  mu[i] = (mu[i] / var[i] + x / v) / prec;
  var[i] = 1.0 / prec;
}

/* Trivium's probe choice: an unprobed machine first (lowest index); then,
 * while some machine's slow/normal call is uncertain (|mu_i - ln threshold|
 * / sd_i < 3), the least certain one; once every call is settled, the
 * machine called slow with the largest posterior variance, whose slowdown
 * is the only number the plan choice still depends on (a machine called
 * normal is planned at 1).  Ties to the lower index. */
static int probe_choice(const double *mu, const double *var, const int *n, int M, double log_threshold) {
  for (int i = 0; i < M; i++)
    if (n[i] == 0) return i;
  int least_certain = 0, widest_slow = -1;
  double best_z = INFINITY, widest = 0;
  for (int i = 0; i < M; i++) {
    double z = fabs(mu[i] - log_threshold) / sqrt(var[i]);
    if (z < best_z) best_z = z, least_certain = i;
    if (mu[i] > log_threshold && var[i] > widest) widest = var[i], widest_slow = i;
  }
  return best_z < 3.0 || widest_slow < 0 ? least_certain : widest_slow;
}

static uint32_t slow_calls(const double *mu, int M, double log_threshold) {
  uint32_t set = 0;
  for (int i = 0; i < M; i++)
    if (mu[i] > log_threshold) set |= 1u << i;
  return set;
}

void trv_confounded_run(const TrvConfoundedPlans *pl, const TrvConfoundedParams *p, uint64_t seed,
                        TrvConfoundedController c, double *regret, double *identified, TrvConfoundedFinal *final) {
  const TrvJsspInstance *inst = pl->inst;
  const int M = inst->n_machines, N = pl->n_ops;
  g_assert(p->sigma > 0 && p->prior_sd > 0 && p->episodes >= 1 && p->threshold > 0);
  TrvRng world_rng, probe_rng;
  TrvConfoundedWorld w;
  trv_confounded_world_draw(inst, p, seed, &w, &world_rng);
  trv_rng_init(&probe_rng, seed, TRV_STREAM_PROBE_NOISE);
  double *true_ms = g_new(double, pl->n_plans), *noise = g_new(double, N);
  const int oracle = trv_confounded_best_plan(pl, w.slowdown, true_ms);
  const double log_threshold = log(p->threshold);
  double mu[TRV_CONFOUNDED_MAX_M], var[TRV_CONFOUNDED_MAX_M], factor[TRV_CONFOUNDED_MAX_M];
  int n[TRV_CONFOUNDED_MAX_M] = {0}, plan = oracle;
  for (int i = 0; i < M; i++) mu[i] = 0, var[i] = p->prior_sd * p->prior_sd;
  for (int e = 0; e < p->episodes; e++) {
    /* The world's draws, identical for both controllers. */
    double C = trv_rng_normal(&world_rng);
    int random_machine = (int)trv_rng_below(&world_rng, (uint64_t)M);
    for (int op = 0; op < N; op++) noise[op] = trv_rng_normal(&world_rng);
    if (c == TRV_CONFOUNDED_TRIVIUM) {
      int budget = MIN(p->budget_cap, (int)ceil(p->m0 * log(e + 2.0)));
      for (int b = 0; b < budget; b++) {
        int i = probe_choice(mu, var, n, M, log_threshold);
        update(mu, var, i, trv_confounded_probe(&w, p, i, &probe_rng), 2 * p->sigma * p->sigma);
        n[i]++;
      }
    }
    /* Plan on the believed slowdowns: exp(mu_i) for a machine called slow,
     * 1 for the others (the world's structure: most machines are nominal). */
    for (int i = 0; i < M; i++) factor[i] = mu[i] > log_threshold ? exp(mu[i]) : 1.0;
    plan = trv_confounded_best_plan(pl, factor, NULL);
    /* Both plans run on base * s_i * exp(rho C): makespans scale alike. */
    regret[e] = exp(p->rho * C) * (true_ms[plan] - true_ms[oracle]);
    if (c == TRV_CONFOUNDED_OUTCOME) {
      /* The shop's timing log of this episode: the busiest machine when
       * congested, a random one otherwise; the learner takes the mean
       * reading of its operations as one measurement of log s_i with
       * variance rho^2 + sigma^2 / count (it even knows rho). */
      int timed = C > 0 ? w.busiest : random_machine, count = 0;
      double sum = 0;
      for (int op = 0; op < N; op++)
        if (inst->machine[op] == timed) {
          sum += log(w.slowdown[timed]) + p->rho * C + p->sigma * noise[op];
          count++;
        }
      if (count > 0) {
        update(mu, var, timed, sum / count, p->rho * p->rho + p->sigma * p->sigma / count);
        n[timed]++;
      }
    }
    if (identified) identified[e] = slow_calls(mu, M, log_threshold) == w.slow_set ? 1.0 : 0.0;
  }
  if (final) {
    memset(final, 0, sizeof *final);
    final->world = w;
    memcpy(final->mu, mu, sizeof(double) * (size_t)M);
    memcpy(final->var, var, sizeof(double) * (size_t)M);
    memcpy(final->readings, n, sizeof(int) * (size_t)M);
    final->called_slow = slow_calls(mu, M, log_threshold);
    final->oracle_plan = oracle;
    final->final_plan = plan;
    final->oracle_makespan = true_ms[oracle];
  }
  g_free(true_ms);
  g_free(noise);
}

void trv_confounded_summarize(const TrvConfoundedPlans *pl, const TrvConfoundedParams *p, uint64_t first_seed,
                              int n_seeds, TrvConfoundedController c, TrvConfoundedSummary *out,
                              double *per_seed_regret, double *per_seed_identified) {
  const int E = p->episodes;
  g_assert(n_seeds >= 1 && E >= 1);
  double *regret = g_new(double, E), *ident = g_new(double, E), *mean_cum = g_new0(double, E);
  double *xs_log = g_new(double, E), *xs_lin = g_new(double, E), *cum = g_new(double, n_seeds),
         *rel = g_new(double, n_seeds);
  int right = 0;
  for (int k = 0; k < n_seeds; k++) {
    TrvConfoundedFinal f;
    trv_confounded_run(pl, p, first_seed + (uint64_t)k, c, regret, ident, &f);
    double total = 0;
    for (int e = 0; e < E; e++) {
      total += regret[e];
      mean_cum[e] += total / n_seeds;
    }
    cum[k] = total;
    /* With every duration 0 every plan's makespan is 0, and so is the
     * regret: 0, not 0/0. */
    rel[k] = f.oracle_makespan > 0 ? total / f.oracle_makespan : 0.0;
    right += f.called_slow == f.world.slow_set;
    if (per_seed_regret) memcpy(per_seed_regret + (size_t)k * E, regret, sizeof(double) * (size_t)E);
    if (per_seed_identified) memcpy(per_seed_identified + (size_t)k * E, ident, sizeof(double) * (size_t)E);
  }
  for (int e = 0; e < E; e++) xs_log[e] = log(e + 1.0), xs_lin[e] = e + 1.0;
  out->cumulative = trv_summarize(cum, (size_t)n_seeds);
  out->cumulative_relative = trv_summarize(rel, (size_t)n_seeds);
  out->identified = (double)right / n_seeds;
  out->log_fit = trv_linear_fit(xs_log, mean_cum, (size_t)E);
  out->linear_fit = trv_linear_fit(xs_lin, mean_cum, (size_t)E);
  g_free(regret);
  g_free(ident);
  g_free(mean_cum);
  g_free(xs_log);
  g_free(xs_lin);
  g_free(cum);
  g_free(rel);
}
