/* protocol.h - the one episode protocol, written once for every world and
 * every transport (docs/simgrid-plugin.md, "One episode"; the agent's side
 * is public: trivium/agent.h).
 *
 *   plan    trv_session_plan(): the world's episode_begin, the controller's
 *           plan, split into one share per agent (disjoint by component);
 *   act     each agent plays its share in a TrvEpisode (episode.c): the
 *           built-in agents through trv_agent_play(), a program's own
 *           actors through trivium/agent.h;
 *   commit  the transport carries each agent's records to the log; only
 *           committed ones go on;
 *   close   trv_session_close(): the readouts the records give (reward),
 *           the controller's absorb, the referee's scoring against the
 *           truth (referee.c), and the decided records (the agents', the
 *           controller's own, the EPISODE_END marker) for the log.
 * Transports: the direct loop of direct.c (no simulator; every commit
 * succeeds at once) and the SimGrid attachment (plugin/sim: actors,
 * messages, log replicas, faults).  Both must give identical readouts for
 * the same seed when nothing fails (tested).  No SimGrid here. */
#ifndef TRV_PROTOCOL_H
#define TRV_PROTOCOL_H

#include <glib.h>
#include <stdbool.h>
#include <trivium/agent.h>
#include <trivium/results.h>

#include "controller.h"
#include "rng.h"

/* ---- controller side ---------------------------------------------------- */

typedef struct TrvSession TrvSession;

/* The world for `seed`, checked (its declaration and its referee's
 * change-points), and the controller called `controller` on it.  NULL with
 * *error (TRV_ERROR_INPUT) on bad parameters or a bad answer of the world
 * (world-call.h). */
TrvSession *trv_session_new(const TrvParams *params, const TrvWorldClass *wc, const char *controller, uint64_t seed,
                            GError **error);
void trv_session_free(TrvSession *s);
/* Whether trv_session_close measures row->controller_cpu (else 0): four
 * reads of the process CPU clock an episode, each a system call of about
 * 0.6 us, which is a few percent of a cheap episode, so only benchmarks
 * ask for it.  Off by default. */
void trv_session_time_controller(TrvSession *s, bool on);
/* What each of n_agents agents' episode costs in simulated seconds (the
 * SimGrid attachment computes it from the agents' hosts and the clock), for
 * a controller that plans its probes by time (the parallel scheduler):
 * copied; the plans of n_agents agents carry it.  Without it (or for
 * another number of agents) agents are taken as equal. */
void trv_session_set_agent_costs(TrvSession *s, const TrvAgentCost *cost, int n_agents);

const TrvWorldInfo *trv_session_info(const TrvSession *s);
const TrvWorldClass *trv_session_world_class(const TrvSession *s);
/* The world itself (the instance the referee reads; agents get their own). */
void *trv_session_world(TrvSession *s);
const TrvController *trv_session_controller(const TrvSession *s);
/* The controller's posterior when the log can replay it (event-sourced),
 * else NULL. */
const TrvPosterior *trv_session_replayable_posterior(const TrvSession *s);
/* The referee's change-points, checked when the session was made (at
 * most TRV_MAX_CHANGE_POINTS): sets *out to them (owned by the session)
 * and returns how many. */
int trv_session_change_points(const TrvSession *s, const int **out);

/* Begins episode e and plans it: fills parts[0..n_agents-1] with each
 * agent's share.  The shares point to one snapshot, the session's, which
 * lives until the next trv_session_plan: an agent takes a copy of its share
 * (trv_plan_copy, as trv_episode_new does), and the caller frees the
 * shares with trv_session_parts_free.  False with *error (nothing to
 * free) when the world's probe_value answers out of bounds. */
bool trv_session_plan(TrvSession *s, int e, int n_agents, TrvPlan **parts, GError **error);
void trv_session_parts_free(TrvPlan **parts, int n_agents);

/* What the transport measured of an episode's commits. */
typedef struct {
  int commits, attempts, failures; /* commit operations due, messages sent, never acknowledged */
  int gated;                       /* steps the agents' gates held closed */
  int steps_late;                  /* steps that outlasted their duration on the world's clock */
  int records_lost;                /* best effort: records that never reached the log */
  int detector_closed;             /* the failure detector closed the episode: some DONE never came */
  int agents_missing;              /* agents reached whose DONE never came */
  double wait_lost;                /* detector closes: seconds waited after the last DONE (or the plans) */
  double detector_timeout;         /* the failure detector's wait for this episode (0 without a clock) */
  double sim_time;                 /* when the episode closed (0 without a clock) */
} TrvEpisodeCounts;

/* Closes episode e with the records the log committed for it (any order):
 * fills *row (every readout), and appends the decided records (the
 * committed ones, the controller's own, the EPISODE_END marker) to
 * *decided.  played (n_played): every step record the agents played in
 * the episode, committed or not, which the referee sees (reward, r_out:
 * what the agents did, not what reached the log); NULL: the committed
 * ones.  row->controller_cpu is the CPU time the controller spent
 * on e (plan and absorb) when the session times it
 * (trv_session_time_controller), else 0.  False with *error when the
 * world answered out of bounds (its observational pairs, its referee):
 * the episode is not decided and the cell stops. */
bool trv_session_close(TrvSession *s, int e, const TrvRecord *recs, size_t n, const TrvRecord *played, size_t n_played,
                       const TrvEpisodeCounts *counts, TrvEpisodeRow *row, GArray *decided, GError **error);

/* The record closing episode e (written by the controller once every
 * record of e is in; its seq never collides with the controller's
 * PartialReset records). */
TrvRecord trv_episode_end_record(int episode);

/* The referee's scoring of a closed episode: truth, R_out, the world's
 * metrics, exposures, soft score, R_epi, tau and R_temp from the
 * controller's beliefs (referee.c).  False with *error when the referee
 * answered out of bounds (world-call.h). */
bool trv_referee_score(const TrvWorldClass *wc, void *world, const TrvBeliefs *beliefs, const TrvRecord *recs, size_t n,
                       int steps, TrvEpisodeRow *row, GError **error);
/* The same with the records' fold order already computed (replay.h). */
/* G_true_e into *truth, checked: over G_inf (n components, unchanged),
 * finite effects; false with *error naming the world otherwise. */
bool trv_referee_truth(const TrvWorldClass *wc, void *world, int n, TrvGraph *truth, GError **error);
bool trv_referee_score_ordered(const TrvWorldClass *wc, void *world, const TrvBeliefs *beliefs, const TrvRecord *recs,
                               const size_t *order, size_t n, int steps, TrvEpisodeRow *row, GError **error);

/* ---- agent side ---------------------------------------------------------- */

/* What a transport does when an agent closes its episode: commit the
 * records (TrvRecord, in step order, seq already assigned) and report;
 * returns whether they were committed.  The records are read-only: a
 * transport that sends them on takes a reference (g_array_ref) instead of
 * a copy. */
typedef struct {
  bool (*close)(void *ctx, TrvEpisode *ep, GArray *records, GError **error);
  void *ctx;
} TrvEpisodeSink;

/* Where an agent's probe signs come from.  A plan without numbers: the
 * agent's own stream (seed, TRV_STREAM_PROBE + 100 agent), one draw per
 * probe of its shares, in order.  A numbered plan (the world numbers its
 * probes: TrvAgentClass.probe_number): the run's one stream (seed,
 * TRV_STREAM_PROBE), draw n for the probe numbered n, whichever agent runs
 * it; so a probe's sign is the same at every agent count and fault rate
 * (common random numbers).  Agent 0's own stream is the run's, so one
 * agent that runs every probe planned draws the same signs either way. */
typedef struct {
  TrvRng rng;
  uint64_t seed;
  int agent;
  bool numbered; /* rng is the run's stream, next its position */
  uint64_t next;
} TrvProbeSigns;
void trv_probe_signs_init(TrvProbeSigns *signs, uint64_t seed, int agent);

/* Agent `agent`'s episode from its share of the plan (copied).  Record
 * sequence numbers continue from *seq (the agent's durable counter);
 * probe signs come from *signs (above). */
TrvEpisode *trv_episode_new(const TrvPlan *plan, int agent, int steps, int safe_action, uint64_t *seq,
                            TrvProbeSigns *signs, const TrvEpisodeSink *sink);
/* The same, taking plan (a plan the caller owns, trv_plan_copy's) instead
 * of copying it: the episode frees it. */
TrvEpisode *trv_episode_new_taking(TrvPlan *plan, int agent, int steps, int safe_action, uint64_t *seq,
                                   TrvProbeSigns *signs, const TrvEpisodeSink *sink);
/* Frees an episode that will never be closed (its agent died with it):
 * nothing is committed. */
void trv_episode_discard(TrvEpisode *ep);
/* Steps the gate held closed so far (the gate is brought up to date
 * through the last step when the episode closes). */
int trv_episode_gated(const TrvEpisode *ep);
/* Plays the world's agent class through the episode: per step observe,
 * probe, gate, act (and, for a shared city, sync then read the payoff).
 * The episode stays open: the caller closes it.  False with *error when
 * the agent answered out of bounds (world-call.h): the episode stops at
 * that step. */
typedef struct {
  void (*wait)(void *ctx, int step); /* the end of step `step`: for a shared city, returns once step_end(step) ran */
  void *ctx;
} TrvStepSync;
bool trv_agent_play(const TrvWorldClass *wc, void *agent_world, TrvEpisode *ep, const TrvStepSync *sync,
                    GError **error);
/* trv_agent_play in parts, for a caller that steps many agents together
 * (a shared city's agents on one host, sim/agent-actor.c): begin (the
 * agent's plan, the probes placed), then per step act (observe, probe,
 * gate, act: the step recorded with the act's reward) and, once the city
 * moved, payoff (the step's reward read again: step_payoff).  The same
 * world calls in the same order as trv_agent_play for one agent. */
bool trv_agent_play_begin(const TrvWorldClass *wc, void *agent_world, TrvEpisode *ep, GError **error);
bool trv_agent_play_act(const TrvWorldClass *wc, void *agent_world, TrvEpisode *ep, int step, GError **error);
bool trv_agent_play_payoff(const TrvWorldClass *wc, void *agent_world, TrvEpisode *ep, int step, GError **error);

#endif
