/* params.c - the parameter table and its parser.  See params.h. */
#include "params.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detector.h"

static const char *const slab_names[] = {"gaussian", "separated", "soft", NULL};
static const char *const track_names[] = {"hazard", "forgetting", "none", NULL};
static const char *const noise_names[] = {"known", "estimated", NULL};
static const char *const sched_names[] = {"ig", "roundrobin", "random", "parallel", NULL};
static const char *const variant_names[] = {"headline", "flips", "variance", "nonlinear", "separation", "tanh", NULL};
static const char *const urs_city_names[] = {"sf", "nyc", "sg", NULL};
static const char *const ctl_mode_names[] = {"atomic", "best-effort", NULL};
static const char *const clock_names[] = {"world", "compute", NULL};
static const char *const ctl_fsync_names[] = {"always", "group", "none", NULL};

#define I(k, f, d, lo, hi, doc) {k, TRV_PARAM_INT, offsetof(TrvParams, f), d, lo, hi, NULL, doc}
#define D(k, f, d, lo, hi, doc) {k, TRV_PARAM_DOUBLE, offsetof(TrvParams, f), d, lo, hi, NULL, doc}
#define E(k, f, d, names, doc) {k, TRV_PARAM_ENUM, offsetof(TrvParams, f), d, 0, 0, names, doc}
#define T(k, f, doc) {k, TRV_PARAM_TEXT, offsetof(TrvParams, f), 0, 0, 0, NULL, doc}

static const TrvParamSpec specs[] = {
    I("run.episodes", episodes, 500, 1, 1e7, "episodes E per seed"),
    I("run.seeds", seeds, 20, 1, 1e5, "number of seeds"),
    I("run.seed_base", seed_base, 1, 0, 2e9, "first seed; seeds are seed_base .. seed_base+seeds-1"),
    I("run.steps", steps, 50, 1, 1e6, "steps T per episode (the separation instance uses T = 500)"),
    D("posterior.pi0", pi0, 0.5, 1e-6, 1 - 1e-6, "prior presence probability P(H1)"),
    D("posterior.tau2", tau2, 1.0, 1e-9, 1e9, "slab variance tau^2"),
    D("posterior.kappa_min", kappa_min, 0.5, 0, 1e9, "separation bound: |kappa| >= kappa_min when present"),
    E("posterior.slab", slab, TRV_SLAB_SEPARATED, slab_names, "slab: gaussian N(0,tau^2), separated (truncated to |beta| >= kappa_min), or soft (separated, with a Gaussian taper of width kappa_min/8 below the bound)"),
    E("posterior.track", track, TRV_TRACK_HAZARD, track_names, "change tracking: hazard filter, forgetting factor, or none (pooled)"),
    D("posterior.hazard", hazard, 0.001, 0, 0.49, "per-episode structure-change hazard h"),
    D("posterior.lambda", lambda, 0.9, 1e-6, 1, "per-episode forgetting factor on the statistics"),
    E("posterior.noise", noise, TRV_NOISE_ESTIMATED, noise_names, "probe noise: the world's variance (known), or estimated from the residuals with it as floor and prior"),
    D("posterior.noise_df", noise_df, 10, 1e-6, 1e9, "estimated noise: weight of the world's variance, in residual degrees of freedom"),
    D("posterior.beta_a", beta_a, 1.0, 1e-6, 1e6, "Bernoulli worlds (LLM stream): a of the H1 prior theta ~ Beta(a, b) of the probe outcome rate"),
    D("posterior.beta_b", beta_b, 1.0, 1e-6, 1e6, "Bernoulli worlds (LLM stream): b of the H1 prior theta ~ Beta(a, b)"),
    D("posterior.redraw", redraw, 0.1, 0, 1, "hazard track: per-episode probability that a present effect is a fresh slab draw (1: every episode)"),
    D("budget.alpha", alpha, 1.0, 0, 1e6, "budget multiplier alpha in B_e = ceil(alpha m0 ln(max(e,w_e)+1))"),
    D("budget.m0", m0, 0, 0, 1e6, "m0 of the budget; 0 means |G_inf|"),
    D("budget.zabs", zabs, 1.0, 1e-9, 1e9, "intervention magnitude |z| of a probe (sign drawn at random)"),
    E("budget.scheduler", scheduler, TRV_SCHED_IG, sched_names, "probe scheduler of the trivium controller"),
    I("budget.probe_value", probe_value, 0, 0, 1,
      "1: an episode's probes go first to the agents whose probes carry the most information, and each agent runs "
      "its probes at its steps of highest value (worlds that declare it: URS, by the calibrated demand of the "
      "driver's cell and slot)"),
    I("budget.coalition", coalition, 1, 0, 4096,
      "most agents probing one component in one episode: 1 = disjoint assignment; more (0: m0) = coalitions, and "
      "every m0 agents (a team) bring a budget B_e"),
    D("commit.h_ent", h_ent, 0.8, 0, 1e6, "executed snapshot: commit MAP when H(P) <= h_ent bits"),
    I("lrcp.window", lrcp_window, 20, 1, 1e6, "rolling window of probes per component"),
    D("lrcp.z_max", lrcp_zmax, 3.0, 0, 1e9, "violation threshold on the standardized residual"),
    I("lrcp.radius", lrcp_radius, 1, 0, 64, "repair neighbourhood radius r"),
    D("lrcp.beta_max", lrcp_beta_max, 0.9, 0, 1e9, "flag when eps_{k+1}/eps_k exceeds beta_max"),
    E("detector.name", detector, 2, trv_detector_name_list, "drift detector of the trivium controller"),
    D("detector.mu_bar", mu_bar, 0.05, -1e9, 1e9, "ce-eig-cusum drift mu_bar (bits per episode)"),
    D("detector.h_cusum", h_cusum, 0.5, 0, 1e9, "ce-eig-cusum threshold h (bits)"),
    I("detector.rr_window", rr_window, 30, 1, 1e6, "residual-ratio window (probes)"),
    D("detector.rr_ratio", rr_ratio, 2.2, 0, 1e9, "residual-ratio threshold (times the baseline mean)"),
    D("detector.ll_delta", ll_delta, 0.5, 1e-9, 1e9, "loglik-cusum: slope shift delta tested against G_hat (use kappa_min)"),
    D("detector.ll_h", ll_h, 8.0, 0, 1e9, "loglik-cusum threshold (nats)"),
    D("detector.reset_threshold", reset_threshold, 0.25, 0, 1e9, "PartialReset: reset a component whose window excess log-loss per probe exceeds this (nats)"),
    D("gate.rho", rho, 1.0, 0, 1e9, "dispatch gate: play the safe action while R_hat_epi/t > rho (nats per step)"),
    D("reactive.sd", reactive_sd, 3.0, 0, 1e9, "reactive: rebuild after an episode reward this many standard errors below its running mean"),
    I("epistemic_reset.matched", matched, 1, 0, 1, "epistemic-reset: 1 = probe-matched budget, 0 = a probe every step"),
    E("world.variant", variant, TRV_VARIANT_HEADLINE, variant_names, "CausalBench-Seq variant"),
    I("world.flips", flips, 3, 0, 1000, "flips variant: K topology flips evenly spaced"),
    I("world.components", cb_components, 3, 3, 48,
      "CausalBench-Seq: candidate components |G_inf|; beyond C->X, C->Y, X->Y, hidden confounders C2, C3, ... each a "
      "candidate cause of X then of Y, those of even index present (a, b), the odd ones absent"),
    D("world.a", a, 1.0, -1e9, 1e9, "C -> X coefficient a"),
    D("world.b", b, 1.0, -1e9, 1e9, "C -> Y coefficient b"),
    D("world.kappa", kappa, 1.0, -1e9, 1e9, "X -> Y effect kappa when present"),
    D("world.s", s, 1.0, 1e-9, 1e9, "noise scale s"),
    D("world.s_high", s_high, 2.5, 1e-9, 1e9, "variance variant: s on episodes [E*0.3, E*0.6)"),
    D("world.nu", nu, 1.0, 0, 1e9, "nonlinear and tanh variants: coupling strength nu"),
    E("world.city", urs_city, 0, urs_city_names, "URS: the city whose calibration table (data/urs/CITY.cal) the world samples"),
    T("world.table", urs_table,
      "URS: empty for the city's shipped table (data/urs/CITY.cal); else a calibration table file (`trivium trace import`)"),
    I("world.informative", urs_informative, 15, 0, 4095, "URS: bitmask of the informative confounders among the 12 (bit j = confounder j)"),
    I("world.informative_after", urs_informative_after, 240, 0, 4095, "URS: the informative bitmask from episode world.change_at on"),
    I("world.change_at", urs_change_at, 0, 0, 1e7, "URS: episode at which the informative set changes (0 = never)"),
    D("world.effect", urs_effect, 0.5, -1e3, 1e3, "URS: log-demand effect kappa of an informative confounder (per standard deviation)"),
    I("world.grounded", urs_grounded, 1, 0, 1,
      "URS: 1 = the effects of weather (2), time of day (3) and airport (10), when informative, are the calibration "
      "table's estimates (docs/urs.md); 0 = world.effect like the others"),
    D("world.effect_floor", urs_effect_floor, 0.1, 0, 1e3,
      "URS: a table estimate smaller than this in absolute value (per standard deviation) counts as no effect"),
    D("world.load", urs_load, 3.0, 1e-3, 1e3, "URS: city-wide requests per driver per hour, averaged over the week (scales the table's rates)"),
    D("world.busyness", urs_busyness, 0.8, 0, 1e3, "URS: log-demand effect of the hidden per-episode city busyness B_e (the confounding)"),
    D("world.temperature", urs_temperature, 0, 0, 1e3,
      "URS: an idle driver's repositioning distribution over its cell and the 6 neighbours, P(c) proportional to "
      "exp((s_c / s_max - 1) / temperature), s its graph's score; 0: the best cell (greedy)"),
    I("world.accept_rings", urs_accept_rings, 2, 0, 2,
      "URS: a driver accepts a dispatch offer whose pickup is at most this many rings away and declines farther "
      "ones (2: every offer of the matching disc)"),
    T("world.instance", jssp_instance,
      "JSSP: empty for the machine stream; else a shipped instance (ft06, ft10, ft20, la01) or an OR-Library instance file"),
    I("world.machines", jssp_machines, 5, 2, 16, "JSSP stream: parallel machines M"),
    D("world.alpha_mean", jssp_alpha_mean, 1.0, -1e6, 1e6, "JSSP stream: mean intrinsic slowness; alpha_i ~ N(alpha_mean, alpha_sd^2)"),
    D("world.alpha_sd", jssp_alpha_sd, 0.3, 1e-9, 1e6, "JSSP stream: sd of the intrinsic slowness alpha_i"),
    D("world.congestion", jssp_congestion, 0.7, 0, 1e6, "JSSP stream: rho, loading of the latent congestion C on every machine"),
    D("world.machine_noise", jssp_machine_noise, 0.4, 1e-9, 1e6, "JSSP stream: s, a machine's own noise in X_i = alpha_i + rho C + s eta_i"),
    D("world.outcome_sd", jssp_outcome_sd, 0.1, 0, 1e6, "JSSP stream: sd of the outcome noise xi in Y = max_i X_i + xi"),
    D("world.slow_lo", jssp_slow_lo, 1.3, 1, 1e3, "JSSP instance: a slow machine's slowdown ~ U[slow_lo, slow_hi]"),
    D("world.slow_hi", jssp_slow_hi, 1.6, 1, 1e3, "JSSP instance: upper end of a slow machine's slowdown"),
    I("world.slow_max", jssp_slow_max, 2, 0, 32, "JSSP instance: 1..slow_max slow machines per seed (0: none)"),
    D("world.log_congestion", jssp_log_congestion, 0.5, 0, 10, "JSSP instance: durations base * s_i * exp(log_congestion C_e)"),
    D("world.reading_sd", jssp_reading_sd, 0.15, 1e-6, 10, "JSSP instance: noise of a timed operation's reading (log scale)"),
    D("world.slow_threshold", jssp_slow_threshold, 1.15, 1, 1e3, "JSSP instance: a machine is planned slow when its slowdown estimate exceeds this"),
    T("world.model", llm_model,
      "LLM stream: the model whose accuracies drive the simulated stream, by name (the table of docs/llm.md; e.g. gpt-4o)"),
    D("world.p_unreliable", llm_p_unreliable, 0.5, 0, 1, "LLM stream: probability that a stream's user is unreliable (u = U, adversarial hints); drawn once per seed"),
    T("world.replay", llm_replay,
      "LLM stream: empty to simulate the model; else a JSON Lines file of recorded episodes (docs/llm.md) read instead"),
    D("world.eps", wh_eps, 0, 0, 0.15, "Warehouse: actuator noise, sd of a robot's velocity error (m/s, per axis, redrawn every step)"),
    D("world.eta", wh_eta, 0, 0, 0.1, "Warehouse: pose observation noise, sd of a robot's observed position (m, per axis)"),
    D("world.delay", wh_delay, 1.5, 0, 10, "Warehouse: seconds a pick takes per unit of an informative cause"),
    I("world.causes", wh_causes, 7, 0, 31,
      "Warehouse: bitmask of the informative causes of pick time among congestion (1), friction (2), shelf_height (4), "
      "battery (8), charger (16)"),
    D("world.fd_step", wh_fd_step, 0.05, 1e-3, 0.15,
      "Warehouse: noise step delta of the replays that estimate L by finite differences (eps = delta, then eta = delta)"),
    E("ctl.mode", ctl_mode, TRV_CTL_MODE_ATOMIC, ctl_mode_names,
      "log commits: atomic (acknowledged, idempotent, majority of replicas) or best-effort (fire and forget)"),
    I("ctl.replicas", ctl_replicas, 1, 1, 15, "CTL replicas; a record is committed when a majority acknowledges"),
    D("ctl.timeout", ctl_timeout, 5.0, 1e-9, 1e9, "commit timeout per attempt (simulated seconds)"),
    I("ctl.retries", ctl_retries, 3, 0, 1000, "commit retries after a timeout or network error"),
    E("ctl.fsync", ctl_fsync, 2 /* TRV_CTL_FSYNC_NONE */, ctl_fsync_names,
      "log fsync policy: always (one fdatasync per record), group (one per 64 records or 10 ms), none (only at close: a process crash loses nothing, a power loss may)"),
    I("agents.count", agents, 1, 1, 4096, "dispatch agents M sharing one CTL"),
    E("sim.clock", clock, TRV_CLOCK_WORLD, clock_names,
      "simulated time: world (a step lasts the world's step duration, sim.step_seconds or its own, and its work runs "
      "inside it) or compute (a step lasts its work and messaging alone)"),
    D("sim.step_seconds", step_seconds, 0, 0, 1e6,
      "with sim.clock world: simulated seconds of one step; 0: the world's own (URS 60, Warehouse 1, CausalBench-Seq "
      "1; worlds that declare none run on their work)"),
    D("sim.step_flops", step_flops, 1e6, 0, 1e18, "work of one agent step on its host (flops)"),
    D("sim.probe_flops", probe_flops, 2e7, 0, 1e18, "extra work of one probe on the agent's host (flops)"),
    D("sim.episode_timeout", episode_timeout, 60, 1e-3, 1e9,
      "simulated seconds the controller waits at most for the agents of an episode beyond its steps' duration on the "
      "world's clock (the failure detector's cap)"),
    D("sim.detector_factor", detector_factor, 3, 1, 1e6,
      "the failure detector closes an episode after its steps' duration plus this many times the median margin beyond "
      "it of the last 15 episodes whose agents all reported, plus ctl.timeout (a margin of at most "
      "sim.episode_timeout)"),
};

void trv_params_defaults(TrvParams *p) {
  memset(p, 0, sizeof *p);
  for (size_t i = 0; i < G_N_ELEMENTS(specs); i++) {
    char *f = (char *)p + specs[i].offset;
    if (specs[i].type == TRV_PARAM_DOUBLE) *(double *)f = specs[i].def;
    else if (specs[i].type == TRV_PARAM_TEXT) *f = '\0';
    else *(int *)f = (int)specs[i].def;
  }
}

const TrvParamSpec *trv_param_specs(size_t *n) {
  *n = G_N_ELEMENTS(specs);
  return specs;
}

const TrvParamSpec *trv_param_lookup(const char *key) {
  for (size_t i = 0; i < G_N_ELEMENTS(specs); i++)
    if (!strcmp(specs[i].key, key)) return &specs[i];
  return NULL;
}

static int edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  int *row = g_new(int, lb + 1);
  for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
  for (size_t i = 1; i <= la; i++) {
    int prev = row[0];
    row[0] = (int)i;
    for (size_t j = 1; j <= lb; j++) {
      int cur = row[j];
      int sub = prev + (a[i - 1] != b[j - 1]);
      int del = row[j] + 1, ins = row[j - 1] + 1;
      row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
      prev = cur;
    }
  }
  int d = row[lb];
  g_free(row);
  return d;
}

const char *trv_params_suggest(const char *key) {
  const char *best = NULL;
  int bd = 4;
  for (size_t i = 0; i < G_N_ELEMENTS(specs); i++) {
    const char *k = specs[i].key, *dot = strchr(k, '.');
    int d = edit_distance(key, k);
    if (dot) { /* also accept a key given without its section */
      int d2 = edit_distance(key, dot + 1);
      if (d2 < d) d = d2;
    }
    if (d < bd) bd = d, best = k;
  }
  return best;
}

const char *trv_suggest(const char *word, const char *const *choices) {
  const char *best = NULL;
  int limit = (int)(strlen(word) + 1) / 2 + 1, bd = limit < 4 ? limit : 4; /* accept d < bd */
  for (size_t i = 0; choices && choices[i]; i++) {
    int d = edit_distance(word, choices[i]);
    if (d < bd) bd = d, best = choices[i];
  }
  return best;
}

bool trv_params_set(TrvParams *p, const char *key, const char *value, GError **error) {
  const TrvParamSpec *s = trv_param_lookup(key);
  if (!s) {
    const char *hint = trv_params_suggest(key);
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "unknown parameter '%s'%s%s%s (see `trivium params`)", key,
                hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
    return false;
  }
  char *f = (char *)p + s->offset;
  if (s->type == TRV_PARAM_TEXT) {
    size_t len = strlen(value);
    if (len >= TRV_PARAM_TEXT_MAX) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "parameter %s: a value of %zu bytes; expected at most %d", key, len,
                  TRV_PARAM_TEXT_MAX - 1);
      return false;
    }
    for (size_t i = 0; i < len; i++)
      if ((unsigned char)value[i] < 0x20 || value[i] == 0x7f) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "parameter %s: control byte \\x%02X at byte %zu; expected text", key,
                    (unsigned char)value[i], i + 1);
        return false;
      }
    memcpy(f, value, len + 1);
    return true;
  }
  if (s->type == TRV_PARAM_ENUM) {
    for (int i = 0; s->choices[i]; i++)
      if (!strcmp(s->choices[i], value)) {
        *(int *)f = i;
        return true;
      }
    char *all = g_strjoinv(", ", (char **)s->choices);
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "parameter %s: '%s' is not one of: %s", key, value, all);
    g_free(all);
    return false;
  }
  char *end;
  errno = 0;
  double v = strtod(value, &end);
  if (end == value || *end || errno || !isfinite(v)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "parameter %s: '%s' is not a number", key, value);
    return false;
  }
  if (s->type == TRV_PARAM_INT && v != floor(v)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "parameter %s: '%s' is not an integer", key, value);
    return false;
  }
  if (v < s->min || v > s->max) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "parameter %s: %s is out of range [%g, %g]", key, value, s->min,
                s->max);
    return false;
  }
  if (s->type == TRV_PARAM_INT) *(int *)f = (int)v;
  else *(double *)f = v;
  return true;
}

bool trv_params_set_assignment(TrvParams *p, const char *assignment, GError **error) {
  const char *eq = strchr(assignment, '=');
  if (!eq || eq == assignment) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "--set expects key=value, got '%s'", assignment);
    return false;
  }
  char *key = g_strndup(assignment, eq - assignment);
  bool ok = trv_params_set(p, key, eq + 1, error);
  g_free(key);
  return ok;
}

char *trv_format_double(double v) {
  /* the shortest decimal that reads back as the same double: 0.9, not
   * 0.90000000000000002 */
  char buf[G_ASCII_DTOSTR_BUF_SIZE], fmt[8];
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(fmt, sizeof fmt, "%%.%dg", prec);
    g_ascii_formatd(buf, sizeof buf, fmt, v);
    if (g_ascii_strtod(buf, NULL) == v) break;
  }
  /* and 10, not 1e+01 (an integer is printed in full when that is shorter) */
  if (strchr(buf, 'e') && v == floor(v) && fabs(v) < 1e15) {
    char whole[32];
    snprintf(whole, sizeof whole, "%.0f", v);
    if (strlen(whole) < strlen(buf)) return g_strdup(whole);
  }
  return g_strdup(buf);
}

char *trv_params_format(const TrvParams *p, const TrvParamSpec *s) {
  const char *f = (const char *)p + s->offset;
  switch (s->type) {
    case TRV_PARAM_INT: return g_strdup_printf("%d", *(const int *)f);
    case TRV_PARAM_DOUBLE: return trv_format_double(*(const double *)f);
    case TRV_PARAM_ENUM: return g_strdup(s->choices[*(const int *)f]);
    case TRV_PARAM_TEXT: return g_strdup(f);
  }
  g_assert_not_reached();
}

TrvPosteriorParams trv_params_posterior(const TrvParams *p, double s2) {
  TrvPosteriorParams pp = {.pi0 = p->pi0, .tau2 = p->tau2, .s2 = s2, .kappa_min = p->kappa_min,
                           .hazard = p->hazard, .lambda = p->lambda, .slab = p->slab, .track = p->track,
                           .noise = p->noise,
                           /* with known noise the prior weight plays no part: 0, so that the
                            * model's header and its version-1 snapshots agree */
                           .noise_df = p->noise == TRV_NOISE_ESTIMATED ? p->noise_df : 0.0,
                           .persist = 1.0 - p->redraw};
  return pp;
}

TrvPosteriorParams trv_params_posterior_bernoulli(const TrvParams *p, double theta0) {
  TrvPosteriorParams pp = trv_params_posterior(p, 1.0);
  pp.tau2 = 1.0, pp.kappa_min = 0.0, pp.slab = TRV_SLAB_GAUSSIAN, pp.noise = TRV_NOISE_KNOWN, pp.noise_df = 0.0;
  pp.likelihood = TRV_POSTERIOR_BERNOULLI;
  pp.theta0 = theta0, pp.beta_a = p->beta_a, pp.beta_b = p->beta_b;
  return pp;
}

bool trivium_params_get(const TrvParams *p, const char *key, double *value, GError **error) {
  const TrvParamSpec *s = key ? trv_param_lookup(key) : NULL;
  if (!s) {
    const char *hint = key ? trv_params_suggest(key) : NULL;
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "unknown parameter '%s'%s%s%s", key ? key : "(null)",
                hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
    return false;
  }
  if (s->type == TRV_PARAM_TEXT) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "parameter '%s' is text, not a number", key);
    return false;
  }
  const char *f = (const char *)p + s->offset;
  *value = s->type == TRV_PARAM_DOUBLE ? *(const double *)f : (double)*(const int *)f;
  return true;
}
