/* The job shop as a world of the episode protocol (envs/jssp/jssp-world.c),
 * checked against the stand-alone references it must agree with
 * (src/jssp-stream-ref.c; the real-instance variant's world draws,
 * envs/jssp/jssp-confounded.c, and the episode draws
 * src/jssp-confounded-ref.c makes), without the simulator: the same
 * hidden machines seed for seed, agent 0 facing the reference's draws, the
 * makespan regret of the reference's plans, and the machine stream played
 * by the real controller (direct transport, the protocol the SimGrid
 * attachment plays too) agreeing with the reference's table within its
 * intervals, trivium's regret log-shaped and the outcome-only learner's
 * linear.  Also the instance files' refusals and the text parameter. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "core/direct.h"
#include "core/params.h"
#include "core/rng.h"
#include "core/stats.h"
#include "core/world.h"
#include "jssp-stream-ref.h"
#include "jssp/jssp-confounded.h"
#include "api/modules.h"
#include "worlds.h"

/* The job shop world's parameters in p, to change. */
static TrvJsspParams *jssp(TrvParams *p) { return trv_params_block_mut(p, &trv_jssp_params); }

static void stream_params(TrvParams *p) {
  trv_params_defaults(p);
  p->episodes = 500;
  p->steps = 12;
  /* the shipped scenario's posterior (scenarios/jssp-stream.xml) */
  p->slab = TRV_SLAB_GAUSSIAN;
  p->tau2 = 0.09;
  p->track = TRV_TRACK_NONE;
  p->lambda = 1;
  p->noise = TRV_NOISE_KNOWN;
}

static void *world_new(const TrvParams *p, uint64_t seed) {
  GError *err = NULL;
  void *w = trv_world_jssp.init(p, seed, &err);
  g_assert_no_error(err);
  g_assert_nonnull(w);
  return w;
}

/* The world's hidden slowness is the reference's, bit for bit (the same
 * stream of the seed), and its declared probe noise is rho^2 + s^2. */
static void stream_world_draws_the_reference_machines(void) {
  TrvParams p;
  stream_params(&p);
  TrvMachineStreamParams sp;
  trv_machine_stream_params_from(jssp(&p), &sp);
  double *regret = g_new(double, sp.episodes);
  for (uint64_t seed = 1; seed <= 20; seed++) {
    void *w = world_new(&p, seed);
    TrvMachineStreamFinal fin;
    trv_machine_stream_run(&sp, seed, TRV_MACHINE_TRIVIUM, regret, &fin);
    TrvGraph g;
    trv_world_jssp.referee->truth(w, &g);
    g_assert_cmpint(g.n, ==, 5);
    for (int i = 0; i < 5; i++) g_assert_cmpfloat(g.kappa[i] + sp.alpha_mean, ==, fin.alpha[i]);
    g_assert_cmpfloat(trv_world_jssp.noise_var(w), ==, 0.7 * 0.7 + 0.4 * 0.4);
    trv_world_jssp.free(w);
  }
  g_free(regret);
}

/* Agent 0 continues the world's stream after the alpha draws: per step C,
 * eta_1..M, xi; a probe of machine j at z reads z (X_j - alpha_mean). */
static void stream_agent_zero_faces_the_reference_draws(void) {
  TrvParams p;
  stream_params(&p);
  const uint64_t seed = 7;
  void *w = world_new(&p, seed);
  const TrvAgentClass *ac = trv_world_jssp.agent;
  void *a = ac->instance(w, 0);
  TrvRng rng;
  trv_rng_init(&rng, seed, TRV_STREAM_WORLD);
  double alpha[5];
  for (int i = 0; i < 5; i++) alpha[i] = 1.0 + 0.3 * trv_rng_normal(&rng);
  trv_world_jssp.episode_begin(w, 0);
  ac->episode_begin(a, 0);
  TrvGraph none;
  trv_graph_clear(&none, 5);
  g_assert_cmpint(ac->plan(a, &none), ==, 0); /* nothing committed: every machine nominal, the first */
  for (int t = 0; t < 12; t++) {
    double ctx[TRV_RECORD_CONTEXT_MAX], x[5], c = trv_rng_normal(&rng), mx = -INFINITY;
    for (int i = 0; i < 5; i++) mx = fmax(mx, x[i] = alpha[i] + 0.7 * c + 0.4 * trv_rng_normal(&rng));
    double y = mx + 0.1 * trv_rng_normal(&rng);
    g_assert_cmpint(ac->observe(a, t, ctx, TRV_RECORD_CONTEXT_MAX), ==, 2);
    g_assert_cmpfloat(ctx[1], ==, y - 1.0);
    g_assert_cmpfloat(ac->probe(a, t % 5, -1.0), ==, -(x[t % 5] - 1.0));
    g_assert_cmpfloat(ac->act(a, 0), ==, -y); /* the outcome does not depend on the machine */
  }
  ac->free(a);
  trv_world_jssp.free(w);
}

/* Plans on the committed graph: the truth's graph gives the oracle's plan
 * (regret exactly 0 every episode); the empty graph the plan with every
 * machine nominal, whose regret is exp(rho C_e) times the reference's
 * makespan difference, never negative.  The slowdowns are the reference's. */
static void instance_regret_is_the_references(void) {
  TrvParams p;
  trv_params_defaults(&p);
  g_strlcpy(jssp(&p)->instance, JSSP_PLATFORM_DIR "/ft06/jobs.txt", TRV_PARAM_TEXT_MAX);
  p.episodes = 50;
  p.steps = 4;
  TrvConfoundedParams cp;
  trv_confounded_params_from(jssp(&p), &cp);
  GError *err = NULL;
  TrvJsspInstance *inst = trv_jssp_instance_load(jssp(&p)->instance, &err);
  g_assert_no_error(err);
  TrvConfoundedPlans *plans = trv_confounded_plans_new(inst);
  double *ms = g_new(double, trv_confounded_plans_count(plans)), ones[6] = {1, 1, 1, 1, 1, 1};
  const int naive = trv_confounded_best_plan(plans, ones, NULL);
  int positive = 0;
  for (uint64_t seed = 1; seed <= 10; seed++) {
    void *w = world_new(&p, seed);
    TrvConfoundedWorld ref;
    TrvRng rng;
    trv_confounded_world_draw(inst, &cp, seed, &ref, &rng);
    const int oracle = trv_confounded_best_plan(plans, ref.slowdown, ms);
    TrvGraph truth, none;
    trv_world_jssp.referee->truth(w, &truth);
    trv_graph_clear(&none, 6);
    for (int i = 0; i < 6; i++) {
      g_assert_cmpfloat(truth.kappa[i], ==, log(ref.slowdown[i]));
      g_assert_true(truth.present[i] == ((ref.slow_set >> i & 1u) != 0));
    }
    const TrvAgentClass *ac = trv_world_jssp.agent;
    void *a = ac->instance(w, 0);
    for (int e = 0; e < p.episodes; e++) {
      double C = trv_rng_normal(&rng); /* the reference's draws of the episode */
      (void)trv_rng_below(&rng, 6);
      for (int op = 0; op < 36; op++) (void)trv_rng_normal(&rng);
      trv_world_jssp.episode_begin(w, e);
      ac->episode_begin(a, e);
      int plan = ac->plan(a, e % 2 ? &truth : &none);
      double r = trv_world_jssp.referee->episode_outcome_regret(w);
      double metrics[TRV_WORLD_METRICS_MAX];
      g_assert_cmpint(trv_world_jssp.referee->episode_metrics(w, metrics, TRV_WORLD_METRICS_MAX), ==, 3);
      if (e % 2) {
        g_assert_cmpint(plan, ==, oracle);
        g_assert_cmpfloat(r, ==, 0.0);
        g_assert_cmpfloat(metrics[0], ==, 1.0); /* the slow set planned is the true one */
      } else {
        g_assert_cmpint(plan, ==, naive);
        g_assert_cmpfloat(r, ==, exp(cp.rho * C) * (ms[naive] - ms[oracle]));
        g_assert_cmpfloat(r, >=, 0.0);
        positive += r > 0;
        g_assert_cmpfloat_with_epsilon(metrics[1] - metrics[2], r, 1e-12 * metrics[1]);
      }
    }
    ac->free(a);
    trv_world_jssp.free(w);
  }
  g_assert_cmpint(positive, >, 0); /* a slow machine matters on some seeds */
  g_free(ms);
  trv_confounded_plans_free(plans);
  trv_jssp_instance_free(inst);
}

/* Cumulative R_out per seed of one controller in the direct transport. */
static void direct_cumulative(const TrvParams *p, const char *controller, int seeds, double *total, double *curve) {
  memset(curve, 0, sizeof(double) * p->episodes);
  for (int s = 0; s < seeds; s++) {
    GArray *rows = g_array_new(FALSE, FALSE, sizeof(TrvEpisodeRow));
    TrvCellSpec spec = {p, &trv_world_jssp, controller, (uint64_t)(s + 1), NULL};
    GError *err = NULL;
    g_assert_true(trv_cell_run_direct(&spec, rows, NULL, &err));
    g_assert_no_error(err);
    g_assert_cmpuint(rows->len, ==, (guint)p->episodes);
    double cum = 0;
    for (guint e = 0; e < rows->len; e++) {
      double r = g_array_index(rows, TrvEpisodeRow, e).r_out;
      g_assert_true(r == 0.0 || r == 1.0);
      cum += r;
      curve[e] += cum / seeds;
    }
    total[s] = cum;
    g_array_free(rows, TRUE);
  }
}

static void fits(const double *curve, int n, double *log_r2, double *lin_r2) {
  double *x = g_new(double, n);
  for (int e = 0; e < n; e++) x[e] = log(e + 1.0);
  *log_r2 = trv_linear_fit(x, curve, (size_t)n).r2;
  for (int e = 0; e < n; e++) x[e] = e + 1.0;
  *lin_r2 = trv_linear_fit(x, curve, (size_t)n).r2;
  g_free(x);
}

/* The machine stream under the real controllers (20 seeds, E = 500, T = 12)
 * against the reference's: trivium's mean cumulative regret within the
 * two-sided 99% band of the difference of two means, its curve better fit
 * by a + b ln(e); the outcome-only learner's better fit by a line, and far
 * above trivium's. */
static void stream_agrees_with_the_reference(void) {
  TrvParams p;
  stream_params(&p);
  TrvMachineStreamParams sp;
  trv_machine_stream_params_from(jssp(&p), &sp);
  const int S = 20, E = p.episodes;
  double total[20], *curve = g_new(double, E), lr, nr;
  TrvMachineStreamSummary ref;
  trv_machine_stream_summarize(&sp, 1, S, TRV_MACHINE_TRIVIUM, &ref, NULL, NULL);

  direct_cumulative(&p, "trivium", S, total, curve);
  TrvSummary mine = trv_summarize(total, (size_t)S);
  double se = sqrt(mine.sd * mine.sd / S + ref.cumulative.sd * ref.cumulative.sd / S);
  g_test_message("trivium: %.2f +- %.2f (reference %.2f +- %.2f)", mine.mean, mine.sd, ref.cumulative.mean,
                 ref.cumulative.sd);
  g_assert_cmpfloat(fabs(mine.mean - ref.cumulative.mean), <, 2.58 * se);
  fits(curve, E, &lr, &nr);
  g_assert_cmpfloat(lr, >, nr);
  double trivium_mean = mine.mean;

  direct_cumulative(&p, "rlvr", S, total, curve);
  mine = trv_summarize(total, (size_t)S);
  fits(curve, E, &lr, &nr);
  g_test_message("rlvr: %.2f +- %.2f", mine.mean, mine.sd);
  g_assert_cmpfloat(nr, >, lr);
  g_assert_cmpfloat(mine.mean, >, 3 * trivium_mean);
  g_free(curve);
}

/* Instance files are hostile input: each refusal names the file and line
 * (or the file) and is an input error; so is an unknown shipped name. */
static void instance_files_are_checked(void) {
  static const struct {
    const char *text, *expect;
  } cases[] = {
      {"2 2\n0 1 1 2\n1 3 1 4\n", ":3: job 1 visits machine 1 twice"},
      {"2 2\n0 1 1 2\n", "job lines"},
      {"2 2\n0 1 x 2\n1 3 0 4\n", ":2:"},
      {"100000 100000\n", ":1:"},
  };
  char *dir = g_dir_make_tmp("trv-jssp-world-XXXXXX", NULL);
  TrvParams p;
  trv_params_defaults(&p);
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    char *path = g_build_filename(dir, "bad.txt", NULL);
    g_assert_true(g_file_set_contents(path, cases[i].text, -1, NULL));
    g_strlcpy(jssp(&p)->instance, path, TRV_PARAM_TEXT_MAX);
    GError *err = NULL;
    g_assert_null(trv_world_jssp.init(&p, 1, &err));
    g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
    g_assert_nonnull(strstr(err->message, path));
    if (!strstr(err->message, cases[i].expect)) g_error("case %zu: '%s' lacks '%s'", i, err->message, cases[i].expect);
    g_clear_error(&err);
    g_unlink(path);
    g_free(path);
  }
  /* 33 machines: more than the variant's plans can hold */
  GString *big = g_string_new("1 33\n");
  for (int m = 0; m < 33; m++) g_string_append_printf(big, "%d 1 ", m);
  g_string_append_c(big, '\n');
  char *path = g_build_filename(dir, "wide.txt", NULL);
  g_assert_true(g_file_set_contents(path, big->str, -1, NULL));
  g_strlcpy(jssp(&p)->instance, path, TRV_PARAM_TEXT_MAX);
  GError *err = NULL;
  g_assert_null(trv_world_jssp.init(&p, 1, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "33 machines"));
  g_clear_error(&err);
  g_unlink(path);
  g_free(path);
  g_string_free(big, TRUE);
  g_strlcpy(jssp(&p)->instance, "ft99", TRV_PARAM_TEXT_MAX);
  g_assert_null(trv_world_jssp.init(&p, 1, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "no shipped instance"));
  g_clear_error(&err);
  g_rmdir(dir);
  g_free(dir);
}

/* world.instance is a text parameter: printable, bounded, not a number. */
static void text_parameter(void) {
  TrvParams p;
  trv_params_defaults(&p);
  g_assert_cmpstr(jssp(&p)->instance, ==, "");
  GError *err = NULL;
  g_assert_true(trv_params_set(&p, "world.instance", "ft10", &err));
  char *v = trv_params_format(&p, trv_param_lookup("world.instance"));
  g_assert_cmpstr(v, ==, "ft10");
  g_free(v);
  g_assert_false(trv_params_set(&p, "world.instance", "a\nb", &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "control byte \\x0A at byte 2"));
  g_clear_error(&err);
  char *longer = g_strnfill(TRV_PARAM_TEXT_MAX, 'a');
  g_assert_false(trv_params_set(&p, "world.instance", longer, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_clear_error(&err);
  longer[TRV_PARAM_TEXT_MAX - 1] = '\0';
  g_assert_true(trv_params_set(&p, "world.instance", longer, &err));
  g_free(longer);
  g_assert_cmpuint(strlen(jssp(&p)->instance), ==, TRV_PARAM_TEXT_MAX - 1);
  double d;
  g_assert_false(trivium_params_get(&p, "world.instance", &d, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_clear_error(&err);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  trv_modules_register_builtin();
  g_test_add_func("/jssp/world/stream_world_draws_the_reference_machines", stream_world_draws_the_reference_machines);
  g_test_add_func("/jssp/world/stream_agent_zero_faces_the_reference_draws",
                  stream_agent_zero_faces_the_reference_draws);
  g_test_add_func("/jssp/world/instance_regret_is_the_references", instance_regret_is_the_references);
  g_test_add_func("/jssp/world/stream_agrees_with_the_reference", stream_agrees_with_the_reference);
  g_test_add_func("/jssp/world/instance_files_are_checked", instance_files_are_checked);
  g_test_add_func("/jssp/world/text_parameter", text_parameter);
  return g_test_run();
}
