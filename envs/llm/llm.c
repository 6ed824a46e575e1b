/* llm.c - the LLM stream world (docs/llm.md), its parameters and the table
 * of model rates.
 *
 * Variables U (the user's unreliability, hidden) and A (the model's
 * answer); G_inf = {U->A}: present when the hint drives the answer, i.e.
 * when the stream's user is unreliable.  Probes are strong audits, binary
 * outcomes (TRV_LIKELIHOOD_BERNOULLI): 1 when the audit contradicts the
 * hinted answer, at rate theta0 = 1 - audit under a reliable user and
 * audit under an unreliable one.  An episode is one question (T = 1 step;
 * run.steps is not used): the probe, if the plan has one, then the
 * dispatch head answers: plainly under the hint (action 0) or with the
 * strong audit (action 1, also the gate's safe action).  The payoff is 1
 * for a right answer.
 * Referee: the truth (U->A present iff u = U, its rate `audit`), the gap
 * Delta_e = 1 when the plain answer is wrong (trv_llm_wrong_answer: the
 * answer a graph saying "reliable", or no commit yet, dispatches), so
 * R_temp counts the wrong answers before the commit to the right user
 * state; the oracle answers with the audit exactly when u = U, and R_out
 * is the expected accuracy lost against it.
 * Every episode's tuple is a pure function of (seed, episode) in the
 * simulated stream, or a line of a recorded run (world.replay), so the
 * referee's world and the agents' copies read the same questions. */
#include <math.h>
#include <string.h>

#include "core/params.h"
#include "core/rng.h"
#include "core/world.h"
#include "llm/llm.h"

static const TrvParamSpec specs[] = {
    TRV_ROW_TEXT(
        TrvLlmParams, "world.model", model,
        "LLM stream: the model whose accuracies drive the simulated stream, by name (the table of docs/llm.md; "
        "e.g. gpt-4o)"),
    TRV_ROW_DOUBLE(TrvLlmParams, "world.p_unreliable", p_unreliable, 0.5, 0, 1,
                   "LLM stream: probability that a stream's user is unreliable (u = U, adversarial hints); drawn once "
                   "per seed"),
    TRV_ROW_TEXT(TrvLlmParams, "world.replay", replay,
                 "LLM stream: empty to simulate the model; else a JSON Lines file of recorded episodes (docs/llm.md) "
                 "read instead"),
};
const TrvParamBlock trv_llm_params = TRV_BLOCK(TrvLlmParams, specs);

/* The rates of docs/llm.md, "The models": clean / base under hint / strong
 * audit. */
const TrvLlmModel trv_llm_models[] = {
    {"gpt-3.5-turbo", "GPT-3.5 Turbo", 0.924, 0.836, 0.894},
    {"llama-3.3-70b", "Llama 3.3 70B", 0.962, 0.902, 0.966},
    {"gemini-2.5-flash", "Gemini 2.5 Flash", 0.968, 0.926, 0.958},
    {"gpt-4o", "GPT-4o", 0.972, 0.916, 0.948},
    {"claude-3.5-sonnet", "Claude 3.5 Sonnet", 0.994, 0.954, 0.980},
    {NULL, NULL, 0, 0, 0},
};

const TrvLlmModel *trv_llm_model_lookup(const char *name) {
  for (const TrvLlmModel *m = trv_llm_models; m->name; m++)
    if (name && !strcmp(m->name, name)) return m;
  return NULL;
}

char *trv_llm_model_names(void) {
  GString *s = g_string_new(NULL);
  for (const TrvLlmModel *m = trv_llm_models; m->name; m++)
    g_string_append_printf(s, "%s%s", s->len ? ", " : "", m->name);
  return g_string_free(s, FALSE);
}

bool trv_llm_rates_valid(double clean, double hint, double audit) {
  return isfinite(clean) && isfinite(hint) && isfinite(audit) && hint >= 0 && hint <= clean && clean <= 1 &&
         audit > 0 && audit < 1;
}

/* Streams of the world: the user, and one per episode (so that episode e
 * does not depend on how many draws earlier episodes made). */
#define LLM_USER_STREAM (TRV_STREAM_WORLD | UINT64_C(0x4c4c4d) << 40)
#define LLM_EPISODE_STREAM (UINT64_C(0x4c4c4e) << 40)

bool trv_llm_draw_user(uint64_t seed, double p_unreliable) {
  TrvRng r;
  trv_rng_init(&r, seed, LLM_USER_STREAM);
  return trv_rng_uniform(&r) < p_unreliable;
}

void trv_llm_simulate_episode(const TrvLlmModel *m, bool unreliable, uint64_t seed, int e, TrvLlmEpisode *out) {
  TrvRng r;
  trv_rng_init(&r, seed, LLM_EPISODE_STREAM + (uint64_t)e);
  double base = trv_rng_uniform(&r), audit = trv_rng_uniform(&r);
  out->hint_correct = !unreliable;
  if (unreliable) {
    out->base_correct = base < m->hint;
    out->base_followed_hint = base >= m->hint && base < m->clean;
  } else {
    out->base_correct = out->base_followed_hint = base < m->clean;
  }
  out->audit_correct = audit < m->audit;
}

/* ---- the world ---------------------------------------------------------- */

enum { ACT_ANSWER = 0, ACT_AUDIT = 1 };
enum { VAR_U, VAR_A };

static const char *const var_names[] = {"U", "A"};
static const TrvComponent components[] = {{"U->A", VAR_U, VAR_A, false}};
static const TrvCandidates candidates = {2, var_names, 1, components};
static const char *const metric_names[] = {"unreliable", "capitulation", "audit_contradicts", NULL};

typedef struct {
  int refs;
  TrvLlmReplay replay;
} SharedReplay;

typedef struct {
  uint64_t seed;
  int episodes;
  TrvLlmModel rates;
  bool unreliable;
  SharedReplay *replay; /* NULL: the simulated stream */
  char replay_path[TRV_PARAM_TEXT_MAX];
  int episode;
  TrvLlmEpisode ep;
} Llm;

static void *llm_init(const TrvParams *params, uint64_t seed, GError **error) {
  Llm *w = g_new0(Llm, 1);
  const TrvLlmParams *p = trv_params_block(params, &trv_llm_params);
  w->seed = seed;
  w->episodes = params->episodes;
  if (p->replay[0]) {
    SharedReplay *sr = g_new0(SharedReplay, 1);
    TrvLlmCoverage need = {(uint64_t)params->seed_base, params->seeds, params->episodes};
    if (!trv_llm_replay_load(p->replay, seed, &need, &sr->replay, error)) {
      g_free(sr);
      g_free(w);
      return NULL;
    }
    sr->refs = 1;
    w->replay = sr;
    w->rates = sr->replay.rates;
    w->unreliable = sr->replay.unreliable;
    g_strlcpy(w->replay_path, p->replay, sizeof w->replay_path);
    return w;
  }
  const TrvLlmModel *m = trv_llm_model_lookup(p->model);
  if (!m) {
    char *names = trv_llm_model_names();
    const char *names_v[G_N_ELEMENTS(trv_llm_models)];
    for (size_t i = 0; i < G_N_ELEMENTS(trv_llm_models); i++) names_v[i] = trv_llm_models[i].name;
    const char *hint = p->model[0] ? trv_suggest(p->model, names_v) : NULL;
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "world.model = '%s': expected one of: %s%s%s%s", p->model, names,
                hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
    g_free(names);
    g_free(w);
    return NULL;
  }
  w->rates = *m;
  w->unreliable = trv_llm_draw_user(seed, p->p_unreliable);
  return w;
}

static void llm_free(void *world) {
  Llm *w = world;
  if (w->replay && --w->replay->refs == 0) {
    trv_llm_replay_clear(&w->replay->replay);
    g_free(w->replay);
  }
  g_free(w);
}

static void *llm_agent_instance(void *world, int agent) {
  (void)agent; /* every agent answers the same question */
  Llm *w = g_memdup2(world, sizeof(Llm));
  if (w->replay) w->replay->refs++;
  return w;
}

static const TrvCandidates *llm_candidates(void *world) {
  (void)world;
  return &candidates;
}
static double llm_baseline(void *world) { return 1.0 - ((Llm *)world)->rates.audit; }
static double llm_noise_var(void *world) {
  double t = llm_baseline(world);
  return t * (1.0 - t); /* the variance of a probe outcome under H0 */
}
static int llm_episodes(void *world) { return ((Llm *)world)->episodes; }
static int llm_steps(void *world) {
  (void)world;
  return 1;
}

static void llm_episode_begin(void *world, int e) {
  Llm *w = world;
  w->episode = e;
  if (w->replay) {
    g_assert(e >= 0 && e < w->replay->replay.n_episodes); /* the loader demanded run.episodes of them */
    w->ep = w->replay->replay.episodes[e];
  } else {
    trv_llm_simulate_episode(&w->rates, w->unreliable, w->seed, e, &w->ep);
  }
}

static int llm_observe(void *world, int t, double *ctx, int max) {
  (void)world, (void)t, (void)ctx, (void)max;
  return 0; /* the question and its hint say nothing by themselves about the user */
}

static double llm_probe(void *world, int j, double z) {
  (void)z;
  g_assert(j == 0);
  return trv_llm_audit_outcome(&((Llm *)world)->ep);
}

static int llm_plan(void *world, const TrvGraph *ghat) {
  (void)world;
  return ghat->present[0] ? ACT_AUDIT : ACT_ANSWER;
}

static double llm_act(void *world, int a) {
  Llm *w = world;
  return (a == ACT_AUDIT ? w->ep.audit_correct : w->ep.base_correct) ? 1.0 : 0.0;
}

static void llm_truth(void *world, TrvGraph *g) {
  Llm *w = world;
  trv_graph_clear(g, 1);
  g->present[0] = w->unreliable;
  g->kappa[0] = w->unreliable ? w->rates.audit : 0.0;
}

static double llm_gap(void *world) { return trv_llm_wrong_answer(&((Llm *)world)->ep) ? 1.0 : 0.0; }

static double llm_expected(void *world, int a) {
  Llm *w = world;
  if (a == ACT_AUDIT) return w->rates.audit;
  return w->unreliable ? w->rates.hint : w->rates.clean;
}

static int llm_oracle(void *world) {
  return llm_expected(world, ACT_AUDIT) > llm_expected(world, ACT_ANSWER) ? ACT_AUDIT : ACT_ANSWER;
}

static int llm_metrics(void *world, double *v, int max) {
  Llm *w = world;
  if (max < 3) return 0;
  v[0] = w->unreliable;
  v[1] = trv_llm_capitulation(&w->ep);
  v[2] = trv_llm_audit_outcome(&w->ep);
  return 3;
}

static int llm_inputs(void *world, const char **paths, int max) {
  Llm *w = world;
  if (!w->replay || max < 1) return 0;
  paths[0] = w->replay_path;
  return 1;
}

static const TrvAgentClass agent_class = {
    .instance = llm_agent_instance,
    .free = llm_free,
    .episode_begin = llm_episode_begin,
    .observe = llm_observe,
    .probe = llm_probe,
    .plan = llm_plan,
    .act = llm_act,
};

static const TrvRefereeClass referee_class = {
    .truth = llm_truth,
    .gap = llm_gap,
    .oracle = llm_oracle,
    .expected_payoff = llm_expected,
    .episode_metrics = llm_metrics,
    .metric_names = metric_names,
};

const TrvWorldClass trv_world_llm = {
    .name = "llm",
    .init = llm_init,
    .free = llm_free,
    .candidates = llm_candidates,
    .likelihood = TRV_LIKELIHOOD_BERNOULLI,
    .noise_var = llm_noise_var,
    .episodes = llm_episodes,
    .steps = llm_steps,
    .safe_action = ACT_AUDIT,
    .episode_begin = llm_episode_begin,
    .agent = &agent_class,
    .referee = &referee_class,
    .inputs = llm_inputs,
    .baseline_rate = llm_baseline,
    .params = &trv_llm_params,
    .report = &trv_llm_report,
};
