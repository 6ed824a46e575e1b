/* The SimGrid attachment plays the same episode protocol as the simulator-
 * free reference loop: for the same seed and controller, every readout of
 * every episode must be identical (only simulated time and commit counts
 * are the simulator's own).  SimGrid initialises once per process, so each
 * simulated cell runs in a forked child that sends its rows back. */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/direct.h"
#include "sim/sim.h"
#include "sim/sim-params.h"
#include "api/modules.h"
#include "worlds.h"

static GArray *run_in_child(const TrvSimCellSpec *spec, const TrvSimOptions *opt) {
  int fd[2];
  g_assert_cmpint(pipe(fd), ==, 0);
  fflush(NULL);
  pid_t pid = fork();
  g_assert_cmpint(pid, >=, 0);
  if (pid == 0) {
    close(fd[0]);
    GArray *rows = g_array_new(FALSE, FALSE, sizeof(TrvEpisodeRow));
    GError *err = NULL;
    bool ok = trv_sim_run_cell(spec, opt, rows, NULL, NULL, &err);
    if (ok) {
      size_t len = rows->len * sizeof(TrvEpisodeRow);
      const char *p = rows->data;
      while (len > 0) {
        ssize_t w = write(fd[1], p, len);
        if (w <= 0) _exit(3);
        p += w;
        len -= (size_t)w;
      }
    }
    _exit(ok ? 0 : 1);
  }
  close(fd[1]);
  GArray *rows = g_array_new(FALSE, FALSE, sizeof(TrvEpisodeRow));
  TrvEpisodeRow r;
  ssize_t got;
  size_t have = 0;
  char *buf = (char *)&r;
  while ((got = read(fd[0], buf + have, sizeof r - have)) > 0) {
    have += (size_t)got;
    if (have == sizeof r) {
      g_array_append_val(rows, r);
      have = 0;
    }
  }
  close(fd[0]);
  int status;
  waitpid(pid, &status, 0);
  g_assert_true(WIFEXITED(status));
  g_assert_cmpint(WEXITSTATUS(status), ==, 0);
  return rows;
}

static void compare(const char *controller) {
  TrvParams p;
  trv_params_defaults(&p);
  p.episodes = 80;
  TrvSimCellSpec spec = {.params = &p, .world_class = &trv_world_causalbench, .controller = controller, .seed = 7};
  TrvCellSpec dspec = {.params = &p, .world_class = &trv_world_causalbench, .controller = controller, .seed = 7};
  const char *platform = g_getenv("TRIVIUM_PLATFORM");
  g_assert_nonnull(platform);
  TrvSimOptions opt;
  trv_sim_options_init(&opt, &p);
  opt.platform = platform;
  GArray *sim = run_in_child(&spec, &opt);
  GArray *direct = g_array_new(FALSE, FALSE, sizeof(TrvEpisodeRow));
  GError *err = NULL;
  g_assert_true(trv_cell_run_direct(&dspec, direct, NULL, &err));
  g_assert_cmpuint(sim->len, ==, 80);
  g_assert_cmpuint(direct->len, ==, 80);
  double prev_time = 0;
  for (guint i = 0; i < 80; i++) {
    TrvEpisodeRow a = g_array_index(sim, TrvEpisodeRow, i), b = g_array_index(direct, TrvEpisodeRow, i);
    /* simulated time grows by at least the episode's steps on the world's
     * clock: 50 nominal seconds of CausalBench-Seq */
    double steps_time = p.steps * 1.0;
    g_assert_cmpfloat(a.sim_time, >=, prev_time + steps_time);
    g_assert_cmpint(a.steps_late, ==, 0);
    prev_time = a.sim_time;
    g_assert_cmpint(a.commit_attempts, ==, 1);
    g_assert_cmpint(a.commit_failures, ==, 0);
    /* no fault: every report in, and the failure detector's bound is the
     * cap until the first episode completed, then under it */
    g_assert_cmpint(a.detector_closed, ==, 0);
    g_assert_cmpint(a.agents_missing, ==, 0);
    g_assert_cmpfloat(a.wait_lost, ==, 0);
    double cap = trv_sim_params_of(&p)->episode_timeout;
    g_assert_cmpfloat(a.detector_timeout, <=, steps_time + cap);
    if (i > 0) g_assert_cmpfloat(a.detector_timeout, <, steps_time + cap);
    if (i == 0) g_assert_cmpfloat(a.detector_timeout, ==, steps_time + cap);
    a.detector_timeout = b.detector_timeout = 0; /* no detector without a simulator */
    a.sim_time = b.sim_time = 0;
    a.commit_attempts = b.commit_attempts = 0;
    a.commits = b.commits = 0;
    a.controller_cpu = b.controller_cpu = 0; /* a CPU-time measurement, not a readout */
    g_assert_cmpint(memcmp(&a, &b, sizeof a), ==, 0);
  }
  g_array_free(sim, TRUE);
  g_array_free(direct, TRUE);
}

static void simgrid_cell_equals_reference_loop_trivium(void) { compare("trivium"); }
static void simgrid_cell_equals_reference_loop_rlvr_memory(void) { compare("rlvr-memory"); }
static void simgrid_cell_equals_reference_loop_epistemic_reset(void) { compare("epistemic-reset"); }

static void missing_role_is_an_input_error(void) {
  TrvParams p;
  trv_params_defaults(&p);
  TrvSimCellSpec spec = {.params = &p, .world_class = &trv_world_causalbench, .controller = "trivium", .seed = 1};
  TrvSimOptions opt;
  trv_sim_options_init(&opt, &p);
  opt.platform = "/nonexistent/platform.xml";
  GError *err = NULL;
  GArray *rows = g_array_new(FALSE, FALSE, sizeof(TrvEpisodeRow));
  g_assert_false(trv_sim_run_cell(&spec, &opt, rows, NULL, NULL, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "/nonexistent/platform.xml"));
  g_error_free(err);
  g_array_free(rows, TRUE);
}

/* Guard pages take two mappings an agent: at Linux's default limit a cell
 * keeps them up to about 28,000 agents (the docs' figure), and a known
 * limit decides; an unknown one (not Linux) keeps them. */
static void guard_pages_follow_the_mapping_limit(void) {
  int largest = 0;
  for (int m = 1; m <= TRV_SIM_MAX_AGENTS; m++)
    if (trv_sim_guard_pages_fit(m, 65530)) largest = m;
  g_assert_cmpint(largest, >=, 27000);
  g_assert_cmpint(largest, <, 29000);
  g_assert_false(trv_sim_guard_pages_fit(largest + 1, 65530));
  g_assert_true(trv_sim_guard_pages_fit(16384, 65530));
  g_assert_false(trv_sim_guard_pages_fit(100000, 65530));
  g_assert_true(trv_sim_guard_pages_fit(100000, 262144)); /* sysctl vm.max_map_count=262144 */
  g_assert_true(trv_sim_guard_pages_fit(TRV_SIM_MAX_AGENTS, 0));
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  trv_modules_register_builtin();
  g_test_add_func("/sim/simgrid_cell_equals_reference_loop/trivium", simgrid_cell_equals_reference_loop_trivium);
  g_test_add_func("/sim/simgrid_cell_equals_reference_loop/rlvr-memory",
                  simgrid_cell_equals_reference_loop_rlvr_memory);
  g_test_add_func("/sim/simgrid_cell_equals_reference_loop/epistemic-reset",
                  simgrid_cell_equals_reference_loop_epistemic_reset);
  g_test_add_func("/sim/missing_platform_is_an_input_error", missing_role_is_an_input_error);
  g_test_add_func("/sim/guard_pages_follow_the_mapping_limit", guard_pages_follow_the_mapping_limit);
  return g_test_run();
}
