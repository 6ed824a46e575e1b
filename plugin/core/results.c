/* results.c - episodes.csv lines and the per-cell summary.  See results.h.
 * The metric table here is the one summary.csv, summary.md, the sweep
 * tables and trivium/results.h name. */
#include "results.h"

#include "g9.h"

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
    {"r_temp", "temporal regret, summed over episodes: Delta_e T in every episode whose G_hat_e is wrong on the task "
               "or was put there by no commit"},
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
    {"t_commit", "simulated seconds until the committed graph G_hat stays right: end of the first episode from which "
                 "G_hat is right up to the first change-point (or the end)"},
    {"e_commit", "episodes until G_hat stays right (the episode count of t_commit)"},
    {"recovery_episodes", "mean over the change-points of the episodes from a change-point until the MAP is right "
                          "for " G_STRINGIFY(TRV_STAY_EPISODES) " episodes in a row (recovered change-points only)"},
    {"commit_lag", "mean over the change-points of G_hat's recovery minus the MAP's (change-points where both "
                   "recover)"},
    {"lrcp_calls", "episodes in which LRCP found a violation and ran (lrcp_status converged or flagged)"},
    {"lrcp_flagged", "LRCP calls that stopped without contraction (lrcp_status flagged)"},
    {"lrcp_iterations", "mean repairs per LRCP call (length of lrcp_trace minus 1)"},
    {"lrcp_residual_ratio", "mean over LRCP calls of the last residual count over the first (eps_k / eps_0)"},
    {"records_lost", "records that never reached the log (best-effort mode), summed over episodes"},
    {"detector_closes", "episodes the failure detector closed before every agent reached had reported"},
    {"time_lost", "simulated seconds the controller waited in those episodes after the last report came, summed"},
    {"steps_late", "agents' steps that outlasted their duration on the world's clock (work or barrier), summed"},
    {"bits_lost", "expected information gain, at plan time, of the planned probes whose records never reached the log, "
                  "in bits, summed"},
    {"r_epi_step", "epistemic log-loss per step, each component's probability floored at 1e-15 (at most 34.5 nats a "
                   "component), mean over episodes"},
    {"r_temp_belief",
     "temporal regret with tau_e from the in-episode belief (its first confident, right point), summed"},
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
  g_string_append(
      out,
      ",entropy_bits,budget,probes,gated_steps,reward,r_out,r_epi,r_hat_epi,r_temp,tau,r_epi_step,"
      "r_temp_belief,tau_belief,committed,"
      "lrcp_status,lrcp_trace,detector_stat,alarm,resets,commits,commit_attempts,commit_failures,"
      "records_lost,detector_closed,agents_missing,wait_lost,detector_timeout,steps_late,bits_lost,committed_reward,"
      "sim_time,soft_score");
  for (int k = 0; l->metric_names && l->metric_names[k]; k++) g_string_append_printf(out, ",%s", l->metric_names[k]);
  g_string_append_c(out, '\n');
}

/* A row is built in place: integers by hand, doubles by trv_format_g9
 * (printf's %.9g, g9.h), no formatted append per field. */
static void put_c(GString *out, char c) { g_string_append_c(out, c); }

static void put_s(GString *out, const char *s) { g_string_append(out, s); }

static void put_d(GString *out, int v) {
  char buf[16], *p = buf + sizeof buf;
  unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
  do *--p = (char)('0' + u % 10);
  while ((u /= 10) != 0);
  if (v < 0) *--p = '-';
  g_string_append_len(out, p, buf + sizeof buf - p);
}

static void put_g(GString *out, double v) {
  char buf[TRV_G9_BUF];
  int n = trv_format_g9(buf, v);
  g_string_append_len(out, buf, n);
}

void trv_results_csv_row(GString *out, const TrvCellLayout *l, const TrvEpisodeRow *w) {
  static const char *const lrcp_names[] = {"none", "converged", "flagged"};
  int nc = l->cand->n_components;
  char tb[65], mb[65], gb[65];
  bits(tb, w->truth, nc);
  bits(mb, w->map, nc);
  bits(gb, w->ghat, nc);
  put_d(out, w->seed), put_c(out, ','), put_s(out, l->controller), put_c(out, ','), put_d(out, w->episode);
  put_c(out, ','), put_s(out, trv_phase_names[trv_phase_of(l, w->episode)]);
  put_c(out, ','), put_d(out, w->posterior_exposure), put_c(out, ','), put_d(out, w->committed_exposure);
  put_c(out, ','), put_s(out, tb), put_c(out, ','), put_s(out, mb), put_c(out, ','), put_s(out, gb);
  for (int j = 0; j < nc; j++) put_c(out, ','), put_d(out, (int)(((w->truth ^ w->map) >> j) & 1));
  for (int j = 0; j < nc; j++) put_c(out, ','), put_g(out, w->p[j]);
  put_c(out, ','), put_g(out, w->entropy_bits), put_c(out, ','), put_d(out, w->budget);
  put_c(out, ','), put_d(out, w->probes), put_c(out, ','), put_d(out, w->gated_steps);
  const double r[] = {w->reward, w->r_out, w->r_epi, w->r_hat_epi, w->r_temp};
  for (size_t k = 0; k < G_N_ELEMENTS(r); k++) put_c(out, ','), put_g(out, r[k]);
  put_c(out, ','), put_d(out, w->tau);
  put_c(out, ','), put_g(out, w->r_epi_step), put_c(out, ','), put_g(out, w->r_temp_belief);
  put_c(out, ','), put_d(out, w->tau_belief), put_c(out, ','), put_d(out, w->committed);
  put_c(out, ','), put_s(out, lrcp_names[w->lrcp_status]), put_c(out, ',');
  for (int k = 0; k < w->lrcp_n; k++) {
    if (k) put_c(out, ';');
    put_d(out, w->lrcp_eps[k]);
  }
  put_c(out, ','), put_g(out, w->detector_stat);
  const int counts[] = {w->alarm, w->resets, w->commits, w->commit_attempts, w->commit_failures, w->records_lost};
  for (size_t k = 0; k < G_N_ELEMENTS(counts); k++) put_c(out, ','), put_d(out, counts[k]);
  put_c(out, ','), put_d(out, w->detector_closed), put_c(out, ','), put_d(out, w->agents_missing);
  put_c(out, ','), put_g(out, w->wait_lost), put_c(out, ','), put_g(out, w->detector_timeout);
  put_c(out, ','), put_d(out, w->steps_late);
  put_c(out, ','), put_g(out, w->bits_lost);
  put_c(out, ','), put_g(out, w->committed_reward);
  put_c(out, ','), put_g(out, w->sim_time), put_c(out, ','), put_g(out, w->soft_score);
  for (int k = 0; l->metric_names && l->metric_names[k]; k++)
    put_c(out, ','), put_g(out, k < w->n_world_metrics ? w->world_metrics[k] : NAN);
  put_c(out, '\n');
}

/* ---- the cell summary ----------------------------------------------------- */

/* Recovery after each change-point (trivium/results.h): the segment of
 * change-point k runs to the next one, so one segment is open at a time;
 * a run of right episodes never carries over a change-point. */
static void recovery_add(TrvCellSummarizer *z, const TrvCellLayout *l, const TrvEpisodeRow *w) {
  TrvCellSummary *sum = &z->sum;
  int kept = MIN(l->n_change_points, TRV_CELL_CHANGE_POINTS);
  if (sum->n_change_points < kept && w->episode == l->change_points[sum->n_change_points]) {
    sum->change_point[sum->n_change_points++] = (TrvChangePointRecovery){w->episode, NAN, NAN, 0, 0};
    z->run_right[0] = z->run_right[1] = -1;
  }
  int k = sum->n_change_points;
  if (k == 0 || (k < l->n_change_points && w->episode >= l->change_points[k])) return; /* no segment kept open */
  TrvChangePointRecovery *r = &sum->change_point[k - 1];
  const int wrong[2] = {w->posterior_exposure, w->committed_exposure};
  double *recovered[2] = {&r->recovery, &r->commit_recovery};
  if (w->episode < r->change_point + TRV_RECOVERY_WINDOW) {
    r->exposure += wrong[0];
    r->committed_exposure += wrong[1];
  }
  for (int g = 0; g < 2; g++) {
    if (wrong[g]) {
      z->run_right[g] = -1;
      continue;
    }
    if (z->run_right[g] < 0) z->run_right[g] = w->episode;
    if (isnan(*recovered[g]) && w->episode - z->run_right[g] + 1 >= TRV_STAY_EPISODES)
      *recovered[g] = z->run_right[g] - r->change_point;
  }
}

void trv_cell_summarizer_init(TrvCellSummarizer *z, const TrvCellLayout *l) {
  memset(z, 0, sizeof *z);
  z->horizon = l->n_change_points ? l->change_points[0] : l->episodes;
  z->last_exposed = z->last_regret = z->last_uncommitted = -1;
  z->id_time = z->task_time = z->commit_time = NAN;
  z->run_right[0] = z->run_right[1] = -1;
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
  m[TRV_METRIC_R_TEMP_BELIEF] += w->r_temp_belief;
  m[TRV_METRIC_R_EPI_STEP] += w->r_epi_step / l->episodes;
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
  if (w->episode < z->horizon) {
    if (w->committed_exposure) {
      z->last_uncommitted = w->episode;
      z->commit_time = NAN;
    } else if (w->episode == z->last_uncommitted + 1) {
      z->commit_time = w->sim_time;
    }
  }
  recovery_add(z, l, w);
  m[TRV_METRIC_RECORDS_LOST] += w->records_lost;
  m[TRV_METRIC_DETECTOR_CLOSES] += w->detector_closed;
  m[TRV_METRIC_TIME_LOST] += w->wait_lost;
  m[TRV_METRIC_STEPS_LATE] += w->steps_late;
  m[TRV_METRIC_BITS_LOST] += w->bits_lost;
  if (w->lrcp_status != TRV_LRCP_NONE) {
    m[TRV_METRIC_LRCP_CALLS] += 1;
    m[TRV_METRIC_LRCP_FLAGGED] += w->lrcp_status == TRV_LRCP_FLAGGED;
    z->lrcp_iterations += w->lrcp_n > 0 ? w->lrcp_n - 1 : 0;
    if (w->lrcp_n > 0 && w->lrcp_eps[0] > 0) {
      z->lrcp_ratio_sum += (double)w->lrcp_eps[w->lrcp_n - 1] / w->lrcp_eps[0];
      z->lrcp_ratio_n++;
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
  m[TRV_METRIC_T_COMMIT] = m[TRV_METRIC_E_COMMIT] = NAN;
  if (z->last_uncommitted + 1 < horizon) {
    m[TRV_METRIC_T_COMMIT] = z->commit_time;
    m[TRV_METRIC_E_COMMIT] = z->last_uncommitted + 2;
  }
  double rec = 0, lag = 0;
  int n_rec = 0, n_lag = 0;
  for (int k = 0; k < z->sum.n_change_points; k++) {
    const TrvChangePointRecovery *r = &z->sum.change_point[k];
    if (!isnan(r->recovery)) rec += r->recovery, n_rec++;
    if (!isnan(r->recovery) && !isnan(r->commit_recovery)) lag += r->commit_recovery - r->recovery, n_lag++;
  }
  m[TRV_METRIC_RECOVERY] = n_rec ? rec / n_rec : NAN;
  m[TRV_METRIC_COMMIT_LAG] = n_lag ? lag / n_lag : NAN;
  double calls = m[TRV_METRIC_LRCP_CALLS];
  m[TRV_METRIC_LRCP_ITERATIONS] = calls > 0 ? z->lrcp_iterations / calls : NAN;
  m[TRV_METRIC_LRCP_RESIDUAL_RATIO] = z->lrcp_ratio_n ? z->lrcp_ratio_sum / z->lrcp_ratio_n : NAN;
  m[TRV_METRIC_P_F] = z->attempts > 0 ? z->failures / z->attempts : 0.0;
  z->sum.episodes = z->seen;
  for (int k = 0; k < z->sum.n_world_metrics; k++)
    z->sum.world_metric_mean[k] = z->seen ? z->world_sum[k] / z->seen : NAN;
  *out = z->sum;
}
