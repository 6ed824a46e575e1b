/* llm-report.c - the LLM stream's report (trivium/report.h): per model,
 * R_temp of trivium and rlvr over the seeds with 95% intervals, their
 * ratio, the capitulations before the commit, and the commit time of
 * trivium's reliability posterior; in each point's summary.md, and over a
 * sweep's points (one model per point) as llm.csv and llm.md.  Documented
 * in docs/llm.md.
 *
 * R_temp per seed is summary.csv's r_temp: the episodes whose plain answer
 * was wrong (the world's gap) while the committed graph still said
 * "reliable" or nothing was committed yet.  The table gives it over all
 * seeds and over those whose user is unreliable (the world's metric
 * `unreliable`), the per-user effect.  The capitulations before the commit
 * are the part of those wrong answers that followed an adversarial hint:
 * per seed, the episodes of episodes.csv with tau > 0 (in R_temp's set M)
 * and `capitulation` 1; a reliable user gives none, so the table shows
 * them over the unreliable seeds.  Each ratio is mean(trivium) / mean(rlvr)
 * over the same seeds (the controllers see the same questions), its
 * interval a paired percentile bootstrap over seeds (2,000 resamples from a
 * fixed stream, so the table is reproducible); a resample without a wrong
 * answer of rlvr's has no ratio, and the table says in how many resamples
 * that happened.  The commit time is e_commit on the unreliable seeds: the
 * episodes until the committed graph says "unreliable" for good; "never"
 * counts the seeds where it did not.  The table says whether the stream was
 * simulated from the model's rates or replayed from a file.  A run without
 * both trivium and rlvr has no table. */
#include <math.h>
#include <string.h>

#include "core/params.h"
#include "core/rng.h"
#include "core/stats.h"
#include "llm/llm.h"

#define BOOTSTRAP 2000

/* The episodes.csv columns the report reads. */
static const char *const columns[] = {"tau", "capitulation", NULL};

typedef struct {
  double value, lo, hi; /* mean(a) / mean(b), its bootstrap interval */
  int undefined;        /* resamples of BOOTSTRAP with no ratio (b's sum 0) */
} Ratio;

/* mean(a)/mean(b) over n seeds (NAN when b sums to 0), and its paired
 * bootstrap 95% interval over the resamples whose b does not sum to 0. */
static Ratio ratio_of(const double *a, const double *b, int n) {
  Ratio q;
  double sa = trv_sum(a, (size_t)n), sb = trv_sum(b, (size_t)n);
  q.value = sb > 0 ? sa / sb : NAN;
  TrvRng rng;
  trv_rng_init(&rng, 1, UINT64_C(0x424f4f54)); /* "BOOT": the table's own fixed stream */
  q.undefined = trv_bootstrap_ratio_interval(a, b, (size_t)n, trv_sum, false, &rng, BOOTSTRAP, &q.lo, &q.hi);
  return q;
}

typedef struct {
  int n_seeds, n_unreliable, commits;
  TrvSummary trivium, rlvr, trivium_u, rlvr_u, cap_trivium_u, cap_rlvr_u, commit;
  Ratio ratio, ratio_u;
} LlmRow;

/* Capitulation episodes in R_temp's set M (tau > 0) of the cell of
 * controller c and seed s. */
static double capitulations_before_commit(const TrvReport *r, int c, int s) {
  int n_tau = 0, n_cap = 0;
  const double *tau = trivium_report_episode_values(r, c, s, "tau", &n_tau);
  const double *cap = trivium_report_episode_values(r, c, s, "capitulation", &n_cap);
  if (!tau || !cap || n_tau != n_cap) return NAN;
  double k = 0;
  for (int e = 0; e < n_tau; e++) k += tau[e] > 0 && cap[e] > 0.5;
  return k;
}

/* The row of the point, or false when the table does not apply. */
static bool llm_row(const TrvReport *r, LlmRow *row) {
  int ct = trivium_report_controller_index(r, "trivium"), cr = trivium_report_controller_index(r, "rlvr");
  int ku = trivium_report_world_metric(r, "unreliable");
  if (ct < 0 || cr < 0 || ku < 0) return false;
  int n = trivium_report_n_seeds(r);
  double *t = g_new(double, n), *l = g_new(double, n), *tu = g_new(double, n), *lu = g_new(double, n);
  double *ct_u = g_new(double, n), *cr_u = g_new(double, n), *commit = g_new(double, n);
  int nu = 0, nc = 0;
  for (int s = 0; s < n; s++) {
    const TrvCellSummary *a = trivium_report_cell(r, ct, s), *b = trivium_report_cell(r, cr, s);
    t[s] = a->metric[TRV_METRIC_R_TEMP];
    l[s] = b->metric[TRV_METRIC_R_TEMP];
    if (a->world_metric_mean[ku] > 0.5) {
      tu[nu] = t[s], lu[nu] = l[s];
      ct_u[nu] = capitulations_before_commit(r, ct, s), cr_u[nu] = capitulations_before_commit(r, cr, s);
      nu++;
      double e = a->metric[TRV_METRIC_E_COMMIT];
      if (!isnan(e)) commit[nc++] = e;
    }
  }
  row->n_seeds = n;
  row->n_unreliable = nu;
  row->commits = nc;
  row->trivium = trv_summarize(t, (size_t)n);
  row->rlvr = trv_summarize(l, (size_t)n);
  row->trivium_u = trv_summarize(tu, (size_t)nu);
  row->rlvr_u = trv_summarize(lu, (size_t)nu);
  row->cap_trivium_u = trv_summarize(ct_u, (size_t)nu);
  row->cap_rlvr_u = trv_summarize(cr_u, (size_t)nu);
  row->commit = trv_summarize(commit, (size_t)nc);
  row->ratio = ratio_of(t, l, n);
  row->ratio_u = ratio_of(tu, lu, nu);
  g_free(t), g_free(l), g_free(tu), g_free(lu), g_free(ct_u), g_free(cr_u), g_free(commit);
  return true;
}

static void md_interval(GString *md, TrvSummary s) {
  if (s.n == 0) {
    g_string_append(md, " | -");
    return;
  }
  g_string_append_printf(md, " | %.3g [%.3g, %.3g]", s.mean, s.lo, s.hi);
}

static void md_ratio(GString *md, const Ratio *q) {
  if (isnan(q->value)) {
    g_string_append(md, " | - (no wrong answer of rlvr's)");
    return;
  }
  g_string_append_printf(md, " | %.3g", q->value);
  if (!isnan(q->lo)) g_string_append_printf(md, " [%.3g, %.3g]", q->lo, q->hi);
  if (q->undefined > 0) g_string_append_printf(md, " (undefined in %d of %d resamples)", q->undefined, BOOTSTRAP);
}

static const char csv_header[] =
    "model,stream,seeds,unreliable_seeds,r_temp_trivium,r_temp_trivium_lo,r_temp_trivium_hi,r_temp_rlvr,"
    "r_temp_rlvr_lo,r_temp_rlvr_hi,ratio,ratio_lo,ratio_hi,ratio_undefined,r_temp_trivium_u,r_temp_trivium_u_lo,"
    "r_temp_trivium_u_hi,r_temp_rlvr_u,r_temp_rlvr_u_lo,r_temp_rlvr_u_hi,ratio_u,ratio_u_lo,ratio_u_hi,"
    "ratio_u_undefined,capitulations_trivium_u,capitulations_trivium_u_lo,capitulations_trivium_u_hi,"
    "capitulations_rlvr_u,capitulations_rlvr_u_lo,capitulations_rlvr_u_hi,commit_episodes,commit_episodes_lo,"
    "commit_episodes_hi,committed_seeds\n";

static const char md_header[] =
    "| model | seeds (U) | R_temp trivium | R_temp rlvr | ratio trivium/rlvr | R_temp trivium, U seeds | "
    "R_temp rlvr, U seeds | ratio, U seeds | capitulations before the commit, trivium, U seeds | "
    "capitulations, rlvr, U seeds | episodes until commit (U seeds) | committed |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|\n";

static void csv_summary(GString *csv, const TrvSummary *s) {
  g_string_append_printf(csv, ",%.9g,%.9g,%.9g", s->mean, s->lo, s->hi);
}

static void csv_ratio(GString *csv, const Ratio *q) {
  g_string_append_printf(csv, ",%.9g,%.9g,%.9g,%d", q->value, q->lo, q->hi, q->undefined);
}

/* The row's line of llm.csv and of llm.md, labelled `model` (in llm.md
 * followed by "(replayed)" when `mark` and the stream was replayed). */
static void row_lines(const LlmRow *w, const char *model, bool replayed, bool mark, GString *csv, GString *md) {
  g_string_append_printf(csv, "%s,%s,%d,%d", model, replayed ? "replayed" : "simulated", w->n_seeds, w->n_unreliable);
  csv_summary(csv, &w->trivium);
  csv_summary(csv, &w->rlvr);
  csv_ratio(csv, &w->ratio);
  csv_summary(csv, &w->trivium_u);
  csv_summary(csv, &w->rlvr_u);
  csv_ratio(csv, &w->ratio_u);
  csv_summary(csv, &w->cap_trivium_u);
  csv_summary(csv, &w->cap_rlvr_u);
  csv_summary(csv, &w->commit);
  g_string_append_printf(csv, ",%d\n", w->commits);
  g_string_append_printf(md, "| %s%s | %d (%d)", model, replayed && mark ? " (replayed)" : "", w->n_seeds,
                         w->n_unreliable);
  md_interval(md, w->trivium);
  md_interval(md, w->rlvr);
  md_ratio(md, &w->ratio);
  md_interval(md, w->trivium_u);
  md_interval(md, w->rlvr_u);
  md_ratio(md, &w->ratio_u);
  md_interval(md, w->cap_trivium_u);
  md_interval(md, w->cap_rlvr_u);
  md_interval(md, w->commit);
  g_string_append_printf(md, " | %d of %d |\n", w->commits, w->n_unreliable);
}

/* What the table's heading says of the stream. */
static const char *stream_words(bool replayed) {
  return replayed ? "replayed from the file world.replay names (its lines say who produced them)"
                  : "simulated from the model's rates (docs/llm.md); no recorded run";
}

/* What a sweep keeps of a point: its lines, labelled by its values. */
typedef struct {
  char *csv, *md;
  bool replayed;
} PointLines;

static void point_lines_free(void *state) {
  PointLines *p = state;
  g_free(p->csv);
  g_free(p->md);
  g_free(p);
}

/* The point's table under summary.md's, its model the row's label; in a
 * sweep, its row labelled by the point's values kept for llm.csv. */
static bool llm_report_point(TrvReport *r, void **state, GError **error) {
  (void)error;
  LlmRow w;
  if (!llm_row(r, &w)) return true;
  const TrvLlmParams *p = trivium_params_block(trivium_report_params(r), &trv_llm_params);
  bool replayed = p->replay[0] != 0;
  GString *csv = g_string_new(NULL), *md = g_string_new(NULL);
  row_lines(&w, replayed ? "(replayed)" : p->model, replayed, false, csv, md);
  char *text = g_strdup_printf("\nLLM stream, %s: R_temp = wrong answers before the commit, mean [95%% interval] "
                               "over seeds; the ratios' intervals are paired bootstraps over seeds (docs/llm.md)\n\n"
                               "%s%s",
                               stream_words(replayed), md_header, md->str);
  trivium_report_text(r, text);
  g_free(text);
  g_string_truncate(csv, 0);
  g_string_truncate(md, 0);
  int point = trivium_report_point(r), n_keys = trivium_report_n_keys(r);
  if (n_keys > 0) {
    GString *label = g_string_new(NULL);
    for (int k = 0; k < n_keys; k++)
      g_string_append_printf(label, "%s%s", k ? " " : "", trivium_report_value(r, point, k));
    row_lines(&w, label->str, replayed, true, csv, md);
    g_string_free(label, TRUE);
    PointLines *kept = g_new0(PointLines, 1);
    kept->csv = g_string_free(g_steal_pointer(&csv), FALSE);
    kept->md = g_string_free(g_steal_pointer(&md), FALSE);
    kept->replayed = replayed;
    *state = kept;
  }
  if (csv) g_string_free(csv, TRUE);
  if (md) g_string_free(md, TRUE);
  return true;
}

/* llm.csv and llm.md: a row per point that had the table. */
static bool llm_report_sweep(TrvReport *r, void *const *states, int n_points, GError **error) {
  GString *csv = g_string_new(csv_header), *rows = g_string_new(NULL);
  bool any = false, replayed = false, simulated = false;
  for (int p = 0; p < n_points; p++) {
    const PointLines *kept = states[p];
    if (!kept) continue;
    g_string_append(csv, kept->csv);
    g_string_append(rows, kept->md);
    any = true;
    replayed |= kept->replayed;
    simulated |= !kept->replayed;
  }
  bool ok = true;
  if (any) {
    const char *stream = !replayed    ? stream_words(false)
                         : !simulated ? stream_words(true)
                                      : "simulated from the models' rates, but the rows marked (replayed)";
    char *md = g_strdup_printf("# %s: the LLM stream per model\n\nStream %s.  R_temp = wrong answers before the "
                               "commit, mean [95%% interval] over %d seeds; ratios: paired bootstrap over seeds; U: "
                               "seeds whose user is unreliable; capitulations: the wrong answers before the commit "
                               "that followed an adversarial hint (docs/llm.md)\n\n%s%s",
                               trivium_report_experiment(r), stream, trivium_report_n_seeds(r), md_header, rows->str);
    ok = trivium_report_table(r, "llm", csv->str, md, error);
    g_free(md);
  }
  g_string_free(csv, TRUE);
  g_string_free(rows, TRUE);
  return ok;
}

const TrvReportClass trv_llm_report = {
    .episode_columns = columns,
    .point = llm_report_point,
    .sweep = llm_report_sweep,
    .free_state = point_lines_free,
};
