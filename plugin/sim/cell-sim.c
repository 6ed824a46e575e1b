/* cell-sim.c - one cell of a run (one seed, one controller) as a SimGrid
 * simulation: set-up, roles, messages, and the end-of-run checks.
 *
 * Roles map onto any platform SimGrid loads: by host-name globs given by the
 * scenario, or else by the hosts' `trivium.role` property (controller, ctl,
 * agent).  M agents go round-robin over the agent hosts, N log replicas over
 * the ctl hosts; the controller runs on the first controller host.  The
 * actors are in controller-actor.c, agent-actor.c, city-round.c (a shared
 * city's rounds, one actor per host) and log-actor.c; SimGrid's context
 * settings in contexts.c; fault processes in faults.c; the public plugin in
 * plugin.c.  A run that ends before the controller finished (simgrid_run()
 * returns after logging a deadlock) is an error.
 * One simulation per process (SimGrid initialises once); the run command
 * forks a process per cell (docs/simgrid-plugin.md, "Memory"). */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include <xbt/log.h>

#include "sim-internal.h"
#include "sim-params.h"
#include "core/rng.h"
#include "log/ctl-params.h"
#include "core/world-call.h"

XBT_LOG_NEW_CATEGORY(trivium, "Trivium: the causal meta-controller plugin");
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(trivium_cell, trivium, "Trivium: set-up and end of a simulated cell");

Cell *trv_sim_cell;

void trv_sim_options_init(TrvSimOptions *opt, const TrvParams *p) {
  const TrvSimParams *sp = trv_sim_params_of(p);
  const TrvCtlParams *cp = trv_ctl_params_of(p);
  memset(opt, 0, sizeof *opt);
  opt->episode_timeout = sp->episode_timeout;
  opt->detector_factor = sp->detector_factor;
  opt->agents = sp->agents;
  opt->replicas = cp->replicas;
  opt->best_effort = cp->mode == TRV_CTL_MODE_BEST_EFFORT;
  opt->commit_timeout = cp->timeout;
  opt->commit_retries = cp->retries;
  opt->ctl_fsync = cp->fsync;
  opt->step_flops = sp->step_flops;
  opt->probe_flops = sp->probe_flops;
  opt->world_clock = sp->clock == TRV_CLOCK_WORLD;
  opt->step_seconds = sp->step_seconds;
}

void trv_sim_log_defaults(void) {
  /* SimGrid logs at info by default; Trivium's info lines (every change of
   * G_hat, alarm, failed commit and fault) are for who asks for them, with
   * --log=trivium.thres:info or a root threshold of their own */
  if (_XBT_LOGV(trivium).isThreshInherited && _XBT_LOGV(root).threshold == xbt_log_priority_info)
    xbt_log_threshold_set(&_XBT_LOGV(trivium), xbt_log_priority_warning);
}

/* ---- messages ----------------------------------------------------------- */

Msg *trv_msg_new(MsgKind kind, int episode) {
  Msg *m = g_new0(Msg, 1);
  m->kind = kind;
  m->episode = episode;
  m->agent = -1;
  return m;
}

void trv_msg_free(Msg *m) {
  if (!m) return;
  if (m->records) g_array_unref(m->records); /* shared by reference between messages (sim-internal.h) */
  trv_plan_free(m->plan);
  g_free(m);
}

long trv_msg_bytes(const Msg *m) {
  long b = 64 + (long)m->n_carried * (long)sizeof(TrvRecord);
  if (m->records) b += (long)m->records->len * (long)sizeof(TrvRecord);
  if (m->plan) b += trv_plan_wire_bytes(m->plan);
  return b;
}

bool trv_msg_send(sg_mailbox_t mb, Msg *m, double timeout) {
  if (timeout <= 0) {
    trv_msg_free(m);
    return false;
  }
  sg_comm_t c = sg_mailbox_put_async(mb, m, trv_msg_bytes(m));
  if (sg_comm_wait_for(c, timeout) != SG_OK) { /* not delivered: ours to free */
    trv_msg_free(m);
    return false;
  }
  return true;
}

static void free_payload(void *m) { trv_msg_free(m); }

void trv_msg_reply(sg_mailbox_t mb, Msg *m) {
  /* A reply must not block its sender (a replica serving many agents); a
   * reply nobody takes is freed by SimGrid through free_payload. */
  sg_comm_detach(sg_mailbox_put_init(mb, m, trv_msg_bytes(m)), free_payload);
}

sg_comm_t trv_msg_post(sg_mailbox_t mb, Msg *m) { return sg_mailbox_put_async(mb, m, trv_msg_bytes(m)); }

bool trv_msg_finish(sg_comm_t c, Msg *m, double timeout) {
  if (sg_comm_wait_for(c, timeout > 0 ? timeout : 0) != SG_OK) {
    trv_msg_free(m);
    return false;
  }
  return true;
}

Msg *trv_msg_wait(sg_mailbox_t mb) {
  /* sg_mailbox_get() would throw through C on a network failure; a failed
   * transfer was not delivered, so wait for the next one. */
  for (;;) {
    void *data = NULL;
    if (sg_comm_wait(sg_mailbox_get_async(mb, &data)) == SG_OK) return data;
  }
}

/* Many comms at once are spread over helper actors ("couriers") on the
 * caller's host, TRV_COURIER_SLICE each: SimGrid 3.32 keeps an actor's
 * activities in a list that it scans on every completion, so one actor
 * holding M comms pays O(M) per message, O(M^2) per episode.  A courier
 * starts its slice's comms and waits for them as the caller would have;
 * the comms are the same (same hosts, mailboxes, sizes, deadline), so they
 * match, transfer and complete at the same simulated times.  The caller
 * waits for its couriers on a semaphore.  Couriers live on the caller's
 * host and die with it, as the caller does. */
typedef struct {
  int refs; /* the caller's, and each courier's while it runs */
  sg_sem_t over;
  sg_mailbox_t mb;   /* receiving: the mailbox */
  sg_mailbox_t *mbs; /* sending: per message */
  Msg **msgs;        /* received into (first..first+n of each courier), or sent */
  double *at;        /* receiving: when each was collected */
  bool *delivered;   /* sending: per message */
  int *got;          /* receiving: per courier */
  double deadline;
} Gather;

typedef struct {
  Gather *g;
  int index, first, n;
} Courier;

static void gather_unref(Gather *g) {
  if (--g->refs > 0) return;
  sg_sem_destroy(g->over);
  g_free(g->at);
  g_free(g->got);
  g_free(g);
}

static void courier_exit(int failed, void *data) {
  (void)failed;
  Courier *c = data;
  gather_unref(c->g);
  g_free(c);
}

/* n receives posted at once on mb, waited for in order until the
 * deadline; what arrived goes to out[0..], returns how many. */
static int recv_slice(sg_mailbox_t mb, int n, double deadline, Msg **out, double *at) {
  void **data = g_new0(void *, n);
  sg_comm_t *comms = g_new(sg_comm_t, n);
  for (int i = 0; i < n; i++) comms[i] = sg_mailbox_get_async(mb, &data[i]);
  int got = 0;
  for (int i = 0; i < n; i++) {
    /* past the deadline, a zero wait still collects what already arrived and
     * cancels what did not (a timed-out comm is aborted for both sides); if
     * the actor dies with its host, SimGrid discards its pending receives */
    double left = deadline - simgrid_get_clock();
    if (sg_comm_wait_for(comms[i], left > 0 ? left : 0) != SG_OK) continue;
    if (at) at[got] = simgrid_get_clock();
    out[got++] = data[i];
  }
  g_free(data);
  g_free(comms);
  return got;
}

/* msgs[i] (NULL: none) to mbs[i], all started, then each waited for in
 * order until the deadline; delivered[i] says which were taken. */
static void send_slice(sg_mailbox_t *mbs, Msg **msgs, int n, double deadline, bool *delivered) {
  sg_comm_t *comms = g_new(sg_comm_t, n);
  for (int i = 0; i < n; i++)
    if (msgs[i]) comms[i] = trv_msg_post(mbs[i], msgs[i]);
  for (int i = 0; i < n; i++)
    delivered[i] = msgs[i] && trv_msg_finish(comms[i], msgs[i], deadline - simgrid_get_clock());
  g_free(comms);
}

static void courier_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  Courier *c = sg_actor_self_get_data();
  Gather *g = c->g;
  g->refs++;
  sg_actor_on_exit(courier_exit, c);
  if (g->mb)
    g->got[c->index] = recv_slice(g->mb, c->n, g->deadline, g->msgs + c->first, g->at ? g->at + c->first : NULL);
  else
    send_slice(g->mbs + c->first, g->msgs + c->first, c->n, g->deadline, g->delivered + c->first);
  sg_sem_release(g->over);
}

/* Runs g's n comms in couriers of TRV_COURIER_SLICE; returns their count
 * once every one is over. */
static int run_couriers(Gather *g, int n) {
  int k = (n + TRV_COURIER_SLICE - 1) / TRV_COURIER_SLICE;
  g->refs = 1;
  g->over = sg_sem_init(0);
  g->got = g_new0(int, k);
  for (int i = 0; i < k; i++) {
    Courier *c = g_new(Courier, 1);
    *c = (Courier){g, i, i * TRV_COURIER_SLICE, MIN(TRV_COURIER_SLICE, n - i * TRV_COURIER_SLICE)};
    sg_actor_t actor = sg_actor_init("trivium-courier", sg_host_self());
    sg_actor_set_data(actor, c);
    sg_actor_start(actor, courier_actor, 0, NULL);
  }
  for (int i = 0; i < k; i++) sg_sem_acquire(g->over);
  return k;
}

int trv_msg_recv_many(sg_mailbox_t mb, int n, double timeout, Msg **out, double *at) {
  if (n <= 0 || timeout <= 0) return 0;
  double deadline = simgrid_get_clock() + timeout;
  if (n <= TRV_COURIER_SLICE) return recv_slice(mb, n, deadline, out, at);
  Gather *g = g_new0(Gather, 1);
  g->mb = mb;
  g->msgs = g_new(Msg *, n);
  g->at = at ? g_new(double, n) : NULL;
  g->deadline = deadline;
  int k = run_couriers(g, n), got = 0;
  /* the couriers posted their receives in order, so the first slice took
   * the first arrivals: their slices, in order, are the arrival order */
  for (int i = 0; i < k; i++)
    for (int j = 0; j < g->got[i]; j++) {
      if (at) at[got] = g->at[i * TRV_COURIER_SLICE + j];
      out[got++] = g->msgs[i * TRV_COURIER_SLICE + j];
    }
  g_free(g->msgs);
  gather_unref(g);
  return got;
}

void trv_msg_send_many(sg_mailbox_t *mbs, Msg **msgs, int n, double deadline, bool *delivered) {
  if (n <= TRV_COURIER_SLICE) {
    send_slice(mbs, msgs, n, deadline, delivered);
    return;
  }
  Gather *g = g_new0(Gather, 1);
  g->mbs = mbs;
  g->msgs = msgs;
  g->delivered = delivered;
  g->deadline = deadline;
  run_couriers(g, n);
  gather_unref(g);
}

Msg *trv_msg_recv(sg_mailbox_t mb, double timeout) {
  if (timeout <= 0) return NULL;
  void *data = NULL;
  sg_comm_t c = sg_mailbox_get_async(mb, &data);
  return sg_comm_wait_for(c, timeout) == SG_OK ? data : NULL;
}

/* ---- roles -------------------------------------------------------------- */

static bool host_matches(sg_host_t h, const char *globs, const char *role) {
  if (!globs) {
    const char *r = sg_host_get_property_value(h, "trivium.role");
    return r && !strcmp(r, role);
  }
  char **pats = g_strsplit(globs, ",", -1);
  bool hit = false;
  for (int i = 0; pats[i] && !hit; i++) hit = fnmatch(g_strstrip(pats[i]), sg_host_get_name(h), 0) == 0;
  g_strfreev(pats);
  return hit;
}

/* Hosts of a role, in the platform's host order. */
static GPtrArray *hosts_of(const TrvSimOptions *opt, int role) {
  GPtrArray *out = g_ptr_array_new();
  sg_host_t *hosts = sg_host_list();
  size_t n = sg_host_count();
  for (size_t i = 0; i < n; i++)
    if (host_matches(hosts[i], opt->role_hosts[role], trv_role_names[role])) g_ptr_array_add(out, hosts[i]);
  g_free(hosts);
  return out;
}

typedef struct {
  char *name;
  sg_host_t host;
  void (*code)(int, char **);
  int index;
} PendingActor;

static GArray *pending_actors; /* PendingActor whose host was off at start */

static void launch(const char *name, sg_host_t host, void (*code)(int, char **), int index) {
  char idx[16];
  snprintf(idx, sizeof idx, "%d", index);
  char *argv[] = {(char *)name, idx, NULL};
  sg_actor_t a = sg_actor_init(name, host);
  sg_actor_start(a, code, 2, argv);
  sg_actor_set_auto_restart(a, 1); /* after start: the restart record copies the code */
}

/* Starts, as soon as their host is up, the actors whose host was off when
 * the run began (a platform's own state profiles can say so); SimGrid
 * refuses to start an actor on a failed host. */
static void boot_watcher(int argc, char **argv) {
  (void)argc;
  (void)argv;
  sg_actor_daemonize(sg_actor_self());
  while (pending_actors && pending_actors->len > 0) {
    sg_actor_sleep_for(0.1);
    for (guint i = 0; i < pending_actors->len;) {
      PendingActor *p = &g_array_index(pending_actors, PendingActor, i);
      if (!sg_host_is_on(p->host)) {
        i++;
        continue;
      }
      launch(p->name, p->host, p->code, p->index);
      g_free(p->name);
      g_array_remove_index(pending_actors, i);
    }
  }
}

static void start_actor(const char *name, sg_host_t host, void (*code)(int, char **), int index) {
  if (sg_host_is_on(host)) {
    launch(name, host, code, index);
    return;
  }
  if (!pending_actors) pending_actors = g_array_new(FALSE, FALSE, sizeof(PendingActor));
  PendingActor p = {g_strdup(name), host, code, index};
  g_array_append_val(pending_actors, p);
}

/* ---- the cell ----------------------------------------------------------- */

/* Free functions for a replica's per-episode arrays, whose decided entries
 * are already NULL. */
static void free_set(gpointer p) { trv_key_set_free(p); }
static void free_records(gpointer p) {
  if (p) g_array_unref(p);
}

static void free_cell(Cell *cell) {
  for (int a = 0; cell->agents && a < cell->n_agents; a++) {
    if (cell->agents[a].world) cell->wc->agent->free(cell->agents[a].world);
    trv_episode_discard(cell->agents[a].open); /* an episode a program's actor never closed */
  }
  for (int r = 0; cell->replicas && r < cell->n_replicas; r++) {
    ReplicaState *rs = &cell->replicas[r];
    g_ptr_array_unref(rs->seen);
    g_ptr_array_unref(rs->pending);
    g_array_free(rs->intents, TRUE);
    if (rs->decided) g_array_free(rs->decided, TRUE);
    if (rs->ctl) trv_ctl_close(rs->ctl, NULL);
  }
  for (guint e = 0; cell->decided && e < cell->decided->len; e++) {
    DecidedEpisode *d = g_ptr_array_index(cell->decided, e);
    if (!d) continue;
    g_array_free(d->records, TRUE);
    trv_posterior_free(d->snapshot);
    g_free(d);
  }
  if (cell->decided) g_ptr_array_free(cell->decided, TRUE);
  if (cell->played) g_array_free(cell->played, TRUE);
  if (cell->machine_hosts) g_hash_table_destroy(cell->machine_hosts);
  if (cell->shared_city) {
    Round *R = &cell->round;
    for (int a = 0; a < cell->n_agents; a++) sg_sem_destroy(R->sem[a]);
    g_free(R->sem);
    g_free(R->waiting);
    trv_sim_round_hosts_free(R);
    g_ptr_array_free(R->hosts, TRUE);
    g_ptr_array_free(R->waiters, TRUE);
    g_free(R->host_of);
    g_free(R->member);
    g_free(R->done);
    g_free(R->stand_in);
    g_free(R->next_step);
    cell->shared_city = false;
  }
  g_free(cell->agents);
  g_free(cell->replicas);
  g_free(cell->replica_acked);
  trv_session_free(cell->session);
  cell->agents = NULL;
  cell->replicas = NULL;
  cell->decided = NULL;
  cell->session = NULL;
}

/* What each built-in agent's episode costs on its host (TrvAgentCost), for
 * the schedulers that plan by time: the steps as the agent plays them
 * (agent-actor.c, clock_step), each lasting the step duration or its work
 * on the host if longer, or, with the compute clock, its work alone; a
 * probe adds sim.probe_flops to its step.  Not set for a world whose agents
 * do their own work: there the steps' flops are not the episode's time. */
static void set_agent_costs(Cell *cell) {
  const TrvSimOptions *opt = cell->opt;
  if (!cell->wc->agent || cell->wc->agent->work || cell->wc->agent->operations) return;
  for (int a = 0; a < cell->n_agents; a++)
    if (!(sg_host_get_speed(cell->agents[a].host) > 0)) return; /* a host that computes nothing: no clock to read */
  TrvAgentCost *cost = g_new(TrvAgentCost, cell->n_agents);
  for (int a = 0; a < cell->n_agents; a++) {
    double speed = sg_host_get_speed(cell->agents[a].host);
    double plain = opt->step_flops / speed, probing = (opt->step_flops + opt->probe_flops) / speed;
    if (cell->step_seconds > 0) {
      plain = fmax(cell->step_seconds, plain);
      probing = fmax(cell->step_seconds, probing);
    }
    cost[a] = (TrvAgentCost){cell->info->steps * plain, probing - plain};
  }
  trv_session_set_agent_costs(cell->session, cost, cell->n_agents);
  g_free(cost);
}

/* The steps' duration on the world's clock, the failure detector's D:
 * each step lasts sim.step_seconds, or longer on a host whose built-in
 * agents' step work outlasts it (sim.step_flops each, run together: a
 * share of the host's cores, as its city's step deals it round them); the
 * longest over the agents' hosts.  Probes are left to the detector's
 * margin.  Agents that do their own work (a world's work or operations, a
 * program's agents): the steps alone. */
static double steps_duration(const Cell *cell, bool built_in) {
  double step = cell->step_seconds;
  const TrvAgentClass *ac = cell->wc->agent;
  if (step > 0 && built_in && ac && !ac->work && !ac->operations && cell->opt->step_flops > 0) {
    GHashTable *count = g_hash_table_new(NULL, NULL);
    for (int a = 0; a < cell->n_agents; a++) {
      sg_host_t h = cell->agents[a].host;
      g_hash_table_insert(count, h, GINT_TO_POINTER(GPOINTER_TO_INT(g_hash_table_lookup(count, h)) + 1));
    }
    GHashTableIter it;
    gpointer h, n;
    g_hash_table_iter_init(&it, count);
    while (g_hash_table_iter_next(&it, &h, &n)) {
      double speed = sg_host_get_speed(h);
      int cores = MAX(1, sg_host_core_count(h)), per_core = (GPOINTER_TO_INT(n) + cores - 1) / cores;
      if (speed > 0) step = fmax(step, per_core * cell->opt->step_flops / speed);
    }
    g_hash_table_destroy(count);
  }
  return cell->info->steps * step;
}

/* Builds the cell on the loaded platform: world, controller, agents and
 * replicas placed by role (agents on agent_hosts when given: the plugin's
 * registered actors), the CTL file, the fault driver.  On error the cell
 * is freed. */
bool trv_sim_cell_build(Cell *cell, GPtrArray *agent_hosts, GError **error) {
  if (!trv_sim_check_contexts(error)) return false;
  const TrvSimCellSpec *spec = cell->spec;
  const TrvSimOptions *opt = cell->opt;
  GPtrArray *role_hosts[TRV_N_ROLES];
  for (int r = 0; r < TRV_N_ROLES; r++)
    role_hosts[r] = r == TRV_ROLE_AGENT && agent_hosts ? g_ptr_array_copy(agent_hosts, NULL, NULL) : hosts_of(opt, r);
  bool ok = true;
  for (int r = 0; r < TRV_N_ROLES && ok; r++)
    if (role_hosts[r]->len == 0) {
      if (r == TRV_ROLE_AGENT && agent_hosts)
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                    "no Trivium agent: mark actors with the property "
                    "trivium.agent or call trivium_agent_attach()");
      else if (opt->role_hosts[r])
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: role %s: no host matches '%s'", opt->platform,
                    trv_role_names[r], opt->role_hosts[r]);
      else
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: role %s: no host has the property trivium.role=%s",
                    opt->platform, trv_role_names[r], trv_role_names[r]);
      ok = false;
    }
  cell->wc = spec->world_class;
  if (ok && !agent_hosts && !cell->wc->agent) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "world %s has no agent class: its agents are a program's own actors (trivium/agent.h)", cell->wc->name);
    ok = false;
  }
  if (ok) ok = (cell->session = trv_session_new(spec->params, cell->wc, spec->controller, spec->seed, error)) != NULL;
  if (ok && opt->layout) { /* this seed's change-points, before any row */
    const int *cps;
    int n = trv_session_change_points(cell->session, &cps);
    opt->layout->n_change_points = n;
    memcpy(opt->layout->change_points, cps, sizeof(int) * (size_t)n);
  }
  if (ok) {
    trv_session_time_controller(cell->session, opt->time_controller);
    cell->info = trv_session_info(cell->session);
    cell->step_seconds = !opt->world_clock ? 0.0 : opt->step_seconds > 0 ? opt->step_seconds : cell->info->step_seconds;
    void *world = trv_session_world(cell->session);
    cell->controller_host = g_ptr_array_index(role_hosts[TRV_ROLE_CONTROLLER], 0);
    cell->mb_controller = sg_mailbox_by_name("trivium/controller");
    cell->mb_controller_reply = sg_mailbox_by_name("trivium/controller/reply");
    cell->decided = g_ptr_array_new();
    cell->played = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
    cell->played_episode = -1;
    cell->n_agents = agent_hosts ? (int)agent_hosts->len : opt->agents;
    cell->agents = g_new0(AgentState, cell->n_agents);
    for (int a = 0; a < cell->n_agents; a++) {
      AgentState *as = &cell->agents[a];
      char name[64];
      as->index = a;
      as->host = g_ptr_array_index(role_hosts[TRV_ROLE_AGENT], a % role_hosts[TRV_ROLE_AGENT]->len);
      if (cell->wc->agent && ok) ok = (as->world = trv_world_agent_new(cell->wc, world, a, error)) != NULL;
      trv_probe_signs_init(&as->probe_signs, spec->seed, a);
      snprintf(name, sizeof name, "trivium/agent/%d", a);
      as->mb = sg_mailbox_by_name(name);
      snprintf(name, sizeof name, "trivium/agent/%d/ack", a);
      as->mb_ack = sg_mailbox_by_name(name);
    }
    if (ok && !agent_hosts) set_agent_costs(cell);
    cell->steps_duration = steps_duration(cell, !agent_hosts);
    if (cell->wc->agent && cell->wc->agent->step_end) { /* a shared city: the agents step together */
      Round *R = &cell->round;
      cell->shared_city = true;
      R->episode = -1;
      R->member = g_new0(bool, cell->n_agents);
      R->done = g_new0(bool, cell->n_agents);
      R->stand_in = g_new0(bool, cell->n_agents);
      R->next_step = g_new0(int, cell->n_agents);
      R->waiting = g_new0(bool, cell->n_agents);
      R->sem = g_new(sg_sem_t, cell->n_agents);
      for (int a = 0; a < cell->n_agents; a++) R->sem[a] = sg_sem_init(0);
      R->waiters = g_ptr_array_new();
      R->hosts = g_ptr_array_new();
      R->host_of = g_new0(HostRound *, cell->n_agents);
    }
    cell->n_replicas = opt->best_effort ? 1 : opt->replicas;
    cell->replicas = g_new0(ReplicaState, cell->n_replicas);
    cell->replica_acked = g_new0(int, cell->n_replicas);
    for (int r = 0; r < cell->n_replicas; r++) {
      ReplicaState *rs = &cell->replicas[r];
      char name[64];
      rs->index = r;
      rs->host = g_ptr_array_index(role_hosts[TRV_ROLE_CTL], r % role_hosts[TRV_ROLE_CTL]->len);
      snprintf(name, sizeof name, "trivium/log/%d", r);
      rs->mb = sg_mailbox_by_name(name);
      rs->seen = g_ptr_array_new_with_free_func(free_set);
      rs->pending = g_ptr_array_new_with_free_func(free_records);
      rs->intents = g_array_new(FALSE, FALSE, sizeof(int));
      if (r == 0 && cell->log_out) rs->decided = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
    }
    const TrvPosterior *post = trv_session_replayable_posterior(cell->session);
    if (ok && opt->ctl_path && post && g_file_test(opt->ctl_path, G_FILE_TEST_EXISTS)) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                  "%s exists: Trivium never overwrites or deletes a log; move it away or name another file",
                  opt->ctl_path);
      ok = false;
    } else if (ok && opt->ctl_path && post) {
      TrvCtlOptions co = {.fsync = opt->ctl_fsync};
      cell->replicas[0].ctl =
          trv_ctl_create(opt->ctl_path, trv_posterior_n_components(post), trv_posterior_params(post), &co, error);
      ok = cell->replicas[0].ctl != NULL;
    }
  }
  if (ok) trv_sim_transfer_rates(cell);
  if (ok) ok = trv_sim_install_faults(cell, error);
  for (int k = 0; k < TRV_N_ROLES; k++) g_ptr_array_free(role_hosts[k], TRUE);
  if (!ok) free_cell(cell);
  return ok;
}

/* Starts the replicas, the agents (unless user actors play them) and the
 * controller. */
void trv_sim_cell_start(Cell *cell, bool start_agents) {
  for (int r = 0; r < cell->n_replicas; r++) {
    char name[32];
    snprintf(name, sizeof name, "trivium-log-%d", r);
    start_actor(name, cell->replicas[r].host, trv_sim_replica_actor, r);
  }
  for (int a = 0; start_agents && a < cell->n_agents; a++) {
    char name[32];
    snprintf(name, sizeof name, "trivium-agent-%d", a);
    start_actor(name, cell->agents[a].host, trv_sim_agent_actor, a);
  }
  start_actor("trivium-controller", cell->controller_host, trv_sim_controller_actor, 0);
  if (pending_actors && pending_actors->len > 0) { /* the watcher needs a host that is up */
    sg_host_t *hosts = sg_host_list();
    for (size_t i = 0; i < sg_host_count(); i++)
      if (sg_host_is_on(hosts[i])) {
        sg_actor_t w = sg_actor_init("trivium-boot", hosts[i]);
        sg_actor_start(w, boot_watcher, 0, NULL);
        break;
      }
    g_free(hosts);
  }
}

void trv_sim_cell_fail(Cell *cell, GError *err) {
  XBT_INFO("%s", err->message); /* the run reports it once, at its end */
  if (cell->error)
    g_error_free(err);
  else
    cell->error = err;
}

/* After simgrid_run(): the outcome (rows were delivered as episodes
 * closed), the decided log, the final posterior.  Frees the cell. */
bool trv_sim_cell_finish(Cell *cell, GError **error) {
  const TrvSimCellSpec *spec = cell->spec;
  TrvSimReport *report = cell->report;
  report->end_time = simgrid_get_clock();
  bool ok = cell->finished;
  if (!ok) {
    if (cell->error)
      g_propagate_error(error, cell->error);
    else
      g_set_error(error, TRV_ERROR, TRV_ERROR_IO,
                  "simulation of seed %llu under %s ended at t=%g s after %d of %d episodes: deadlock (actors "
                  "still waiting)",
                  (unsigned long long)spec->seed, spec->controller, simgrid_get_clock(), cell->episode,
                  cell->info ? cell->info->episodes : 0);
    cell->error = NULL;
  } else if (cell->error) { /* a log write error: the run finished but the file is incomplete */
    g_propagate_error(error, cell->error);
    cell->error = NULL;
    ok = false;
  }
  if (ok) {
    ReplicaState *r0 = &cell->replicas[0];
    report->records_decided = r0->n_decided;
    if (cell->log_out && r0->decided) g_array_append_vals(cell->log_out, r0->decided->data, r0->decided->len);
    const TrvController *c = trv_session_controller(cell->session);
    const TrvPosterior *post = c->klass->posterior(c->self);
    report->final_posterior = post ? trv_posterior_copy(post) : NULL;
    if (r0->ctl && !trv_ctl_close(r0->ctl, error)) ok = false;
    r0->ctl = NULL;
  }
  trv_sim_cell = NULL;
  free_cell(cell);
  return ok;
}

bool trv_sim_run_cell(const TrvSimCellSpec *spec, const TrvSimOptions *opt, GArray *rows, GArray *log,
                      TrvSimReport *report, GError **error) {
  TrvSimReport scratch;
  if (!report) report = &scratch;
  memset(report, 0, sizeof *report);
  Cell cell = {.spec = spec, .opt = opt, .rows = rows, .log_out = log, .report = report};
  if (!trv_platform_file_check(opt->platform, error)) return false; /* data, never a library */
  if (opt->agents < 1 || opt->agents > TRV_SIM_MAX_AGENTS || opt->replicas < 1) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "agents must be in [1, %d] and replicas >= 1 (got %d, %d)",
                TRV_SIM_MAX_AGENTS, opt->agents, opt->replicas);
    return false;
  }
  int argc;
  char **argv = trv_sim_cell_argv(opt, &argc);
  simgrid_init(&argc, argv);
  trv_sim_log_defaults();
  trv_sim_trace_setup(opt->trace_file, opt->trace_suffix);
  simgrid_load_platform(opt->platform);
  g_strfreev(argv);
  trv_sim_cell = &cell;
  if (!trv_sim_cell_build(&cell, NULL, error)) {
    trv_sim_cell = NULL;
    return false;
  }
  trv_sim_cell_start(&cell, true);
  simgrid_run();
  return trv_sim_cell_finish(&cell, error);
}
