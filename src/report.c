/* report.c - the files and the table a run produces.  See report.h.
 * Uncertainty is across seeds (SPEC 3.8): each metric is first reduced to
 * one number per (controller, seed), then summarised by trv_summarize. */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <config.h>

const char *const trv_phase_names[] = {"init", "recovery", "stationary"};

#define INIT_EPISODES 50
#define RECOVERY_EPISODES 50

TrvPhase trv_phase_of(const TrvRunResult *r, int e) {
  if (e < INIT_EPISODES) return TRV_PHASE_INIT;
  for (int i = 0; i < r->n_change_points; i++)
    if (e >= r->change_points[i] && e < r->change_points[i] + RECOVERY_EPISODES) return TRV_PHASE_RECOVERY;
  return TRV_PHASE_STATIONARY;
}

static GArray *cell_rows(const TrvRunResult *r, int c, int s) { return r->rows[c * r->n_seeds + s]; }

static void bits(char *out, uint64_t mask, int n) {
  for (int j = 0; j < n; j++) out[j] = (mask >> j) & 1 ? '1' : '0';
  out[n] = 0;
}

/* Column-safe component name: "C->X" -> "C_X". */
static char *column_name(const char *comp) {
  GString *s = g_string_new(NULL);
  for (const char *p = comp; *p; p++) {
    if (*p == '-' && p[1] == '>') {
      g_string_append_c(s, '_');
      p++;
    } else if (g_ascii_isalnum(*p) || *p == '_') {
      g_string_append_c(s, *p);
    } else {
      g_string_append_c(s, '_');
    }
  }
  return g_string_free(s, FALSE);
}

static FILE *open_out(const char *path, GError **error) {
  FILE *f = fopen(path, "w");
  if (!f) g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: cannot write (%s)", path, g_strerror(errno));
  return f;
}

static bool close_out(FILE *f, const char *path, GError **error) {
  if (ferror(f) | (fclose(f) != 0)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: write failed", path);
    return false;
  }
  return true;
}

bool trv_write_episodes_csv(const TrvRunResult *r, const char *path, GError **error) {
  FILE *f = open_out(path, error);
  if (!f) return false;
  int nc = r->cand->n_components;
  fprintf(f, "seed,controller,episode,phase,posterior_exposure,committed_exposure,truth,map,ghat");
  for (int j = 0; j < nc; j++) {
    char *n = column_name(r->cand->components[j].name);
    fprintf(f, ",err_%s", n);
    g_free(n);
  }
  for (int j = 0; j < nc; j++) {
    char *n = column_name(r->cand->components[j].name);
    fprintf(f, ",p_%s", n);
    g_free(n);
  }
  fprintf(f, ",entropy_bits,budget,probes,gated_steps,reward,r_out,r_epi,r_hat_epi,r_temp,tau,committed,"
             "lrcp_status,lrcp_trace,detector_stat,alarm,resets,commits,commit_attempts,commit_failures,records_lost,"
             "sim_time,"
             "soft_score");
  const char *const *wm = r->world_class->metric_names;
  for (int k = 0; wm && wm[k]; k++) fprintf(f, ",%s", wm[k]);
  fprintf(f, "\n");
  static const char *const lrcp_names[] = {"none", "converged", "flagged"};
  char tb[65], mb[65], gb[65];
  for (int c = 0; c < r->n_controllers; c++)
    for (int s = 0; s < r->n_seeds; s++) {
      GArray *rows = cell_rows(r, c, s);
      for (guint i = 0; i < rows->len; i++) {
        const TrvEpisodeRow *w = &g_array_index(rows, TrvEpisodeRow, i);
        bits(tb, w->truth, nc);
        bits(mb, w->map, nc);
        bits(gb, w->ghat, nc);
        fprintf(f, "%d,%s,%d,%s,%d,%d,%s,%s,%s", w->seed, r->controllers[c], w->episode,
                trv_phase_names[trv_phase_of(r, w->episode)], w->posterior_exposure, w->committed_exposure, tb, mb, gb);
        for (int j = 0; j < nc; j++) fprintf(f, ",%d", (int)(((w->truth ^ w->map) >> j) & 1));
        for (int j = 0; j < nc; j++) fprintf(f, ",%.9g", w->p[j]);
        fprintf(f, ",%.9g,%d,%d,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%d,%d,%s,", w->entropy_bits, w->budget, w->probes,
                w->gated_steps, w->reward, w->r_out, w->r_epi, w->r_hat_epi, w->r_temp, w->tau, w->committed,
                lrcp_names[w->lrcp_status]);
        for (int k = 0; k < w->lrcp_n; k++) fprintf(f, "%s%d", k ? ";" : "", w->lrcp_eps[k]);
        fprintf(f, ",%.9g,%d,%d,%d,%d,%d,%d,%.9g,%.9g", w->detector_stat, w->alarm, w->resets, w->commits,
                w->commit_attempts, w->commit_failures, w->records_lost, w->sim_time, w->soft_score);
        for (int k = 0; wm && wm[k]; k++) fprintf(f, ",%.9g", k < w->n_world_metrics ? w->world_metrics[k] : NAN);
        fprintf(f, "\n");
      }
    }
  return close_out(f, path, error);
}

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
    else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
    else fputc(ch, f);
  }
  fputc('"', f);
}

bool trv_write_run_json(const TrvRunResult *r, const char *path, GError **error) {
  FILE *f = open_out(path, error);
  if (!f) return false;
  fprintf(f, "{\n  \"experiment\": ");
  json_string(f, r->experiment);
  fprintf(f, ",\n  \"world\": ");
  json_string(f, r->world_class->name);
  fprintf(f, ",\n  \"platform\": ");
  json_string(f, r->platform);
  fprintf(f, ",\n  \"controllers\": [");
  for (int c = 0; c < r->n_controllers; c++) {
    fprintf(f, "%s", c ? ", " : "");
    json_string(f, r->controllers[c]);
  }
  fprintf(f, "],\n  \"seeds\": [");
  for (int s = 0; s < r->n_seeds; s++) fprintf(f, "%s%d", s ? ", " : "", r->seeds[s]);
  fprintf(f, "],\n  \"change_points\": [");
  for (int i = 0; i < r->n_change_points; i++) fprintf(f, "%s%d", i ? ", " : "", r->change_points[i]);
  fprintf(f, "],\n  \"parameters\": {");
  size_t n;
  const TrvParamSpec *specs = trv_param_specs(&n);
  for (size_t i = 0; i < n; i++) {
    char *v = trv_params_format(r->params, &specs[i]);
    fprintf(f, "%s\n    ", i ? "," : "");
    json_string(f, specs[i].key);
    fprintf(f, ": ");
    if (specs[i].type == TRV_PARAM_ENUM) json_string(f, v);
    else fprintf(f, "%s", v);
    g_free(v);
  }
  fprintf(f, "\n  },\n  \"versions\": {\"trivium\": \"%s\", \"git\": \"%s\", \"glib\": \"%u.%u.%u\"},\n",
          PACKAGE_VERSION, TRV_GIT_REVISION, glib_major_version, glib_minor_version, glib_micro_version);
  fprintf(f, "  \"command\": [");
  for (int i = 0; i < r->argc; i++) {
    fprintf(f, "%s", i ? ", " : "");
    json_string(f, r->argv[i]);
  }
  fprintf(f, "]\n}\n");
  return close_out(f, path, error);
}

/* ---- per-seed metrics --------------------------------------------------- */

typedef struct {
  const char *name;
  const char *doc;
} MetricInfo;

enum {
  M_EXP_INIT, M_EXP_RECOVERY, M_EXP_STATIONARY, M_EXP_TOTAL, M_COMMITTED, M_R_OUT, M_R_EPI, M_R_HAT_EPI, M_R_TEMP,
  M_PROBES, M_ALARMS, M_DETECTIONS, M_FALSE_ALARMS, M_DELAY, M_SOFT, M_P_FAIL, M_SIM_TIME, M_T_ID, M_E_ID, M_COUNT
};

static const MetricInfo metrics[M_COUNT] = {
    {"exposure_init", "episodes with MAP != truth, e < 50"},
    {"exposure_recovery", "episodes with MAP != truth within 50 episodes after a change-point"},
    {"exposure_stationary", "episodes with MAP != truth elsewhere"},
    {"exposure_total", "episodes with MAP != truth"},
    {"committed_exposure_total", "episodes with G_hat != truth"},
    {"r_out", "outcome regret, summed over episodes"},
    {"r_epi", "epistemic regret -log P(G_true), summed over steps"},
    {"r_hat_epi", "operational epistemic tally -log P(G_hat), summed over steps"},
    {"r_temp", "temporal regret, summed over episodes"},
    {"probes", "probes spent"},
    {"alarms", "detector alarms"},
    {"detections", "change-points followed by an alarm within 50 episodes"},
    {"false_alarms", "alarms not within 50 episodes after a change-point"},
    {"detection_delay", "mean episodes from change-point to its first alarm (detected ones)"},
    {"soft_score", "legacy soft score 1 - acc, mean over episodes"},
    {"p_f", "commit operations never acknowledged by a majority / commit operations"},
    {"sim_time", "simulated seconds at the end of the run"},
    {"t_id", "simulated seconds to identification: end of the first episode from which the MAP stays right up to "
             "the first change-point (or the end)"},
    {"e_id", "episodes to identification (the episode count of t_id)"},
};

static void seed_metrics(const TrvRunResult *r, GArray *rows, double *m) {
  memset(m, 0, sizeof(double) * M_COUNT);
  double attempts = 0, failures = 0;
  bool detected[1024] = {false};
  double delay_sum = 0;
  int delay_n = 0;
  for (guint i = 0; i < rows->len; i++) {
    const TrvEpisodeRow *w = &g_array_index(rows, TrvEpisodeRow, i);
    TrvPhase ph = trv_phase_of(r, w->episode);
    m[M_EXP_INIT + ph] += w->posterior_exposure;
    m[M_EXP_TOTAL] += w->posterior_exposure;
    m[M_COMMITTED] += w->committed_exposure;
    m[M_R_OUT] += w->r_out;
    m[M_R_EPI] += w->r_epi;
    m[M_R_HAT_EPI] += w->r_hat_epi;
    m[M_R_TEMP] += w->r_temp;
    m[M_PROBES] += w->probes;
    m[M_SOFT] += w->soft_score / rows->len;
    attempts += w->commits;
    failures += w->commit_failures;
    m[M_SIM_TIME] = w->sim_time;
    if (!w->alarm) continue;
    m[M_ALARMS] += 1;
    bool near = false;
    for (int k = 0; k < r->n_change_points; k++) {
      int cp = r->change_points[k];
      if (w->episode >= cp && w->episode < cp + RECOVERY_EPISODES) {
        near = true;
        if (!detected[k]) {
          detected[k] = true;
          m[M_DETECTIONS] += 1;
          delay_sum += w->episode - cp;
          delay_n++;
        }
      }
    }
    if (!near) m[M_FALSE_ALARMS] += 1;
  }
  m[M_DELAY] = delay_n ? delay_sum / delay_n : NAN;
  /* identification: the first episode from which the MAP stays right until
   * the first change-point (or the end of the run) */
  int horizon = r->n_change_points ? r->change_points[0] : (int)rows->len;
  if (horizon > (int)rows->len) horizon = (int)rows->len;
  m[M_T_ID] = m[M_E_ID] = NAN;
  for (int e = horizon - 1; e >= 0; e--) {
    const TrvEpisodeRow *w = &g_array_index(rows, TrvEpisodeRow, e);
    if (w->posterior_exposure) break;
    m[M_T_ID] = w->sim_time;
    m[M_E_ID] = e + 1;
  }
  m[M_P_FAIL] = attempts > 0 ? failures / attempts : 0.0;
}

static TrvSummary summarize_metric(const TrvRunResult *r, int c, int k) {
  double *v = g_new(double, r->n_seeds), m[M_COUNT];
  size_t n = 0;
  for (int s = 0; s < r->n_seeds; s++) {
    seed_metrics(r, cell_rows(r, c, s), m);
    if (!isnan(m[k])) v[n++] = m[k];
  }
  TrvSummary sum = trv_summarize(v, n);
  g_free(v);
  return sum;
}

TrvSummary trv_run_metric(const TrvRunResult *r, int c, const char *name) {
  for (int k = 0; k < M_COUNT; k++)
    if (!strcmp(metrics[k].name, name)) return summarize_metric(r, c, k);
  g_assert_not_reached();
}

/* Final presence of component j per seed (last episode), for separation. */
static double *final_presence(const TrvRunResult *r, int c, int j) {
  double *v = g_new(double, r->n_seeds);
  for (int s = 0; s < r->n_seeds; s++) {
    GArray *rows = cell_rows(r, c, s);
    v[s] = g_array_index(rows, TrvEpisodeRow, rows->len - 1).p[j];
  }
  return v;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(const double *x, int n) {
  double *c = g_memdup2(x, sizeof(double) * n);
  qsort(c, n, sizeof(double), cmp_double);
  double m = n % 2 ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]);
  g_free(c);
  return m;
}

/* Separation table: final P(X->Y) per controller, and Mann-Whitney of the
 * first controller against each other one. */
static void separation_table(const TrvRunResult *r, FILE *f) {
  int j = -1;
  for (int k = 0; k < r->cand->n_components; k++)
    if (r->cand->components[k].observed) j = k;
  if (j < 0) return;
  fprintf(f, "\nSeparation: final P(%s) after T = %d steps, %d seeds (truth: absent)\n\n", r->cand->components[j].name,
          r->steps, r->n_seeds);
  fprintf(f, "| controller | median P | min P | max P | hard readout right (P < 0.5) |\n|---|---|---|---|---|\n");
  double *first = final_presence(r, 0, j);
  for (int c = 0; c < r->n_controllers; c++) {
    double *v = final_presence(r, c, j), lo = 1, hi = 0;
    int right = 0;
    for (int s = 0; s < r->n_seeds; s++) {
      lo = fmin(lo, v[s]);
      hi = fmax(hi, v[s]);
      right += v[s] < 0.5;
    }
    fprintf(f, "| %s | %.4g | %.4g | %.4g | %d / %d |\n", r->controllers[c], median(v, r->n_seeds), lo, hi, right,
            r->n_seeds);
    if (c > 0) {
      TrvMannWhitney mw = trv_mann_whitney(first, r->n_seeds, v, r->n_seeds);
      fprintf(f, "\nMann-Whitney U (%s vs %s, two-sided, %s): U = %g, p = %.3g\n\n", r->controllers[0],
              r->controllers[c], mw.exact ? "exact" : "normal approximation", mw.u, mw.p_value);
    }
    g_free(v);
  }
  g_free(first);
}

static void cell_fmt(char *buf, size_t n, TrvSummary s) {
  if (s.n == 0) snprintf(buf, n, "-");
  else if (fabs(s.mean) >= 1000) snprintf(buf, n, "%.0f ± %.0f", s.mean, s.sd);
  else snprintf(buf, n, "%.2f ± %.2f", s.mean, s.sd);
}

/* One row per controller: mean ± sd of each metric in cols. */
static void table_rows(const TrvRunResult *r, FILE *f, const int *cols, size_t n_cols) {
  for (int c = 0; c < r->n_controllers; c++) {
    fprintf(f, "| %s", r->controllers[c]);
    for (size_t k = 0; k < n_cols; k++) {
      char b[64];
      cell_fmt(b, sizeof b, summarize_metric(r, c, cols[k]));
      fprintf(f, " | %s", b);
    }
    fprintf(f, " |\n");
  }
}

/* Mean over the episodes of a seed of world metric k, summarised across seeds. */
static TrvSummary world_metric(const TrvRunResult *r, int c, int k) {
  double *v = g_new(double, r->n_seeds);
  for (int s = 0; s < r->n_seeds; s++) {
    GArray *rows = cell_rows(r, c, s);
    double sum = 0;
    for (guint i = 0; i < rows->len; i++) sum += g_array_index(rows, TrvEpisodeRow, i).world_metrics[k];
    v[s] = rows->len ? sum / rows->len : NAN;
  }
  TrvSummary out = trv_summarize(v, r->n_seeds);
  g_free(v);
  return out;
}

static void world_table(const TrvRunResult *r, FILE *f) {
  const char *const *wm = r->world_class->metric_names;
  if (!wm || !wm[0]) return;
  fprintf(f, "\nWorld metrics (%s), mean per episode, mean ± sd over seeds\n\n| controller", r->world_class->name);
  int n = 0;
  for (; wm[n]; n++) fprintf(f, " | %s", wm[n]);
  fprintf(f, " |\n|---");
  for (int k = 0; k < n; k++) fprintf(f, "|---");
  fprintf(f, "|\n");
  for (int c = 0; c < r->n_controllers; c++) {
    fprintf(f, "| %s", r->controllers[c]);
    for (int k = 0; k < n; k++) {
      char b[64];
      cell_fmt(b, sizeof b, world_metric(r, c, k));
      fprintf(f, " | %s", b);
    }
    fprintf(f, " |\n");
  }
}

static void main_table(const TrvRunResult *r, FILE *f) {
  fprintf(f, "Hard posterior exposure (episodes whose MAP graph differs from the truth) of %d episodes, "
             "mean ± sd over %d seeds; regrets are totals per seed\n\n", r->episodes, r->n_seeds);
  fprintf(f, "| controller | init | recovery | stationary | total | committed | R_out | R_epi | R_temp |\n");
  fprintf(f, "|---|---|---|---|---|---|---|---|---|\n");
  const int cols[] = {M_EXP_INIT, M_EXP_RECOVERY, M_EXP_STATIONARY, M_EXP_TOTAL, M_COMMITTED, M_R_OUT, M_R_EPI, M_R_TEMP};
  table_rows(r, f, cols, G_N_ELEMENTS(cols));
  fprintf(f, "\nDetectors (change-points at");
  for (int i = 0; i < r->n_change_points; i++) fprintf(f, " %d", r->change_points[i]);
  fprintf(f, "), probes, commits\n\n| controller | alarms | detections | false alarms | delay | probes | p_f |\n");
  fprintf(f, "|---|---|---|---|---|---|---|\n");
  const int cols2[] = {M_ALARMS, M_DETECTIONS, M_FALSE_ALARMS, M_DELAY, M_PROBES, M_P_FAIL};
  table_rows(r, f, cols2, G_N_ELEMENTS(cols2));
  world_table(r, f);
}

bool trv_write_summary(const TrvRunResult *r, const char *dir, FILE *out, GError **error) {
  char *path = g_build_filename(dir, "summary.csv", NULL);
  FILE *f = open_out(path, error);
  if (!f) {
    g_free(path);
    return false;
  }
  fprintf(f, "controller,metric,mean,sd,ci95_lo,ci95_hi,n_seeds\n");
  for (int c = 0; c < r->n_controllers; c++)
    for (int k = 0; k < M_COUNT; k++) {
      TrvSummary s = summarize_metric(r, c, k);
      fprintf(f, "%s,%s,%.9g,%.9g,%.9g,%.9g,%zu\n", r->controllers[c], metrics[k].name, s.mean, s.sd, s.lo, s.hi, s.n);
    }
  for (int c = 0; c < r->n_controllers; c++)
    for (int k = 0; r->world_class->metric_names && r->world_class->metric_names[k]; k++) {
      TrvSummary s = world_metric(r, c, k);
      fprintf(f, "%s,world.%s,%.9g,%.9g,%.9g,%.9g,%zu\n", r->controllers[c], r->world_class->metric_names[k], s.mean,
              s.sd, s.lo, s.hi, s.n);
    }
  bool ok = close_out(f, path, error);
  g_free(path);
  if (!ok) return false;

  path = g_build_filename(dir, "summary.md", NULL);
  f = open_out(path, error);
  if (!f) {
    g_free(path);
    return false;
  }
  fprintf(f, "# Trivium run: %s\n\n", r->experiment);
  if (r->params->variant == TRV_VARIANT_SEPARATION) separation_table(r, f);
  else main_table(r, f);
  fprintf(f, "\nIntervals: summary.csv has the 95%% t-interval of every metric across seeds.\n");
  ok = close_out(f, path, error);
  g_free(path);
  if (!ok) return false;
  if (out) {
    if (r->params->variant == TRV_VARIANT_SEPARATION) separation_table(r, out);
    else main_table(r, out);
  }
  return true;
}
