/* llm-table.c - the LLM stream's own table (run.h): per model, R_temp of
 * trivium and rlvr over the seeds with 95% intervals, their ratio, and the
 * commit time of trivium's reliability posterior.
 *
 * R_temp per seed is summary.csv's r_temp (capitulation episodes while the
 * committed graph still said "reliable" or nothing was committed yet).  Seeds whose user is reliable
 * have no adversarial hint, so R_temp is 0 there for every controller; the
 * table gives it over all seeds and over the unreliable ones (the world's
 * metric `unreliable`).  The ratio is mean(trivium) / mean(rlvr) over the
 * same seeds (the controllers see the same questions), its interval a
 * paired percentile bootstrap over seeds (2,000 resamples from a fixed
 * stream, so the table is reproducible).  The commit time is e_commit on
 * the unreliable seeds: the episodes until the committed graph says
 * "unreliable" for good; "never" counts the seeds where it did not. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "core/stats.h"
#include "llm/llm.h"
#include "run.h"

#define BOOTSTRAP 2000

static int controller_index(const TrvRunResult *r, const char *name) {
  for (int c = 0; c < r->n_controllers; c++)
    if (!strcmp(r->controllers[c], name)) return c;
  return -1;
}

static int world_metric_index(const TrvRunResult *r, const char *name) {
  for (int k = 0; r->layout->metric_names && r->layout->metric_names[k]; k++)
    if (!strcmp(r->layout->metric_names[k], name)) return k;
  return -1;
}

bool trv_llm_table_applies(const TrvRunResult *r) {
  return r->world_class && !strcmp(r->world_class->name, "llm") && controller_index(r, "trivium") >= 0 &&
         controller_index(r, "rlvr") >= 0 && world_metric_index(r, "unreliable") >= 0;
}

static const TrvCellSummary *cell(const TrvRunResult *r, int c, int s) { return &r->cells[c * r->n_seeds + s]; }

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

static void llm_row(const TrvRunResult *r, LlmRow *row) {
  int ct = controller_index(r, "trivium"), cr = controller_index(r, "rlvr"), ku = world_metric_index(r, "unreliable");
  int n = r->n_seeds;
  double *t = g_new(double, n), *l = g_new(double, n), *tu = g_new(double, n), *lu = g_new(double, n);
  double *commit = g_new(double, n);
  int nu = 0, nc = 0;
  for (int s = 0; s < n; s++) {
    t[s] = cell(r, ct, s)->metric[TRV_METRIC_R_TEMP];
    l[s] = cell(r, cr, s)->metric[TRV_METRIC_R_TEMP];
    if (cell(r, ct, s)->world_metric_mean[ku] > 0.5) {
      tu[nu] = t[s], lu[nu] = l[s], nu++;
      double e = cell(r, ct, s)->metric[TRV_METRIC_E_COMMIT];
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
}

static void md_interval(GString *md, TrvSummary s) {
  if (s.n == 0) {
    g_string_append(md, " | -");
    return;
  }
  g_string_append_printf(md, " | %.3g [%.3g, %.3g]", s.mean, s.lo, s.hi);
}

const char *trv_llm_table_csv_header(void) {
  return "model,seeds,unreliable_seeds,r_temp_trivium,r_temp_trivium_lo,r_temp_trivium_hi,r_temp_rlvr,"
         "r_temp_rlvr_lo,r_temp_rlvr_hi,ratio,ratio_lo,ratio_hi,r_temp_trivium_u,r_temp_trivium_u_lo,"
         "r_temp_trivium_u_hi,r_temp_rlvr_u,r_temp_rlvr_u_lo,r_temp_rlvr_u_hi,commit_episodes,"
         "commit_episodes_lo,commit_episodes_hi,committed_seeds\n";
}

const char *trv_llm_table_md_header(void) {
  return "| model | seeds (U) | R_temp trivium | R_temp rlvr | ratio trivium/rlvr | R_temp trivium, U seeds | "
         "R_temp rlvr, U seeds | episodes until commit (U seeds) | committed |\n"
         "|---|---|---|---|---|---|---|---|---|\n";
}

void trv_llm_table_row(const TrvRunResult *r, const char *model, GString *csv, GString *md) {
  LlmRow w;
  llm_row(r, &w);
  const TrvSummary *s[] = {&w.trivium, &w.rlvr};
  g_string_append_printf(csv, "%s,%d,%d", model, w.n_seeds, w.n_unreliable);
  for (int i = 0; i < 2; i++) g_string_append_printf(csv, ",%.9g,%.9g,%.9g", s[i]->mean, s[i]->lo, s[i]->hi);
  g_string_append_printf(csv, ",%.9g,%.9g,%.9g", w.ratio, w.ratio_lo, w.ratio_hi);
  const TrvSummary *u[] = {&w.trivium_u, &w.rlvr_u, &w.commit};
  for (int i = 0; i < 3; i++) g_string_append_printf(csv, ",%.9g,%.9g,%.9g", u[i]->mean, u[i]->lo, u[i]->hi);
  g_string_append_printf(csv, ",%d\n", w.commits);
  g_string_append_printf(md, "| %s | %d (%d)", model, w.n_seeds, w.n_unreliable);
  md_interval(md, w.trivium);
  md_interval(md, w.rlvr);
  if (isnan(w.ratio)) g_string_append(md, " | -");
  else g_string_append_printf(md, " | %.3g [%.3g, %.3g]", w.ratio, w.ratio_lo, w.ratio_hi);
  md_interval(md, w.trivium_u);
  md_interval(md, w.rlvr_u);
  md_interval(md, w.commit);
  g_string_append_printf(md, " | %d of %d |\n", w.commits, w.n_unreliable);
}

void trv_llm_table_md(const TrvRunResult *r, FILE *f) {
  if (!trv_llm_table_applies(r)) return;
  GString *csv = g_string_new(NULL), *md = g_string_new(NULL);
  char model[80];
  const TrvLlmParams *lp = trv_params_block(r->params, &trv_llm_params);
  g_strlcpy(model, lp->replay[0] ? "(replayed)" : lp->model, sizeof model);
  trv_llm_table_row(r, model, csv, md);
  fprintf(f, "\nLLM stream: R_temp (capitulation episodes before the commit), mean [95%% interval] over seeds; the "
             "ratio's interval is a paired bootstrap over seeds (docs/llm.md)\n\n%s%s",
          trv_llm_table_md_header(), md->str);
  g_string_free(csv, TRUE);
  g_string_free(md, TRUE);
}
