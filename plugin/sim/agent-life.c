/* agent-life.c - the lifecycle of a program's own agents: present, away,
 * left, and back under the same identity.
 *
 * An agent of the program's own (an actor marked trivium.agent or
 * attached) is present while its actor lives.  A watcher actor, one per
 * agent and a daemon on the controller's host, joins the agent's actor;
 * when that actor ends, the agent is
 *  - left: the actor returned, was killed on a host that is still on, or
 *    called trivium_agent_leave();
 *  - away: its host turned off (SimGrid restarts an actor marked
 *    auto-restart, on_failure="RESTART", when the host comes back).
 * An episode an absent agent had open is reported done at once, with no
 * records (its commit is due and counts as failed in p_f).  While an
 * agent has left, the watcher answers the controller for it the same way:
 * each plan sent to it is taken and reported done at once, so the
 * controller never waits for an actor that is gone.  An agent away is
 * waited for as any crashed agent is: its plans stay for its return, and
 * the failure detector closes an episode it cannot play.
 * When every agent has left, the run ends before its next episode
 * (trv_sim_agents_gone), with a warning saying how many episodes were
 * played.  An actor that SimGrid restarts (the same name on the same
 * host, without the agent's index) takes back the identity of the absent
 * agent it was: its index, its sequence numbers and streams (the
 * AgentState), so its records carry the same agent as before.
 * Shared-city worlds fix their round's participants from the plans
 * delivered: there the watcher only records the absence; the controller
 * offers an agent that left no plan, and an agent away is left to the
 * failure detector.
 * The exit callbacks of SimGrid may make no simcall; joining from an
 * actor of its own is how Trivium hears of an actor's end with simcalls
 * allowed.
 * Agents may join late: the slots beyond the actors marked at the start
 * (agents.count above their number) are answered for as agents that left
 * until an actor marked trivium.agent, or attached, asks for a plan and
 * takes the first open slot; it plays from the first plan it receives.
 * What an agent has of its own lives with its identity too: the world it
 * acts in (trivium_episode_world) and its random stream
 * (trivium_episode_uniform, trivium_episode_normal), seeded by the run's
 * seed and the agent's index, which a restarted actor continues. */
#include <math.h>
#include <string.h>

#include "sim-internal.h"

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(trivium_agents, trivium,
                                "Trivium: the program's agents joining, leaving and rejoining");

/* A host that is on for a watcher: the controller's, else the first up. */
static sg_host_t watcher_host(const Cell *cell) {
  if (sg_host_is_on(cell->controller_host)) return cell->controller_host;
  sg_host_t *hosts = sg_host_list(), host = NULL;
  for (size_t k = 0; k < sg_host_count() && !host; k++)
    if (sg_host_is_on(hosts[k])) host = hosts[k];
  g_free(hosts);
  return host;
}

/* Reports episode e (of controller incarnation tag) done for agent a, with
 * no records. */
static void report_absent(Cell *cell, AgentState *a, int e, int tag) {
  Msg *done = trv_msg_new(MSG_DONE, e);
  done->agent = a->index;
  done->tag = tag;
  trv_msg_send(cell->mb_controller, done, cell->opt->commit_timeout);
}

/* The absent agent's stand-in (its watcher, once the actor ended): the
 * episode it had open is reported at once, its records lost; then, for
 * an agent that left, every plan until STOP.  An agent away is not
 * answered for: its plans wait for its return, as a crashed agent's do
 * (the failure detector closes an episode it cannot play).  The stand-in
 * ends when the agent rejoins (unwatch kills it, or it sees it has been
 * replaced once its report is out). */
static void answer_for(Cell *cell, AgentState *a) {
  sg_actor_t self = sg_actor_self();
  if (a->open) { /* received and never closed: lost whole */
    trv_episode_discard(a->open);
    a->open = NULL;
    a->reporting = true;
    report_absent(cell, a, a->plan_episode, a->plan_tag);
    a->reporting = false;
  }
  if (cell->shared_city) return;
  while (a->left && !a->stopped && a->watcher == self) {
    Msg *m = trv_msg_wait(a->mb);
    if (m->kind == MSG_STOP) a->stopped = true;
    a->reporting = m->kind == MSG_PLAN;
    if (m->kind == MSG_PLAN) report_absent(cell, a, m->episode, m->tag);
    a->reporting = false;
    trv_msg_free(m);
  }
}

static void watcher_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  sg_actor_daemonize(sg_actor_self());
  Cell *cell = trv_sim_cell;
  AgentState *a = sg_actor_self_get_data();
  if (!cell) return;
  if (!a->absent) {
    sg_actor_t actor = a->actor;
    sg_actor_join(actor, -1);
    if (a->actor != actor || a->absent) return; /* already rejoined or left meanwhile (another watcher has it) */
    a->absent = true;
    a->left = sg_host_is_on(a->host);
    a->actor = NULL;
    XBT_INFO("agent %d (%s on %s) %s", a->index, a->name, sg_host_get_name(a->host),
             a->left ? "left: its actor ended" : "is away: its host is off");
  }
  answer_for(cell, a);
}

/* Starts a's watcher (joining a->actor while present, else answering). */
static void watch(Cell *cell, AgentState *a) {
  sg_host_t host = watcher_host(cell);
  if (!host) return; /* nothing runs any more */
  char name[48];
  snprintf(name, sizeof name, "trivium-watch-%d", a->index);
  sg_actor_t w = sg_actor_init(name, host);
  sg_actor_set_data(w, a);
  sg_actor_start(w, watcher_actor, 0, NULL);
  if (a->watcher) sg_actor_unref(a->watcher);
  sg_actor_ref(w);
  a->watcher = w;
}

/* Stops a's watcher (from another actor): killed while it waits; one
 * delivering a report ends by itself after it (a report cut short would
 * hold the controller until its failure detector gives up). */
static void unwatch(AgentState *a) {
  sg_actor_t w = a->watcher;
  if (!w) return;
  a->watcher = NULL;                                  /* before the kill, a simcall: other actors may run meanwhile */
  if (!a->reporting && !a->stopped) sg_actor_kill(w); /* stopped: it has ended */
  sg_actor_unref(w);
}

void trv_sim_agent_present(Cell *cell, AgentState *a, sg_actor_t actor) {
  if (a->actor) sg_actor_unref(a->actor);
  sg_actor_ref(actor);
  a->actor = actor;
  if (!a->name) a->name = g_strdup(sg_actor_get_name(actor));
  a->absent = a->left = false;
  watch(cell, a);
}

void trv_sim_agent_leave(Cell *cell, AgentState *a) {
  if (a->left) return;
  unwatch(a);
  a->absent = a->left = true;
  XBT_INFO("agent %d (%s on %s) left", a->index, a->name, sg_host_get_name(a->host));
  watch(cell, a);
}

int trv_sim_agent_rejoin(Cell *cell, sg_actor_t actor) {
  const char *name = sg_actor_get_name(actor);
  sg_host_t host = sg_actor_get_host(actor);
  for (int i = 0; i < cell->n_agents; i++) {
    AgentState *a = &cell->agents[i];
    if (!a->absent || a->host != host || !a->name || strcmp(a->name, name)) continue;
    unwatch(a);
    if (a->actor) {
      sg_actor_unref(a->actor);
      a->actor = NULL;
    }
    trv_sim_actor_set_agent(actor, i);
    trv_sim_agent_present(cell, a, actor);
    XBT_INFO("agent %d (%s on %s) rejoined", i, name, sg_host_get_name(host));
    return i;
  }
  return -1;
}

void trv_sim_agent_open_slot(Cell *cell, AgentState *a) {
  a->absent = a->left = a->open_slot = true;
  watch(cell, a);
}

int trv_sim_agent_join(Cell *cell, sg_actor_t actor) {
  int found = -1;
  for (int i = 0; i < cell->n_agents; i++) {
    AgentState *a = &cell->agents[i];
    if (!a->open_slot) continue;
    if (a->stopped) { /* the run is over */
      found = -2;
      continue;
    }
    a->open_slot = false; /* taken before unwatch's simcall lets another actor look for a slot */
    unwatch(a);
    a->host = sg_actor_get_host(actor);
    trv_sim_actor_set_agent(actor, i);
    trv_sim_agent_present(cell, a, actor);
    XBT_INFO("agent %d (%s on %s) joined after %d decided episodes", i, a->name, sg_host_get_name(a->host),
             cell->n_decided);
    return i;
  }
  return found;
}

bool trv_sim_agents_gone(const Cell *cell) {
  if (!cell->user_agents) return false;
  for (int i = 0; i < cell->n_agents; i++)
    if (!cell->agents[i].left) return false;
  return true;
}

void trv_sim_agents_ended(Cell *cell) {
  cell->ended_early = true;
  XBT_WARN("every agent left: the run ends after %d of its %d episodes", cell->n_decided, cell->info->episodes);
}

void trv_sim_agent_life_free(Cell *cell) {
  for (int i = 0; cell->agents && i < cell->n_agents; i++) {
    AgentState *a = &cell->agents[i];
    if (a->watcher) sg_actor_unref(a->watcher);
    if (a->actor) sg_actor_unref(a->actor);
    g_free(a->name);
    a->watcher = a->actor = NULL;
    a->name = NULL;
  }
}

/* ---- what an agent has of its own ------------------------------------------ */

static AgentState *agent_of(const TrvEpisode *ep) {
  Cell *cell = trv_sim_cell;
  if (!ep || !cell) return NULL;
  int i = trivium_episode_agent(ep);
  return i >= 0 && i < cell->n_agents ? &cell->agents[i] : NULL;
}

void *trivium_episode_world(const TrvEpisode *ep) {
  return agent_of(ep) ? trv_session_world(trv_sim_cell->session) : NULL;
}

static TrvRng *own_rng(TrvEpisode *ep) {
  AgentState *a = agent_of(ep);
  if (!a) return NULL;
  if (!a->own_rng_ready) {
    trv_rng_init(&a->own_rng, trv_sim_cell->spec->seed, TRV_STREAM_AGENT + 100 * (uint64_t)a->index);
    a->own_rng_ready = true;
  }
  return &a->own_rng;
}

double trivium_episode_uniform(TrvEpisode *ep) {
  TrvRng *r = own_rng(ep);
  g_return_val_if_fail(r, NAN);
  return trv_rng_uniform(r);
}

double trivium_episode_normal(TrvEpisode *ep) {
  TrvRng *r = own_rng(ep);
  g_return_val_if_fail(r, NAN);
  return trv_rng_normal(r);
}
