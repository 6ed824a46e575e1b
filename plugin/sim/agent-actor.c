/* agent-actor.c - a dispatch agent as a SimGrid actor: the built-in
 * agents' actor, and the transport of the agent's side of the protocol for
 * every agent, built-in or a program's own (trivium/agent.h).
 *
 * Per plan: the agent gets a TrvEpisode; a built-in agent plays it in its
 * own world instance (trv_agent_play) and costs the compute on its host
 * (one execution: T steps plus its probes); a program's own actor does
 * what it likes.  What the world answers while an agent plays (its steps,
 * its work, its operations) is checked (core/world-call.h): a bad answer
 * stops the cell (trv_sim_cell_fail), and the agent still closes the
 * episode, so that the controller is not left waiting.  Closing the
 * episode then
 *  - atomic mode: commit the episode's records in one message to every
 *    replica and wait for acknowledgements (ctl.timeout, or longer where
 *    the agents' commits together need longer: transfer.c); committed
 *    once a majority acknowledged; otherwise retry (same record ids: replicas drop repeats)
 *    up to commit_retries times with a growing pause; a NACK means the
 *    episode was closed and retrying is useless;
 *  - best-effort mode: send the probe intents and then the records to
 *    replica 0, fire and forget (no acknowledgement, no retry, no dedup);
 * and report DONE (commit counts, gated steps) to the controller, again
 * every half second while it cannot be delivered, until the controller's
 * failure detector stops waiting (the deadline its plan carries). */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim-internal.h"
#include "core/world-call.h"

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(trivium_commit, trivium, "Trivium: the agents' commits to the log");
XBT_LOG_NEW_SUBCATEGORY(trivium_clock, trivium, "Trivium: the agents' steps on the world's clock");

static bool commit_atomic(Cell *cell, AgentState *a, int e, GArray *recs, int *attempts) {
  const TrvSimOptions *opt = cell->opt;
  int n = cell->n_replicas, need = n / 2 + 1;
  for (int attempt = 0; attempt <= opt->commit_retries; attempt++) {
    (*attempts)++;
    int sent = 0, acks = 0, nacks = 0;
    bool *acked = g_new0(bool, n);
    sg_comm_t *comms = g_new(sg_comm_t, n);
    Msg **msgs = g_new(Msg *, n);
    for (int r = 0; r < n; r++) { /* to every replica at once */
      Msg *m = msgs[r] = trv_msg_new(MSG_COMMIT, e);
      m->agent = a->index;
      m->tag = attempt;
      m->records = g_array_ref(recs); /* one read-only array for every replica and attempt */
      m->reply = a->mb_ack;
      comms[r] = trv_msg_post(cell->replicas[r].mb, m);
    }
    double deadline = simgrid_get_clock() + trv_sim_commit_wait(cell, trv_msg_bytes(msgs[0]));
    for (int r = 0; r < n; r++) sent += trv_msg_finish(comms[r], msgs[r], deadline - simgrid_get_clock());
    g_free(comms);
    Msg **reps = g_new(Msg *, n);
    while (acks < need && acks + nacks < sent && simgrid_get_clock() < deadline) {
      int got = trv_msg_recv_many(a->mb_ack, sent - acks - nacks, deadline - simgrid_get_clock(), reps, NULL);
      if (got == 0) break;
      for (int i = 0; i < got; i++) {
        Msg *rep = reps[i];
        if (rep->episode == e && rep->tag == attempt && rep->agent >= 0 && rep->agent < n && !acked[rep->agent]) {
          acked[rep->agent] = true;
          if (rep->kind == MSG_ACK)
            acks++;
          else if (rep->kind == MSG_NACK)
            nacks++;
        }
        trv_msg_free(rep);
      }
    }
    g_free(reps);
    g_free(msgs);
    g_free(acked);
    if (acks >= need) return true;
    if (nacks > n - need) return false; /* closed on a majority: too late */
    sg_actor_sleep_for(0.5 * (attempt + 1));
  }
  return false;
}

static void send_telemetry(Cell *cell, AgentState *a, int e, GArray *recs) {
  TrvSimReport *rep = cell->report;
  Msg *intents = trv_msg_new(MSG_TELEMETRY, e);
  intents->agent = a->index;
  intents->records = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
  for (guint i = 0; i < recs->len; i++) intents->n_intents += g_array_index(recs, TrvRecord, i).a_int >= 0;
  Msg *outcomes = trv_msg_new(MSG_TELEMETRY, e);
  outcomes->agent = a->index;
  outcomes->records = g_array_ref(recs);
  rep->telemetry_sent += recs->len;
  double wait = trv_sim_commit_wait(cell, trv_msg_bytes(outcomes));
  trv_msg_send(cell->replicas[0].mb, intents, wait);
  trv_msg_send(cell->replicas[0].mb, outcomes, wait);
}

#define DONE_RETRY_PAUSE 0.5 /* simulated seconds between two attempts to deliver DONE */

/* Reports episode e to the controller: delivered once the controller took
 * it (a SimGrid transfer completes when its receiver gets it, so delivery
 * is the acknowledgement); a report that could not be delivered (a link or
 * the controller's host down) is sent again every DONE_RETRY_PAUSE until
 * the controller's failure detector stops waiting for it (the plan's
 * deadline, a->plan_until), or until the controller's next message waits
 * for the agent.  The first attempt is made whatever the time. */
static void report_done(Cell *cell, AgentState *a, int e, int attempts, int gated, int late) {
  for (bool first = true;; first = false) {
    double left = a->plan_until - simgrid_get_clock();
    /* past the deadline, or the controller moved on: its next plan (or
     * STOP) is waiting in the agent's mailbox */
    if (!first && (left <= 0 || trv_sim_mailbox_queued(a->mb) > 0)) break;
    Msg *done = trv_msg_new(MSG_DONE, e);
    done->agent = a->index;
    done->tag = a->plan_tag;
    done->attempts = attempts;
    done->gated = gated;
    done->late = late;
    if (trv_msg_send(cell->mb_controller, done,
                     first ? cell->opt->commit_timeout : fmin(cell->opt->commit_timeout, left)))
      break;
    left = a->plan_until - simgrid_get_clock();
    if (left <= 0) break;
    sg_actor_sleep_for(fmin(DONE_RETRY_PAUSE, left));
  }
}

/* Whether the referee still watches episode e: it is the episode the
 * controller plays and the controller has not begun to close it.  Asked
 * before an agent's commit and again after it, since the close may begin
 * while the commit is under way. */
static bool referee_watches(const Cell *cell, int e) { return e == cell->played_episode && !cell->closing; }

/* The transport's close of an agent's episode, in the agent's actor:
 * commit (or send the telemetry), then DONE to the controller. */
static bool sim_close(void *ctx, TrvEpisode *ep, GArray *recs, GError **error) {
  AgentState *a = ctx;
  Cell *cell = trv_sim_cell;
  int e = trivium_episode_index(ep), attempts = 0;
  bool ok = true;
  if (referee_watches(cell, e)) g_array_append_vals(cell->played, recs->data, recs->len);
  if (cell->opt->best_effort)
    send_telemetry(cell, a, e, recs);
  else
    ok = commit_atomic(cell, a, e, recs, &attempts);
  if (referee_watches(cell, e)) cell->played_attempts += attempts;
  if (!ok) {
    XBT_INFO("agent %d: the records of episode %d were not committed (%d attempts)", a->index, e, attempts);
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO,
                "agent %d: the records of episode %d were not committed after %d "
                "attempts",
                a->index, e, attempts);
  }
  a->open = NULL;
  int late = a->late;
  a->late = 0;
  report_done(cell, a, e, attempts, trv_episode_gated(ep), late);
  return ok;
}

TrvEpisode *trv_sim_agent_next(AgentState *a) {
  Cell *cell = trv_sim_cell;
  if (a->open) { /* the actor died with its host mid-episode: that episode is lost */
    trv_episode_discard(a->open);
    a->open = NULL;
  }
  while (!a->stopped) {
    Msg *m = trv_msg_wait(a->mb);
    if (m->kind == MSG_STOP) {
      trv_msg_free(m);
      a->stopped = true;
      break;
    }
    if (m->kind != MSG_PLAN) {
      trv_msg_free(m);
      continue;
    }
    if (a->world) cell->wc->agent->episode_begin(a->world, m->episode);
    a->plan_tag = m->tag;
    a->plan_episode = m->episode;
    a->plan_until = m->until;
    if (cell->shared_city && a->hooked != sg_actor_self()) { /* once per actor (a restarted one is another) */
      a->hooked = sg_actor_self();
      sg_actor_on_exit(trv_sim_round_agent_exit, a);
    }
    TrvEpisodeSink sink = {sim_close, a};
    a->open = trv_episode_new_taking(m->plan, a->index, cell->info->steps, cell->info->safe_action, &a->seq,
                                     &a->probe_signs, &sink);
    m->plan = NULL; /* the episode's now */
    trv_msg_free(m);
    return a->open;
  }
  return NULL;
}

/* ---- operations on machines -------------------------------------------------- */

typedef struct {
  const TrvOperation *ops;
  int *index, n; /* this machine's operations, in order */
  double t0;
  double bad_at, bad_expected; /* the first operation off its time: when, and when it should have been */
  bool bad;
} MachineRun;

static bool off_time(double at, double expected) { return fabs(at - expected) > 1e-9 * fmax(1.0, fabs(expected)); }

static void machine_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  MachineRun *r = sg_actor_self_get_data();
  double speed = sg_host_get_speed(sg_host_self());
  for (int i = 0; i < r->n; i++) {
    const TrvOperation *op = &r->ops[r->index[i]];
    double at = r->t0 + op->start;
    if (at - simgrid_get_clock() >= 1e-9) sg_actor_sleep_until(at); /* SimGrid does not sleep below 1e-9 s */
    double started = simgrid_get_clock();
    if (op->duration > 0) sg_actor_execute(op->duration * speed);
    double ended = simgrid_get_clock();
    if (!r->bad && (off_time(started, at) || off_time(ended, at + op->duration))) {
      r->bad = true;
      r->bad_at = off_time(started, at) ? started : ended;
      r->bad_expected = off_time(started, at) ? at : at + op->duration;
    }
  }
}

static sg_host_t machine_host(Cell *cell, int machine) {
  if (!cell->machine_hosts) {
    cell->machine_hosts = g_hash_table_new(g_direct_hash, g_direct_equal);
    size_t n = sg_host_count();
    sg_host_t *hosts = sg_host_list();
    for (size_t i = 0; i < n; i++) {
      const char *v = sg_host_get_property_value(hosts[i], "trivium.machine");
      char *end;
      long k = v ? strtol(v, &end, 10) : -1;
      if (v && *v && !*end && k >= 0 && k < INT_MAX)
        g_hash_table_insert(cell->machine_hosts, GINT_TO_POINTER(k), hosts[i]);
    }
    free(hosts);
  }
  sg_host_t h = g_hash_table_lookup(cell->machine_hosts, GINT_TO_POINTER(machine));
  if (!h) {
    char name[32];
    snprintf(name, sizeof name, "m%d", machine);
    h = sg_host_by_name(name);
  }
  return h;
}

static void fail_cell(Cell *cell, int code, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static void fail_cell(Cell *cell, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  GError *err = g_error_new_valist(TRV_ERROR, code, fmt, ap);
  va_end(ap);
  trv_sim_cell_fail(cell, err);
}

/* Runs the agent's operations, one actor per machine, and checks their times. */
static void run_operations(Cell *cell, AgentState *a, int episode, const TrvOperation *ops, int n) {
  GHashTable *by_machine = g_hash_table_new(g_direct_hash, g_direct_equal);
  GPtrArray *runs = g_ptr_array_new();
  double t0 = simgrid_get_clock();
  for (int i = 0; i < n; i++) {
    MachineRun *r = g_hash_table_lookup(by_machine, GINT_TO_POINTER(ops[i].machine));
    if (!r) {
      r = g_new0(MachineRun, 1);
      r->ops = ops;
      r->index = g_new(int, n);
      r->t0 = t0;
      g_hash_table_insert(by_machine, GINT_TO_POINTER(ops[i].machine), r);
      g_ptr_array_add(runs, r);
    }
    r->index[r->n++] = i;
  }
  sg_actor_t *actors = g_new0(sg_actor_t, runs->len);
  for (guint k = 0; k < runs->len; k++) {
    MachineRun *r = g_ptr_array_index(runs, k);
    int machine = ops[r->index[0]].machine;
    sg_host_t h = machine_host(cell, machine);
    if (!h) {
      fail_cell(cell, TRV_ERROR_INPUT,
                "%s: no host for machine %d (expected a host with the property "
                "trivium.machine=%d, or one named m%d)",
                cell->opt->platform, machine, machine, machine);
      continue;
    }
    char name[48];
    snprintf(name, sizeof name, "trivium-machine-%d", machine);
    actors[k] = sg_actor_init(name, h);
    sg_actor_set_data(actors[k], r);
    sg_actor_ref(actors[k]);
    sg_actor_start(actors[k], machine_actor, 0, NULL);
  }
  for (guint k = 0; k < runs->len; k++) {
    MachineRun *r = g_ptr_array_index(runs, k);
    if (actors[k]) {
      sg_actor_join(actors[k], -1);
      sg_actor_unref(actors[k]);
    }
    if (r->bad)
      fail_cell(cell, TRV_ERROR_IO,
                "agent %d, episode %d: an operation of machine %d ran at t=%.17g s, expected "
                "%.17g s (a host shared with another actor, or not available, stretches operations)",
                a->index, episode, ops[r->index[0]].machine, r->bad_at, r->bad_expected);
    g_free(r->index);
    g_free(r);
  }
  g_free(actors);
  g_ptr_array_free(runs, TRUE);
  g_hash_table_destroy(by_machine);
}

/* The agent's operations of the episode just played, checked: a count
 * >= 0, an array, and each operation on a machine >= 0 from a start to a
 * duration both finite and >= 0.  -1 with *error. */
static int checked_operations(const TrvWorldClass *wc, void *agent, const TrvOperation **ops, GError **error) {
  const char *fn = "agent.operations";
  *ops = NULL;
  int n = wc->agent->operations(agent, ops);
  if (n < 0 || (n > 0 && !*ops)) {
    trv_world_refuse(error, wc->name, fn, "returned %d operations%s; expected a count >= 0 and the operations", n,
                     n > 0 ? " and no array" : "");
    return -1;
  }
  for (int i = 0; i < n; i++) {
    const TrvOperation *op = &(*ops)[i];
    if (op->machine < 0 || !isfinite(op->start) || op->start < 0 || !isfinite(op->duration) || op->duration < 0) {
      trv_world_refuse(error, wc->name, fn,
                       "returned operation %d on machine %d from %g for %g s; expected a "
                       "machine >= 0, a start and a duration finite and >= 0",
                       i, op->machine, op->start, op->duration);
      return -1;
    }
  }
  return n;
}

/* The world's clock (cell->step_seconds > 0): step t starts when step
 * t - 1 ended (the episode's first when the agent began it), runs its work
 * on the agent's host (sim.step_flops, plus sim.probe_flops when the plan
 * probes at t; a world with its own work runs that after the episode), and
 * ends at its start plus the step duration; a shared city then moves at
 * the barrier of the step's participants.  A step whose work (or, in a
 * city, whose wait for the others) outlasts its duration ends when that
 * is over, and is counted late. */
typedef struct {
  Cell *cell;
  AgentState *a;
  TrvEpisode *ep;
  double start; /* the current step's start */
  int late;
} StepClock;

static void clock_step(void *ctx, int step) {
  StepClock *c = ctx;
  Cell *cell = c->cell;
  const TrvSimOptions *opt = cell->opt;
  XBT_CDEBUG(trivium_clock, "agent %d episode %d step %d starts at %.9g", c->a->index, trivium_episode_index(c->ep),
             step, c->start);
  if (!cell->wc->agent->work) {
    double flops = opt->step_flops + (trivium_episode_probe(c->ep, step, NULL, NULL) ? opt->probe_flops : 0.0);
    if (flops > 0) sg_actor_execute(flops);
  }
  double end = c->start + cell->step_seconds;
  bool late = simgrid_get_clock() > end;
  if (!late) sg_actor_sleep_until(end);
  if (cell->wc->agent->step_end) {
    trv_sim_round_step_barrier(c->a, step);
    late = late || simgrid_get_clock() > end + 1e-9 * fmax(1.0, end);
  }
  if (late)
    XBT_CVERB(trivium_clock, "agent %d episode %d step %d: late, ends at %.9g instead of %.9g", c->a->index,
              trivium_episode_index(c->ep), step, simgrid_get_clock(), end);
  c->late += late;
  c->start = simgrid_get_clock();
}

/* What follows an agent's steps: the world's work for the episode (or,
 * off the world's clock, the steps' and probes' flops), then its
 * operations on the platform's machines; false with *error when the world
 * answered out of bounds. */
static bool play_after(Cell *cell, AgentState *a, TrvEpisode *ep, GError **error) {
  const TrvWorldClass *wc = cell->wc;
  const TrvAgentClass *ac = wc->agent;
  bool on_clock = cell->step_seconds > 0;
  double flops =
      ac->work   ? ac->work(a->world)
      : on_clock ? 0.0 /* run inside the steps */
                 : cell->info->steps * cell->opt->step_flops + trivium_episode_n_probes(ep) * cell->opt->probe_flops;
  if (ac->work && !trv_world_check_number(wc->name, "agent.work", flops, 0, INFINITY, error)) return false;
  if (flops > 0 || !on_clock) sg_actor_execute(flops);
  if (ac->operations) {
    const TrvOperation *ops;
    int n = checked_operations(wc, a->world, &ops, error);
    if (n < 0) return false;
    if (n > 0) run_operations(cell, a, trivium_episode_index(ep), ops, n);
  }
  return true;
}

/* Plays the episode with the agent's instance of the world, then its work
 * and operations on the platform; false with *error when the world
 * answered out of bounds.  *late: the steps that outlasted their duration
 * on the world's clock. */
static bool play(Cell *cell, AgentState *a, TrvEpisode *ep, int *late, GError **error) {
  const TrvWorldClass *wc = cell->wc;
  const TrvAgentClass *ac = wc->agent;
  TrvStepSync sync = {trv_sim_round_step_barrier, a};
  /* a shared city's steps end together: its clock starts when the plans went out */
  bool shared = ac->step_end && cell->round.episode == a->plan_episode && cell->round.tag == a->plan_tag;
  StepClock clock = {cell, a, ep, shared ? cell->round.start : simgrid_get_clock(), 0};
  TrvStepSync ticks = {clock_step, &clock};
  bool on_clock = cell->step_seconds > 0;
  bool ok = trv_agent_play(wc, a->world, ep, on_clock ? &ticks : ac->step_end ? &sync : NULL, error);
  *late = clock.late;
  return ok && play_after(cell, a, ep, error);
}

bool trivium_episode_play(TrvEpisode *ep) {
  Cell *cell = trv_sim_cell;
  g_return_val_if_fail(ep && cell, false);
  AgentState *a = &cell->agents[trivium_episode_agent(ep)];
  if (!cell->wc->agent || !a->world) return false;
  GError *err = NULL;
  bool ok = play(cell, a, ep, &a->late, &err);
  if (ok) return true;
  trv_sim_cell_fail(cell, err); /* the controller stops the run */
  return false;
}

void trv_sim_agent_actor(int argc, char **argv) {
  g_assert(argc == 2);
  sg_actor_daemonize(sg_actor_self());
  Cell *cell = trv_sim_cell;
  AgentState *a = &cell->agents[atoi(argv[1])];
  TrvEpisode *ep;
  while ((ep = trv_sim_agent_next(a)) != NULL) {
    GError *err = NULL;
    if (cell->shared_city && trv_sim_round_play_hosted(cell, a, ep, &err)) { /* its host played the steps */
      if (!err) play_after(cell, a, ep, &err);
      if (err) trv_sim_cell_fail(cell, err);
    } else {
      trivium_episode_play(ep);
    }
    trivium_episode_close(ep, NULL);
  }
}
