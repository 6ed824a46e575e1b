/* schedule.h - the per-episode probe budget and the probe schedulers
 * (docs/controller.md, "Probes and scheduling").
 *
 * Budget: B_e = ceil(alpha * m0 * ln(max(e, w_e) + 1)), capped at the
 * world's steps per episode.
 * Schedulers fill a plan of B_e probes (one component id per probe):
 *  - IGScore: greedy on the marginal expected information gain of u more
 *    probes of a component, given the k probes already planned for it
 *    this episode: gain_j(k) = EIG_j(k+u) - EIG_j(k) (batch EIG,
 *    posterior.h); a last choice smaller than u when u does not divide the
 *    budget.  Ties go to the smaller out-degree, then the smaller id.  The
 *    choice size u is `unit`, or less when the budget holds fewer than
 *    four choices of unit per eligible component: u = min(unit,
 *    max(1, floor(B / (4 n_eligible)))).  The controller's unit is its
 *    number of teams (below): one probe per team, so that T teams' budgets
 *    cost about the planning of one; with one team (unit 1) the greedy
 *    goes probe by probe.
 *  - round-robin: front-loaded cycle over the eligible components in id
 *    order, continuing where the previous episode stopped.
 *  - random: uniform over the eligible components.
 *  - parallel: plans the budget and assigns it to the agents at once, by
 *    marginal gain per marginal episode makespan (trv_schedule_parallel,
 *    schedule-parallel.c); with one agent it is IGScore.
 * Components not eligible (frozen into G_hat) are never probed. */
#ifndef TRV_SCHEDULE_H
#define TRV_SCHEDULE_H

#include <stdbool.h>
#include <stdint.h>

#include "graph.h"
#include "posterior.h"
#include "rng.h"

typedef enum {
  TRV_SCHED_IG = 0,
  TRV_SCHED_ROUNDROBIN = 1,
  TRV_SCHED_RANDOM = 2,
  TRV_SCHED_PARALLEL = 3
} TrvSchedulerKind;

int trv_budget(int episode, int window, double alpha, double m0, int steps);

/* Fills plan[0..budget) and returns the number of probes planned (0 when no
 * component is eligible).  unit >= 1 is IGScore's largest choice (1:
 * probe by probe); *rr_cursor carries round-robin state across episodes; rng is used
 * by the random scheduler only; memo (may be NULL) speeds IGScore's EIG
 * evaluations up without changing them.  The parallel scheduler plans here
 * as for one agent (IGScore probe by probe); trv_schedule_parallel plans
 * for several. */
int trv_schedule_probes(TrvSchedulerKind kind, const TrvPosterior *post, const TrvCandidates *cand,
                        const bool *eligible, int budget, int unit, double zabs, TrvEigMemo *memo, int *rr_cursor,
                        TrvRng *rng, int *plan);

/* The oracle design (the trivium-oracle yardstick, which sees the truth):
 * fills plan[0..budget) greedily two probes at a time (one at the end of
 * an odd budget), each pair on the eligible component whose pair most
 * raises log P(truth) of a working copy of `post`.  The copy takes every
 * planned pair at the statistics two probes have in expectation under the
 * truth (outcomes kappa_j z +- one noise sd at z = zabs), so that later
 * choices see what earlier ones will show on average; ties to the lower
 * id.  Returns the probes planned (0 when no component is eligible). */
int trv_schedule_oracle(const TrvPosterior *post, const TrvGraph *truth, const bool *eligible, int budget, double zabs,
                        int *plan);

/* Budget teams: with coalitions (coalition != 1) every m0 agents, rounded
 * up, form a team that brings its own budget B_e; 1 with disjoint
 * assignment, one agent or agents unknown (0).  At most TRV_PLAN_TEAMS_MAX. */
#define TRV_PLAN_TEAMS_MAX 4096
int trv_teams(int agents, int coalition, double m0);

/* The most agents that may probe one component in one episode: coalition,
 * or m0 rounded up when it is 0. */
int trv_coalition_cap(int coalition, double m0);

/* Splits a plan's probes over n_agents: component j's k_j probes go to
 * min(cap, n_agents, ceil(k_j / L)) agents (its coalition), L = ceil(n /
 * n_agents) being the even load, in near-equal chunks (the first k_j mod
 * size one larger), heaviest chunk first to the least-loaded agent that
 * holds no other chunk of j (longest processing time; ties to the lower
 * component and chunk, and to the agent of higher value, then lower index;
 * value may be NULL: all equal).  With cap 1 every component goes whole to
 * one agent (disjoint assignment).  agent_of[i] receives the agent of
 * probes[i]; the probes of j fill its chunks in plan order. */
void trv_assign_probes(const int *probes, int n_probes, int n_components, int n_agents, int cap, const double *value,
                       int *agent_of);

/* What an agent's episode costs in simulated seconds: `base` without
 * probes (its steps), and `probe` more for each probe it runs. */
typedef struct {
  double base, probe;
} TrvAgentCost;

/* The parallel scheduler (schedule-parallel.c): fills plan[0..budget) with
 * components and agent_of[0..budget) with the agent that runs each probe,
 * choosing (component, agent) by marginal expected information gain per
 * marginal increase of the episode's makespan max_a (base_a + n_a
 * probe_a), a choice that does not lengthen it first; a component's probes
 * go to at most `cap` agents (1: disjoint assignment).  cost: n_agents
 * entries, or NULL for equal agents (base 0, probe 1); value: NULL or
 * n_agents probe values (equally placed agents are taken by value).
 * Returns the number of probes planned: budget, or 0 when no component is
 * eligible.  With one agent the plan is trv_schedule_probes's IGScore plan
 * with unit 1, probe for probe. */
int trv_schedule_parallel(const TrvPosterior *post, const TrvCandidates *cand, const bool *eligible, int budget,
                          int n_agents, int cap, const TrvAgentCost *cost, const double *value, double zabs,
                          TrvEigMemo *memo, int *plan, int *agent_of);

#endif
