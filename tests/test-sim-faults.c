/* Commits over a faulty simulated network.
 * Atomicity: after a run with link flapping on the log's links, the
 * posterior rebuilt from the CTL file equals the live posterior at the end,
 * no record id appears twice, and no intervention is without its outcome.
 * Best effort: the same faults lose records, and the check counts them.
 * Chaos: every host and every link of a small platform turned off once, at
 * times spread over the run; every run finishes and is atomic.
 * Each simulation runs in a forked child (SimGrid initialises once per
 * process) that performs the checks and reports through its exit code and a
 * line on a pipe. */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log/ctl.h"
#include "sim/sim.h"
#include "api/modules.h"
#include "worlds.h"

typedef struct {
  uint64_t records, failures, commits, lost, orphans, restarts;
  int atomic; /* 1 when every atomicity check held */
} Outcome;

/* In the child: run, then check the log file against the live posterior. */
static Outcome run_and_check(const TrvParams *p, TrvSimOptions *opt, const char *ctl_path) {
  Outcome o = {0};
  TrvSimCellSpec spec = {.params = p, .world_class = &trv_world_causalbench, .controller = "trivium", .seed = 3};
  GArray *rows = g_array_new(FALSE, FALSE, sizeof(TrvEpisodeRow)), *log = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
  TrvSimReport rep;
  GError *err = NULL;
  opt->ctl_path = ctl_path;
  if (!trv_sim_run_cell(&spec, opt, rows, log, &rep, &err)) {
    fprintf(stderr, "run failed: %s\n", err->message);
    _exit(2);
  }
  for (guint i = 0; i < rows->len; i++) {
    TrvEpisodeRow *r = &g_array_index(rows, TrvEpisodeRow, i);
    o.commits += r->commits;
    o.failures += r->commit_failures;
  }
  o.lost = rep.telemetry_lost;
  o.orphans = rep.orphan_interventions;
  o.restarts = rep.controller_restarts;
  o.records = log->len;
  bool atomic = rows->len == (guint)p->episodes;
  /* no record id twice; every probe carries its outcome */
  GHashTable *ids = g_hash_table_new(g_int64_hash, g_int64_equal);
  gint64 *keys = g_new(gint64, log->len);
  for (guint i = 0; i < log->len; i++) {
    TrvRecord *r = &g_array_index(log, TrvRecord, i);
    keys[i] = (gint64)(((uint64_t)r->agent << 40) ^ r->seq);
    if (g_hash_table_contains(ids, &keys[i])) atomic = false;
    g_hash_table_add(ids, &keys[i]);
    if (r->kind == TRV_RECORD_STEP && r->a_int >= 0 && !isfinite(r->outcome)) atomic = false;
  }
  /* the posterior rebuilt from the file equals the live one */
  TrvCtlView *view = trv_ctl_view_open(ctl_path, false, &err);
  TrvPosterior *replayed = view ? trv_ctl_view_replay(view, -1, -1, &err) : NULL;
  if (!replayed || !rep.final_posterior || !trv_posterior_equal(replayed, rep.final_posterior)) atomic = false;
  if (err) fprintf(stderr, "ctl: %s\n", err->message);
  o.atomic = atomic;
  return o;
}

static Outcome in_child(const TrvParams *p, TrvSimOptions *opt) {
  char *dir = g_dir_make_tmp("trivium-faults-XXXXXX", NULL), *path = g_build_filename(dir, "run.ctl", NULL);
  int fd[2];
  g_assert_cmpint(pipe(fd), ==, 0);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    Outcome o = run_and_check(p, opt, path);
    _exit(write(fd[1], &o, sizeof o) == sizeof o ? 0 : 3);
  }
  close(fd[1]);
  Outcome o = {0};
  ssize_t got = read(fd[0], &o, sizeof o);
  close(fd[0]);
  int status;
  waitpid(pid, &status, 0);
  g_assert_true(WIFEXITED(status));
  g_assert_cmpint(WEXITSTATUS(status), ==, 0);
  g_assert_cmpint(got, ==, sizeof o);
  unlink(path);
  rmdir(dir);
  g_free(path);
  g_free(dir);
  return o;
}

static void base(TrvParams *p, TrvSimOptions *opt, int episodes) {
  trv_params_defaults(p);
  p->episodes = episodes;
  trv_sim_options_init(opt, p);
  opt->platform = g_getenv("TRIVIUM_PLATFORM");
  g_assert_nonnull(opt->platform);
}

static void log_equals_live_posterior_under_link_flapping(void) {
  TrvParams p;
  TrvSimOptions opt;
  base(&p, &opt, 150);
  TrvFaultSpec flap = {.kind = TRV_FAULT_LINK_FLAP, .pattern = "agent-0-uplink,centre-lan", .mtbf = 15, .mttr = 4};
  opt.faults = &flap;
  opt.n_faults = 1;
  Outcome o = in_child(&p, &opt);
  g_test_message("flapping: %" G_GUINT64_FORMAT " commits, %" G_GUINT64_FORMAT " failed, %" G_GUINT64_FORMAT
                 " records in the log",
                 o.commits, o.failures, o.records);
  g_assert_cmpint(o.atomic, ==, 1);
  g_assert_cmpuint(o.failures, >, 0); /* the faults did make commits fail */
  g_assert_cmpuint(o.failures, <, o.commits);
}

static void best_effort_loses_records_under_the_same_faults(void) {
  TrvParams p;
  TrvSimOptions opt;
  base(&p, &opt, 150);
  TrvFaultSpec flap = {.kind = TRV_FAULT_LINK_FLAP, .pattern = "agent-0-uplink,centre-lan", .mtbf = 15, .mttr = 4};
  opt.faults = &flap;
  opt.n_faults = 1;
  opt.best_effort = true;
  Outcome o = in_child(&p, &opt);
  g_test_message("best effort: %" G_GUINT64_FORMAT " records lost, %" G_GUINT64_FORMAT " interventions without outcome",
                 o.lost, o.orphans);
  g_assert_cmpuint(o.lost, >, 0);
  /* what did arrive is still folded consistently: the file matches the live posterior */
  g_assert_cmpint(o.atomic, ==, 1);
}

static void every_single_fault_finishes_and_stays_atomic(void) {
  const char *hosts[] = {"controller", "ctl", "agent-0"}, *links[] = {"centre-lan", "agent-0-uplink"};
  const double times[] = {1.0, 9.0, 20.0, 31.0};
  int cases = 0;
  for (size_t t = 0; t < G_N_ELEMENTS(times); t++) {
    for (size_t h = 0; h < G_N_ELEMENTS(hosts); h++) {
      TrvParams p;
      TrvSimOptions opt;
      base(&p, &opt, 30);
      TrvFaultSpec crash = {.kind = TRV_FAULT_HOST_CRASH, .pattern = (char *)hosts[h], .at = times[t], .duration = 6};
      opt.faults = &crash;
      opt.n_faults = 1;
      opt.episode_timeout = 15;
      Outcome o = in_child(&p, &opt);
      if (!o.atomic) g_test_message("host %s off at %g: not atomic", hosts[h], times[t]);
      g_assert_cmpint(o.atomic, ==, 1);
      /* the controller died with its host and came back from its durable state */
      g_assert_cmpuint(o.restarts, ==, strcmp(hosts[h], "controller") ? 0 : 1);
      cases++;
    }
    for (size_t l = 0; l < G_N_ELEMENTS(links); l++) {
      TrvParams p;
      TrvSimOptions opt;
      base(&p, &opt, 30);
      /* one outage: up for ~0 s from `start`, then down until `stop` */
      TrvFaultSpec off = {.kind = TRV_FAULT_LINK_FLAP,
                          .pattern = (char *)links[l],
                          .mtbf = 1e-9,
                          .mttr = 1e9,
                          .start = times[t],
                          .stop = times[t] + 6};
      opt.faults = &off;
      opt.n_faults = 1;
      opt.episode_timeout = 15;
      Outcome o = in_child(&p, &opt);
      if (!o.atomic) g_test_message("link %s off at %g: not atomic", links[l], times[t]);
      g_assert_cmpint(o.atomic, ==, 1);
      cases++;
    }
  }
  printf("# chaos: %d single-fault cases ran (3 hosts and 2 links x 4 times), all finished and atomic\n", cases);
  g_assert_cmpint(cases, ==, 20);
}

/* ---- the laws of a link-flap's up and down times ---- */

/* Raw moment E[X^n] of a law with mean `mean` and shape `shape`. */
static double raw_moment(TrvFaultLaw law, double mean, double shape, int n) {
  if (law == TRV_FAULT_WEIBULL) return pow(mean / tgamma(1 + 1 / shape), n) * tgamma(1 + n / shape);
  if (law == TRV_FAULT_LOGNORMAL) {
    double mu = log(mean) - shape * shape / 2;
    return exp(n * mu + n * n * shape * shape / 2);
  }
  return tgamma(1 + n) * pow(mean, n);
}

/* Many draws of each law: the sample mean is the configured mean within 3
 * standard errors of the closed-form variance (Weibull: scale^2 [Gamma(1 +
 * 2/k) - Gamma(1 + 1/k)^2]; lognormal: (e^{sigma^2} - 1) mean^2), and the
 * sample coefficient of variation is the closed form's within 4 standard
 * errors, those of the sample variance from the closed-form fourth central
 * moment (delta method: se(cv)/cv = se(s^2) / (2 s^2)).  Every draw is
 * finite and non-negative, at the ends of the shape ranges too. */
static void flap_periods_have_the_closed_form_mean_and_cv(void) {
  const struct {
    TrvFaultLaw law;
    double mean, shape;
  } cases[] = {{TRV_FAULT_EXPONENTIAL, 10, 0}, {TRV_FAULT_WEIBULL, 10, 0.5},    {TRV_FAULT_WEIBULL, 0.5, 0.7},
               {TRV_FAULT_WEIBULL, 3, 2},      {TRV_FAULT_LOGNORMAL, 0.5, 0.5}, {TRV_FAULT_LOGNORMAL, 30, 1},
               {TRV_FAULT_LOGNORMAL, 2, 1.2}};
  const int n = 200000;
  for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
    TrvRng rng;
    trv_rng_init(&rng, 17, TRV_STREAM_FAULTS + c);
    double sum = 0, sum2 = 0;
    for (int i = 0; i < n; i++) {
      double x = trv_sim_flap_period(cases[c].law, cases[c].mean, cases[c].shape, &rng);
      g_assert_true(isfinite(x) && x >= 0);
      sum += x, sum2 += x * x;
    }
    double m = sum / n, var = (sum2 - n * m * m) / (n - 1);
    double m1 = raw_moment(cases[c].law, cases[c].mean, cases[c].shape, 1),
           m2 = raw_moment(cases[c].law, cases[c].mean, cases[c].shape, 2),
           m3 = raw_moment(cases[c].law, cases[c].mean, cases[c].shape, 3),
           m4 = raw_moment(cases[c].law, cases[c].mean, cases[c].shape, 4);
    double v = m2 - m1 * m1, mu4 = m4 - 4 * m3 * m1 + 6 * m2 * m1 * m1 - 3 * m1 * m1 * m1 * m1;
    double cv = sqrt(v) / m1, se_cv = cv * sqrt((mu4 - v * v) / n) / (2 * v);
    g_test_message("law %d shape %g: mean %.5g (closed form %g, se %.3g), cv %.4g (closed form %.4g, se %.3g)",
                   (int)cases[c].law, cases[c].shape, m, cases[c].mean, sqrt(v / n), sqrt(var) / m, cv, se_cv);
    g_assert_cmpfloat(fabs(m1 - cases[c].mean), <, 1e-9 * cases[c].mean); /* the scale keeps the mean */
    g_assert_cmpfloat(fabs(m - cases[c].mean), <, 3 * sqrt(v / n));
    g_assert_cmpfloat(fabs(sqrt(var) / m - cv), <, 4 * se_cv);
  }
  const struct {
    TrvFaultLaw law;
    double shape;
  } ends[] = {{TRV_FAULT_WEIBULL, TRV_FAULT_WEIBULL_MIN_SHAPE},
              {TRV_FAULT_WEIBULL, TRV_FAULT_WEIBULL_MAX_SHAPE},
              {TRV_FAULT_LOGNORMAL, TRV_FAULT_LOGNORMAL_MIN_SHAPE},
              {TRV_FAULT_LOGNORMAL, TRV_FAULT_LOGNORMAL_MAX_SHAPE}};
  for (size_t c = 0; c < G_N_ELEMENTS(ends); c++) {
    TrvRng rng;
    trv_rng_init(&rng, 5, TRV_STREAM_FAULTS);
    for (int i = 0; i < 100000; i++) {
      double x = trv_sim_flap_period(ends[c].law, TRV_FAULT_MIN_PERIOD, ends[c].shape, &rng);
      g_assert_true(isfinite(x) && x >= 0);
    }
  }
}

/* The exponential law is -mean log(1 - U) of one uniform of the stream: a
 * scenario that names no law draws exactly that. */
static void exponential_periods_are_one_uniform_each(void) {
  TrvRng a, b;
  trv_rng_init(&a, 9, TRV_STREAM_FAULTS + 1);
  b = a;
  for (int i = 0; i < 1000; i++) {
    double want = -2.5 * log1p(-trv_rng_uniform(&b));
    g_assert_cmpfloat(trv_sim_flap_period(TRV_FAULT_EXPONENTIAL, 2.5, 0, &a), ==, want);
  }
}

/* A fixed period is its mean and draws nothing from the stream. */
static void fixed_periods_are_the_mean(void) {
  TrvRng a, b;
  trv_rng_init(&a, 9, TRV_STREAM_FAULTS + 1);
  b = a;
  for (int i = 0; i < 10; i++) g_assert_cmpfloat(trv_sim_flap_period(TRV_FAULT_FIXED, 600, 0, &a), ==, 600);
  g_assert_cmpfloat(trv_rng_uniform(&a), ==, trv_rng_uniform(&b));
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  trv_modules_register_builtin();
  g_test_add_func("/sim-faults/fixed_periods_are_the_mean", fixed_periods_are_the_mean);
  g_test_add_func("/sim-faults/flap_periods_have_the_closed_form_mean_and_cv",
                  flap_periods_have_the_closed_form_mean_and_cv);
  g_test_add_func("/sim-faults/exponential_periods_are_one_uniform_each", exponential_periods_are_one_uniform_each);
  g_test_add_func("/sim-faults/log_equals_live_posterior_under_link_flapping",
                  log_equals_live_posterior_under_link_flapping);
  g_test_add_func("/sim-faults/best_effort_loses_records_under_the_same_faults",
                  best_effort_loses_records_under_the_same_faults);
  g_test_add_func("/sim-faults/every_single_fault_finishes_and_stays_atomic",
                  every_single_fault_finishes_and_stays_atomic);
  return g_test_run();
}
