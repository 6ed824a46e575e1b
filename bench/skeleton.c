/* skeleton.c - Trivium's episode protocol over SimGrid 3.32 with nothing
 * else: no world, no posterior, no records beyond message sizes, no output
 * files.  `trivium run`'s CPU time over this program's, for the same
 * simulated work, is what Trivium costs on top of the engine
 * (docs/simgrid-plugin.md, "Cost over the engine's floor";
 * bench/skeleton-ratio.sh measures it).
 *
 * The rule: for the same probes per agent and episode, the simulated time at
 * which every episode closes equals `trivium run`'s (episodes.csv, column
 * sim_time; -v prints them), because every SimGrid call that takes simulated
 * time is the one plugin/sim/ makes, in the same order, on the same hosts,
 * with the same sizes:
 *  - actors: the log replicas, the agents (daemons, auto-restart), then the
 *    controller, placed as cell-sim.c places them (trivium.role host
 *    properties, or host-name globs; round-robin over the hosts);
 *  - a replica is its mailbox's permanent receiver (log-actor.c): one
 *    receive at a time, no ring of posted receives;
 *  - the controller (controller-actor.c): plans to every agent at once
 *    (PLAN, 64 + 4 probes + 96 components bytes), the DONE reports taken
 *    with one receive posted per agent awaited, until the failure
 *    detector's deadline; CLOSE on the replicas until a majority answered
 *    (CLOSED, 64 + 128 per record held); DECIDE to every replica (64 + 128
 *    per record decided: the agents', the controller's own, the end
 *    marker) and its ACK; above 256 comms at once (the first delivery of
 *    the plans, the DONE receives) helper actors on its host start and
 *    wait for 256 each (cell-sim.c, trv_msg_recv_many);
 *  - an agent (agent-actor.c) on the world's clock: per step, its work
 *    (sim.step_flops, plus sim.probe_flops on a probe step), then a sleep
 *    to the step's end; in a shared city, one actor per host steps the
 *    agents the plans reached on it together (city-round.c: their work as
 *    one execution per core, the sleep, the step's end counted in agents,
 *    the agents waiting on semaphores); then the commit to
 *    every replica at once (64 + 128 T bytes) with its acknowledgements
 *    (64, detached), and DONE (64);
 *  - the waits that follow the load on the platform (transfer.c, measured
 *    once per cell on its routes: skeleton-transfer.c): a commit attempt,
 *    the plans' first delivery, their retry slice and the detector's
 *    deadline (D and the plans' crowd beyond ctl.timeout), CLOSED's receive
 *    and DECIDE's send wait ctl.timeout or longer where the links need it;
 *  - one process per cell (fork, as `trivium run`), up to --jobs at once.
 *
 * The probes come from a schedule (--schedule FILE, written from the CTL
 * files of a `trivium run --ctl DIR` by --schedule-from-ctl): which steps
 * each agent probed in each episode, and how many records the controller
 * added.  On the world's clock a probe step lasts longer than a plain one
 * only when its work outlasts the step (scenarios/multi-agent.xml), and the
 * plan's size counts the agent's probes, so both are needed to match
 * Trivium's times.  Without a schedule: the budget rule ceil(3 ln(e + 1))
 * (capped at T) over the first min(M, K) agents, at their first steps;
 * --probes FILE takes the shared skeleton's file of probes per episode
 * instead (the same split), which is exact only when the split and the
 * steps do not matter (one agent whose probe steps fit in their step).
 *
 * usage: skeleton [--platform F] [--episodes E] [--steps T] [--agents M]
 *                 [--agent-hosts GLOBS] [--replicas N] [--ncomp K]
 *                 [--schedule FILE | --probes FILE] [--barrier] [--step-seconds S]
 *                 [--step-flops F] [--probe-flops F] [--cells C] [--jobs J] [-v]
 *        skeleton --schedule-from-ctl CTL... > FILE
 * -v: each cell prints "cell C episode E sim_time X" (%.9g, as episodes.csv)
 * per episode, and its end time, on stdout. */
#include <fnmatch.h>
#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/exec.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <simgrid/semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "skeleton.h"

#define DETECTOR_MEMORY 15
#define PLAN_FIRST_WAIT 1.0
#define DONE_RETRY_PAUSE 0.5
#define LOG_OUTAGE_MAX 600.0

SkelParams P = {
    "platforms/causalbench.xml", NULL, NULL, NULL, 500, 50, 1, 1, 3, 1, 1, 0, 0, 3, 1.0, 1e6, 2e7, 5.0, 60.0, 3.0};

/* ---- mailboxes ---------------------------------------------------------- */

static sg_mailbox_t *agent_mb, *agent_ack, *log_mb, ctrl_mb, ctrl_reply;

/* ---- the log replicas --------------------------------------------------- */

typedef struct {
  int closed_upto;
  long *held;        /* per episode: records held */
  int *last_episode; /* per agent: the last episode whose commit is held (retries are not held twice) */
} Replica;
static Replica *replicas;

static void replica_actor(int argc, char **argv) {
  (void)argc;
  Replica *r = &replicas[atoi(argv[1])];
  int index = atoi(argv[1]);
  sg_actor_daemonize(sg_actor_self());
  sg_mailbox_set_receiver(sg_mailbox_get_name(log_mb[index]));
  for (;;) {
    void *d = NULL;
    Msg *m = sg_comm_wait(sg_mailbox_get_async(log_mb[index], &d)) == SG_OK ? d : NULL;
    if (!m) continue;
    Msg *rep = NULL;
    switch (m->kind) {
      case COMMIT:
        if (m->episode < r->closed_upto) {
          rep = msg_new(NACK, m->episode);
        } else {
          if (r->last_episode[m->agent] != m->episode) r->held[m->episode] += m->n;
          r->last_episode[m->agent] = m->episode;
          rep = msg_new(ACK, m->episode);
        }
        rep->tag = m->tag;
        break;
      case CLOSE:
        if (r->closed_upto < m->episode + 1) r->closed_upto = m->episode + 1;
        rep = msg_new(CLOSED, m->episode);
        rep->n = r->held[m->episode];
        rep->bytes += rep->n * RECORD_BYTES;
        break;
      case DECIDE: rep = msg_new(ACK, m->episode); break;
      default: break;
    }
    if (rep) {
      rep->agent = index;
      msg_reply(m->reply, rep);
    }
    free(m);
  }
}

/* ---- the agents --------------------------------------------------------- */

static int commit(int a, int e, long records) {
  int n = P.replicas, need = n / 2 + 1;
  for (int attempt = 0; attempt <= P.retries; attempt++) {
    int sent = 0, acks = 0, nacks = 0;
    char *acked = calloc(n, 1);
    sg_comm_t *comms = malloc(n * sizeof *comms);
    Msg **msgs = malloc(n * sizeof *msgs);
    for (int r = 0; r < n; r++) {
      Msg *m = msgs[r] = msg_new(COMMIT, e);
      m->agent = a;
      m->tag = attempt;
      m->n = records;
      m->bytes += records * RECORD_BYTES;
      m->reply = agent_ack[a];
      comms[r] = msg_post(log_mb[r], m);
    }
    double deadline = simgrid_get_clock() + commit_wait(msgs[0]->bytes);
    for (int r = 0; r < n; r++) sent += msg_finish(comms[r], msgs[r], deadline - simgrid_get_clock());
    free(comms);
    Msg **reps = malloc(n * sizeof *reps);
    while (acks < need && acks + nacks < sent && simgrid_get_clock() < deadline) {
      int got = msg_recv_many(agent_ack[a], sent - acks - nacks, deadline - simgrid_get_clock(), reps, NULL);
      if (got == 0) break;
      for (int i = 0; i < got; i++) {
        Msg *rep = reps[i];
        if (rep->episode == e && rep->tag == attempt && rep->agent >= 0 && rep->agent < n && !acked[rep->agent]) {
          acked[rep->agent] = 1;
          acks += rep->kind == ACK;
          nacks += rep->kind == NACK;
        }
        free(rep);
      }
    }
    free(reps);
    free(msgs);
    free(acked);
    if (acks >= need) return 1;
    if (nacks > n - need) return 0;
    sg_actor_sleep_for(0.5 * (attempt + 1));
  }
  return 0;
}

static void report_done(int a, int e, int tag, double until) {
  char name[64];
  snprintf(name, sizeof name, "trivium/agent/%d", a);
  for (int first = 1;; first = 0) {
    double left = until - simgrid_get_clock();
    if (!first && (left <= 0 || sg_mailbox_listen(name))) break;
    Msg *done = msg_new(DONE, e);
    done->agent = a;
    done->tag = tag;
    if (msg_send(ctrl_mb, done, first ? P.commit_timeout : fmin(P.commit_timeout, left))) break;
    left = until - simgrid_get_clock();
    if (left <= 0) break;
    sg_actor_sleep_for(fmin(DONE_RETRY_PAUSE, left));
  }
}

/* T steps: on the world's clock (agent-actor.c, clock_step), or, with
 * --step-seconds 0, steps that last their work (one execution after
 * them); in a shared city, by the agent's host (play_hosted). */
static void play(int a, int e, int tag) {
  int hosted = P.barrier && play_hosted(a, e, tag);
  if (P.step_seconds <= 0) {
    sg_actor_execute(P.steps * P.step_flops + probes_of(a, e) * P.probe_flops);
    return;
  }
  if (hosted) return;
  const int *probe = probe_steps[e] + probe_at[e][a], *probe_end = probe_steps[e] + probe_at[e][a + 1];
  double start = simgrid_get_clock();
  for (int t = 0; t < P.steps; t++) {
    int probing = probe < probe_end && *probe == t;
    probe += probing;
    double flops = P.step_flops + (probing ? P.probe_flops : 0.0);
    if (flops > 0) sg_actor_execute(flops);
    double end = start + P.step_seconds;
    if (!(simgrid_get_clock() > end)) sg_actor_sleep_until(end);
    start = simgrid_get_clock();
  }
}

static void agent_actor(int argc, char **argv) {
  (void)argc;
  int a = atoi(argv[1]);
  sg_actor_daemonize(sg_actor_self());
  for (;;) {
    Msg *m = msg_wait(agent_mb[a]);
    Kind k = m->kind;
    int e = m->episode, tag = m->tag;
    double until = m->until;
    free(m);
    if (k == STOP) break;
    if (k != PLAN) continue;
    play(a, e, tag);
    commit(a, e, P.steps);
    report_done(a, e, tag, until);
  }
}

/* ---- the controller ----------------------------------------------------- */

static double healthy[DETECTOR_MEMORY], *close_time;
static int n_healthy;
static long *decided; /* per episode: records decided */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
static double nominal(void) { return P.steps * P.step_seconds; }
/* D (cell-sim.c, steps_duration): a step lasts step_seconds, or the busiest
 * agent host's share of its agents' step work; plus a commit attempt's wait
 * beyond ctl.timeout (controller-actor.c, detector_duration). */
static double steps_duration;
static double detector_duration(void) {
  return steps_duration + (commit_wait(HEADER_BYTES + P.steps * RECORD_BYTES) - P.commit_timeout);
}
static void steps_duration_set(sg_host_t *ah, int na) {
  double step = P.step_seconds;
  for (int k = 0; P.step_seconds > 0 && P.step_flops > 0 && k < na; k++) {
    int n = 0, cores = sg_host_core_count(ah[k]);
    for (int a = 0; a < P.agents; a++) n += ah[a % na] == ah[k];
    cores = cores < 1 ? 1 : cores;
    double speed = sg_host_get_speed(ah[k]), work = (n + cores - 1) / cores * P.step_flops / speed;
    if (speed > 0 && work > step) step = work;
  }
  steps_duration = P.steps * step;
}
static double detector_timeout(void) {
  int n = n_healthy < DETECTOR_MEMORY ? n_healthy : DETECTOR_MEMORY;
  if (n == 0) return detector_duration() + P.episode_timeout;
  double d[DETECTOR_MEMORY];
  memcpy(d, healthy, sizeof(double) * n);
  qsort(d, n, sizeof *d, cmp_double);
  double median = n % 2 ? d[n / 2] : 0.5 * (d[n / 2 - 1] + d[n / 2]);
  return detector_duration() + fmin(P.episode_timeout, P.detector_factor * median + P.commit_timeout);
}
static void detector_account(double start, double last, int missing) {
  if (missing == 0) healthy[n_healthy++ % DETECTOR_MEMORY] = fmax(0.0, last - start - detector_duration());
}

static Msg *plan_msg(int a, int e, int tag, double until) {
  Msg *m = msg_new(PLAN, e);
  m->tag = tag;
  m->until = until;
  m->bytes += 4L * probes_of(a, e) + 96L * P.ncomp;
  return m;
}

/* Every agent's plan at once, by the largest (controller-actor.c, plans_crowd). */
static double plans_crowd(int e) {
  long most = 0;
  for (int a = 0; a < P.agents; a++)
    if (4L * probes_of(a, e) + 96L * P.ncomp > most) most = 4L * probes_of(a, e) + 96L * P.ncomp;
  return plan_crowd(HEADER_BYTES + most);
}

/* Independent agents (controller-actor.c, dispatch_and_wait). */
static void dispatch_and_wait(int e) {
  int n = P.agents, n_sent = 0, reported = 0;
  double first = fmin(P.commit_timeout, PLAN_FIRST_WAIT), crowd = plans_crowd(e);
  double start = simgrid_get_clock(), deadline = start + detector_timeout() + fmax(0.0, crowd - first);
  char *sent = calloc(n, 1), *posted = calloc(n, 1);
  sg_comm_t *comms = malloc(n * sizeof *comms);
  Msg **msgs = malloc(n * sizeof *msgs), **done = malloc(n * sizeof *done);
  double *at = malloc(n * sizeof *at);
  for (int a = 0; a < n; a++) msgs[a] = plan_msg(a, e, 1, deadline);
  double by = fmin(start + fmax(first, crowd), deadline);
  msg_send_many(agent_mb, msgs, n, by, sent);
  for (int a = 0; a < n; a++) n_sent += sent[a];
  double last = simgrid_get_clock();
  while (reported < n && simgrid_get_clock() < deadline) {
    double before = simgrid_get_clock();
    int retry = n_sent < n;
    for (int a = 0; retry && a < n; a++)
      if ((posted[a] = !sent[a])) comms[a] = msg_post(agent_mb[a], msgs[a] = plan_msg(a, e, 1, deadline));
    double slice = retry ? fmin(fmax(1.0, crowd), deadline - before) : deadline - before;
    int expect = n_sent - reported, got = 0;
    if (expect > 0)
      got = msg_recv_many(ctrl_mb, expect, slice, done, at);
    else
      sg_actor_sleep_for(slice);
    for (int i = 0; i < got; i++) {
      if (done[i]->kind == DONE && done[i]->episode == e) reported++, last = at[i];
      free(done[i]);
    }
    for (int a = 0; retry && a < n; a++)
      if (posted[a] && msg_finish(comms[a], msgs[a], 0)) sent[a] = 1, n_sent++;
    if (expect > 0 && got == 0 && simgrid_get_clock() == before) sg_actor_sleep_for(fmin(0.1, deadline - before));
  }
  free(sent);
  free(posted);
  free(comms);
  free(msgs);
  free(done);
  free(at);
  detector_account(start, last, n - reported);
}

/* A shared city (controller-actor.c, dispatch_shared). */
static void dispatch_shared(int e) {
  int n = P.agents, tag = 1;
  double crowd = plans_crowd(e);
  double start = simgrid_get_clock(), deadline = start + detector_timeout() + fmax(0.0, crowd - P.commit_timeout);
  char *member = city_open(e, tag, start);
  Msg **msgs = malloc(n * sizeof *msgs);
  for (int a = 0; a < n; a++) msgs[a] = plan_msg(a, e, tag, deadline);
  double by = fmin(simgrid_get_clock() + fmax(P.commit_timeout, crowd), deadline);
  msg_send_many(agent_mb, msgs, n, by, member);
  free(msgs);
  int waiting = city_fix();
  double last = simgrid_get_clock();
  if (waiting == 0) {
    double end = start + nominal();
    if (end > simgrid_get_clock()) sg_actor_sleep_until(end);
    return;
  }
  char *got_done = calloc(n, 1);
  Msg **done = malloc(waiting * sizeof *done);
  double *at = malloc(waiting * sizeof *at);
  while (waiting > 0 && simgrid_get_clock() < deadline) {
    double before = simgrid_get_clock();
    int got = msg_recv_many(ctrl_mb, waiting, deadline - simgrid_get_clock(), done, at);
    if (got == 0) {
      if (simgrid_get_clock() == before) sg_actor_sleep_for(fmin(0.1, deadline - before));
      continue;
    }
    for (int i = 0; i < got; i++) {
      Msg *d = done[i];
      if (d->kind == DONE && d->episode == e && d->agent >= 0 && d->agent < n && member[d->agent] &&
          !got_done[d->agent])
        got_done[d->agent] = 1, waiting--, last = at[i];
      free(d);
    }
  }
  free(got_done);
  free(done);
  free(at);
  detector_account(start, last, waiting);
}

/* CLOSE until a majority answered: the records of the episode. */
static long close_episode(int e) {
  int n = P.replicas, need = n / 2 + 1, answered = 0;
  char *got = calloc(n, 1);
  long records = 0;
  double deadline = simgrid_get_clock() + LOG_OUTAGE_MAX;
  while (answered < need && simgrid_get_clock() < deadline) {
    for (int r = 0; r < n && answered < need && simgrid_get_clock() < deadline; r++) {
      if (got[r]) continue;
      Msg *m = msg_new(CLOSE, e);
      m->reply = ctrl_reply;
      if (!msg_send(log_mb[r], m, fmin(P.commit_timeout, deadline - simgrid_get_clock()))) continue;
      double wait = control_wait(HEADER_BYTES + (long)P.agents * P.steps * RECORD_BYTES);
      Msg *rep = msg_recv(ctrl_reply, fmin(wait, deadline - simgrid_get_clock()));
      if (rep && rep->kind == CLOSED && rep->episode == e && rep->agent == r) {
        got[r] = 1;
        answered++;
        if (rep->n > records) records = rep->n; /* the union of identical sets */
      }
      free(rep);
    }
    if (answered < need && simgrid_get_clock() < deadline)
      sg_actor_sleep_for(fmin(1.0, deadline - simgrid_get_clock()));
  }
  free(got);
  return records;
}

static int *replica_acked;

static int decide_round(int upto) {
  int all = 1;
  for (int r = 0; r < P.replicas; r++) {
    if (replica_acked[r] > upto) continue;
    Msg *m = msg_new(DECIDE, upto);
    m->reply = ctrl_reply;
    for (int e = replica_acked[r]; e <= upto; e++) m->bytes += decided[e] * RECORD_BYTES;
    if (msg_send(log_mb[r], m, control_wait(m->bytes))) {
      Msg *rep = msg_recv(ctrl_reply, P.commit_timeout);
      if (rep && rep->kind == ACK && rep->agent == r && rep->episode == upto) replica_acked[r] = upto + 1;
      free(rep);
    }
    all = all && replica_acked[r] > upto;
  }
  return all;
}

static void controller_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  for (int e = 0; e < P.episodes; e++) {
    if (P.barrier)
      dispatch_shared(e);
    else
      dispatch_and_wait(e);
    decided[e] = close_episode(e) + own[e];
    close_time[e] = simgrid_get_clock();
    decide_round(e);
  }
  for (int round = 0; round < 120 && P.episodes > 0; round++) {
    if (decide_round(P.episodes - 1)) break;
    sg_actor_sleep_for(1.0);
  }
}

/* ---- set-up ------------------------------------------------------------- */

static sg_host_t *hosts_of(const char *role, const char *globs, int *n) {
  sg_host_t *all = sg_host_list();
  size_t count = sg_host_count();
  sg_host_t *out = malloc((count + 1) * sizeof *out);
  *n = 0;
  for (size_t i = 0; i < count; i++) {
    int hit = 0;
    if (!globs) {
      const char *r = sg_host_get_property_value(all[i], "trivium.role");
      hit = r && !strcmp(r, role);
    } else {
      char *copy = strdup(globs), *save = NULL;
      for (char *g = strtok_r(copy, ",", &save); g && !hit; g = strtok_r(NULL, ",", &save))
        hit = fnmatch(g, sg_host_get_name(all[i]), 0) == 0;
      free(copy);
    }
    if (hit) out[(*n)++] = all[i];
  }
  free(all);
  return out;
}

static void launch(const char *name, sg_host_t h, void (*code)(int, char **), int index) {
  char s[16];
  snprintf(s, sizeof s, "%d", index);
  char *argv[] = {(char *)name, s, NULL};
  sg_actor_t a = sg_actor_init(name, h);
  sg_actor_start(a, code, 2, argv);
  sg_actor_set_auto_restart(a, 1);
}

static int run_cell(int cell) {
  schedule_alloc();
  if (P.schedule)
    schedule_load(cell);
  else if (P.probes)
    probes_load(cell);
  else
    schedule_default();
  int argc = 1;
  char *argv[] = {"skeleton", NULL};
  simgrid_init(&argc, argv);
  simgrid_load_platform(P.platform);
  int nc, nr, na;
  sg_host_t *ch = hosts_of("controller", NULL, &nc), *rh = hosts_of("ctl", NULL, &nr),
            *ah = hosts_of("agent", P.agent_hosts, &na);
  if (!nc || !nr || !na) die("the platform lacks a role");
  ctrl_mb = sg_mailbox_by_name("trivium/controller");
  ctrl_reply = sg_mailbox_by_name("trivium/controller/reply");
  agent_mb = malloc(P.agents * sizeof *agent_mb);
  agent_ack = malloc(P.agents * sizeof *agent_ack);
  log_mb = malloc(P.replicas * sizeof *log_mb);
  replicas = calloc(P.replicas, sizeof *replicas);
  replica_acked = calloc(P.replicas, sizeof *replica_acked);
  decided = calloc(P.episodes, sizeof *decided);
  close_time = calloc(P.episodes, sizeof *close_time);
  char name[64];
  for (int a = 0; a < P.agents; a++) {
    snprintf(name, sizeof name, "trivium/agent/%d", a);
    agent_mb[a] = sg_mailbox_by_name(name);
    snprintf(name, sizeof name, "trivium/agent/%d/ack", a);
    agent_ack[a] = sg_mailbox_by_name(name);
  }
  if (P.barrier) city_alloc(ah, na);
  steps_duration_set(ah, na);
  transfer_rates(ah, na, rh, nr, ch[0]);
  for (int r = 0; r < P.replicas; r++) {
    snprintf(name, sizeof name, "trivium/log/%d", r);
    log_mb[r] = sg_mailbox_by_name(name);
    replicas[r].held = calloc(P.episodes, sizeof *replicas[r].held);
    replicas[r].last_episode = malloc(P.agents * sizeof *replicas[r].last_episode);
    for (int a = 0; a < P.agents; a++) replicas[r].last_episode[a] = -1;
  }
  for (int r = 0; r < P.replicas; r++) {
    snprintf(name, sizeof name, "trivium-log-%d", r);
    launch(name, rh[r % nr], replica_actor, r);
  }
  for (int a = 0; a < P.agents; a++) {
    snprintf(name, sizeof name, "trivium-agent-%d", a);
    launch(name, ah[a % na], agent_actor, a);
  }
  launch("trivium-controller", ch[0], controller_actor, 0);
  simgrid_run();
  if (P.verbose) {
    for (int e = 0; e < P.episodes; e++) printf("cell %d episode %d sim_time %.9g\n", cell, e, close_time[e]);
    printf("cell %d end %.9g\n", cell, simgrid_get_clock());
  }
  free(ch);
  free(rh);
  free(ah);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--schedule-from-ctl")) return schedule_from_ctl(argc - 2, argv + 2);
  for (int i = 1; i < argc; i++) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(o, "--barrier"))
      P.barrier = 1;
    else if (!strcmp(o, "-v"))
      P.verbose = 1;
    else if (!v)
      die("an option lacks its value (see the usage at the top of bench/skeleton.c)");
    else if (!strcmp(o, "--platform"))
      P.platform = v, i++;
    else if (!strcmp(o, "--agent-hosts"))
      P.agent_hosts = v, i++;
    else if (!strcmp(o, "--schedule"))
      P.schedule = v, i++;
    else if (!strcmp(o, "--probes"))
      P.probes = v, i++;
    else if (!strcmp(o, "--episodes"))
      P.episodes = atoi(v), i++;
    else if (!strcmp(o, "--steps"))
      P.steps = atoi(v), i++;
    else if (!strcmp(o, "--agents"))
      P.agents = atoi(v), i++;
    else if (!strcmp(o, "--replicas"))
      P.replicas = atoi(v), i++;
    else if (!strcmp(o, "--ncomp"))
      P.ncomp = atoi(v), i++;
    else if (!strcmp(o, "--cells"))
      P.cells = atoi(v), i++;
    else if (!strcmp(o, "--jobs"))
      P.jobs = atoi(v), i++;
    else if (!strcmp(o, "--step-seconds"))
      P.step_seconds = atof(v), i++;
    else if (!strcmp(o, "--step-flops"))
      P.step_flops = atof(v), i++;
    else if (!strcmp(o, "--probe-flops"))
      P.probe_flops = atof(v), i++;
    else {
      fprintf(stderr, "skeleton: unknown option %s\n", o);
      return 2;
    }
  }
  if (P.agents < 1 || P.replicas < 1 || P.episodes < 0 || P.steps < 1 || P.cells < 1 || P.jobs < 1)
    die("agents, replicas, steps, cells and jobs must be at least 1");
  int next = 0, running = 0, finished = 0, code = 0;
  fflush(NULL);
  while (finished < P.cells) {
    while (running < P.jobs && next < P.cells) {
      pid_t pid = fork();
      if (pid < 0) return 1;
      if (pid == 0) {
        int c = run_cell(next);
        fflush(NULL);
        _exit(c);
      }
      next++;
      running++;
    }
    int st;
    if (wait(&st) < 0) break;
    running--;
    finished++;
    if (!WIFEXITED(st) || WEXITSTATUS(st)) code = 1;
  }
  return code;
}
