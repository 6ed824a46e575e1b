/* trivium/agent.h - a dispatch agent's side of the episode protocol.
 *
 * Every episode, whoever carries the messages:
 *   plan    the controller commits a graph G_hat_e and assigns probes to
 *           agents (disjoint: each candidate component to one agent);
 *   act     each agent plays the episode's steps in its world: at step t
 *           it runs the probe assigned to t, if any (an intervention
 *           do(Z_j = z) and its outcome w), and acts with its own dispatch
 *           logic, planned on G_hat_e, or the safe action while the
 *           dispatch gate is closed;
 *   commit  the agent's records go to the Causal Transaction Log, over the
 *           simulated network (atomic: acknowledged by a majority of log
 *           replicas, retried with the same ids, or lost whole);
 *   close   the controller reads what the log committed for the episode;
 *   absorb  it updates its posterior, detectors and G_hat_{e+1}.
 * This header is the agent's part.  In an actor of your own that is a
 * Trivium agent (deployment property trivium.agent, or
 * trivium_agent_attach()):
 *
 *   TrvEpisode *ep;
 *   while ((ep = trivium_agent_next_episode()) != NULL) {
 *     int T = trivium_episode_steps(ep), action = my_plan(trivium_episode_graph(ep));
 *     for (int t = 0; t < T; t++) {
 *       int j; double z;
 *       if (trivium_episode_probe(ep, t, &j, &z))
 *         trivium_episode_record_probe(ep, t, my_intervene(j, z));
 *       int a = trivium_episode_gate(ep, t) ? MY_SAFE_ACTION : action;
 *       trivium_episode_record_step(ep, t, a, my_act(a), context, n_context);
 *     }
 *     trivium_episode_close(ep, NULL);  // commits, then frees ep
 *   }
 *
 * The agent never sees the truth: only its plan.  Calls on one episode
 * come from the actor that received it. */
#ifndef TRIVIUM_AGENT_H
#define TRIVIUM_AGENT_H

#include <glib.h>
#include <stdbool.h>

#include <trivium/export.h>
#include <trivium/world.h>

G_BEGIN_DECLS

typedef struct TrvEpisode TrvEpisode;

/* In an agent actor: waits for this agent's next plan and returns its
 * episode; NULL when the run is over, after trivium_agent_leave(), or
 * when the calling actor is not an agent.  Close each episode before
 * asking for the next.  An actor that SimGrid restarted (auto-restart,
 * on_failure="RESTART") is the agent it was: the same index, sequence
 * numbers and streams. */
TRIVIUM_API TrvEpisode *trivium_agent_next_episode(void);
/* In an agent actor: this agent plays no more episodes (close the open
 * one first: an episode still open is discarded, its records lost).  An
 * agent whose actor returns, or is killed while its host is on, leaves
 * too.  The controller no longer waits for an agent that left (its
 * commits count as failed); when every agent has left, the run ends with
 * a warning before its next episode, and trivium_plugin_finished() says
 * how many episodes were played. */
TRIVIUM_API void trivium_agent_leave(void);

TRIVIUM_API int trivium_episode_index(const TrvEpisode *ep); /* e */
TRIVIUM_API int trivium_episode_agent(const TrvEpisode *ep); /* this agent's index */
TRIVIUM_API int trivium_episode_steps(const TrvEpisode *ep); /* T */
/* The committed graph G_hat_e to plan with (owned by the episode). */
TRIVIUM_API const TrvGraph *trivium_episode_graph(const TrvEpisode *ep);
TRIVIUM_API int trivium_episode_n_probes(const TrvEpisode *ep);
/* True when step t carries a probe: the intervention do(Z_component = z). */
TRIVIUM_API bool trivium_episode_probe(const TrvEpisode *ep, int step, int *component, double *z);
/* The outcome w of the probe of step t.  Record it before asking the gate
 * about step t: the gate's belief takes it in. */
TRIVIUM_API void trivium_episode_record_probe(TrvEpisode *ep, int step, double outcome);
/* The dispatch gate at step t: true while the operational epistemic tally
 * per step, R_hat_epi/t, exceeds rho; the agent should then play the
 * world's safe action.  Steps are taken in order; asking again about a
 * step gives the same answer. */
TRIVIUM_API bool trivium_episode_gate(TrvEpisode *ep, int step);
/* What the agent did at step t: its action, the payoff, and what it
 * observed (at most TRV_RECORD_CONTEXT_MAX values; context may be NULL when
 * n_context is 0).  One call per step, in any order. */
TRIVIUM_API void trivium_episode_record_step(TrvEpisode *ep, int step, int action, double reward, const double *context,
                                             int n_context);
/* The world the episode is played in: the instance Trivium made with its
 * class's init (trivium/world.h) for this run, the one the referee
 * scores, for an agent of the program's own that acts in it (no global
 * pointer needed).  NULL outside a run. */
TRIVIUM_API void *trivium_episode_world(const TrvEpisode *ep);
/* This agent's own random stream, seeded by the run's seed and the
 * agent's index: the same draws for the same seed, whatever the other
 * agents draw, and continued (not restarted) by an actor SimGrid restarts.
 * A uniform in [0, 1), and a standard normal.  NaN outside a run. */
TRIVIUM_API double trivium_episode_uniform(TrvEpisode *ep);
TRIVIUM_API double trivium_episode_normal(TrvEpisode *ep);
/* For worlds with an agent class (the built-in ones): plays the whole
 * episode as Trivium's own agents do, with this agent's instance of the
 * world (observe, probe, gate, act at every step), and costs its compute
 * on the agent's host.  The episode stays open: close it.  False (nothing
 * played) for a world without an agent class; false, the episode played
 * up to that step, when the world answered out of bounds (trivium/world.h):
 * the run then stops with that error, which trivium_plugin_finished()
 * returns. */
TRIVIUM_API bool trivium_episode_play(TrvEpisode *ep);
/* Ends the agent's episode: commits its records to the log (in a SimGrid
 * run: messages to the log replicas, which take simulated time) and frees
 * ep.  A step never recorded is committed as the safe action with payoff
 * 0.  Returns whether the records were committed; false with *error (may
 * be NULL) when they were lost: the measurement is gone whole, never in
 * part, and counts in p_f. */
TRIVIUM_API bool trivium_episode_close(TrvEpisode *ep, GError **error);

G_END_DECLS

#endif
