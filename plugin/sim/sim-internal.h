/* sim-internal.h - what the SimGrid attachment's files share: messages and
 * the state of one simulated cell.
 *
 * Names: "controller" is the meta-controller (its actor, its session);
 * "log" is the Causal Transaction Log (its replicas, its file).
 *
 * Durable state (what a real system keeps on disk: a replica's records, an
 * agent's sequence number and world streams, the controller's decided
 * episodes and its posterior) lives in the Cell, not in the actors.  The
 * built-in actors are auto-restarting: when a fault turns their host off
 * they die inside a wait, and when the host comes back they start again
 * from that durable state.  An agent actor finds its AgentState through
 * its index, an extension of the actor (s4u.cpp), the way SimGrid's own
 * plugins attach state to actors.  One simulation per process (SimGrid initialises once),
 * so the Cell is reached through one pointer. */
#ifndef TRV_SIM_INTERNAL_H
#define TRV_SIM_INTERNAL_H

#include <simgrid/actor.h>
#include <simgrid/barrier.h>
#include <simgrid/semaphore.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/mailbox.h>
#include <xbt/log.h>

#include "core/keyset.h"
#include "core/protocol.h"
#include "core/results.h"
#include "log/ctl.h"
#include "sim.h"

/* The log categories: `trivium` and its children (--log=trivium.thres:info). */
XBT_LOG_EXTERNAL_CATEGORY(trivium);
XBT_LOG_EXTERNAL_CATEGORY(root);

typedef enum {
  MSG_PLAN,
  MSG_DONE,
  MSG_COMMIT,
  MSG_ACK,
  MSG_NACK,
  MSG_CLOSE,
  MSG_CLOSED,
  MSG_DECIDE,
  MSG_TELEMETRY,
  MSG_STOP
} MsgKind;

typedef struct {
  MsgKind kind;
  int episode; /* DECIDE: the last episode carried */
  int first;   /* DECIDE: the first episode carried */
  int agent;   /* sender agent, or replica index for replies */
  int tag;     /* PLAN/DONE: controller incarnation; COMMIT/ACK: attempt */
  /* TrvRecord, read-only and held by reference: one array goes to every
   * replica (COMMIT) and a replica's closed episode to the controller
   * (CLOSED), so nobody appends to a message's records; DECIDE: all records
   * of episodes first..episode */
  GArray *records;
  int n_intents; /* TELEMETRY/CLOSED: intent-only records (best effort) */
  TrvPlan *plan;
  sg_mailbox_t reply;
  int attempts, gated; /* DONE: commit messages sent, steps the gate held closed */
  int late;            /* DONE: steps that outlasted their duration on the world's clock */
  double until;        /* PLAN: when the controller's failure detector stops waiting for the episode's DONE */
  size_t n_carried;    /* DECIDE: records carried (sizes the message) */
} Msg;

typedef struct {
  int index;
  sg_host_t host;
  void *world; /* the agent's own handle on the world (built-in agents), or NULL */
  TrvProbeSigns probe_signs;
  uint64_t seq;
  sg_mailbox_t mb, mb_ack;
  int plan_tag;         /* the incarnation of the controller whose plan is open */
  int plan_episode;     /* the episode of that plan */
  double plan_until;    /* its failure detector's deadline: DONE is retried until then */
  sg_actor_t hooked;    /* the actor whose exit leaves the round (see Round) */
  TrvEpisode *open;     /* the episode handed to the agent and not yet closed */
  bool stopped;         /* the run is over for this agent */
  int late;             /* steps of the open episode that outlasted their duration (world clock) */
  GError *hosted_error; /* a shared city: what the world answered out of bounds while its host played the steps */
  /* a program's own agent (agent-life.c): its actor while present, the
   * watcher that joins it or answers for it, the actor's name (a restart
   * keeps it), and whether it is absent (away or left) or left */
  sg_actor_t actor, watcher;
  char *name;
  bool absent, left;
  bool open_slot; /* a slot for an agent that joins late, not yet taken */
  bool reporting; /* the watcher is delivering a report for it */
  TrvRng own_rng; /* the agent's own stream (trivium_episode_uniform), once own_rng_ready */
  bool own_rng_ready;
} AgentState;

typedef struct {
  int index;
  sg_host_t host;
  sg_mailbox_t mb;
  /* Per episode from `base` on (earlier ones are decided and dropped, so
   * that memory does not grow with the run): */
  int base;
  GPtrArray *seen;    /* the record ids stored (atomic mode), NULL once decided */
  GPtrArray *pending; /* GArray of records received, NULL once decided */
  GArray *intents;    /* intent-only telemetry count (int) */
  guint expect;       /* records of the latest episode closed: a new episode's arrays are sized for as many */
  int closed_upto;    /* episodes < closed_upto take no more commits */
  int decided_upto;   /* episodes < decided_upto are in the decided log */
  uint64_t n_decided; /* records in the decided log */
  GArray *decided;    /* the decided log, in order, when the caller asked for it (replica 0), else NULL */
  TrvCtl *ctl;        /* the log file (replica 0, when asked) */
} ReplicaState;

/* Shared-city worlds: one episode as the agents its plans reached play it.
 * The participants are fixed when the plans are delivered (once, each
 * within commit_timeout; an agent not reached, or dead by then, sits the
 * episode out and its commit counts as failed).  At every step each
 * participant arrives; the last to arrive moves the city (step_end) and
 * lets the others go on, so nobody reads its payoff before the city moved.
 * Built-in agents do not step in their own actors: one actor per host
 * (HostRound) plays the steps of the participants on that host together
 * and arrives for all of them, so that a step costs the engine a switch
 * per host, not per agent; each agent's actor hands its episode over,
 * waits, and then closes the episode itself (commit, DONE).  A program's
 * own agents step in their actors and arrive one by one.  A participant
 * whose actor dies within the round (its host crashed) is replaced for the
 * steps it had not reached by a stand-in actor that only arrives (spawned
 * by the fault driver; an exit callback runs in the dying actor and may
 * only record what is needed).  A restarted controller takes the round as
 * it stands rather than planning the episode again; a restarted agent
 * joins at the next episode.  Before the round is fixed an agent waits on
 * a semaphore of its own. */
typedef struct HostRound HostRound;
typedef struct {
  int episode;    /* -1: no round yet */
  int tag;        /* the controller incarnation that planned it */
  bool fixed;     /* the deliveries are over: the participants are known */
  bool *member;   /* per agent: a participant */
  bool *done;     /* per agent: its DONE received */
  bool *stand_in; /* per agent: died within the round, a stand-in is due */
  int *next_step; /* per agent: the step it arrives at next */
  bool *waiting;  /* per agent: blocked on its semaphore until the round is fixed */
  sg_sem_t *sem;  /* per agent */
  int members, arrivals;
  GPtrArray *waiters;  /* sg_sem_t: who arrived at the current step and waits for the city to move */
  GPtrArray *hosts;    /* HostRound*: the round's hosts (built-in agents) */
  HostRound **host_of; /* per agent: its host's HostRound in this round, or NULL */
  double deadline;     /* the end of the wait for DONE: the failure detector's */
  double start, last;  /* when the plans went out; when the last DONE (or the plans' delivery) came */
} Round;

/* An episode the controller decided, kept until every replica holds it. */
typedef struct {
  GArray *records;        /* agents' committed records + controller's own + EPISODE_END */
  TrvPosterior *snapshot; /* posterior after the episode, or NULL */
  bool alarm;
} DecidedEpisode;

typedef struct {
  const TrvSimCellSpec *spec;
  const TrvSimOptions *opt;
  GArray *rows;    /* may be NULL */
  GArray *log_out; /* may be NULL */
  TrvSimReport *report;
  TrvSession *session; /* the world (the referee's instance) and the controller */
  const TrvWorldClass *wc;
  const TrvWorldInfo *info;
  /* The world's clock: simulated seconds of one step (sim.step_seconds,
   * else the world's own), 0 when steps last their work (sim.clock =
   * compute, or a world with no clock of its own) */
  double step_seconds;
  /* The failure detector's D (controller-actor.c): the steps' duration on
   * the world's clock, longer than steps x step_seconds where a host's
   * agents' step work outlasts a step (cell-sim.c, steps_duration) */
  double steps_duration;
  /* Seconds per byte of the cell's transfers (transfer.c): the agents'
   * commits together over their busiest link, the plans likewise, the
   * controller's over its slowest link to a replica */
  double commit_spb, plan_spb, control_spb;
  AgentState *agents;
  int n_agents;
  ReplicaState *replicas;
  int n_replicas;
  sg_host_t controller_host;
  sg_mailbox_t mb_controller, mb_controller_reply;
  /* controller durable state */
  int episode, incarnation;
  int n_decided; /* episodes decided (absorbed) */
  /* the failure detector's memory: the margins (plans to last DONE, less
   * the steps' duration on the world's clock) of the last
   * TRV_DETECTOR_MEMORY episodes whose agents all reported */
#define TRV_DETECTOR_MEMORY 15
  double healthy[TRV_DETECTOR_MEMORY];
  int n_healthy; /* healthy episodes seen (the ring holds the last of them) */
  /* DecidedEpisode* of episodes decided_base .. n_decided - 1 (trv_sim_decided);
   * NULL once every replica holds it, and dropped from time to time */
  GPtrArray *decided;
  int decided_base;
  int *replica_acked; /* per replica: episodes < value are decided there */
  bool closing;       /* CLOSE of `episode` under way: do not re-plan it */
  bool finished;
  sg_actor_t fault_driver; /* keeps the simulation alive while a crashed controller is down */
  bool user_agents;        /* agents are a program's own actors: STOP them at the end */
  bool ended_early;        /* every agent left before the last episode (agent-life.c) */
  bool shared_city;        /* the world moves once per step for all agents (TrvAgentClass.step_end) */
  Round round;             /* shared city: the episode being played */
  /* The referee's view of the episode being played (played_episode): every
   * record the agents closed, committed or not, and every commit message
   * they sent; handed over in the simulator's memory, not the network, as
   * the referee sees the world itself.  A record closed after its episode
   * was decided is not counted. */
  GArray *played;
  int played_episode;
  int played_attempts;
  GHashTable *machine_hosts; /* machine number -> sg_host_t, for worlds whose agents run operations */
  GError *error;
} Cell;

extern Cell *trv_sim_cell;

/* Fixes the shared city's round (its participants: the members alive now)
 * and releases the agents waiting for that. */
void trv_sim_round_fix(Cell *cell);
/* After a host crash: a stand-in for every participant that died within
 * the round before its last step. */
void trv_sim_round_stand_ins(Cell *cell);
/* The end of a step for an agent stepping in its own actor (a program's
 * own, or one outside the round): TrvStepSync.wait with the AgentState. */
void trv_sim_round_step_barrier(void *agent_state, int step);
/* A built-in agent's episode in a shared city, played by its host's actor
 * (city-round.c); returns once the steps are over, false (nothing played)
 * when the agent is no participant.  *error: what the world answered out
 * of bounds. */
bool trv_sim_round_play_hosted(Cell *cell, AgentState *a, TrvEpisode *ep, GError **error);
/* sg_actor_on_exit callback of an agent's actor (data: its AgentState). */
void trv_sim_round_agent_exit(int failed, void *data);
/* Lets go of the round's hosts (at the next round, and at the end). */
void trv_sim_round_hosts_free(Round *R);

/* Set-up steps shared by trv_sim_run_cell and the plugin (plugin.c).
 * agent_hosts: the hosts of a program's own agent actors, or NULL to place
 * opt->agents built-in agents by role. */
bool trv_sim_cell_build(Cell *cell, GPtrArray *agent_hosts, GError **error);
void trv_sim_cell_start(Cell *cell, bool start_agents);
bool trv_sim_cell_finish(Cell *cell, GError **error);
/* Stops the cell with err (taken; the first error wins, a later one is
 * only logged): the controller ends the run at its next check, and
 * trv_sim_cell_finish returns the error. */
void trv_sim_cell_fail(Cell *cell, GError *err);
/* Sets the `trivium` log categories to warnings unless the user chose
 * their threshold (--log=trivium.thres:...). */
void trv_sim_log_defaults(void);

/* The decided episode e (decided_base <= e < n_decided), NULL once every
 * replica holds it. */
static inline DecidedEpisode *trv_sim_decided(const Cell *cell, int e) {
  return g_ptr_array_index(cell->decided, e - cell->decided_base);
}

/* Record r's identity, from (agent, seq): what the replicas' and the
 * controller's deduplication of commits and retries compare. */
static inline uint64_t trv_record_id(const TrvRecord *r) { return ((uint64_t)r->agent << 40) ^ r->seq; }

/* Adds record r's identity to a set of them (core/keyset.h); false when it
 * was in the set already. */
static inline bool trv_record_id_add(TrvKeySet *set, const TrvRecord *r) {
  return trv_key_set_add(set, trv_record_id(r));
}

/* messages */
Msg *trv_msg_new(MsgKind kind, int episode);
void trv_msg_free(Msg *m);
bool trv_msg_send(sg_mailbox_t mb, Msg *m, double timeout); /* frees m when not delivered */
void trv_msg_reply(sg_mailbox_t mb, Msg *m);                /* detached: the sender does not wait */
sg_comm_t trv_msg_post(sg_mailbox_t mb, Msg *m);            /* started; finish with trv_msg_finish */
bool trv_msg_finish(sg_comm_t c, Msg *m, double timeout);   /* frees m when not delivered */
Msg *trv_msg_recv(sg_mailbox_t mb, double timeout);         /* NULL on timeout / failure */
Msg *trv_msg_wait(sg_mailbox_t mb); /* blocks until a message arrives; survives failed transfers */
/* Posts n receives at once (so n transfers overlap, as a server accepting
 * connections in parallel would) and waits for them in order until the
 * deadline; stores what arrived in out, and (at not NULL) when each was
 * collected in at: the receives match messages in the order they come,
 * so that is when it arrived, not when the wait ended; returns how many. */
int trv_msg_recv_many(sg_mailbox_t mb, int n, double timeout, Msg **out, double *at);
/* Sends msgs[i] (NULL: nothing) to mbs[i], all started at once, then
 * waits for each in order until `deadline` (an absolute simulated time);
 * delivered[i]: taken in time (a message not delivered is freed). */
void trv_msg_send_many(sg_mailbox_t *mbs, Msg **msgs, int n, double deadline, bool *delivered);
/* Above this many comms, trv_msg_recv_many and trv_msg_send_many spread
 * them over helper actors (cell-sim.c) */
#define TRV_COURIER_SLICE 256

/* actors */
void trv_sim_controller_actor(int argc, char **argv);
void trv_sim_agent_actor(int argc, char **argv);
void trv_sim_replica_actor(int argc, char **argv);
/* The next episode of agent a (waits for its plan); NULL at the end of the
 * run.  The body of trivium_agent_next_episode(). */
TrvEpisode *trv_sim_agent_next(AgentState *a);

/* A program's own agents coming and going (agent-life.c). */
/* Agent a is played by `actor` from now on: watched until it ends. */
void trv_sim_agent_present(Cell *cell, AgentState *a, sg_actor_t actor);
/* Agent a leaves the run (trivium_agent_leave, from its actor). */
void trv_sim_agent_leave(Cell *cell, AgentState *a);
/* An actor that is no agent asks for a plan: when it has the name and the
 * host of an absent agent (SimGrid restarted it), it becomes that agent
 * again; returns its index, or -1. */
int trv_sim_agent_rejoin(Cell *cell, sg_actor_t actor);
/* Agent a is a slot for an agent that joins late: answered for as one
 * that left until an actor takes it. */
void trv_sim_agent_open_slot(Cell *cell, AgentState *a);
/* `actor` joins the run in the first open slot; its index, -1 when no
 * slot is open, -2 when the run is over. */
int trv_sim_agent_join(Cell *cell, sg_actor_t actor);
/* Every agent of the program's own has left: the run ends. */
bool trv_sim_agents_gone(const Cell *cell);
/* The run ends early because every agent left: says so (a warning). */
void trv_sim_agents_ended(Cell *cell);
/* Releases the agents' actors and names (before the cell is freed). */
void trv_sim_agent_life_free(Cell *cell);

/* A program's run, as trivium_results_write_dir() writes it
 * (program-dir.c). */
typedef struct {
  const char *version, *world;
  char **command_line; /* the program's arguments, NULL-terminated */
  uint64_t seed;
  const char *const *setting_keys; /* every setting, with its value */
  const char *const *setting_values;
  size_t n_settings;
  const TrvCellLayout *layout; /* components, world metrics, change-points, controller, planned episodes */
  const TrvEpisodeRow *rows;
  size_t n_rows;
  const TrvCellSummary *summary;
  bool ended_early;
} TrvProgramRun;
/* Writes dir/episodes.csv and dir/run.json (format trivium-program-1),
 * creating dir; false with *error (TRV_ERROR_INPUT for a directory that
 * cannot be used: a link below it, a run of trivium run). */
bool trv_sim_program_dir_write(const TrvProgramRun *run, const char *dir, GError **error);

/* How long a transfer may take (transfer.c): ctl.timeout, or
 * TRV_TRANSFER_MARGIN times what the platform needs for it when longer.
 * trv_sim_transfer_rates measures the cell's routes once it is placed. */
#define TRV_TRANSFER_MARGIN 2.0
#define TRV_TRANSFER_WAIT_MAX 1e9 /* simulated seconds, as ctl.timeout's largest */
void trv_sim_transfer_rates(Cell *cell);
/* One commit attempt of `bytes`, every agent committing as much at once. */
double trv_sim_commit_wait(const Cell *cell, long bytes);
/* Every agent's plan of `bytes` at once: the margin times their time (no
 * ctl.timeout floor: the caller has its own). */
double trv_sim_plan_crowd(const Cell *cell, long bytes);
/* One of the controller's transfers to or from a replica. */
double trv_sim_control_wait(const Cell *cell, long bytes);
/* The bytes of the records `agents` agents commit in an episode (one a step). */
long trv_sim_episode_bytes(const Cell *cell, long agents);
/* A message's size on the network. */
long trv_msg_bytes(const Msg *m);

/* faults (faults.c) and the C++ wrappers (s4u.cpp) */
/* After the platform loads: the fault processes and their driver. */
bool trv_sim_install_faults(Cell *cell, GError **error);
size_t trv_sim_route_links(sg_host_t from, sg_host_t to, sg_link_t *out, size_t max);
void trv_sim_link_set_on(sg_link_t link, int on);
/* The calling actor becomes mb's permanent receiver: what is sent to mb is
 * transferred at once, whether a receive is posted or not (a server's
 * network stack), until the actor's host turns off. */
void trv_sim_mailbox_receive_eagerly(sg_mailbox_t mb);
/* Transfers queued on mb that no receive matched yet. */
size_t trv_sim_mailbox_queued(const_sg_mailbox_t mb);
/* SimGrid's contexts/nthreads (more than 1 runs actors in parallel) and
 * contexts/stack-size (KiB of each actor's stack). */
void trv_sim_context_settings(int *threads, int *stack_kib);

/* The cell's SimGrid arguments (a NULL-terminated copy, *argc of them):
 * the run's, and contexts/guard-size:0 when its agents would not fit in the
 * mappings with guard pages (trv_sim_guard_pages_fit) and the run did not
 * set guard pages itself (SimGrid logs the change).  contexts.c */
char **trv_sim_cell_argv(const TrvSimOptions *opt, int *argc);
void trv_sim_actor_ext_init(void);
void trv_sim_actor_set_agent(sg_actor_t actor, int index);
int trv_sim_actor_agent(const_sg_actor_t actor); /* -1: not an agent */
/* The program's command line as SimGrid took it in simgrid_init (free
 * with g_strfreev). */
char **trv_sim_command_line(void);
/* Runs fn once the platform is loaded (SimGrid's on_platform_created). */
void trv_sim_on_platform_created(void (*fn)(void));
void trv_sim_on_simulation_end(void (*fn)(void));
/* Appends NAME to SimGrid's list of plugins (--cfg=plugin:NAME runs init);
 * false when this SimGrid keeps no list Trivium can reach (s4u.cpp). */
bool trv_sim_simgrid_plugin_add(const char *name, const char *description, void (*init)(void));
/* Tracing (s4u.cpp): after simgrid_init, before the platform; marks are
 * written only when SimGrid tracing is on. */
void trv_sim_trace_setup(const char *file, const char *suffix);
void trv_sim_trace_mark(const char *type, const char *value);

#endif
