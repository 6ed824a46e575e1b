/* protocol.c - the controller's side of the episode protocol (see
 * protocol.h): a session holds one world for one seed, its controller and
 * the scratch space of an episode's close.
 *
 * Plan: the world's episode_begin(e), the controller's plan (told how many
 * agents share it, what they cost and their probe values), and the split
 * of its probes across the agents: the controller's own assignment when it
 * made one (the parallel scheduler), else trv_assign_probes (schedule.h):
 * whole components to one agent each (disjoint assignment,
 * budget.coalition = 1) or split over coalitions of at most
 * budget.coalition agents; every agent plays every step.  When the world
 * numbers its probes (TrvAgentClass.probe_number) the session numbers
 * them, in plan order, episode after episode: the number names the probe
 * whichever agent the split gives it to (TrvPlan.numbers).
 * Close: the reward of the committed records (summed in fold order, so it
 * does not depend on the order records arrived in), the controller's
 * absorb, the referee's score, the transport's counts, and the decided
 * records in the order the log stores them. */
#include <math.h>
#include <string.h>
#include <time.h>

#include "protocol.h"
#include "replay.h"
#include "results.h"
#include "schedule.h"
#include "world-call.h"

/* CPU seconds of this process (a cell is one thread: SimGrid's actors are
 * contexts of it), for the benchmarks' controller share. */
static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct TrvSession {
  TrvParams params;
  const TrvWorldClass *wc;
  void *world;
  TrvWorldInfo info;
  TrvController *controller;
  uint64_t seed;
  TrvBeliefs beliefs;
  GArray *own;              /* the controller's own records of an episode */
  bool time_controller;     /* measure row->controller_cpu (trv_session_time_controller) */
  double plan_cpu;          /* CPU seconds of the last plan */
  int *probes;              /* room for a plan's probes (TRV_PLAN_MAX_PROBES), kept across episodes */
  int *agent_of;            /* room for their agents, the same */
  TrvAgentCost *agent_cost; /* n_agent_cost agents' costs, or NULL (trv_session_set_agent_costs) */
  int n_agent_cost;
  uint64_t *numbers;               /* room for their numbers, when the world numbers its probes (else NULL) */
  uint64_t n_numbered;             /* probes numbered so far: the number of the next one */
  TrvPosterior *snapshot;          /* the last plan's snapshot, which its shares point to */
  int planned[TRV_MAX_COMPONENTS]; /* the last plan's probes per component */
  double planned_zabs;             /* and their |z| */
  GArray *probes_of;               /* an episode's records of a known component, in fold order (TrvEpisodeRecords) */
  int *change_points;              /* the referee's, checked (TRV_MAX_CHANGE_POINTS of room) */
  int n_change_points;
};

TrvSession *trv_session_new(const TrvParams *params, const TrvWorldClass *wc, const char *controller, uint64_t seed,
                            GError **error) {
  TrvSession *s = g_new0(TrvSession, 1);
  s->params = *params;
  s->wc = wc;
  s->seed = seed;
  s->world = trv_world_new(wc, &s->params, seed, error);
  s->change_points = g_new(int, TRV_MAX_CHANGE_POINTS);
  if (!s->world || !trv_world_info(wc, s->world, &s->info, error) ||
      (s->n_change_points = trv_world_change_points(wc, s->world, s->change_points, TRV_MAX_CHANGE_POINTS, error)) <
          0 ||
      !(s->controller = trv_controller_new(controller, &s->params, &s->info, seed, error))) {
    trv_session_free(s);
    return NULL;
  }
  trv_beliefs_init(&s->beliefs, s->info.cand->n_components);
  s->own = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
  s->probes_of = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
  s->probes = g_new(int, TRV_PLAN_MAX_PROBES);
  s->agent_of = g_new(int, TRV_PLAN_MAX_PROBES);
  if (wc->agent && wc->agent->probe_number) s->numbers = g_new(uint64_t, TRV_PLAN_MAX_PROBES);
  return s;
}

void trv_session_time_controller(TrvSession *s, bool on) { s->time_controller = on; }

void trv_session_set_agent_costs(TrvSession *s, const TrvAgentCost *cost, int n_agents) {
  g_free(s->agent_cost);
  s->agent_cost = cost && n_agents > 0 ? g_memdup2(cost, sizeof *cost * (size_t)n_agents) : NULL;
  s->n_agent_cost = s->agent_cost ? n_agents : 0;
}

void trv_session_free(TrvSession *s) {
  if (!s) return;
  trv_controller_free(s->controller);
  if (s->world) s->wc->free(s->world);
  if (s->own) {
    trv_beliefs_free(&s->beliefs);
    g_array_free(s->own, TRUE);
  }
  if (s->probes_of) g_array_free(s->probes_of, TRUE);
  g_free(s->probes);
  g_free(s->agent_of);
  g_free(s->agent_cost);
  g_free(s->numbers);
  g_free(s->change_points);
  trv_posterior_free(s->snapshot);
  g_free(s);
}

const TrvWorldInfo *trv_session_info(const TrvSession *s) { return &s->info; }
const TrvWorldClass *trv_session_world_class(const TrvSession *s) { return s->wc; }
void *trv_session_world(TrvSession *s) { return s->world; }
const TrvController *trv_session_controller(const TrvSession *s) { return s->controller; }

const TrvPosterior *trv_session_replayable_posterior(const TrvSession *s) {
  const TrvControllerClass *k = s->controller->klass;
  return k->event_sourced ? k->posterior(s->controller->self) : NULL;
}

int trv_session_change_points(const TrvSession *s, const int **out) {
  *out = s->change_points;
  return s->n_change_points;
}

/* Splits plan into per-agent shares, each pointing to plan's snapshot: by
 * the controller's assignment when it made one, else by trv_assign_probes
 * (schedule.h); a share's probes keep their numbers. */
static void split_plan(const TrvPlan *plan, int n_agents, int cap, const double *value, TrvPlan **out) {
  int *agent_of = plan->assigned ? plan->agent_of : g_new(int, plan->n_probes + 1), *load = g_new0(int, n_agents);
  if (!plan->assigned) trv_assign_probes(plan->probes, plan->n_probes, plan->ghat.n, n_agents, cap, value, agent_of);
  for (int i = 0; i < plan->n_probes; i++) {
    g_assert(agent_of[i] >= 0 && agent_of[i] < n_agents);
    load[agent_of[i]]++;
  }
  /* one block: the shares, their probes' numbers, then their probes
   * (trv_session_parts_free) */
  size_t n_numbers = plan->numbers ? (size_t)plan->n_probes : 0;
  TrvPlan *block = g_malloc(sizeof *plan * (size_t)n_agents + sizeof(uint64_t) * n_numbers +
                            sizeof(int) * ((size_t)plan->n_probes + 1));
  uint64_t *numbers = (uint64_t *)(block + n_agents);
  int *room = (int *)(numbers + n_numbers);
  for (int a = 0; a < n_agents; a++) {
    TrvPlan *p = out[a] = &block[a];
    *p = *plan;
    p->probes = room;
    p->numbers = plan->numbers ? numbers : NULL;
    p->n_probes = 0;
    p->agent_cost = NULL; /* the whole plan's alone */
    p->agent_value = NULL;
    p->agent_of = NULL;
    p->assigned = false;
    room += load[a];
    numbers += plan->numbers ? load[a] : 0;
  }
  for (int i = 0; i < plan->n_probes; i++) {
    TrvPlan *p = out[agent_of[i]];
    if (p->numbers) p->numbers[p->n_probes] = plan->numbers[i];
    p->probes[p->n_probes++] = plan->probes[i];
  }
  g_free(load);
  if (!plan->assigned) g_free(agent_of);
}

bool trv_session_plan(TrvSession *s, int e, int n_agents, TrvPlan **parts, GError **error) {
  g_assert(n_agents >= 1);
  s->wc->episode_begin(s->world, e); /* the world's own work: not the controller's */
  double *value = NULL; /* the agents' probe values, when the world declares them and the split uses them */
  if (s->params.probe_value && s->wc->probe_value) {
    value = g_new(double, n_agents);
    for (int a = 0; a < n_agents; a++)
      if (!trv_world_probe_value(s->wc, s->world, a, &value[a], error)) {
        g_free(value);
        return false;
      }
  }
  double t0 = s->time_controller ? cpu_seconds() : 0;
  TrvPlan plan;
  memset(&plan, 0, sizeof plan);
  plan.probes = s->probes;
  plan.agents = n_agents;
  plan.agent_cost = s->n_agent_cost == n_agents ? s->agent_cost : NULL;
  plan.agent_value = value;
  plan.agent_of = s->agent_of;
  TrvGraph truth; /* a yardstick's only: learners never see it */
  if (s->controller->klass->sees_truth) {
    if (!trv_referee_truth(s->wc, s->world, s->info.cand->n_components, &truth, error)) {
      g_free(value);
      return false;
    }
    plan.truth = &truth;
  }
  s->controller->klass->plan(s->controller->self, e, &plan);
  plan.truth = NULL; /* the agents' shares never carry it */
  plan.place_probes = s->params.probe_value && s->wc->agent && s->wc->agent->probe_value_at;
  g_assert(plan.n_probes >= 0 && plan.n_probes <= TRV_PLAN_MAX_PROBES);
  if (s->numbers) { /* numbered in plan order, whoever will run them */
    plan.numbers = s->numbers;
    for (int i = 0; i < plan.n_probes; i++) plan.numbers[i] = s->n_numbered + (uint64_t)i;
    s->n_numbered += (uint64_t)plan.n_probes;
  }
  double m0 = s->params.m0 > 0 ? s->params.m0 : s->info.cand->n_components;
  split_plan(&plan, n_agents, trv_coalition_cap(s->params.coalition, m0), value, parts);
  g_free(value);
  trv_posterior_free(s->snapshot); /* the previous plan's shares are gone */
  s->snapshot = plan.snapshot;
  memset(s->planned, 0, sizeof s->planned);
  for (int i = 0; i < plan.n_probes; i++)
    if (plan.probes[i] >= 0 && plan.probes[i] < s->info.cand->n_components) s->planned[plan.probes[i]]++;
  s->planned_zabs = plan.zabs;
  s->plan_cpu = s->time_controller ? cpu_seconds() - t0 : 0;
  return true;
}

void trv_session_parts_free(TrvPlan **parts, int n_agents) {
  /* the shares and their probes are one block that begins with the first
   * share (split_plan); the snapshot is the session's */
  if (n_agents > 0) g_free(parts[0]);
}

/* The information the planned probes whose records never reached the log
 * would have brought, at plan time, in bits: per component j with k_j
 * probes planned and a_j of their records committed, EIG_j(k_j) -
 * EIG_j(k_j - lost_j), lost_j = k_j - a_j (at least 0), on the plan's
 * snapshot; what the committed probes bring is not counted again.  0 when
 * nothing was lost; NaN when probes were lost and the controller planned
 * without a posterior. */
static double bits_lost(const TrvSession *s, const TrvRecord *probes, size_t n_probes) {
  int nc = s->info.cand->n_components, arrived[TRV_MAX_COMPONENTS] = {0};
  for (size_t i = 0; i < n_probes; i++) arrived[probes[i].a_int]++;
  double bits = 0;
  for (int j = 0; j < nc; j++) {
    int lost = s->planned[j] - arrived[j];
    if (lost <= 0) continue;
    if (!s->snapshot) return NAN;
    bits += trv_posterior_eig_bits(s->snapshot, j, s->planned[j], s->planned_zabs) -
            trv_posterior_eig_bits(s->snapshot, j, s->planned[j] - lost, s->planned_zabs);
  }
  return bits;
}

bool trv_session_close(TrvSession *s, int e, const TrvRecord *recs, size_t n, const TrvRecord *played, size_t n_played,
                       const TrvEpisodeCounts *counts, TrvEpisodeRow *row, GArray *decided, GError **error) {
  memset(row, 0, sizeof *row);
  row->seed = (int)s->seed;
  row->episode = e;
  size_t *order = trv_records_fold_order(recs, n);
  g_array_set_size(s->probes_of, 0);
  int nc = s->info.cand->n_components;
  for (size_t i = 0; i < n; i++) {
    const TrvRecord *r = &recs[order[i]];
    if (r->kind == TRV_RECORD_STEP) row->committed_reward += r->reward;
    if (r->a_int >= 0 && r->a_int < nc) g_array_append_val(s->probes_of, *r);
  }
  /* what the agents did, committed or not: the referee sees every step */
  if (!played) played = recs, n_played = n;
  size_t *played_order = played == recs ? order : trv_records_fold_order(played, n_played);
  for (size_t i = 0; i < n_played; i++) {
    const TrvRecord *r = &played[played_order[i]];
    if (r->kind == TRV_RECORD_STEP) row->reward += r->reward;
  }
  trv_beliefs_clear(&s->beliefs);
  g_array_set_size(s->own, 0);
  TrvEpisodeRecords er = {recs, order, n, (const TrvRecord *)s->probes_of->data, s->probes_of->len};
  row->bits_lost = bits_lost(s, (const TrvRecord *)s->probes_of->data, s->probes_of->len);
  double t0 = s->time_controller ? cpu_seconds() : 0;
  bool ok = s->controller->klass->absorb(s->controller->self, e, &er, row, &s->beliefs, s->own, error);
  row->controller_cpu = s->time_controller ? s->plan_cpu + cpu_seconds() - t0 : 0;
  ok = ok && trv_referee_score_ordered(s->wc, s->world, &s->beliefs, played, played_order, n_played, s->info.steps, row,
                                       error);
  if (played_order != order) g_free(played_order);
  g_free(order);
  if (!ok) return false;
  row->gated_steps = counts->gated;
  row->commits = counts->commits;
  row->commit_attempts = counts->attempts;
  row->commit_failures = counts->failures;
  row->records_lost = counts->records_lost;
  row->detector_closed = counts->detector_closed;
  row->agents_missing = counts->agents_missing;
  row->wait_lost = counts->wait_lost;
  row->detector_timeout = counts->detector_timeout;
  row->steps_late = counts->steps_late;
  row->sim_time = counts->sim_time;
  g_array_append_vals(decided, recs, (guint)n);
  g_array_append_vals(decided, s->own->data, s->own->len);
  TrvRecord end = trv_episode_end_record(e);
  g_array_append_val(decided, end);
  return true;
}
