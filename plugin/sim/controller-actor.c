/* sim-controller.c - the meta-controller as a SimGrid actor.
 *
 * Episode e:
 *  1. plan (controller.h) and split the probes across the M agents: whole
 *     components go to one agent each (assignments are disjoint), the
 *     heaviest first to the least-loaded agent; every agent plays T steps;
 *  2. wait for the agents' DONE until episode_timeout;
 *  3. CLOSE e on the replicas until a majority answered: the episode's
 *     committed records are the union of what that majority holds (a record
 *     a majority acknowledged is on at least one of them; records are whole,
 *     so a union never holds half of one), deduplicated by id;
 *  4. absorb them (posterior, detectors, G_hat), then DECIDE: send the
 *     decided episode (records, the controller's own records, EPISODE_END,
 *     the posterior snapshot) to every replica, with the backlog of episodes
 *     a replica missed while it was down.
 * Restart safety: the decided episodes live in the Cell; `closing` marks an
 * episode whose CLOSE began (it is never re-planned, only closed again); an
 * episode already absorbed is only re-decided.  DONE messages carry the
 * controller's incarnation so that a restarted controller ignores stale
 * ones.  The run ends with catch-up rounds until every replica holds every
 * episode, then STOP. */
#include <math.h>
#include <string.h>

#include "sim-internal.h"

#define CLOSE_ROUNDS_MAX 600   /* one per simulated second: then the log is unreachable */
#define CATCHUP_ROUNDS_MAX 120

/* Splits plan into per-agent plans (out[a] allocated, snapshot copied). */
static void split_plan(const TrvPlan *plan, int n_agents, TrvPlan **out) {
  int n = plan->ghat.n, count[TRV_MAX_COMPONENTS] = {0}, owner[TRV_MAX_COMPONENTS], load[4096] = {0};
  for (int i = 0; i < plan->n_probes; i++) count[plan->probes[i]]++;
  bool done[TRV_MAX_COMPONENTS] = {false};
  for (int k = 0; k < n; k++) { /* LPT: heaviest component to the least-loaded agent */
    int j = -1;
    for (int c = 0; c < n; c++)
      if (!done[c] && (j < 0 || count[c] > count[j])) j = c;
    done[j] = true;
    int best = 0;
    for (int a = 1; a < n_agents; a++)
      if (load[a] < load[best]) best = a;
    owner[j] = best;
    load[best] += count[j];
  }
  for (int a = 0; a < n_agents; a++) {
    out[a] = g_new0(TrvPlan, 1);
    *out[a] = *plan;
    out[a]->snapshot = plan->snapshot ? trv_posterior_copy(plan->snapshot) : NULL;
    out[a]->n_probes = 0;
    for (int i = 0; i < plan->n_probes; i++)
      if (owner[plan->probes[i]] == a) out[a]->probes[out[a]->n_probes++] = plan->probes[i];
  }
}

typedef struct {
  int commits, failures, attempts, gated;
  gint64 controller_us; /* wall time in the controller's own calls */
} EpisodeCounts;

static void dispatch_and_wait(Cell *cell, int e, EpisodeCounts *counts) {
  TrvController *ctl = cell->ctl;
  TrvPlan *plan = g_new0(TrvPlan, 1);
  gint64 t0 = g_get_monotonic_time();
  ctl->klass->plan(ctl->self, e, plan);
  counts->controller_us += g_get_monotonic_time() - t0;
  TrvPlan **parts = g_new(TrvPlan *, cell->n_agents);
  split_plan(plan, cell->n_agents, parts);
  trv_plan_clear(plan);
  g_free(plan);
  /* Deliver every agent its plan, to all at once, retrying the ones that
   * could not be reached (link or host down) until the episode deadline. */
  double deadline = simgrid_get_clock() + cell->opt->episode_timeout;
  int waiting = 0;
  bool *sent = g_new0(bool, cell->n_agents);
  sg_comm_t *comms = g_new(sg_comm_t, cell->n_agents);
  Msg **msgs = g_new0(Msg *, cell->n_agents);
  while (waiting < cell->n_agents && simgrid_get_clock() < deadline) {
    for (int a = 0; a < cell->n_agents; a++) {
      if (sent[a]) continue;
      Msg *m = msgs[a] = trv_msg_new(MSG_PLAN, e);
      m->plan = g_memdup2(parts[a], sizeof(TrvPlan));
      m->plan->snapshot = parts[a]->snapshot ? trv_posterior_copy(parts[a]->snapshot) : NULL;
      m->tag = cell->incarnation;
      comms[a] = trv_msg_post(cell->agents[a].mb, m);
    }
    double by = fmin(simgrid_get_clock() + cell->opt->commit_timeout, deadline);
    for (int a = 0; a < cell->n_agents; a++)
      if (!sent[a] && trv_msg_finish(comms[a], msgs[a], by - simgrid_get_clock())) sent[a] = true, waiting++;
    if (waiting < cell->n_agents && simgrid_get_clock() < deadline) sg_actor_sleep_for(fmin(1.0, deadline - simgrid_get_clock()));
  }
  for (int a = 0; a < cell->n_agents; a++) {
    trv_plan_clear(parts[a]);
    g_free(parts[a]);
  }
  g_free(sent);
  g_free(comms);
  g_free(msgs);
  g_free(parts);
  Msg **done = g_new(Msg *, cell->n_agents);
  while (waiting > 0 && simgrid_get_clock() < deadline) {
    int got = trv_msg_recv_many(cell->mb_controller, waiting, deadline - simgrid_get_clock(), done);
    if (got == 0) break;
    for (int i = 0; i < got; i++) {
      Msg *d = done[i];
      if (d->kind == MSG_DONE && d->episode == e && d->tag == cell->incarnation) {
        counts->commits += d->commits;
        counts->failures += d->failures;
        counts->attempts += d->attempts;
        counts->gated += d->gated;
        waiting--;
      }
      trv_msg_free(d);
    }
  }
  g_free(done);
}

/* CLOSE e until a majority of replicas answered; returns the union of their
 * records (deduplicated), or NULL when the log stayed unreachable. */
static GArray *close_episode(Cell *cell, int e, int *intents) {
  int n = cell->n_replicas, need = n / 2 + 1, answered = 0;
  bool *got = g_new0(bool, n);
  GArray *all = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
  GHashTable *ids = trv_record_key_set_new();
  *intents = 0;
  for (int round = 0; answered < need && round < CLOSE_ROUNDS_MAX; round++) {
    for (int r = 0; r < n && answered < need; r++) {
      if (got[r]) continue;
      Msg *m = trv_msg_new(MSG_CLOSE, e);
      m->reply = cell->mb_controller_reply;
      if (!trv_msg_send(cell->replicas[r].mb, m, cell->opt->commit_timeout)) continue;
      Msg *rep = trv_msg_recv(cell->mb_controller_reply, cell->opt->commit_timeout);
      if (rep && rep->kind == MSG_CLOSED && rep->episode == e && rep->agent == r) {
        got[r] = true;
        answered++;
        *intents = MAX(*intents, rep->n_intents);
        for (guint i = 0; i < rep->records->len; i++) {
          TrvRecord *rec = &g_array_index(rep->records, TrvRecord, i);
          gint64 *key = trv_record_key_new(rec);
          if (!cell->opt->best_effort && g_hash_table_contains(ids, key)) {
            g_free(key);
            continue;
          }
          g_hash_table_add(ids, key);
          g_array_append_val(all, *rec);
        }
      }
      trv_msg_free(rep);
    }
    if (answered < need) sg_actor_sleep_for(1.0);
  }
  g_hash_table_destroy(ids);
  g_free(got);
  if (answered < need) {
    g_array_free(all, TRUE);
    return NULL;
  }
  return all;
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
    for (int e = m->first; e <= upto; e++)
      m->n_carried += ((DecidedEpisode *)g_ptr_array_index(cell->decided, e))->records->len;
    if (trv_msg_send(cell->replicas[r].mb, m, cell->opt->commit_timeout)) {
      Msg *rep = trv_msg_recv(cell->mb_controller_reply, cell->opt->commit_timeout);
      if (rep && rep->kind == MSG_ACK && rep->agent == r && rep->episode == upto) cell->replica_acked[r] = upto + 1;
      trv_msg_free(rep);
    }
    all = all && cell->replica_acked[r] > upto;
  }
  return all;
}

static void absorb(Cell *cell, int e, GArray *recs, int intents, const EpisodeCounts *counts) {
  TrvController *ctl = cell->ctl;
  TrvEpisodeRow row;
  memset(&row, 0, sizeof row);
  row.seed = (int)cell->spec->seed;
  row.episode = e;
  GArray *own = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
  /* Best effort: a record whose outcome never arrived cannot be used, and an
   * intent without its record is an intervention without an outcome. */
  int probe_outcomes = 0;
  for (guint i = 0; i < recs->len; i++) probe_outcomes += g_array_index(recs, TrvRecord, i).a_int >= 0;
  if (cell->opt->best_effort) {
    long expected = (long)cell->n_agents * cell->spec->world_class->steps(cell->world);
    if ((long)recs->len < expected) cell->report->telemetry_lost += (uint64_t)(expected - (long)recs->len);
    if (intents > probe_outcomes) cell->report->orphan_interventions += (uint64_t)(intents - probe_outcomes);
    row.records_lost = (int)MAX(0, expected - (long)recs->len);
  }
  GArray *decided = g_array_sized_new(FALSE, FALSE, sizeof(TrvRecord), recs->len + 8);
  g_array_append_vals(decided, recs->data, recs->len);
  trv_row_fill_readouts(&row, cell->spec->world_class, cell->world, (TrvRecord *)recs->data, recs->len);
  gint64 t0 = g_get_monotonic_time();
  ctl->klass->absorb(ctl->self, e, (TrvRecord *)recs->data, recs->len, &row, own);
  row.controller_wall = (counts->controller_us + g_get_monotonic_time() - t0) / 1e6;
  g_array_append_vals(decided, own->data, own->len);
  TrvRecord end = trv_episode_end_record(e);
  g_array_append_val(decided, end);
  g_array_free(own, TRUE);
  DecidedEpisode *d = g_new0(DecidedEpisode, 1);
  d->records = decided;
  const TrvPosterior *post = ctl->klass->event_sourced ? ctl->klass->posterior(ctl->self) : NULL;
  d->snapshot = post ? trv_posterior_copy(post) : NULL;
  d->alarm = row.alarm;
  g_ptr_array_add(cell->decided, d);
  row.gated_steps = counts->gated;
  row.commits = counts->commits;
  row.commit_attempts = counts->attempts;
  row.commit_failures = counts->failures;
  row.sim_time = simgrid_get_clock();
  g_array_append_val(cell->rows, row);
}

void trv_sim_controller_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  Cell *cell = trv_sim_cell;
  if (++cell->incarnation > 1) cell->report->controller_restarts++;
  const TrvWorldClass *wc = cell->spec->world_class;
  int episodes = wc->episodes(cell->world);
  static EpisodeCounts counts; /* survives a restart within the episode */
  while (cell->episode < episodes) {
    int e = cell->episode;
    if ((int)cell->decided->len <= e) {
      if (!cell->closing) {
        memset(&counts, 0, sizeof counts);
        wc->episode_begin(cell->world, e);
        dispatch_and_wait(cell, e, &counts);
        cell->closing = true;
      }
      int intents;
      GArray *recs = close_episode(cell, e, &intents);
      if (!recs) {
        g_set_error(&cell->error, TRV_ERROR, TRV_ERROR_IO,
                    "episode %d: no majority of the %d log replicas answered for %d simulated seconds", e,
                    cell->n_replicas, CLOSE_ROUNDS_MAX);
        break;
      }
      absorb(cell, e, recs, intents, &counts);
      g_array_free(recs, TRUE);
      cell->closing = false;
    }
    decide_round(cell, e);
    cell->episode = e + 1;
  }
  for (int round = 0; !cell->error && round < CATCHUP_ROUNDS_MAX; round++) {
    if (decide_round(cell, episodes - 1)) break;
    sg_actor_sleep_for(1.0);
  }
  /* Agents and replicas are daemons: they end with the controller. */
  if (cell->fault_driver) sg_actor_kill(cell->fault_driver);
  for (int a = 0; cell->user_agents && a < cell->n_agents; a++) /* a user's actors return from trivium_agent_main */
    trv_msg_send(cell->agents[a].mb, trv_msg_new(MSG_STOP, 0), cell->opt->commit_timeout);
  cell->finished = cell->error == NULL;
}
