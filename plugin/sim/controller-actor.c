/* controller-actor.c - the meta-controller as a SimGrid actor.
 *
 * Episode e (the protocol of core/protocol.h over SimGrid):
 *  1. plan (trv_session_plan: one share per agent, disjoint by component)
 *     and deliver every agent its share; every agent plays T steps;
 *  2. wait for the agents' DONE until the failure detector's deadline
 *     (detector_timeout; the plans carry it, and agents retry DONE until
 *     then);
 *  3. CLOSE e on the replicas until a majority answered: the episode's
 *     committed records are the union of what that majority holds (a record
 *     a majority acknowledged is on at least one of them; records are whole,
 *     so a union never holds half of one), deduplicated by id;
 *  4. close it (trv_session_close: absorb, the referee's readouts), then
 *     DECIDE: send the decided episode (records, the controller's own
 *     records, EPISODE_END, the posterior snapshot) to every replica, with
 *     the backlog of episodes a replica missed while it was down.  An
 *     episode every replica holds is dropped from memory.
 * Restart safety: the decided episodes live in the Cell; `closing` marks an
 * episode whose CLOSE began (it is never re-planned, only closed again); an
 * episode already absorbed is only re-decided.  DONE messages carry the
 * controller's incarnation so that a restarted controller ignores stale
 * ones.  The run ends with catch-up rounds until every replica holds every
 * episode, then STOP.  A world's answer out of bounds (core/world-call.h)
 * while planning, playing or closing an episode stops the run there: the
 * episode is not decided, and the cell ends with that error.  When every
 * agent of a program's own has left (agent-life.c), the run ends before
 * its next episode, or without the one nobody played. */
#include <math.h>
#include <string.h>

#include "sim-internal.h"

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(trivium_controller, trivium, "Trivium: the meta-controller (commits, alarms, resets)");

#define LOG_OUTAGE_MAX 600.0 /* simulated seconds without a majority of replicas: the log is unreachable */
#define CATCHUP_ROUNDS_MAX 120

/* Logs the committed graph an episode plans with, when it changed. */
static void log_plan(Cell *cell, int e, const TrvGraph *ghat) {
  static uint64_t last = UINT64_MAX;
  uint64_t mask = trv_graph_mask(ghat);
  if (mask == last) return;
  last = mask;
  GString *g = g_string_new(NULL);
  for (int j = 0; j < ghat->n; j++)
    if (ghat->present[j]) g_string_append_printf(g, "%s%s", g->len ? ", " : "", cell->info->cand->components[j].name);
  XBT_INFO("episode %d: the committed graph G_hat is now {%s}", e, g->str);
  trv_sim_trace_mark("trivium/ghat", "changed");
  g_string_free(g, TRUE);
}

/* The failure detector: how long the controller waits for an episode's
 * DONE reports.  An episode lasts its steps on the world's clock, D =
 * steps x step duration (0 when steps last their work; a step lasts
 * sim.step_seconds, or its work where a host's agents' step work outlasts
 * it: cell-sim.c, steps_duration), and then its commits and reports: the
 * detector waits D plus a margin.  D also counts the part of a commit
 * attempt's wait beyond ctl.timeout (where the agents' commits together
 * take longer: transfer.c).  Until an
 * episode has closed with every report in, the margin is
 * sim.episode_timeout; then sim.detector_factor times the median margin
 * that the last TRV_DETECTOR_MEMORY such ("healthy") episodes took beyond
 * D (from the plans to the last report), plus one ctl.timeout (a commit
 * attempt), never more than sim.episode_timeout.  A median, not the
 * longest: an episode slowed by a fault that still completed does not
 * stretch the bound.  The agents retry DONE until this deadline (the plan
 * carries it), so a report held up by a link down arrives once the link
 * is back, and only a report that cannot come (a host down, an agent gone)
 * holds the episode until the detector closes it. */
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The steps alone on the world's clock (an episode nobody plays), and D,
 * which counts the agents' step work where it outlasts a step. */
static double nominal_duration(const Cell *cell) { return cell->info->steps * cell->step_seconds; }
static double detector_duration(const Cell *cell) {
  return cell->steps_duration + (trv_sim_commit_wait(cell, trv_sim_episode_bytes(cell, 1)) - cell->opt->commit_timeout);
}

static double detector_timeout(const Cell *cell) {
  const TrvSimOptions *o = cell->opt;
  int n = MIN(cell->n_healthy, TRV_DETECTOR_MEMORY);
  if (n == 0) return detector_duration(cell) + o->episode_timeout;
  double d[TRV_DETECTOR_MEMORY];
  memcpy(d, cell->healthy, sizeof(double) * (size_t)n);
  qsort(d, (size_t)n, sizeof *d, cmp_double);
  double median = n % 2 ? d[n / 2] : 0.5 * (d[n / 2 - 1] + d[n / 2]);
  return detector_duration(cell) + fmin(o->episode_timeout, o->detector_factor * median + o->commit_timeout);
}

/* The wait for an episode's reports is over: an episode with every report
 * in teaches the detector its margin beyond D; otherwise the detector
 * closed it, and the time waited since the last report (or since the
 * plans went out) is lost. */
static void detector_account(Cell *cell, TrvEpisodeCounts *counts, double start, double last, int missing,
                             double timeout) {
  counts->detector_timeout = timeout;
  if (missing == 0) {
    cell->healthy[cell->n_healthy++ % TRV_DETECTOR_MEMORY] = fmax(0.0, last - start - detector_duration(cell));
    return;
  }
  counts->detector_closed = 1;
  counts->agents_missing = missing;
  counts->wait_lost = fmax(0.0, simgrid_get_clock() - last);
}

/* Plans episode e into parts (n_agents of them); false when the world's
 * answer stopped the cell (cell->error). */
static bool plan(Cell *cell, int e, TrvPlan **parts) {
  GError *err = NULL;
  if (!trv_session_plan(cell->session, e, cell->n_agents, parts, &err)) {
    trv_sim_cell_fail(cell, err);
    return false;
  }
  log_plan(cell, e, &parts[0]->ghat);
  return true;
}

/* Episode e's plan message for the agent whose share is part. */
static Msg *plan_msg(Cell *cell, int e, const TrvPlan *part, double deadline) {
  Msg *m = trv_msg_new(MSG_PLAN, e);
  m->plan = trv_plan_copy(part);
  m->tag = cell->incarnation;
  m->until = deadline;
  return m;
}

/* Posts episode e's plan to agent a (sending it with trv_msg_finish). */
static sg_comm_t post_plan(Cell *cell, int e, int a, const TrvPlan *part, double deadline, Msg **msg) {
  *msg = plan_msg(cell, e, part, deadline);
  return trv_msg_post(cell->agents[a].mb, *msg);
}

/* Independent agents: deliver every agent its plan, to all at once (each
 * within ctl.timeout), then take their DONE reports until every agent
 * reported or the failure detector's deadline.  An agent that could not be
 * reached (link or host down) is offered its plan again every second
 * while the reports of the others are taken, so that one agent down does
 * not keep the controller from hearing the rest. */
#define PLAN_FIRST_WAIT 1.0 /* simulated seconds */

/* The time every agent's plan takes at once, by the largest (transfer.c). */
static double plans_crowd(const Cell *cell, TrvPlan *const *parts) {
  long most = 0;
  for (int a = 0; a < cell->n_agents; a++)
    if (parts[a]) most = MAX(most, trv_plan_wire_bytes(parts[a]));
  return trv_sim_plan_crowd(cell, 64 + most);
}

static void dispatch_and_wait(Cell *cell, int e, TrvEpisodeCounts *counts) {
  int n = cell->n_agents;
  TrvPlan **parts = g_new(TrvPlan *, n);
  if (!plan(cell, e, parts)) {
    g_free(parts);
    return;
  }
  /* a second for the first delivery (below), or what the plans together
   * take when longer (transfer.c); the detector waits that much longer */
  double first = fmin(cell->opt->commit_timeout, PLAN_FIRST_WAIT), crowd = plans_crowd(cell, parts);
  double start = simgrid_get_clock(), timeout = detector_timeout(cell) + fmax(0.0, crowd - first),
         deadline = start + timeout;
  int n_sent = 0, reported = 0;
  bool *sent = g_new0(bool, n), *posted = g_new0(bool, n);
  sg_comm_t *comms = g_new(sg_comm_t, n);
  Msg **msgs = g_new0(Msg *, n);
  sg_mailbox_t *mbs = g_new(sg_mailbox_t, n);
  for (int a = 0; a < n; a++) {
    msgs[a] = plan_msg(cell, e, parts[a], deadline);
    mbs[a] = cell->agents[a].mb;
  }
  /* a second for the first delivery: an agent not yet listening (a
   * program's agent busy with work of its own, one still in its previous
   * episode) is offered its plan again below while the others' reports
   * are taken, instead of holding them up for ctl.timeout */
  double by = fmin(start + fmax(first, crowd), deadline);
  trv_msg_send_many(mbs, msgs, n, by, sent);
  g_free(mbs);
  for (int a = 0; a < n; a++) n_sent += sent[a];
  double last = simgrid_get_clock();
  Msg **done = g_new(Msg *, n);
  double *at = g_new(double, n);
  while (reported < n && simgrid_get_clock() < deadline) {
    double before = simgrid_get_clock();
    /* the undelivered plans again, then a second of reports; all delivered: the reports until the deadline */
    bool retry = n_sent < n;
    for (int a = 0; retry && a < n; a++)
      if ((posted[a] = !sent[a])) comms[a] = post_plan(cell, e, a, parts[a], deadline, &msgs[a]);
    double slice = retry ? fmin(fmax(1.0, crowd), deadline - before) : deadline - before;
    int expect = n_sent - reported, got = 0;
    if (expect > 0)
      got = trv_msg_recv_many(cell->mb_controller, expect, slice, done, at);
    else
      sg_actor_sleep_for(slice);
    for (int i = 0; i < got; i++) {
      Msg *d = done[i];
      if (d->kind == MSG_DONE && d->episode == e && d->tag == cell->incarnation) {
        counts->gated += d->gated;
        counts->steps_late += d->late;
        reported++;
        last = at[i];
      }
      trv_msg_free(d);
    }
    for (int a = 0; retry && a < n; a++)
      if (posted[a] && trv_msg_finish(comms[a], msgs[a], 0)) sent[a] = true, n_sent++;
    /* only reports whose transfer failed (a link down) came: their agents send them again */
    if (expect > 0 && got == 0 && simgrid_get_clock() == before) sg_actor_sleep_for(fmin(0.1, deadline - before));
  }
  trv_session_parts_free(parts, n);
  g_free(sent);
  g_free(posted);
  g_free(comms);
  g_free(msgs);
  g_free(parts);
  g_free(done);
  g_free(at);
  detector_account(cell, counts, start, last, n - reported, timeout);
}

/* Shared-city worlds (Round in sim-internal.h): plan and deliver episode e
 * once, each plan within commit_timeout, and fix the participants: the
 * agents reached.  A controller restarted within the episode takes the
 * round as it stands (fixing it if its predecessor died delivering) instead
 * of planning the episode again.  Then wait for the participants' DONE
 * until the deadline: the episode deadline is the controller's failure
 * detector (an agent that died, or a DONE sent while the controller was
 * down, is waited for until then). */
static void dispatch_shared(Cell *cell, int e, TrvEpisodeCounts *counts) {
  Round *R = &cell->round;
  if (R->episode != e) {
    TrvPlan **parts = g_new(TrvPlan *, cell->n_agents);
    if (!plan(cell, e, parts)) {
      g_free(parts);
      return;
    }
    R->episode = e;
    R->tag = cell->incarnation;
    R->fixed = false;
    for (int a = 0; a < cell->n_agents; a++) {
      R->member[a] = R->done[a] = R->stand_in[a] = false;
      R->next_step[a] = 0;
    }
    double crowd = plans_crowd(cell, parts);
    R->start = simgrid_get_clock();
    R->deadline = R->start + detector_timeout(cell) + fmax(0.0, crowd - cell->opt->commit_timeout);
    sg_mailbox_t *mbs = g_new(sg_mailbox_t, cell->n_agents);
    Msg **msgs = g_new0(Msg *, cell->n_agents);
    bool *delivered = g_new(bool, cell->n_agents);
    for (int a = 0; a < cell->n_agents; a++) mbs[a] = cell->agents[a].mb;
    double by = fmin(simgrid_get_clock() + fmax(cell->opt->commit_timeout, crowd), R->deadline);
    int members = 0;
    /* an agent of the program's own that left plays no more: not offered
     * a plan (its delivery would wait out ctl.timeout every episode).  No
     * agent reached (every link down fails a send at once): nobody has
     * started, so retry every second until the commit timeout rather than
     * let the episode pass in no simulated time */
    for (bool first = true; first || (members == 0 && simgrid_get_clock() < by && !trv_sim_agents_gone(cell));
         first = false) {
      if (!first) sg_actor_sleep_for(fmin(1.0, by - simgrid_get_clock()));
      for (int a = 0; a < cell->n_agents; a++) {
        msgs[a] = NULL;
        if (cell->agents[a].left) continue;
        Msg *m = msgs[a] = trv_msg_new(MSG_PLAN, e);
        m->plan = trv_plan_copy(parts[a]);
        m->tag = R->tag;
        m->until = R->deadline;
      }
      trv_msg_send_many(mbs, msgs, cell->n_agents, by, delivered);
      for (int a = 0; a < cell->n_agents; a++)
        if (delivered[a]) R->member[a] = true, members++;
    }
    trv_session_parts_free(parts, cell->n_agents);
    g_free(mbs);
    g_free(delivered);
    g_free(msgs);
    g_free(parts);
  }
  if (!R->fixed) {
    trv_sim_round_fix(cell);
    R->last = simgrid_get_clock();
  }
  if (R->members == 0) { /* nobody plays, but the city's episode still lasts its steps on the world's clock */
    double end = R->start + nominal_duration(cell);
    if (end > simgrid_get_clock()) sg_actor_sleep_until(end);
    counts->detector_timeout = R->deadline - R->start;
    return;
  }
  int waiting = 0;
  for (int a = 0; a < cell->n_agents; a++) waiting += R->member[a] && !R->done[a];
  Msg **done = g_new(Msg *, MAX(waiting, 1));
  double *at = g_new(double, MAX(waiting, 1));
  while (waiting > 0 && simgrid_get_clock() < R->deadline) {
    double before = simgrid_get_clock();
    int got = trv_msg_recv_many(cell->mb_controller, waiting, R->deadline - simgrid_get_clock(), done, at);
    if (got == 0) { /* only reports whose transfer failed (a link down): their agents send them again */
      if (simgrid_get_clock() == before) sg_actor_sleep_for(fmin(0.1, R->deadline - before));
      continue;
    }
    for (int i = 0; i < got; i++) {
      Msg *d = done[i];
      if (d->kind == MSG_DONE && d->episode == e && d->tag == R->tag && d->agent >= 0 && d->agent < cell->n_agents &&
          R->member[d->agent] && !R->done[d->agent]) {
        R->done[d->agent] = true;
        counts->gated += d->gated;
        counts->steps_late += d->late;
        waiting--;
        R->last = at[i];
      }
      trv_msg_free(d);
    }
  }
  g_free(done);
  g_free(at);
  detector_account(cell, counts, R->start, R->last, waiting, R->deadline - R->start);
}

/* Whether b's records have a's identities, in a's order: then every record
 * of b is one of a's. */
static bool same_ids(const GArray *a, const GArray *b) {
  if (a->len != b->len) return false;
  const TrvRecord *x = (const TrvRecord *)a->data, *y = (const TrvRecord *)b->data;
  for (guint i = 0; i < a->len; i++)
    if (trv_record_id(&x[i]) != trv_record_id(&y[i])) return false;
  return true;
}

/* Joins one CLOSED reply's records to the union *all.  The first reply's
 * array is taken as it is (a replica's, by reference: read-only); it is
 * copied only when another reply brings a record it lacks.  A replica's
 * records are distinct (it dropped repeated ids), and best effort keeps
 * repeats: only atomic mode (dedup) joining more than one reply needs the
 * ids, and not when the reply repeats the union record for record (the
 * usual case: every replica got every commit, in the same order). */
static void join_reply(GArray **all, bool *own, TrvKeySet **ids, bool dedup, GArray *records) {
  if (!*all) {
    *all = g_array_ref(records);
    return;
  }
  if (dedup && same_ids(*all, records)) return;
  if (!*own) {
    GArray *copy = g_array_sized_new(FALSE, FALSE, sizeof(TrvRecord), (*all)->len + records->len);
    g_array_append_vals(copy, (*all)->data, (*all)->len);
    g_array_unref(*all);
    *all = copy;
    *own = true;
  }
  if (dedup && !*ids) {
    *ids = trv_key_set_sized((*all)->len + records->len);
    for (guint i = 0; i < (*all)->len; i++) trv_record_id_add(*ids, &g_array_index(*all, TrvRecord, i));
  }
  for (guint i = 0; i < records->len; i++) {
    const TrvRecord *rec = &g_array_index(records, TrvRecord, i);
    if (dedup && !trv_record_id_add(*ids, rec)) continue;
    g_array_append_val(*all, *rec);
  }
}

/* CLOSE e until a majority of replicas answered; returns the union of their
 * records (deduplicated; read-only, release with g_array_unref), or NULL
 * when no majority answered for LOG_OUTAGE_MAX simulated seconds (the log
 * is unreachable). */
static GArray *close_episode(Cell *cell, int e, int *intents) {
  int n = cell->n_replicas, need = n / 2 + 1, answered = 0;
  bool *got = g_new0(bool, n);
  GArray *all = NULL;
  bool own = false, dedup = need > 1 && !cell->opt->best_effort;
  TrvKeySet *ids = NULL;
  *intents = 0;
  double deadline = simgrid_get_clock() + LOG_OUTAGE_MAX;
  while (answered < need && simgrid_get_clock() < deadline) {
    for (int r = 0; r < n && answered < need && simgrid_get_clock() < deadline; r++) {
      if (got[r]) continue;
      Msg *m = trv_msg_new(MSG_CLOSE, e);
      m->reply = cell->mb_controller_reply;
      double wait = fmin(cell->opt->commit_timeout, deadline - simgrid_get_clock());
      if (!trv_msg_send(cell->replicas[r].mb, m, wait)) continue;
      wait =
          fmin(trv_sim_control_wait(cell, trv_sim_episode_bytes(cell, cell->n_agents)), deadline - simgrid_get_clock());
      Msg *rep = trv_msg_recv(cell->mb_controller_reply, wait);
      if (rep && rep->kind == MSG_CLOSED && rep->episode == e && rep->agent == r) {
        got[r] = true;
        answered++;
        *intents = MAX(*intents, rep->n_intents);
        if (rep->records) join_reply(&all, &own, &ids, dedup, rep->records);
      }
      trv_msg_free(rep);
    }
    if (answered < need && simgrid_get_clock() < deadline)
      sg_actor_sleep_for(fmin(1.0, deadline - simgrid_get_clock()));
  }
  trv_key_set_free(ids);
  g_free(got);
  if (answered < need) {
    if (all) g_array_unref(all);
    return NULL;
  }
  return all ? all : g_array_new(FALSE, FALSE, sizeof(TrvRecord));
}

/* One DECIDE round: every replica behind `upto` gets its backlog. Returns
 * true when every replica holds every episode up to `upto`. */
static bool decide_round(Cell *cell, int upto) {
  bool all = true;
  for (int r = 0; r < cell->n_replicas; r++) {
    if (cell->replica_acked[r] > upto) continue;
    Msg *m = trv_msg_new(MSG_DECIDE, upto);
    m->first = cell->replica_acked[r];
    m->reply = cell->mb_controller_reply;
    for (int e = m->first; e <= upto; e++) m->n_carried += trv_sim_decided(cell, e)->records->len;
    if (trv_msg_send(cell->replicas[r].mb, m, trv_sim_control_wait(cell, trv_msg_bytes(m)))) {
      Msg *rep = trv_msg_recv(cell->mb_controller_reply, cell->opt->commit_timeout);
      if (rep && rep->kind == MSG_ACK && rep->agent == r && rep->episode == upto) cell->replica_acked[r] = upto + 1;
      trv_msg_free(rep);
    }
    all = all && cell->replica_acked[r] > upto;
  }
  return all;
}

#define DROP_AT 64 /* dropped episodes' slots are removed in batches */

/* Drops the decided episodes every replica holds: nothing reads them again. */
static void forget_decided(Cell *cell) {
  int held = cell->n_decided;
  for (int r = 0; r < cell->n_replicas; r++) held = MIN(held, cell->replica_acked[r]);
  for (int e = held - 1; e >= cell->decided_base; e--) {
    DecidedEpisode *d = trv_sim_decided(cell, e);
    if (!d) break; /* earlier ones are gone already */
    g_array_free(d->records, TRUE);
    trv_posterior_free(d->snapshot);
    g_free(d);
    cell->decided->pdata[e - cell->decided_base] = NULL;
  }
  if (held - cell->decided_base >= DROP_AT) {
    g_ptr_array_remove_range(cell->decided, 0, (guint)(held - cell->decided_base));
    cell->decided_base = held;
  }
}

static void log_episode(const TrvEpisodeRow *row) {
  /* Paje marks (a traced run): when each episode closed, and its events.
   * SimGrid writes a mark's value unquoted, so a value holds no blank
   * (pj_dump would split it). */
  trv_sim_trace_mark("trivium/episode", "closed");
  if (row->alarm) trv_sim_trace_mark("trivium/alarm", row->resets ? "reset" : "no-reset");
  if (row->commit_failures) trv_sim_trace_mark("trivium/commit", "failed");
  if (row->committed)
    XBT_VERB("episode %d: commit rule took the MAP graph (H = %.3g bits)", row->episode, row->entropy_bits);
  if (row->alarm)
    XBT_INFO("episode %d: drift alarm (statistic %.4g): %d component%s reset to the prior", row->episode,
             row->detector_stat, row->resets, row->resets == 1 ? "" : "s");
  if (row->lrcp_status == TRV_LRCP_FLAGGED) XBT_INFO("episode %d: local repair flagged (no contraction)", row->episode);
  if (row->commit_failures)
    XBT_INFO("episode %d: %d of %d commits failed", row->episode, row->commit_failures, row->commits);
}

static void absorb(Cell *cell, int e, GArray *recs, int intents, TrvEpisodeCounts *counts) {
  /* Best effort: a record whose outcome never arrived cannot be used, and an
   * intent without its record is an intervention without an outcome. */
  if (cell->opt->best_effort) {
    int probe_outcomes = 0;
    for (guint i = 0; i < recs->len; i++) probe_outcomes += g_array_index(recs, TrvRecord, i).a_int >= 0;
    long expected = (long)cell->n_agents * cell->info->steps;
    if ((long)recs->len < expected) cell->report->telemetry_lost += (uint64_t)(expected - (long)recs->len);
    if (intents > probe_outcomes) cell->report->orphan_interventions += (uint64_t)(intents - probe_outcomes);
    counts->records_lost = (int)MAX(0, expected - (long)recs->len);
  }
  /* p_f counts every due commit, one per agent (that has not left) and
   * episode, whether the agent got its plan, committed, or reported back or
   * not: a commit
   * failed when none of the agent's records is in the episode's committed
   * set.  DONE reports give the attempts and the gate's counts only. */
  bool *in = g_new0(bool, cell->n_agents);
  for (guint i = 0; i < recs->len; i++) {
    const TrvRecord *r = &g_array_index(recs, TrvRecord, i);
    if (r->kind == TRV_RECORD_STEP && r->agent < (uint32_t)cell->n_agents) in[r->agent] = true;
  }
  counts->commits = counts->failures = 0;
  for (int a = 0; a < cell->n_agents; a++) /* an agent that left owes no commit (agent-life.c) */
    if (in[a] || !cell->agents[a].left) counts->commits++, counts->failures += !in[a];
  g_free(in);
  counts->sim_time = simgrid_get_clock();
  counts->attempts = cell->played_attempts; /* every commit message sent, retries of failed commits included */
  TrvEpisodeRow row;
  DecidedEpisode *d = g_new0(DecidedEpisode, 1);
  d->records = g_array_sized_new(FALSE, FALSE, sizeof(TrvRecord), recs->len + 8);
  GError *err = NULL;
  const TrvRecord *played = cell->played_episode == e ? (const TrvRecord *)cell->played->data : NULL;
  size_t n_played = cell->played_episode == e ? cell->played->len : 0;
  if (!trv_session_close(cell->session, e, (TrvRecord *)recs->data, recs->len, played, n_played, counts, &row,
                         d->records, &err)) {
    trv_sim_cell_fail(cell, err); /* the world answered out of bounds: e is not decided */
    g_array_free(d->records, TRUE);
    g_free(d);
    return;
  }
  const TrvPosterior *post = trv_session_replayable_posterior(cell->session);
  d->snapshot = post ? trv_posterior_copy(post) : NULL;
  d->alarm = row.alarm;
  g_ptr_array_add(cell->decided, d);
  cell->n_decided++;
  log_episode(&row);
  if (cell->rows) g_array_append_val(cell->rows, row);
  if (cell->opt->sink.row) cell->opt->sink.row(cell->opt->sink.ctx, &row);
}

void trv_sim_controller_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  Cell *cell = trv_sim_cell;
  if (++cell->incarnation > 1) cell->report->controller_restarts++;
  int episodes = cell->info->episodes;
  static TrvEpisodeCounts counts;                    /* survives a restart within the episode */
  while (cell->episode < episodes && !cell->error) { /* an error (a world's bad answer) stops the run */
    int e = cell->episode;
    if (trv_sim_agents_gone(cell) && !cell->closing) break; /* a program's agents all left (agent-life.c) */
    if (cell->n_decided <= e) {
      if (!cell->closing) {
        if (!cell->shared_city || cell->round.episode != e) memset(&counts, 0, sizeof counts);
        if (cell->played_episode != e) { /* the referee's view of e: every step played, committed or not */
          cell->played_episode = e;
          g_array_set_size(cell->played, 0);
          cell->played_attempts = 0;
        }
        if (cell->shared_city)
          dispatch_shared(cell, e, &counts);
        else
          dispatch_and_wait(cell, e, &counts);
        if (cell->error) break;                                         /* planning it, or an agent playing it */
        if (trv_sim_agents_gone(cell) && cell->played->len == 0) break; /* nobody played e: not an episode */
        cell->closing = true;
      }
      int intents;
      GArray *recs = close_episode(cell, e, &intents);
      if (!recs) {
        g_set_error(&cell->error, TRV_ERROR, TRV_ERROR_IO,
                    "episode %d: no majority of the %d log replicas answered for %g simulated seconds", e,
                    cell->n_replicas, LOG_OUTAGE_MAX);
        break;
      }
      absorb(cell, e, recs, intents, &counts);
      g_array_unref(recs);
      if (cell->error) break;
      cell->closing = false;
    }
    decide_round(cell, e);
    forget_decided(cell);
    cell->episode = e + 1;
  }
  if (cell->episode < episodes && !cell->error) trv_sim_agents_ended(cell);
  for (int round = 0; !cell->error && cell->n_decided > 0 && round < CATCHUP_ROUNDS_MAX; round++) {
    bool all = decide_round(cell, cell->n_decided - 1);
    forget_decided(cell);
    if (all) break;
    sg_actor_sleep_for(1.0);
  }
  /* Agents and replicas are daemons: they end with the controller. */
  if (cell->fault_driver) sg_actor_kill(cell->fault_driver);
  for (int a = 0; cell->user_agents && a < cell->n_agents; a++) /* a user's actors return from trivium_agent_main */
    trv_msg_send(cell->agents[a].mb, trv_msg_new(MSG_STOP, 0), cell->opt->commit_timeout);
  cell->finished = cell->error == NULL;
}
