/* sim-cell.c - one cell of a run (one seed, one controller) as a SimGrid
 * simulation: the episode protocol of controller.h carried by actors and
 * messages on a real platform.
 *
 * Actors, placed by the hosts' `trivium.role` property:
 *   controller  (role controller): world clock and controller; per episode
 *               sends the plan to the agent, waits for its DONE, reads the
 *               episode's committed records from the log, absorbs them and
 *               commits its own records (PartialReset, episode end);
 *   agent       (role agent): plays the episode (trv_agent_run_episode),
 *               costs its compute as one execution on its host, commits the
 *               episode's records to the log in one message and waits for
 *               the acknowledgement (timeout, bounded retries, idempotent
 *               record ids), then reports DONE;
 *   log         (role ctl): keeps the committed records, drops duplicate
 *               ids, acknowledges, and serves reads of an episode.
 * Only records the log acknowledged reach the controller.  A run that ends
 * before the controller finished (a deadlock: simgrid_run() returns after
 * logging it) is reported as an error.
 *
 * SimGrid can be initialised once per process, so a cell is one process;
 * the run command forks one per cell (SPEC section 10). */
#include "sim.h"

#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <xbt/log.h>

XBT_LOG_NEW_DEFAULT_CATEGORY(trivium, "Trivium meta-controller");

typedef enum { MSG_PLAN, MSG_COMMIT, MSG_ACK, MSG_DONE, MSG_READ, MSG_READ_REPLY, MSG_STOP } MsgKind;

typedef struct {
  MsgKind kind;
  int episode;
  uint32_t agent;
  GArray *records; /* TrvRecord, owned by the message */
  TrvPlan *plan;   /* owned by the message (MSG_PLAN) */
  sg_mailbox_t reply;
  int attempts, failures;
} Msg;

typedef struct {
  const TrvCellSpec *spec;
  const TrvSimOptions *opt;
  void *world;
  TrvController *ctl;
  GArray *rows;
  GArray *log_out; /* every committed record, in commit order (may be NULL) */
  sg_mailbox_t mb_controller, mb_agent, mb_agent_ack, mb_log;
  bool finished;
  GError *error;
} Cell;

static Msg *msg_new(MsgKind kind, int episode) {
  Msg *m = g_new0(Msg, 1);
  m->kind = kind;
  m->episode = episode;
  return m;
}

static void msg_free(Msg *m) {
  if (!m) return;
  if (m->records) g_array_free(m->records, TRUE);
  if (m->plan) {
    trv_plan_clear(m->plan);
    g_free(m->plan);
  }
  g_free(m);
}

static long msg_bytes(const Msg *m) {
  long b = 64;
  if (m->records) b += (long)m->records->len * (long)sizeof(TrvRecord);
  if (m->plan) b += (long)sizeof(TrvGraph) + 4L * m->plan->n_probes + 64L * m->plan->ghat.n;
  return b;
}

/* Sends m with a timeout; on failure the payload was not delivered and is
 * freed here.  Returns true when delivered. */
static bool send_for(sg_mailbox_t mb, Msg *m, double timeout) {
  sg_comm_t c = sg_mailbox_put_async(mb, m, msg_bytes(m));
  sg_error_t e = sg_comm_wait_for(c, timeout);
  if (e != SG_OK) {
    msg_free(m);
    return false;
  }
  return true;
}

/* Receives one message with a timeout; NULL on timeout or network error. */
static Msg *recv_for(sg_mailbox_t mb, double timeout) {
  void *data = NULL;
  sg_comm_t c = sg_mailbox_get_async(mb, &data);
  return sg_comm_wait_for(c, timeout) == SG_OK ? data : NULL;
}

/* ---- log ---------------------------------------------------------------- */

static void log_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  Cell *cell = sg_actor_self_get_data();
  GHashTable *seen = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
  GPtrArray *by_episode = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
  for (;;) {
    Msg *m = sg_mailbox_get(cell->mb_log);
    if (m->kind == MSG_STOP) {
      msg_free(m);
      break;
    }
    if (m->kind == MSG_COMMIT) {
      while ((int)by_episode->len <= m->episode) g_ptr_array_add(by_episode, g_array_new(FALSE, FALSE, sizeof(TrvRecord)));
      GArray *ep = g_ptr_array_index(by_episode, m->episode);
      for (guint i = 0; i < m->records->len; i++) {
        TrvRecord r = g_array_index(m->records, TrvRecord, i);
        gint64 *key = g_new(gint64, 1);
        *key = (gint64)(((uint64_t)r.agent << 40) ^ r.seq);
        if (g_hash_table_contains(seen, key)) { /* an idempotent retry */
          g_free(key);
          continue;
        }
        g_hash_table_add(seen, key);
        r.commit_status = TRV_COMMIT_COMMITTED;
        g_array_append_val(ep, r);
        if (cell->log_out) g_array_append_val(cell->log_out, r);
      }
      Msg *ack = msg_new(MSG_ACK, m->episode);
      sg_mailbox_t reply = m->reply;
      msg_free(m);
      send_for(reply, ack, cell->opt->commit_timeout);
    } else if (m->kind == MSG_READ) {
      Msg *rep = msg_new(MSG_READ_REPLY, m->episode);
      rep->records = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
      if (m->episode < (int)by_episode->len) {
        GArray *ep = g_ptr_array_index(by_episode, m->episode);
        g_array_append_vals(rep->records, ep->data, ep->len);
      }
      sg_mailbox_t reply = m->reply;
      msg_free(m);
      send_for(reply, rep, cell->opt->commit_timeout);
    } else {
      msg_free(m);
    }
  }
  g_ptr_array_unref(by_episode);
  g_hash_table_destroy(seen);
}

/* ---- agent -------------------------------------------------------------- */

/* Commits recs to the log: one message, acknowledged, with bounded retries.
 * Returns attempts made; *ok tells whether an acknowledgement arrived. */
static int commit_records(Cell *cell, int episode, uint32_t agent, GArray *recs, bool *ok) {
  int attempts = 0;
  *ok = false;
  while (attempts <= cell->opt->commit_retries && !*ok) {
    attempts++;
    Msg *m = msg_new(MSG_COMMIT, episode);
    m->agent = agent;
    m->records = g_array_sized_new(FALSE, FALSE, sizeof(TrvRecord), recs->len);
    g_array_append_vals(m->records, recs->data, recs->len);
    m->reply = cell->mb_agent_ack;
    if (!send_for(cell->mb_log, m, cell->opt->commit_timeout)) continue;
    Msg *ack = recv_for(cell->mb_agent_ack, cell->opt->commit_timeout);
    if (ack && ack->kind == MSG_ACK && ack->episode == episode) *ok = true;
    msg_free(ack);
  }
  return attempts;
}

static void agent_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  Cell *cell = sg_actor_self_get_data();
  const TrvWorldClass *wc = cell->spec->world_class;
  TrvRng probe_rng;
  trv_rng_init(&probe_rng, cell->spec->seed, TRV_STREAM_PROBE);
  uint64_t seq = 0;
  GArray *recs = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
  for (;;) {
    Msg *m = sg_mailbox_get(cell->mb_agent);
    if (m->kind == MSG_STOP) {
      msg_free(m);
      break;
    }
    g_array_set_size(recs, 0);
    int gated = trv_agent_run_episode(wc, cell->world, m->plan, 0, &seq, &probe_rng, recs);
    sg_actor_execute(wc->steps(cell->world) * cell->opt->step_flops + m->plan->n_probes * cell->opt->probe_flops);
    bool ok;
    Msg *done = msg_new(MSG_DONE, m->episode);
    done->attempts = commit_records(cell, m->episode, 0, recs, &ok);
    done->failures = done->attempts - (ok ? 1 : 0);
    done->agent = (uint32_t)gated;
    msg_free(m);
    sg_mailbox_put(cell->mb_controller, done, 64);
  }
  g_array_free(recs, TRUE);
}

/* ---- controller --------------------------------------------------------- */

static void controller_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  Cell *cell = sg_actor_self_get_data();
  const TrvWorldClass *wc = cell->spec->world_class;
  TrvController *ctl = cell->ctl;
  GArray *own = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
  sg_mailbox_t mb_read = sg_mailbox_by_name("trivium/controller/read");
  int episodes = wc->episodes(cell->world);
  for (int e = 0; e < episodes; e++) {
    wc->episode_begin(cell->world, e);
    Msg *m = msg_new(MSG_PLAN, e);
    m->plan = g_new0(TrvPlan, 1);
    ctl->klass->plan(ctl->self, e, m->plan);
    sg_mailbox_put(cell->mb_agent, m, msg_bytes(m));
    Msg *done = sg_mailbox_get(cell->mb_controller);
    int attempts = done->attempts, failures = done->failures, gated = (int)done->agent;
    msg_free(done);
    /* Read the committed snapshot of the episode from the log. */
    Msg *rd = msg_new(MSG_READ, e);
    rd->reply = mb_read;
    sg_mailbox_put(cell->mb_log, rd, 64);
    Msg *rep = sg_mailbox_get(mb_read);
    TrvEpisodeRow row;
    memset(&row, 0, sizeof row);
    row.seed = (int)cell->spec->seed;
    row.episode = e;
    g_array_set_size(own, 0);
    ctl->klass->absorb(ctl->self, e, (TrvRecord *)rep->records->data, rep->records->len, &row, own);
    msg_free(rep);
    TrvRecord end = {.agent = TRV_AGENT_CONTROLLER, .seq = 1000000000ULL + (uint64_t)e, .episode = e,
                     .kind = TRV_RECORD_EPISODE_END, .a_int = -1, .snapshot_ref = e};
    g_array_append_val(own, end);
    Msg *cm = msg_new(MSG_COMMIT, e);
    cm->records = g_array_sized_new(FALSE, FALSE, sizeof(TrvRecord), own->len);
    g_array_append_vals(cm->records, own->data, own->len);
    cm->reply = mb_read;
    sg_mailbox_put(cell->mb_log, cm, msg_bytes(cm));
    msg_free(sg_mailbox_get(mb_read));
    row.gated_steps = gated;
    row.commit_attempts = attempts;
    row.commit_failures = failures;
    row.sim_time = simgrid_get_clock();
    g_array_append_val(cell->rows, row);
  }
  sg_mailbox_put(cell->mb_agent, msg_new(MSG_STOP, 0), 64);
  sg_mailbox_put(cell->mb_log, msg_new(MSG_STOP, 0), 64);
  g_array_free(own, TRUE);
  cell->finished = true;
}

/* ---- set-up ------------------------------------------------------------- */

static sg_host_t host_with_role(const char *role) {
  sg_host_t *hosts = sg_host_list();
  size_t n = sg_host_count();
  sg_host_t found = NULL;
  for (size_t i = 0; i < n && !found; i++) {
    const char *r = sg_host_get_property_value(hosts[i], "trivium.role");
    if (r && !strcmp(r, role)) found = hosts[i];
  }
  g_free(hosts);
  return found;
}

static void start_actor(const char *name, sg_host_t host, void (*code)(int, char **), Cell *cell) {
  sg_actor_t a = sg_actor_init(name, host);
  sg_actor_set_data(a, cell);
  sg_actor_start(a, code, 0, NULL);
}

bool trv_sim_run_cell(const TrvCellSpec *spec, const TrvSimOptions *opt, GArray *rows, GArray *log, GError **error) {
  if (access(opt->platform, R_OK) != 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: platform file not readable (%s)", opt->platform,
                g_strerror(errno));
    return false;
  }
  int argc = 1 + (int)opt->n_simgrid_args;
  char **argv = g_new0(char *, argc + 1);
  argv[0] = g_strdup("trivium");
  for (size_t i = 0; i < opt->n_simgrid_args; i++) argv[i + 1] = g_strdup(opt->simgrid_args[i]);
  simgrid_init(&argc, argv);
  simgrid_load_platform(opt->platform);

  Cell cell = {.spec = spec, .opt = opt, .rows = rows, .log_out = log};
  sg_host_t h_ctl = host_with_role("controller"), h_agent = host_with_role("agent"), h_log = host_with_role("ctl");
  const char *missing = !h_ctl ? "controller" : !h_agent ? "agent" : !h_log ? "ctl" : NULL;
  if (missing) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: no host has the property trivium.role=%s", opt->platform,
                missing);
    g_strfreev(argv);
    return false;
  }
  cell.world = spec->world_class->init(spec->params, spec->seed, error);
  if (!cell.world) {
    g_strfreev(argv);
    return false;
  }
  cell.ctl = trv_controller_new(spec->controller, spec->params, cell.world, spec->world_class, spec->seed, error);
  if (!cell.ctl) {
    spec->world_class->free(cell.world);
    g_strfreev(argv);
    return false;
  }
  cell.mb_controller = sg_mailbox_by_name("trivium/controller");
  cell.mb_agent = sg_mailbox_by_name("trivium/agent/0");
  cell.mb_agent_ack = sg_mailbox_by_name("trivium/agent/0/ack");
  cell.mb_log = sg_mailbox_by_name("trivium/ctl");
  start_actor("trivium-log", h_log, log_actor, &cell);
  start_actor("trivium-agent-0", h_agent, agent_actor, &cell);
  start_actor("trivium-controller", h_ctl, controller_actor, &cell);
  simgrid_run();
  bool ok = cell.finished;
  if (!ok)
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO,
                "simulation of seed %llu under %s ended at t=%g s before the controller finished (deadlock: "
                "agents still waiting)",
                (unsigned long long)spec->seed, spec->controller, simgrid_get_clock());
  trv_controller_free(cell.ctl);
  spec->world_class->free(cell.world);
  g_strfreev(argv);
  return ok;
}
