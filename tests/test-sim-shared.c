/* The shared-city protocol of trivium/world.h under SimGrid: with M agents, at every
 * step every agent acts before the city moves (step_end runs exactly once
 * per step, after the M-th act), and every agent reads its payoff only
 * after that.  A counting world checks it: step_end records how many agents
 * acted in the step, and that count is every agent's payoff.  A slow
 * variant (each act takes a simulated second) lets a host crash kill an
 * agent in the middle of an episode's steps: the city still moves once per
 * step, the others go on without it (a stand-in arrives in its place) and
 * the dead agent rejoins at a later episode. */
#include <simgrid/actor.h>
#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/record.h"
#include "core/rng.h"
#include "sim/sim.h"
#include "api/modules.h"

#define AGENTS 6

static const char *const var_names[] = {"Z", "D"};
static const TrvComponent components[] = {{"Z->D", 0, 1, true}};
static const TrvCandidates candidates = {2, var_names, 1, components};

/* The world and each driver's handle both start with a pointer to the
 * city, so either can be passed where the world is expected. */
typedef struct City City;
typedef struct {
  City *city;
  int index;
} Driver;

struct City {
  City *self;
  TrvParams p;
  int episode, acted, step_ends, bad_order;
  bool slow;           /* every act takes a simulated second */
  int short_steps[64]; /* per episode: steps in which fewer than AGENTS acted */
  double last_count;
  TrvRng rng;
  Driver drivers[AGENTS];
};

static void *c_init(const TrvParams *p, uint64_t seed, GError **error) {
  (void)error;
  City *c = g_new0(City, 1);
  c->self = c;
  c->p = *p;
  c->episode = -1;
  trv_rng_init(&c->rng, seed, TRV_STREAM_WORLD);
  return c;
}
static void *c_agent(void *world, int a) {
  City *c = world;
  c->drivers[a] = (Driver){c, a};
  return &c->drivers[a];
}
static City *city_of(void *w) { return *(City **)w; }
static const TrvCandidates *c_cand(void *w) {
  (void)w;
  return &candidates;
}
static double c_s2(void *w) {
  (void)w;
  return 1.0;
}
static int c_episodes(void *w) { return ((City *)w)->p.episodes; }
static int c_steps(void *w) { return city_of(w)->p.steps; }
static int c_cps(void *w, int *out, int max) {
  (void)w, (void)out, (void)max;
  return 0;
}
static void c_begin(void *w, int e) {
  City *c = city_of(w);
  if (c->episode != e) c->episode = e, c->acted = 0;
}
static int c_observe(void *w, int t, double *ctx, int max) {
  (void)w, (void)t, (void)max;
  ctx[0] = ctx[1] = 0;
  return 2;
}
static double c_probe(void *w, int j, double z) {
  (void)j, (void)z;
  return trv_rng_normal(&city_of(w)->rng);
}
static double c_act(void *w, int a) {
  (void)a;
  if (city_of(w)->slow) sg_actor_sleep_for(1.0); /* an actor killed here has not acted */
  city_of(w)->acted++;
  return 0;
}
static void c_truth(void *w, TrvGraph *g) {
  (void)w;
  trv_graph_clear(g, 1);
}
static double c_gap(void *w) {
  (void)w;
  return 0;
}
static int c_plan(void *w, const TrvGraph *g) {
  (void)w, (void)g;
  return 0;
}
static bool slow_city;
static City *last_city;
static City last_seen; /* the slow city's counts, kept when the cell frees it */
static void c_free(void *w) {
  if (w == last_city) last_seen = *last_city, last_city = &last_seen;
  g_free(w);
}
static void *c_init_slow(const TrvParams *p, uint64_t seed, GError **error) {
  City *c = c_init(p, seed, error);
  c->slow = slow_city;
  if (slow_city) last_city = c; /* the cell's own world (seed 0 builds the layout elsewhere) */
  return c;
}
static void c_agent_free(void *w) { (void)w; /* drivers live inside the city */ }
static void c_step_end(void *w, int t) {
  City *c = w;
  (void)t;
  if (c->acted != AGENTS) c->bad_order++;
  if (c->acted != AGENTS && c->episode >= 0 && c->episode < 64) c->short_steps[c->episode]++;
  c->last_count = c->acted;
  c->acted = 0;
  c->step_ends++;
}
static double c_payoff(void *w) { return city_of(w)->last_count; }

static const TrvAgentClass counting_agents = {
    .instance = c_agent,
    .free = c_agent_free,
    .episode_begin = c_begin,
    .observe = c_observe,
    .probe = c_probe,
    .plan = c_plan,
    .act = c_act,
    .step_end = c_step_end,
    .step_payoff = c_payoff,
};
static const TrvRefereeClass counting_referee = {.truth = c_truth, .gap = c_gap, .change_points = c_cps};
static const TrvWorldClass counting_world = {
    .name = "counting",
    .init = c_init_slow,
    .free = c_free,
    .candidates = c_cand,
    .noise_var = c_s2,
    .episodes = c_episodes,
    .steps = c_steps,
    .safe_action = 0,
    .episode_begin = c_begin,
    .agent = &counting_agents,
    .referee = &counting_referee,
};

/* Runs fn in a child process (SimGrid initialises once per process) and
 * returns the n ints it reports; the child must exit 0. */
static void in_child(void (*fn)(int *result), int *result, size_t n) {
  fflush(NULL);
  int fd[2];
  g_assert_cmpint(pipe(fd), ==, 0);
  pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    int *r = g_new0(int, n);
    fn(r);
    _exit(write(fd[1], r, n * sizeof *r) == (ssize_t)(n * sizeof *r) ? 0 : 3);
  }
  close(fd[1]);
  g_assert_cmpint(read(fd[0], result, n * sizeof *result), ==, (ssize_t)(n * sizeof *result));
  close(fd[0]);
  int status;
  waitpid(pid, &status, 0);
  g_assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* The counting city: step records with payoff AGENTS, step records, run ok. */
static void counting_run(int *result) {
  TrvParams p;
  trv_params_defaults(&p);
  p.episodes = 4;
  p.steps = 10;
  TrvSimCellSpec spec = {.params = &p, .world_class = &counting_world, .controller = "trivium", .seed = 1};
  TrvSimOptions opt;
  trv_sim_options_init(&opt, &p);
  opt.platform = g_getenv("TRIVIUM_PLATFORM");
  opt.agents = AGENTS;
  GArray *rows = g_array_new(FALSE, FALSE, sizeof(TrvEpisodeRow)), *log = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
  GError *err = NULL;
  result[2] = trv_sim_run_cell(&spec, &opt, rows, log, NULL, &err);
  for (guint i = 0; i < log->len; i++) {
    TrvRecord *r = &g_array_index(log, TrvRecord, i);
    if (r->kind != TRV_RECORD_STEP) continue;
    result[1]++;
    result[0] += r->reward == AGENTS;
  }
}

static void every_agent_acts_before_the_city_moves(void) {
  int result[3];
  in_child(counting_run, result, 3);
  g_assert_cmpint(result[2], ==, 1);
  g_assert_cmpint(result[1], ==, AGENTS * 4 * 10); /* every agent's every step is in the log */
  g_assert_cmpint(result[0], ==, result[1]);       /* and saw all AGENTS acts before the city moved */
}

/* The slow city with agent 1's host crashing: run ok, step ends, short
 * steps in episodes 0, 1, 2, agent 1's step records in episodes 0, 1, 2,
 * commit failures in episodes 0, 1, 2. */
static void dying_run(int *result) {
  TrvParams p;
  trv_params_defaults(&p);
  p.episodes = 3;
  p.steps = 10;
  slow_city = true;
  TrvSimCellSpec spec = {.params = &p, .world_class = &counting_world, .controller = "trivium", .seed = 1};
  TrvSimOptions opt;
  trv_sim_options_init(&opt, &p);
  char *platform =
      g_build_filename(g_getenv("srcdir") ? g_getenv("srcdir") : "..", "platforms", "causalbench-multi.xml", NULL);
  opt.platform = platform;
  opt.agents = AGENTS;
  TrvFaultSpec crash = {.kind = TRV_FAULT_HOST_CRASH, .pattern = "agent-1", .at = 3.5, .duration = 2.0};
  opt.faults = &crash;
  opt.n_faults = 1;
  GArray *rows = g_array_new(FALSE, FALSE, sizeof(TrvEpisodeRow)), *log = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
  GError *err = NULL;
  result[0] = trv_sim_run_cell(&spec, &opt, rows, log, NULL, &err);
  if (err) fprintf(stderr, "%s\n", err->message);
  g_assert_nonnull(last_city);
  result[1] = last_city->step_ends;
  for (int e = 0; e < 3; e++) result[2 + e] = last_city->short_steps[e];
  for (guint i = 0; i < log->len; i++) {
    TrvRecord *r = &g_array_index(log, TrvRecord, i);
    if (r->kind == TRV_RECORD_STEP && r->agent == 1 && r->episode < 3) result[5 + r->episode]++;
  }
  for (guint i = 0; i < rows->len && i < 3; i++) result[8 + i] = g_array_index(rows, TrvEpisodeRow, i).commit_failures;
}

/* Agent 1's host (agent-1: the second agent host in name order as in the
 * platform's) crashes at t = 3.5 s, in the fourth step of episode 0
 * (steps take a second: its acts of steps 0-2 are done, the one of step 3
 * is under way), and comes back at 5.5 s.  The run ends; the city moved
 * exactly once per step of every episode; in episode 0, steps 3 to 9 had
 * one act fewer (the stand-in arrives without acting), no other step did;
 * the dead agent's records of episode 0 are lost (its commit counted as
 * failed), and it plays every later episode. */
static void an_agent_dying_mid_episode_leaves_the_others_going(void) {
  int result[11];
  in_child(dying_run, result, 11);
  g_assert_cmpint(result[0], ==, 1);
  g_assert_cmpint(result[1], ==, 3 * 10);
  g_assert_cmpint(result[2], ==, 7); /* steps 3..9 of episode 0 */
  g_assert_cmpint(result[3], ==, 0);
  g_assert_cmpint(result[4], ==, 0);
  g_assert_cmpint(result[5], ==, 0); /* its episode-0 records died with it */
  g_assert_cmpint(result[6], ==, 10);
  g_assert_cmpint(result[7], ==, 10);
  g_assert_cmpint(result[8], ==, 1); /* and that commit is counted as failed */
  g_assert_cmpint(result[9], ==, 0);
  g_assert_cmpint(result[10], ==, 0);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  trv_modules_register_builtin();
  g_test_add_func("/sim-shared/every_agent_acts_before_the_city_moves", every_agent_acts_before_the_city_moves);
  g_test_add_func("/sim-shared/an_agent_dying_mid_episode_leaves_the_others_going",
                  an_agent_dying_mid_episode_leaves_the_others_going);
  return g_test_run();
}
