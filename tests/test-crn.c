/* Common random numbers across agent counts: a probe's randomness belongs
 * to the probe, not to the agent that runs it.  The session numbers the
 * plans' probes in plan order (protocol.c); a probe's sign is draw n of the
 * run's sign stream and, in a world that numbers its probes (CausalBench-
 * Seq), its noise is draw n of the run's probe-noise stream.  So the probe
 * numbered n measures the same whether agent 0 of one agent or agent 2 of
 * three runs it, and one agent running every probe draws what it drew
 * before probes were numbered.  The same at the level of whole runs:
 * tests/speedup.sh. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "core/params.h"
#include "core/protocol.h"
#include "core/world-call.h"
#include "api/modules.h"
#include "worlds.h"

enum { N = 24, SEED = 5 };

static void *world_for(TrvParams *p) {
  trv_params_defaults(p);
  GError *err = NULL;
  void *w = trv_world_new(&trv_world_causalbench, p, SEED, &err);
  g_assert_no_error(err);
  return w;
}

static void *agent_of(void *world, int a) {
  GError *err = NULL;
  void *aw = trv_world_agent_new(&trv_world_causalbench, world, a, &err);
  g_assert_no_error(err);
  trv_world_causalbench.agent->episode_begin(aw, 0);
  return aw;
}

/* Outcome of probe n (component n % 3, z = 1) run by agent instance aw. */
static double run_probe(void *aw, uint64_t n) {
  const TrvAgentClass *ac = trv_world_causalbench.agent;
  ac->probe_number(aw, n);
  return ac->probe(aw, (int)(n % 3), 1.0);
}

static void a_numbered_probe_measures_the_same_whichever_agent_runs_it(void) {
  TrvParams p;
  void *world = world_for(&p);
  g_assert_nonnull(trv_world_causalbench.agent->probe_number);
  /* one agent runs probes 0 .. N-1; three agents share them, agent
   * n % 3 == 2 ? 2 : n < N / 2 ? 0 : 1, each in increasing order */
  void *one = agent_of(world, 0), *three[3] = {agent_of(world, 0), agent_of(world, 1), agent_of(world, 2)};
  double alone[N], shared[N];
  for (uint64_t n = 0; n < N; n++) alone[n] = run_probe(one, n);
  for (uint64_t n = 0; n < N; n++) {
    int a = n % 3 == 2 ? 2 : n < N / 2 ? 0 : 1;
    shared[n] = run_probe(three[a], n);
  }
  for (int n = 0; n < N; n++) g_assert_cmpfloat(alone[n], ==, shared[n]);
  /* a number behind the stream starts it over: the same outcome again */
  g_assert_cmpfloat(run_probe(three[1], 4), ==, alone[4]);
  /* and the agents' own streams differ: unnumbered, agent 2's first probe
   * is not agent 0's */
  void *own0 = agent_of(world, 0), *own2 = agent_of(world, 2);
  g_assert_cmpfloat(trv_world_causalbench.agent->probe(own0, 0, 1.0), !=,
                    trv_world_causalbench.agent->probe(own2, 0, 1.0));
  /* agent 0 numbered in order draws its own stream, as before numbering */
  void *plain = agent_of(world, 0);
  for (uint64_t n = 0; n < N; n++)
    g_assert_cmpfloat(trv_world_causalbench.agent->probe(plain, (int)(n % 3), 1.0), ==, alone[n]);
  void *all[] = {one, three[0], three[1], three[2], own0, own2, plain};
  for (size_t i = 0; i < G_N_ELEMENTS(all); i++) trv_world_causalbench.agent->free(all[i]);
  trv_world_causalbench.free(world);
}

static bool no_close(void *ctx, TrvEpisode *ep, GArray *records, GError **error) {
  (void)ctx, (void)ep, (void)records, (void)error;
  return true;
}

/* The signs (z / |z|) of a share's probes in step order. */
static void signs_of(const TrvPlan *share, int agent, TrvProbeSigns *signs, double *out) {
  uint64_t seq = 0;
  TrvEpisodeSink sink = {no_close, NULL};
  TrvEpisode *ep = trv_episode_new(share, agent, N, 0, &seq, signs, &sink);
  for (int i = 0; i < share->n_probes; i++) {
    double z;
    g_assert_true(trivium_episode_probe(ep, i, NULL, &z));
    out[i] = z / share->zabs;
  }
  trv_episode_discard(ep);
}

static void a_numbered_probe_has_the_same_sign_whichever_agent_draws_it(void) {
  int probes[N];
  uint64_t numbers[N];
  for (int i = 0; i < N; i++) probes[i] = i % 3, numbers[i] = (uint64_t)i;
  TrvPlan whole = {.ghat = {.n = 3}, .n_probes = N, .probes = probes, .numbers = numbers, .zabs = 0.5};
  TrvProbeSigns s1;
  trv_probe_signs_init(&s1, SEED, 0);
  double alone[N];
  signs_of(&whole, 0, &s1, alone);
  /* agent 1 of two runs the odd numbers, agent 0 the even ones */
  int p0[N / 2], p1[N / 2];
  uint64_t n0[N / 2], n1[N / 2];
  for (int i = 0; i < N / 2; i++) p0[i] = p1[i] = 0, n0[i] = (uint64_t)(2 * i), n1[i] = (uint64_t)(2 * i + 1);
  TrvPlan share0 = whole, share1 = whole;
  share0.n_probes = share1.n_probes = N / 2;
  share0.probes = p0, share0.numbers = n0, share1.probes = p1, share1.numbers = n1;
  TrvProbeSigns a0, a1;
  trv_probe_signs_init(&a0, SEED, 0);
  trv_probe_signs_init(&a1, SEED, 1);
  double z0[N / 2], z1[N / 2];
  signs_of(&share0, 0, &a0, z0);
  signs_of(&share1, 1, &a1, z1);
  int minus = 0;
  for (int i = 0; i < N / 2; i++) {
    g_assert_cmpfloat(z0[i], ==, alone[2 * i]);
    g_assert_cmpfloat(z1[i], ==, alone[2 * i + 1]);
    minus += alone[2 * i] < 0;
  }
  g_assert_cmpint(minus, >, 0); /* the signs are drawn, not all +1 */
  /* one agent, unnumbered: its own stream in order, which for agent 0 is
   * the run's: the same signs */
  TrvPlan plain = whole;
  plain.numbers = NULL;
  TrvProbeSigns own;
  trv_probe_signs_init(&own, SEED, 0);
  double unnumbered[N];
  signs_of(&plain, 0, &own, unnumbered);
  for (int i = 0; i < N; i++) g_assert_cmpfloat(unnumbered[i], ==, alone[i]);
  /* agent 1's own stream is another */
  TrvProbeSigns own1;
  trv_probe_signs_init(&own1, SEED, 1);
  signs_of(&plain, 1, &own1, unnumbered);
  bool differs = false;
  for (int i = 0; i < N; i++) differs = differs || unnumbered[i] != alone[i];
  g_assert_true(differs);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  trv_modules_register_builtin();
  g_test_add_func("/crn/a_numbered_probe_measures_the_same_whichever_agent_runs_it",
                  a_numbered_probe_measures_the_same_whichever_agent_runs_it);
  g_test_add_func("/crn/a_numbered_probe_has_the_same_sign_whichever_agent_draws_it",
                  a_numbered_probe_has_the_same_sign_whichever_agent_draws_it);
  return g_test_run();
}
