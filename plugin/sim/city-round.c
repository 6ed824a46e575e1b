/* city-round.c - a shared city's rounds (Round in sim-internal.h): who
 * plays the episode, the end of a step (the last to arrive moves the city
 * and lets the others go on), the stand-ins of participants that died, and
 * the actor per host that plays the steps of its built-in agents together.
 *
 * Actors are cooperative, so the counts are exact between simcalls.  The
 * step's end is a count of agents, not of actors: a host's actor arrives
 * for all of its participants at once, a program's own agent or a
 * stand-in for one. */
#include <math.h>
#include <stdio.h>
#include <simgrid/exec.h>
#include <string.h>

#include "sim-internal.h"
#include "core/world-call.h"

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(trivium_round, trivium, "Trivium: a shared city's steps, one actor per host");
XBT_LOG_EXTERNAL_CATEGORY(trivium_clock);

/* One host's participants in one round, played by one actor. */
struct HostRound {
  int refs; /* the round's, and its actor's while that runs */
  int episode, tag;
  sg_host_t host;
  int *agents, n; /* the participants on the host, in index order */
  bool *handed;   /* per participant: its actor handed its episode over and waits */
  int n_handed;
  bool waiting; /* the host's actor waits on sem for the handovers, or for the step's end */
  sg_sem_t sem;
};

static void host_round_unref(HostRound *h) {
  if (--h->refs > 0) return;
  sg_sem_destroy(h->sem);
  g_free(h->agents);
  g_free(h->handed);
  g_free(h);
}

void trv_sim_round_hosts_free(Round *R) {
  for (guint i = 0; i < R->hosts->len; i++) host_round_unref(g_ptr_array_index(R->hosts, i));
  g_ptr_array_set_size(R->hosts, 0);
}

static bool round_current(const Round *R, int episode, int tag) { return R->episode == episode && R->tag == tag; }

static bool in_round(const Round *R, const AgentState *a) {
  return round_current(R, a->plan_episode, a->plan_tag) && R->member[a->index];
}

/* Lets every participant waiting for the step's end go on.  A release is
 * a simcall: a participant let go runs before the last of them is, and
 * may arrive at the next step, so the list is emptied first. */
static void release_waiters(Round *R) {
  guint n = R->waiters->len;
  sg_sem_t *sems = (sg_sem_t *)g_ptr_array_steal(R->waiters, NULL);
  for (guint i = 0; i < n; i++) sg_sem_release(sems[i]);
  g_free(sems);
}

/* `n` participants (who[]) arrive at `step`: the last arrival of the step
 * moves the city and lets every waiting participant go on; the others wait
 * on `sem` (their own). */
static void round_arrive(Cell *cell, const int *who, int n, int step, sg_sem_t sem) {
  Round *R = &cell->round;
  for (int i = 0; i < n; i++) R->next_step[who[i]] = step + 1;
  R->arrivals += n;
  if (R->arrivals == R->members) {
    R->arrivals = 0;
    cell->wc->agent->step_end(trv_session_world(cell->session), step);
    release_waiters(R);
    return;
  }
  g_ptr_array_add(R->waiters, sem);
  sg_sem_acquire(sem);
}

/* Until the round of a's plan is fixed (its deliveries still under way). */
static void wait_for_fix(Round *R, const AgentState *a) {
  while (!R->fixed && round_current(R, a->plan_episode, a->plan_tag)) {
    R->waiting[a->index] = true;
    sg_sem_acquire(R->sem[a->index]);
    R->waiting[a->index] = false;
  }
}

void trv_sim_round_step_barrier(void *ctx, int step) {
  AgentState *a = ctx;
  Cell *cell = trv_sim_cell;
  Round *R = &cell->round;
  wait_for_fix(R, a);
  if (in_round(R, a) && R->next_step[a->index] == step) round_arrive(cell, &a->index, 1, step, R->sem[a->index]);
}

/* ---- one actor per host ------------------------------------------------- */

/* The work of step t of the host's playing participants, on the world's
 * clock: sim.step_flops each, plus sim.probe_flops for a probe, run as one
 * execution per core of the host (the agents' work dealt round the cores),
 * all at once. */
static void host_step_work(Cell *cell, HostRound *h, TrvEpisode **eps, int t) {
  const TrvSimOptions *opt = cell->opt;
  int cores = MAX(1, sg_host_core_count(h->host)), lanes = 0;
  double lane[64] = {0};
  cores = MIN(cores, 64);
  for (int i = 0; i < h->n; i++) {
    if (!eps[i]) continue;
    double flops = opt->step_flops + (trivium_episode_probe(eps[i], t, NULL, NULL) ? opt->probe_flops : 0.0);
    lane[lanes % cores] += flops;
    lanes++;
  }
  lanes = MIN(lanes, cores);
  if (lanes == 1) {
    if (lane[0] > 0) sg_actor_execute(lane[0]);
    return;
  }
  sg_exec_t execs[64];
  int started = 0;
  for (int k = 0; k < lanes; k++)
    if (lane[k] > 0) execs[started++] = sg_actor_exec_async(lane[k]);
  for (int k = 0; k < started; k++) sg_exec_wait(execs[k]);
}

static void host_round_exit(int failed, void *data) {
  (void)failed;
  host_round_unref(data);
}

/* The host's actor: waits for its participants' episodes, plays their
 * steps together (begin, then per step: act for each, the step's work and
 * its end on the world's clock, arrive for all, then read each payoff),
 * and hands each episode back to its agent's actor, which closes it.  An
 * agent whose world answered out of bounds stops playing (the error goes
 * back with its episode) but is still arrived for.  A round the
 * controller has left (its deadline passed before the steps were over)
 * is not played on: the episodes go back as they stand. */
static void host_round_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  HostRound *h = sg_actor_self_get_data();
  h->refs++;
  sg_actor_on_exit(host_round_exit, h);
  Cell *cell = trv_sim_cell;
  Round *R = &cell->round;
  const TrvWorldClass *wc = cell->wc;
  while (h->n_handed < h->n && round_current(R, h->episode, h->tag)) {
    h->waiting = true;
    sg_sem_acquire(h->sem);
    h->waiting = false;
  }
  TrvEpisode **eps = g_new0(TrvEpisode *, h->n); /* NULL: not (or no longer) playing */
  int *late = g_new0(int, h->n);
  for (int i = 0; i < h->n; i++) {
    AgentState *a = &cell->agents[h->agents[i]];
    if (!h->handed[i] || !a->open) continue;
    if (trv_agent_play_begin(wc, a->world, a->open, &a->hosted_error)) eps[i] = a->open;
  }
  double start = R->start, step_seconds = cell->step_seconds;
  for (int t = 0; t < cell->info->steps && round_current(R, h->episode, h->tag); t++) {
    if (XBT_LOG_ISENABLED(trivium_clock, xbt_log_priority_debug))
      for (int i = 0; i < h->n; i++)
        if (eps[i])
          XBT_CDEBUG(trivium_clock, "agent %d episode %d step %d starts at %.9g", h->agents[i], h->episode, t, start);
    for (int i = 0; i < h->n; i++) {
      AgentState *a = &cell->agents[h->agents[i]];
      if (eps[i] && !trv_agent_play_act(wc, a->world, eps[i], t, &a->hosted_error)) eps[i] = NULL;
    }
    double end = start + step_seconds;
    bool is_late = false;
    if (step_seconds > 0) {
      if (!wc->agent->work) host_step_work(cell, h, eps, t); /* a world with its own work runs it after the episode */
      is_late = simgrid_get_clock() > end;
      if (!is_late) sg_actor_sleep_until(end);
    }
    if (!round_current(R, h->episode, h->tag)) break;
    round_arrive(cell, h->agents, h->n, t, h->sem);
    if (!round_current(R, h->episode, h->tag)) break;
    if (step_seconds > 0) {
      is_late = is_late || simgrid_get_clock() > end + 1e-9 * fmax(1.0, end);
      if (is_late && XBT_LOG_ISENABLED(trivium_clock, xbt_log_priority_verbose))
        for (int i = 0; i < h->n; i++)
          if (eps[i])
            XBT_CVERB(trivium_clock, "agent %d episode %d step %d: late, ends at %.9g instead of %.9g", h->agents[i],
                      h->episode, t, simgrid_get_clock(), end);
      start = simgrid_get_clock();
    }
    for (int i = 0; i < h->n; i++) {
      AgentState *a = &cell->agents[h->agents[i]];
      late[i] += is_late;
      if (eps[i] && !trv_agent_play_payoff(wc, a->world, eps[i], t, &a->hosted_error)) eps[i] = NULL;
    }
  }
  for (int i = 0; i < h->n; i++)
    if (h->handed[i]) {
      cell->agents[h->agents[i]].late = late[i];
      sg_sem_release(R->sem[h->agents[i]]);
    }
  g_free(late);
  g_free(eps);
}

/* One actor per host of the round's participants (built-in agents only). */
static void start_host_rounds(Cell *cell) {
  Round *R = &cell->round;
  GHashTable *by_host = g_hash_table_new(g_direct_hash, g_direct_equal);
  for (int a = 0; a < cell->n_agents; a++) {
    if (!R->member[a]) continue;
    sg_host_t host = cell->agents[a].host;
    HostRound *h = g_hash_table_lookup(by_host, host);
    if (!h) {
      h = g_new0(HostRound, 1);
      h->refs = 1;
      h->episode = R->episode;
      h->tag = R->tag;
      h->host = host;
      h->agents = g_new(int, cell->n_agents - a);
      h->sem = sg_sem_init(0);
      g_hash_table_insert(by_host, host, h);
      g_ptr_array_add(R->hosts, h);
    }
    h->agents[h->n++] = a;
    R->host_of[a] = h;
  }
  g_hash_table_destroy(by_host);
  for (guint k = 0; k < R->hosts->len; k++) {
    HostRound *h = g_ptr_array_index(R->hosts, k);
    h->agents = g_renew(int, h->agents, h->n);
    h->handed = g_new0(bool, h->n);
    char name[64];
    snprintf(name, sizeof name, "trivium-city-%s", sg_host_get_name(h->host));
    sg_actor_t actor = sg_actor_init(name, h->host);
    sg_actor_set_data(actor, h);
    sg_actor_start(actor, host_round_actor, 0, NULL);
  }
}

bool trv_sim_round_play_hosted(Cell *cell, AgentState *a, TrvEpisode *ep, GError **error) {
  Round *R = &cell->round;
  wait_for_fix(R, a);
  HostRound *h = in_round(R, a) ? R->host_of[a->index] : NULL;
  if (!h) return false;
  int i = 0;
  while (h->agents[i] != a->index) i++;
  g_assert(a->open == ep && !h->handed[i]);
  h->handed[i] = true;
  h->n_handed++;
  a->hosted_error = NULL;
  if (h->waiting) sg_sem_release(h->sem);
  sg_sem_acquire(R->sem[a->index]); /* the host's actor played the steps */
  if (a->hosted_error) g_propagate_error(error, a->hosted_error);
  a->hosted_error = NULL;
  return true;
}

void trv_sim_round_fix(Cell *cell) {
  Round *R = &cell->round;
  R->fixed = true;
  R->members = R->arrivals = 0;
  for (int i = 0; i < cell->n_agents; i++) R->members += R->member[i];
  /* a participant of an earlier round still waiting (its steps outlasted
   * the controller's deadline) goes on, and finds its round over */
  release_waiters(R);
  trv_sim_round_hosts_free(R);
  memset(R->host_of, 0, sizeof(HostRound *) * (size_t)cell->n_agents);
  if (!cell->user_agents && R->members > 0) start_host_rounds(cell);
  for (int i = 0; i < cell->n_agents; i++)
    if (R->waiting[i]) {
      R->waiting[i] = false;
      sg_sem_release(R->sem[i]);
    }
}

/* ---- stand-ins ---------------------------------------------------------- */

/* Participants that died: one actor arrives in their place at the steps
 * they had not reached, so that every step's end still counts them. */
typedef struct {
  int episode, tag, n;
  int *who, *from;
  sg_sem_t sem;
} StandIn;

static void stand_in_exit(int failed, void *data) {
  (void)failed;
  StandIn *si = data;
  g_ptr_array_remove(trv_sim_cell->round.waiters, si->sem); /* it may have died waiting */
  sg_sem_destroy(si->sem);
  g_free(si->who);
  g_free(si->from);
  g_free(si);
}

static void stand_in_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  StandIn *si = sg_actor_self_get_data();
  sg_actor_on_exit(stand_in_exit, si);
  Cell *cell = trv_sim_cell;
  Round *R = &cell->round;
  int first = cell->info->steps;
  for (int i = 0; i < si->n; i++) first = MIN(first, si->from[i]);
  int *now = g_new(int, si->n);
  for (int step = first; step < cell->info->steps && round_current(R, si->episode, si->tag); step++) {
    int n = 0;
    for (int i = 0; i < si->n; i++)
      if (si->from[i] <= step) now[n++] = si->who[i];
    round_arrive(cell, now, n, step, si->sem);
  }
  g_free(now);
}

void trv_sim_round_stand_ins(Cell *cell) {
  Round *R = &cell->round;
  StandIn *si = NULL;
  for (int i = 0; i < cell->n_agents; i++) {
    if (!R->stand_in[i]) continue;
    R->stand_in[i] = false;
    if (!si) {
      si = g_new0(StandIn, 1);
      si->episode = R->episode;
      si->tag = R->tag;
      si->who = g_new(int, cell->n_agents);
      si->from = g_new(int, cell->n_agents);
    }
    si->who[si->n] = i;
    si->from[si->n++] = R->next_step[i];
  }
  if (!si) return;
  sg_host_t *hosts = sg_host_list(), host = NULL;
  for (size_t k = 0; k < sg_host_count() && !host; k++)
    if (sg_host_is_on(hosts[k])) host = hosts[k];
  g_free(hosts);
  if (!host) { /* nothing runs any more */
    g_free(si->who);
    g_free(si->from);
    g_free(si);
    return;
  }
  si->sem = sg_sem_init(0);
  sg_actor_t actor = sg_actor_init("trivium-stand-in", host);
  sg_actor_set_data(actor, si);
  sg_actor_start(actor, stand_in_actor, 0, NULL);
}

/* An agent's actor ended (its host crashed, or the run is over): before
 * the round is fixed it is no participant; after, if it had steps left, a
 * stand-in is due (the fault driver starts it: no simcall from a dying
 * actor). */
void trv_sim_round_agent_exit(int failed, void *data) {
  (void)failed;
  AgentState *a = data;
  Cell *cell = trv_sim_cell;
  if (!cell || !cell->shared_city) return;
  Round *R = &cell->round;
  R->waiting[a->index] = false; /* nothing to release: its semaphore stays at zero for a restarted actor */
  if (!in_round(R, a)) return;
  if (!R->fixed)
    R->member[a->index] = false;
  else if (R->next_step[a->index] < cell->info->steps)
    R->stand_in[a->index] = true;
}
