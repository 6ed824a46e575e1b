/* llm-report.c - the LLM stream's report (trivium/report.h): per model,
 * R_temp of trivium and rlvr over the seeds with 95% intervals, their
 * ratio, and the commit time of trivium's reliability posterior; in each
 * point's summary.md, and over a sweep's points (one model per point) as
 * llm.csv and llm.md.  Documented in docs/llm.md.
 *
 * R_temp per seed is summary.csv's r_temp (capitulation episodes while the
 * committed graph still said "reliable" or nothing was committed yet).
 * Seeds whose user is reliable have no adversarial hint, so R_temp is 0
 * there for every controller; the table gives it over all seeds and over
 * the unreliable ones (the world's metric `unreliable`).  The ratio is
 * mean(trivium) / mean(rlvr) over the same seeds (the controllers see the
 * same questions), its interval a paired percentile bootstrap over seeds
 * (2,000 resamples from a fixed stream, so the table is reproducible).
 * The commit time is e_commit on the unreliable seeds: the episodes until
 * the committed graph says "unreliable" for good; "never" counts the
 * seeds where it did not.  A run without both trivium and rlvr has no
 * table. */
#include <math.h>
#include <string.h>

#include "core/params.h"
#include "core/rng.h"
#include "core/stats.h"
#include "llm/llm.h"

#define BOOTSTRAP 2000

/* mean(a)/mean(b) over seeds, and its paired bootstrap 95% interval
 * (resamples without a capitulation of rlvr have no ratio). */
static void ratio_interval(const double *a, const double *b, int n, double *ratio, double *lo, double *hi) {
  double sa = trv_sum(a, (size_t)n), sb = trv_sum(b, (size_t)n);
  *ratio = sb > 0 ? sa / sb : NAN;
  *lo = *hi = NAN;
  if (!(sb > 0)) return;
  TrvRng rng;
  trv_rng_init(&rng, 1, UINT64_C(0x424f4f54)); /* "BOOT": the table's own fixed stream */
  trv_bootstrap_ratio_interval(a, b, (size_t)n, trv_sum, false, &rng, BOOTSTRAP, lo, hi);
}

typedef struct {
  int n_seeds, n_unreliable, commits;
  TrvSummary trivium, rlvr, trivium_u, rlvr_u, commit;
  double ratio, ratio_lo, ratio_hi;
} LlmRow;

/* The row of the point, or false when the table does not apply. */
static bool llm_row(const TrvReport *r, LlmRow *row) {
  int ct = trivium_report_controller_index(r, "trivium"), cr = trivium_report_controller_index(r, "rlvr");
  int ku = trivium_report_world_metric(r, "unreliable");
  if (ct < 0 || cr < 0 || ku < 0) return false;
  int n = trivium_report_n_seeds(r);
  double *t = g_new(double, n), *l = g_new(double, n), *tu = g_new(double, n), *lu = g_new(double, n);
  double *commit = g_new(double, n);
  int nu = 0, nc = 0;
  for (int s = 0; s < n; s++) {
    const TrvCellSummary *a = trivium_report_cell(r, ct, s), *b = trivium_report_cell(r, cr, s);
    t[s] = a->metric[TRV_METRIC_R_TEMP];
    l[s] = b->metric[TRV_METRIC_R_TEMP];
    if (a->world_metric_mean[ku] > 0.5) {
      tu[nu] = t[s], lu[nu] = l[s], nu++;
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
  row->commit = trv_summarize(commit, (size_t)nc);
  ratio_interval(t, l, n, &row->ratio, &row->ratio_lo, &row->ratio_hi);
  g_free(t), g_free(l), g_free(tu), g_free(lu), g_free(commit);
  return true;
}

static void md_interval(GString *md, TrvSummary s) {
  if (s.n == 0) {
    g_string_append(md, " | -");
    return;
  }
  g_string_append_printf(md, " | %.3g [%.3g, %.3g]", s.mean, s.lo, s.hi);
}

static const char csv_header[] =
    "model,seeds,unreliable_seeds,r_temp_trivium,r_temp_trivium_lo,r_temp_trivium_hi,r_temp_rlvr,"
    "r_temp_rlvr_lo,r_temp_rlvr_hi,ratio,ratio_lo,ratio_hi,r_temp_trivium_u,r_temp_trivium_u_lo,"
    "r_temp_trivium_u_hi,r_temp_rlvr_u,r_temp_rlvr_u_lo,r_temp_rlvr_u_hi,commit_episodes,"
    "commit_episodes_lo,commit_episodes_hi,committed_seeds\n";

static const char md_header[] =
    "| model | seeds (U) | R_temp trivium | R_temp rlvr | ratio trivium/rlvr | R_temp trivium, U seeds | "
    "R_temp rlvr, U seeds | episodes until commit (U seeds) | committed |\n"
    "|---|---|---|---|---|---|---|---|---|\n";

/* The row's line of llm.csv and of llm.md, labelled `model`. */
static void row_lines(const LlmRow *w, const char *model, GString *csv, GString *md) {
  const TrvSummary *s[] = {&w->trivium, &w->rlvr};
  g_string_append_printf(csv, "%s,%d,%d", model, w->n_seeds, w->n_unreliable);
  for (int i = 0; i < 2; i++) g_string_append_printf(csv, ",%.9g,%.9g,%.9g", s[i]->mean, s[i]->lo, s[i]->hi);
  g_string_append_printf(csv, ",%.9g,%.9g,%.9g", w->ratio, w->ratio_lo, w->ratio_hi);
  const TrvSummary *u[] = {&w->trivium_u, &w->rlvr_u, &w->commit};
  for (int i = 0; i < 3; i++) g_string_append_printf(csv, ",%.9g,%.9g,%.9g", u[i]->mean, u[i]->lo, u[i]->hi);
  g_string_append_printf(csv, ",%d\n", w->commits);
  g_string_append_printf(md, "| %s | %d (%d)", model, w->n_seeds, w->n_unreliable);
  md_interval(md, w->trivium);
  md_interval(md, w->rlvr);
  if (isnan(w->ratio))
    g_string_append(md, " | -");
  else
    g_string_append_printf(md, " | %.3g [%.3g, %.3g]", w->ratio, w->ratio_lo, w->ratio_hi);
  md_interval(md, w->trivium_u);
  md_interval(md, w->rlvr_u);
  md_interval(md, w->commit);
  g_string_append_printf(md, " | %d of %d |\n", w->commits, w->n_unreliable);
}

/* What a sweep keeps of a point: its lines, labelled by its values. */
typedef struct {
  char *csv, *md;
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
  char model[80];
  g_strlcpy(model, p->replay[0] ? "(replayed)" : p->model, sizeof model);
  GString *csv = g_string_new(NULL), *md = g_string_new(NULL);
  row_lines(&w, model, csv, md);
  char *text =
      g_strdup_printf("\nLLM stream: R_temp (capitulation episodes before the commit), mean [95%% interval] "
                      "over seeds; the ratio's interval is a paired bootstrap over seeds (docs/llm.md)\n\n%s%s",
                      md_header, md->str);
  trivium_report_text(r, text);
  g_free(text);
  g_string_truncate(csv, 0);
  g_string_truncate(md, 0);
  int point = trivium_report_point(r), n_keys = trivium_report_n_keys(r);
  if (n_keys > 0) {
    GString *label = g_string_new(NULL);
    for (int k = 0; k < n_keys; k++)
      g_string_append_printf(label, "%s%s", k ? " " : "", trivium_report_value(r, point, k));
    row_lines(&w, label->str, csv, md);
    g_string_free(label, TRUE);
    PointLines *kept = g_new0(PointLines, 1);
    kept->csv = g_string_free(g_steal_pointer(&csv), FALSE);
    kept->md = g_string_free(g_steal_pointer(&md), FALSE);
    *state = kept;
  }
  if (csv) g_string_free(csv, TRUE);
  if (md) g_string_free(md, TRUE);
  return true;
}

/* llm.csv and llm.md: a row per point that had the table. */
static bool llm_report_sweep(TrvReport *r, void *const *states, int n_points, GError **error) {
  GString *csv = g_string_new(csv_header), *rows = g_string_new(NULL);
  bool any = false;
  for (int p = 0; p < n_points; p++) {
    const PointLines *kept = states[p];
    if (!kept) continue;
    g_string_append(csv, kept->csv);
    g_string_append(rows, kept->md);
    any = true;
  }
  bool ok = true;
  if (any) {
    char *md = g_strdup_printf("# %s: the LLM stream per model\n\nR_temp = capitulation episodes before the commit, "
                               "mean [95%% interval] over %d seeds; ratio: paired bootstrap over seeds; U: seeds "
                               "whose user is unreliable (docs/llm.md)\n\n%s%s",
                               trivium_report_experiment(r), trivium_report_n_seeds(r), md_header, rows->str);
    ok = trivium_report_table(r, "llm", csv->str, md, error);
    g_free(md);
  }
  g_string_free(csv, TRUE);
  g_string_free(rows, TRUE);
  return ok;
}

const TrvReportClass trv_llm_report = {
    .point = llm_report_point,
    .sweep = llm_report_sweep,
    .free_state = point_lines_free,
};
