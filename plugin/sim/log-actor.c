/* log-actor.c - a CTL replica as a SimGrid actor.
 *
 * Keeps, per episode, the records agents committed to it (dropping repeated
 * ids: retries are idempotent) and acknowledges each commit.  CLOSE(e)
 * closes episode e for good: later commits for it are refused (NACK), so
 * the set the controller reads at close is the set it decides, and a late
 * commit can never make the live posterior differ from the log.  DECIDE
 * carries the decided records of one or more episodes (a replica that was
 * down catches up); the replica appends them to its decided log and, for
 * replica 0 when a file was asked for, to the CTL file with a posterior
 * snapshot per episode.  State lives in ReplicaState (its "disk"), so the
 * actor can die with its host and restart. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim-internal.h"

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(trivium_log, trivium, "Trivium: the log replicas");

#define ACCEPT_RING 32

#define DROP_AT 64 /* decided episodes' slots are removed in batches */

/* The records received for episode e (created on first use; an episode
 * already decided gets a fresh, empty one that nobody reads), or NULL for
 * an episode decided and dropped (what comes for it is not read either). */
static GArray *episode_pending(ReplicaState *r, int e) {
  if (e < r->base) return NULL;
  int i = e - r->base;
  while ((int)r->pending->len <= i) { /* the episodes before e (none, as a rule) start empty */
    guint size = (int)r->pending->len == i ? r->expect : 0;
    g_ptr_array_add(r->pending, g_array_sized_new(FALSE, FALSE, sizeof(TrvRecord), size));
    g_ptr_array_add(r->seen, trv_key_set_sized(size));
    int zero = 0;
    g_array_append_val(r->intents, zero);
  }
  if (!g_ptr_array_index(r->pending, i)) {
    r->pending->pdata[i] = g_array_sized_new(FALSE, FALSE, sizeof(TrvRecord), r->expect);
    r->seen->pdata[i] = trv_key_set_sized(r->expect);
  }
  return g_ptr_array_index(r->pending, i);
}

/* Removes the slots of the episodes before decided_upto once there are
 * DROP_AT of them (their records and ids are freed already, or belong to
 * an episode nobody reads). */
static void drop_decided(ReplicaState *r) {
  int n = r->decided_upto - r->base;
  if (n < DROP_AT) return;
  guint held = MIN((guint)n, r->pending->len);
  g_ptr_array_remove_range(r->pending, 0, held);
  g_ptr_array_remove_range(r->seen, 0, held);
  g_array_remove_range(r->intents, 0, held);
  r->base = r->decided_upto;
}

static void write_ctl(Cell *cell, ReplicaState *r, int e, const DecidedEpisode *d) {
  if (!r->ctl) return;
  GError *err = NULL;
  for (guint i = 0; i < d->records->len && !err; i++)
    if (trv_ctl_append_record(r->ctl, &g_array_index(d->records, TrvRecord, i), NULL, &err) == TRV_CTL_ERROR) break;
  if (!err && d->snapshot)
    trv_ctl_append_snapshot(r->ctl, (uint32_t)e, d->alarm ? TRV_CTL_SNAPSHOT_CHANGE_POINT : TRV_CTL_SNAPSHOT_EPISODE,
                            d->snapshot, NULL, &err);
  if (err) {
    XBT_WARN("log replica %d: %s", r->index, err->message);
    if (!cell->error)
      cell->error = err;
    else
      g_error_free(err);
    trv_ctl_close(r->ctl, NULL);
    r->ctl = NULL;
  }
}

static void on_commit(Cell *cell, ReplicaState *r, Msg *m) {
  Msg *reply;
  if (m->episode < r->closed_upto) {
    reply = trv_msg_new(MSG_NACK, m->episode);
    cell->report->late_rejected += m->records->len;
  } else {
    GArray *ep = episode_pending(r, m->episode); /* episode >= closed_upto >= base: not NULL */
    TrvKeySet *seen = g_ptr_array_index(r->seen, m->episode - r->base);
    /* room for every record, then the new ones copied in and the rest cut */
    guint kept = ep->len;
    g_array_set_size(ep, ep->len + m->records->len);
    for (guint i = 0; i < m->records->len; i++) {
      const TrvRecord *rec = &g_array_index(m->records, TrvRecord, i);
      if (!trv_record_id_add(seen, rec)) {
        cell->report->duplicates_dropped++;
        continue;
      }
      TrvRecord *to = &g_array_index(ep, TrvRecord, kept++);
      memcpy(to, rec, sizeof *rec);
      to->commit_status = TRV_COMMIT_COMMITTED;
    }
    g_array_set_size(ep, kept);
    reply = trv_msg_new(MSG_ACK, m->episode);
  }
  reply->agent = r->index;
  reply->tag = m->tag;
  trv_msg_reply(m->reply, reply);
}

static void on_telemetry(ReplicaState *r, Msg *m) {
  /* best effort: no dedup, no acknowledgement, no closing */
  GArray *ep = episode_pending(r, m->episode);
  if (!ep) return;
  g_array_append_vals(ep, m->records->data, m->records->len);
  g_array_index(r->intents, int, m->episode - r->base) += m->n_intents;
}

static void on_close(Cell *cell, ReplicaState *r, Msg *m) {
  if (r->closed_upto < m->episode + 1) r->closed_upto = m->episode + 1;
  GArray *ep = episode_pending(r, m->episode);
  Msg *reply = trv_msg_new(MSG_CLOSED, m->episode);
  reply->agent = r->index;
  if (ep) r->expect = ep->len;
  if (ep && !cell->opt->best_effort) {
    reply->records = g_array_ref(ep); /* closed: no commit joins it any more (on_commit) */
  } else {                            /* best effort takes telemetry after the close: the reply is a copy */
    reply->records = g_array_sized_new(FALSE, FALSE, sizeof(TrvRecord), ep ? ep->len : 0);
    if (ep) g_array_append_vals(reply->records, ep->data, ep->len);
  }
  reply->n_intents = ep ? g_array_index(r->intents, int, m->episode - r->base) : 0;
  trv_msg_reply(m->reply, reply);
}

static void on_decide(Cell *cell, ReplicaState *r, Msg *m) {
  for (int e = m->first; e <= m->episode; e++) {
    if (e < r->decided_upto) continue;
    const DecidedEpisode *d = trv_sim_decided(cell, e);
    if (r->decided) g_array_append_vals(r->decided, d->records->data, d->records->len);
    r->n_decided += d->records->len;
    write_ctl(cell, r, e, d);
    r->decided_upto = e + 1;
    int i = e - r->base;
    if (i >= 0 && i < (int)r->pending->len) { /* decided: what was received for it is no longer needed */
      g_clear_pointer(&r->pending->pdata[i], g_array_unref);
      g_clear_pointer(&r->seen->pdata[i], trv_key_set_free);
    }
    if (r->closed_upto < e + 1) r->closed_upto = e + 1;
  }
  drop_decided(r);
  Msg *reply = trv_msg_new(MSG_ACK, m->episode);
  reply->agent = r->index;
  trv_msg_reply(m->reply, reply);
}

/* Handles one message; false after STOP. */
static bool handle(Cell *cell, ReplicaState *r, Msg *m) {
  MsgKind k = m->kind;
  switch (k) {
    case MSG_COMMIT: on_commit(cell, r, m); break;
    case MSG_TELEMETRY: on_telemetry(r, m); break;
    case MSG_CLOSE: on_close(cell, r, m); break;
    case MSG_DECIDE: on_decide(cell, r, m); break;
    default: break;
  }
  trv_msg_free(m);
  return k != MSG_STOP;
}

void trv_sim_replica_actor(int argc, char **argv) {
  g_assert(argc == 2);
  Cell *cell = trv_sim_cell;
  ReplicaState *r = &cell->replicas[atoi(argv[1])];
  sg_actor_daemonize(sg_actor_self());
  /* A server accepting connections in parallel: every transfer to the
   * replica proceeds at once, and messages are handled in the order they
   * were sent.  What was sent while no replica ran (it is starting again
   * after its host came back) waits in the mailbox: those transfers start
   * together now, up to two per agent the log serves (ACCEPT_RING at
   * least); then the replica is the mailbox's permanent receiver, so later
   * transfers need no receive posted (SimGrid's cost of a mailbox with a
   * receive posted per agent grows with the agents).  A failed transfer
   * delivers nothing. */
  int backlog = (int)MIN(trv_sim_mailbox_queued(r->mb), (size_t)MAX(ACCEPT_RING, 2 * cell->n_agents));
  void **data = g_new0(void *, backlog);
  sg_comm_t *comms = g_new(sg_comm_t, backlog);
  for (int i = 0; i < backlog; i++) comms[i] = sg_mailbox_get_async(r->mb, &data[i]);
  trv_sim_mailbox_receive_eagerly(r->mb);
  bool running = true;
  for (int i = 0; i < backlog; i++) {
    Msg *m = sg_comm_wait(comms[i]) == SG_OK ? data[i] : NULL;
    if (m && running)
      running = handle(cell, r, m);
    else if (m)
      trv_msg_free(m);
  }
  g_free(data);
  g_free(comms);
  while (running) {
    void *data = NULL;
    Msg *m = sg_comm_wait(sg_mailbox_get_async(r->mb, &data)) == SG_OK ? data : NULL;
    if (m) running = handle(cell, r, m);
  }
}
