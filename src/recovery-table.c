/* recovery-table.c - what a run says about its change-points and its
 * commits (report.h): the recovery of the MAP graph and of the committed
 * graph G_hat after each change-point of the referee, the exposure in the
 * window after it, and per controller the commit times, commit lag and
 * LRCP activity.  The numbers are the cells' reductions (core/results.c,
 * TrvChangePointRecovery), summarised across seeds like every other metric
 * of summary.csv; docs/outputs.md documents each row and column. */
#include <config.h>

#include <math.h>

#include "report.h"

static const char *const recovery_names[TRV_CP_COUNT] = {"recovery_episodes", "commit_recovery_episodes", "commit_lag",
                                                         "exposure", "committed_exposure"};

const char *trv_recovery_name(TrvRecoveryMeasure m) { return recovery_names[m]; }

int trv_run_change_points(const TrvRunResult *r) {
  int n = r->n_controllers * r->n_seeds > 0 ? r->cells[0].n_change_points : 0;
  for (int i = 1; i < r->n_controllers * r->n_seeds; i++) n = MIN(n, r->cells[i].n_change_points);
  return n;
}

static double measure_of(const TrvChangePointRecovery *cp, TrvRecoveryMeasure m) {
  switch (m) {
    case TRV_CP_RECOVERY: return cp->recovery;
    case TRV_CP_COMMIT_RECOVERY: return cp->commit_recovery;
    case TRV_CP_COMMIT_LAG: return cp->commit_recovery - cp->recovery; /* NAN unless both recovered */
    case TRV_CP_EXPOSURE: return cp->exposure;
    case TRV_CP_COMMITTED_EXPOSURE: return cp->committed_exposure;
    default: g_assert_not_reached();
  }
}

TrvSummary trv_run_recovery(const TrvRunResult *r, int c, int k, TrvRecoveryMeasure m) {
  double *v = g_new(double, MAX(r->n_seeds, 1));
  size_t n = 0;
  for (int s = 0; s < r->n_seeds; s++) {
    double x = measure_of(&r->cells[c * r->n_seeds + s].change_point[k], m);
    if (!isnan(x)) v[n++] = x;
  }
  TrvSummary sum = trv_summarize(v, n);
  g_free(v);
  return sum;
}

void trv_recovery_csv(const TrvRunResult *r, FILE *f) {
  int n = trv_run_change_points(r);
  for (int c = 0; c < r->n_controllers; c++)
    for (int k = 0; k < n; k++)
      for (int m = 0; m < TRV_CP_COUNT; m++) {
        TrvSummary s = trv_run_recovery(r, c, k, m);
        fprintf(f, "%s,recovery.%d.%s,%.9g,%.9g,%.9g,%.9g,%zu\n", r->controllers[c],
                r->cells[0].change_point[k].change_point, recovery_names[m], s.mean, s.sd, s.lo, s.hi, s.n);
      }
}

static void cell(FILE *f, TrvSummary s, int metric) {
  char b[64];
  trv_format_summary(b, sizeof b, s, metric);
  fprintf(f, " | %s", b);
}

void trv_recovery_md(const TrvRunResult *r, FILE *f) {
  fprintf(
      f,
      "\nCommits and local repair: e_id/t_id (MAP) and e_commit/t_commit (G_hat) until the graph stays right "
      "up to the first change-point; commit lag, LRCP calls, repairs per call and eps_k/eps_0 per call\n\n"
      "| controller | e_id | t_id | e_commit | t_commit | committed exposure | commit lag | LRCP calls | "
      "flagged | repairs per call | eps_k/eps_0 | records lost |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  static const int cols[] = {TRV_METRIC_E_ID,
                             TRV_METRIC_T_ID,
                             TRV_METRIC_E_COMMIT,
                             TRV_METRIC_T_COMMIT,
                             TRV_METRIC_COMMITTED_EXPOSURE,
                             TRV_METRIC_COMMIT_LAG,
                             TRV_METRIC_LRCP_CALLS,
                             TRV_METRIC_LRCP_FLAGGED,
                             TRV_METRIC_LRCP_ITERATIONS,
                             TRV_METRIC_LRCP_RESIDUAL_RATIO,
                             TRV_METRIC_RECORDS_LOST};
  for (int c = 0; c < r->n_controllers; c++) {
    fprintf(f, "| %s", r->controllers[c]);
    for (size_t k = 0; k < G_N_ELEMENTS(cols); k++)
      cell(f, trv_run_metric(r, c, trivium_metric_name(cols[k])), cols[k]);
    fprintf(f, " |\n");
  }
  int n = trv_run_change_points(r);
  if (n == 0) return;
  fprintf(f,
          "\nRecovery per change-point: episodes from the change-point until the graph is right for %d episodes "
          "in a row (before the next change-point), over the seeds that recover; exposure in the %d episodes "
          "after it (to the next change-point)\n\n| change-point | controller | seeds recovered (MAP, G_hat) | MAP "
          "recovery | "
          "G_hat recovery | commit lag | exposure | committed exposure |\n|---|---|---|---|---|---|---|---|\n",
          TRV_STAY_EPISODES, TRV_RECOVERY_WINDOW);
  for (int k = 0; k < n; k++)
    for (int c = 0; c < r->n_controllers; c++) {
      TrvSummary rec = trv_run_recovery(r, c, k, TRV_CP_RECOVERY);
      fprintf(f, "| %d | %s | %zu, %zu / %d", r->cells[0].change_point[k].change_point, r->controllers[c], rec.n,
              trv_run_recovery(r, c, k, TRV_CP_COMMIT_RECOVERY).n, r->n_seeds);
      cell(f, rec, -1);
      for (int m = TRV_CP_COMMIT_RECOVERY; m < TRV_CP_COUNT; m++) cell(f, trv_run_recovery(r, c, k, m), -1);
      fprintf(f, " |\n");
    }
}
