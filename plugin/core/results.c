/* results.c - episodes.csv lines and the per-cell summary.  See results.h.
 * The metric table here is the one summary.csv, summary.md, the sweep
 * tables and trivium/results.h name. */
#include "results.h"

#include <math.h>
#include <string.h>

const char *const trv_phase_names[] = {"init", "recovery", "stationary"};

static const struct {
  const char *name, *doc;
} metrics[TRV_METRIC_COUNT] = {
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
    {"p_f", "due commits whose records are not in the committed log / due commits (one per agent and episode)"},
    {"sim_time", "simulated seconds at the end of the run"},
    {"t_id", "simulated seconds to identification: end of the first episode from which the MAP stays right up to "
             "the first change-point (or the end)"},
    {"e_id", "episodes to identification (the episode count of t_id)"},
    {"uncommitted_episodes", "episodes in which no agent's records were committed (every due commit failed)"},
    {"t_task", "simulated seconds until the dispatch stays right: end of the first episode from which R_out is 0 up "
               "to the first change-point (or the end)"},
    {"e_task", "episodes until the dispatch stays right (the episode count of t_task)"},
};

const char *trivium_metric_name(TrvMetric m) { return m >= 0 && m < TRV_METRIC_COUNT ? metrics[m].name : NULL; }
const char *trivium_metric_doc(TrvMetric m) { return m >= 0 && m < TRV_METRIC_COUNT ? metrics[m].doc : NULL; }

int trivium_metric_lookup(const char *name) {
  for (int k = 0; name && k < TRV_METRIC_COUNT; k++)
    if (!strcmp(metrics[k].name, name)) return k;
  return -1;
}

TrvPhase trv_phase_of(const TrvCellLayout *l, int e) {
  if (e < TRV_INIT_EPISODES) return TRV_PHASE_INIT;
  for (int i = 0; i < l->n_change_points; i++)
    if (e >= l->change_points[i] && e < l->change_points[i] + TRV_RECOVERY_EPISODES) return TRV_PHASE_RECOVERY;
  return TRV_PHASE_STATIONARY;
}

/* ---- episodes.csv -------------------------------------------------------- */

static void bits(char *out, uint64_t mask, int n) {
  for (int j = 0; j < n; j++) out[j] = (mask >> j) & 1 ? '1' : '0';
  out[n] = 0;
}

/* Column-safe component name: "C->X" -> "C_X". */
static void column_name(GString *out, const char *comp) {
  for (const char *p = comp; *p; p++) {
    if (*p == '-' && p[1] == '>') {
      g_string_append_c(out, '_');
      p++;
    } else {
      g_string_append_c(out, g_ascii_isalnum(*p) || *p == '_' ? *p : '_');
    }
  }
}

void trv_results_csv_header(GString *out, const TrvCellLayout *l) {
  int nc = l->cand->n_components;
  g_string_append(out, "seed,controller,episode,phase,posterior_exposure,committed_exposure,truth,map,ghat");
  for (int j = 0; j < nc; j++) {
    g_string_append(out, ",err_");
    column_name(out, l->cand->components[j].name);
  }
  for (int j = 0; j < nc; j++) {
    g_string_append(out, ",p_");
    column_name(out, l->cand->components[j].name);
  }
  g_string_append(out, ",entropy_bits,budget,probes,gated_steps,reward,r_out,r_epi,r_hat_epi,r_temp,tau,committed,"
                       "lrcp_status,lrcp_trace,detector_stat,alarm,resets,commits,commit_attempts,commit_failures,"
                       "records_lost,sim_time,soft_score");
  for (int k = 0; l->metric_names && l->metric_names[k]; k++) g_string_append_printf(out, ",%s", l->metric_names[k]);
  g_string_append_c(out, '\n');
}

void trv_results_csv_row(GString *out, const TrvCellLayout *l, const TrvEpisodeRow *w) {
  static const char *const lrcp_names[] = {"none", "converged", "flagged"};
  int nc = l->cand->n_components;
  char tb[65], mb[65], gb[65];
  bits(tb, w->truth, nc);
  bits(mb, w->map, nc);
  bits(gb, w->ghat, nc);
  g_string_append_printf(out, "%d,%s,%d,%s,%d,%d,%s,%s,%s", w->seed, l->controller, w->episode,
                         trv_phase_names[trv_phase_of(l, w->episode)], w->posterior_exposure, w->committed_exposure, tb,
                         mb, gb);
  for (int j = 0; j < nc; j++) g_string_append_printf(out, ",%d", (int)(((w->truth ^ w->map) >> j) & 1));
  for (int j = 0; j < nc; j++) g_string_append_printf(out, ",%.9g", w->p[j]);
  g_string_append_printf(out, ",%.9g,%d,%d,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%d,%d,%s,", w->entropy_bits, w->budget,
                         w->probes, w->gated_steps, w->reward, w->r_out, w->r_epi, w->r_hat_epi, w->r_temp, w->tau,
                         w->committed, lrcp_names[w->lrcp_status]);
  for (int k = 0; k < w->lrcp_n; k++) g_string_append_printf(out, "%s%d", k ? ";" : "", w->lrcp_eps[k]);
  g_string_append_printf(out, ",%.9g,%d,%d,%d,%d,%d,%d,%.9g,%.9g", w->detector_stat, w->alarm, w->resets, w->commits,
                         w->commit_attempts, w->commit_failures, w->records_lost, w->sim_time, w->soft_score);
  for (int k = 0; l->metric_names && l->metric_names[k]; k++)
    g_string_append_printf(out, ",%.9g", k < w->n_world_metrics ? w->world_metrics[k] : NAN);
  g_string_append_c(out, '\n');
}

/* ---- the cell summary ----------------------------------------------------- */

void trv_cell_summarizer_init(TrvCellSummarizer *z, const TrvCellLayout *l) {
  memset(z, 0, sizeof *z);
  z->horizon = l->n_change_points ? l->change_points[0] : l->episodes;
  z->last_exposed = z->last_regret = -1;
  z->id_time = z->task_time = NAN;
  for (int k = 0; l->metric_names && l->metric_names[k] && k < TRV_WORLD_METRICS_MAX; k++) z->sum.n_world_metrics++;
  z->sum.n_components = l->cand->n_components;
}

void trv_cell_summarizer_add(TrvCellSummarizer *z, const TrvCellLayout *l, const TrvEpisodeRow *w) {
  double *m = z->sum.metric;
  g_assert(w->episode == z->seen); /* rows in episode order */
  z->seen++;
  TrvPhase ph = trv_phase_of(l, w->episode);
  m[TRV_METRIC_EXPOSURE_INIT + ph] += w->posterior_exposure;
  m[TRV_METRIC_EXPOSURE_TOTAL] += w->posterior_exposure;
  m[TRV_METRIC_COMMITTED_EXPOSURE] += w->committed_exposure;
  m[TRV_METRIC_R_OUT] += w->r_out;
  int stride = (l->episodes + TRV_CURVE_POINTS - 1) / TRV_CURVE_POINTS;
  if (((w->episode + 1) % stride == 0 || w->episode + 1 == l->episodes) && z->sum.n_curve < TRV_CURVE_POINTS) {
    z->sum.curve_episode[z->sum.n_curve] = w->episode + 1;
    z->sum.curve_r_out[z->sum.n_curve++] = m[TRV_METRIC_R_OUT];
  }
  m[TRV_METRIC_R_EPI] += w->r_epi;
  m[TRV_METRIC_R_HAT_EPI] += w->r_hat_epi;
  m[TRV_METRIC_R_TEMP] += w->r_temp;
  m[TRV_METRIC_PROBES] += w->probes;
  m[TRV_METRIC_SOFT_SCORE] += w->soft_score / l->episodes;
  z->attempts += w->commits;
  z->failures += w->commit_failures;
  if (w->commits > 0 && w->commit_failures == w->commits) m[TRV_METRIC_UNCOMMITTED_EPISODES] += 1;
  m[TRV_METRIC_SIM_TIME] = w->sim_time;
  for (int k = 0; k < TRV_WORLD_METRICS_MAX; k++) z->world_sum[k] += w->world_metrics[k];
  for (int j = 0; j < l->cand->n_components; j++) z->sum.final_p[j] = w->p[j];
  /* identification: the first episode from which the MAP stays right until
   * the first change-point (or the end of the run) */
  if (w->episode < z->horizon) {
    if (w->posterior_exposure) {
      z->last_exposed = w->episode;
      z->id_time = NAN;
    } else if (w->episode == z->last_exposed + 1) {
      z->id_time = w->sim_time;
    }
    /* the same for the dispatch: the first episode from which R_out stays 0 */
    if (w->r_out != 0) {
      z->last_regret = w->episode;
      z->task_time = NAN;
    } else if (w->episode == z->last_regret + 1) {
      z->task_time = w->sim_time;
    }
  }
  if (!w->alarm) return;
  m[TRV_METRIC_ALARMS] += 1;
  bool near = false;
  for (int k = 0; k < l->n_change_points; k++) {
    int cp = l->change_points[k];
    if (w->episode >= cp && w->episode < cp + TRV_RECOVERY_EPISODES) {
      near = true;
      if (!z->detected[k]) {
        z->detected[k] = true;
        m[TRV_METRIC_DETECTIONS] += 1;
        z->delay_sum += w->episode - cp;
        z->delay_n++;
      }
    }
  }
  if (!near) m[TRV_METRIC_FALSE_ALARMS] += 1;
}

void trv_cell_summarizer_finish(TrvCellSummarizer *z, const TrvCellLayout *l, TrvCellSummary *out) {
  (void)l;
  double *m = z->sum.metric;
  m[TRV_METRIC_DETECTION_DELAY] = z->delay_n ? z->delay_sum / z->delay_n : NAN;
  int horizon = z->horizon < z->seen ? z->horizon : z->seen;
  m[TRV_METRIC_T_ID] = m[TRV_METRIC_E_ID] = NAN;
  if (z->last_exposed + 1 < horizon) {
    m[TRV_METRIC_T_ID] = z->id_time;
    m[TRV_METRIC_E_ID] = z->last_exposed + 2;
  }
  m[TRV_METRIC_T_TASK] = m[TRV_METRIC_E_TASK] = NAN;
  if (z->last_regret + 1 < horizon) {
    m[TRV_METRIC_T_TASK] = z->task_time;
    m[TRV_METRIC_E_TASK] = z->last_regret + 2;
  }
  m[TRV_METRIC_P_F] = z->attempts > 0 ? z->failures / z->attempts : 0.0;
  z->sum.episodes = z->seen;
  for (int k = 0; k < z->sum.n_world_metrics; k++) z->sum.world_metric_mean[k] = z->seen ? z->world_sum[k] / z->seen : NAN;
  *out = z->sum;
}
