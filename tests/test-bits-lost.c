/* test-bits-lost.c - the information lost to failed commits (bits_lost):
 * episodes of CausalBench-Seq planned for two agents (disjoint
 * assignment: a component's probes all go to one agent) and played by the
 * world's own agents, then closed with every record, or without one
 * agent's records (its commit failed: the one holding the first planned
 * probe).  Nothing lost gives 0; a lost agent
 * costs exactly the expected information gain, at plan time, of the probes
 * it held (per component EIG_j(k_j) on the plan's snapshot: the whole
 * component is lost); with a budget of one probe an episode, losing that
 * probe costs its EIG, and it is of the component the plan chose. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "core/controller.h"
#include "core/params.h"
#include "core/posterior.h"
#include "core/protocol.h"
#include "core/rng.h"
#include "core/world-call.h"
#include "api/modules.h"
#include "envs/worlds.h"

typedef struct {
  GArray *records;
} Sink;

static bool keep(void *ctx, TrvEpisode *ep, GArray *records, GError **error) {
  (void)ep, (void)error;
  Sink *k = ctx;
  g_array_append_vals(k->records, records->data, records->len);
  return true;
}

/* Plays episode e for n_agents agents; records[a] gets agent a's records,
 * planned[a][j] its probes of component j; *snapshot the plan's posterior. */
static void play(TrvSession *s, const TrvWorldClass *wc, void **agents, int n_agents, int e, GArray **records,
                 int planned[][TRV_MAX_COMPONENTS], TrvPosterior **snapshot, double *zabs) {
  TrvPlan **parts = g_new(TrvPlan *, n_agents);
  GError *err = NULL;
  g_assert_true(trv_session_plan(s, e, n_agents, parts, &err));
  g_assert_no_error(err);
  *snapshot = trv_posterior_copy(parts[0]->snapshot);
  *zabs = parts[0]->zabs;
  const TrvWorldInfo *info = trv_session_info(s);
  for (int a = 0; a < n_agents; a++) {
    memset(planned[a], 0, sizeof planned[a]);
    for (int i = 0; i < parts[a]->n_probes; i++) planned[a][parts[a]->probes[i]]++;
    wc->agent->episode_begin(agents[a], e);
    static uint64_t seq[2];
    TrvProbeSigns signs;
    trv_probe_signs_init(&signs, 100 + (uint64_t)a, 0);
    Sink k = {records[a]};
    TrvEpisodeSink sink = {keep, &k};
    TrvEpisode *ep = trv_episode_new(parts[a], a, info->steps, info->safe_action, &seq[a], &signs, &sink);
    g_assert_true(trv_agent_play(wc, agents[a], ep, NULL, &err));
    trivium_episode_close(ep, NULL);
  }
  trv_session_parts_free(parts, n_agents);
  g_free(parts);
}

/* Closes episode e with the records of the agents not `lost` (-1: none lost). */
static double close_with(TrvSession *s, int e, GArray **records, int lost) {
  GArray *all = g_array_new(FALSE, FALSE, sizeof(TrvRecord)), *decided = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
  for (int a = 0; a < 2; a++)
    if (a != lost) g_array_append_vals(all, records[a]->data, records[a]->len);
  TrvEpisodeCounts counts = {.commits = 2, .attempts = 2};
  TrvEpisodeRow row;
  GError *err = NULL;
  g_assert_true(trv_session_close(s, e, (TrvRecord *)all->data, all->len, NULL, 0, &counts, &row, decided, &err));
  g_assert_no_error(err);
  g_array_free(all, TRUE);
  g_array_free(decided, TRUE);
  return row.bits_lost;
}

static void run_case(double alpha, int episodes, bool one_probe) {
  const TrvWorldClass *wc = trivium_world_lookup("causalbench");
  TrvParams p;
  trv_params_defaults(&p);
  p.episodes = episodes;
  p.alpha = alpha;
  GError *err = NULL;
  TrvSession *s = trv_session_new(&p, wc, "trivium", 3, &err);
  g_assert_no_error(err);
  void *agents[2];
  for (int a = 0; a < 2; a++) agents[a] = trv_world_agent_new(wc, trv_session_world(s), a, &err);
  int lost_cases = 0, single = 0;
  for (int e = 0; e < episodes; e++) {
    GArray *records[2] = {g_array_new(FALSE, FALSE, sizeof(TrvRecord)), g_array_new(FALSE, FALSE, sizeof(TrvRecord))};
    int planned[2][TRV_MAX_COMPONENTS];
    TrvPosterior *snap;
    double zabs;
    play(s, wc, agents, 2, e, records, planned, &snap, &zabs);
    /* the agent whose commit fails: in odd episodes, the one holding the first probe */
    int loser = -1;
    for (int j = 0; loser < 0 && j < trv_session_info(s)->cand->n_components; j++)
      for (int a = 0; a < 2; a++)
        if (planned[a][j] > 0) loser = a;
    double want = 0;
    int held = 0;
    for (int j = 0; j < trv_session_info(s)->cand->n_components; j++) {
      g_assert_true(planned[0][j] == 0 || planned[1][j] == 0); /* disjoint */
      if (loser < 0) continue;
      held += planned[loser][j];
      if (planned[loser][j] > 0) want += trv_posterior_eig_bits(snap, j, planned[loser][j], zabs);
    }
    double got;
    if (e % 2 == 0 || loser < 0) {
      got = close_with(s, e, records, -1); /* every record committed */
      g_assert_cmpfloat(got, ==, 0);
    } else {
      got = close_with(s, e, records, loser); /* the loser's commit failed */
      g_assert_cmpfloat(fabs(got - want), <=, 1e-12 * fmax(1, want));
      g_assert_cmpint(got > 0, ==, held > 0);
      lost_cases += held > 0;
      single += held == 1;
    }
    trv_posterior_free(snap);
    g_array_free(records[0], TRUE);
    g_array_free(records[1], TRUE);
  }
  g_assert_cmpint(lost_cases, >, 0);
  if (one_probe) g_assert_cmpint(single, >, 0); /* the only probe of its component was lost, and counted */
  for (int a = 0; a < 2; a++) wc->agent->free(agents[a]);
  trv_session_free(s);
}

/* the default budget: several probes a component */
static void lost_agent_costs_the_eig_of_its_probes(void) { run_case(1.0, 12, false); }

/* alpha small: a budget of one probe an episode early on */
static void the_only_probe_lost_costs_its_eig(void) { run_case(0.2, 12, true); }

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  trv_modules_register_builtin();
  g_test_add_func("/bits-lost/lost_agent_costs_the_eig_of_its_probes", lost_agent_costs_the_eig_of_its_probes);
  g_test_add_func("/bits-lost/the_only_probe_lost_costs_its_eig", the_only_probe_lost_costs_its_eig);
  return g_test_run();
}
