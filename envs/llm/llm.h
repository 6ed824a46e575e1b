/* llm.h - the LLM stream (docs/llm.md): the world's parameters, the
 * per-model rates, the episode tuple a stream is made of, its simulation
 * and its JSON Lines form.
 *
 * A stream's user is reliable (R) or unreliable (U), drawn once per seed.
 * An episode is one question with a hint: correct when u = R, adversarial
 * when u = U.  What the model does with it is one TrvLlmEpisode: whether
 * its plain answer (under the hint) was correct and whether it followed
 * the hint, and whether a strong audit of the question (an answer that
 * ignores the hint) was correct.  The tuple comes either from the
 * simulated model (trv_llm_simulate_episode, from the model's rates) or
 * from a recorded run (trv_llm_replay_load), and the world (llm.c) reads
 * nothing else: a replay of a recorded simulation is the simulation. */
#ifndef TRV_LLM_H
#define TRV_LLM_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <trivium/report.h>
#include <trivium/world.h>

/* The world's parameters (world.*; rows in llm.c). */
typedef struct {
  char model[TRV_PARAM_TEXT_MAX];  /* a name of the model table (trv_llm_models) */
  double p_unreliable;             /* P(u = U) */
  char replay[TRV_PARAM_TEXT_MAX]; /* "" simulate; else a recorded stream (JSON Lines) */
} TrvLlmParams;

extern const TrvParamBlock trv_llm_params;

/* A model's accuracies (fractions): on clean questions, under an
 * adversarial hint without audit, and with the strong audit. */
typedef struct {
  const char *name;  /* the value of world.model */
  const char *label; /* as papers print it */
  double clean, hint, audit;
} TrvLlmModel;

/* The table of models, NULL-name terminated: the one place the rates live. */
extern const TrvLlmModel trv_llm_models[];
/* The model called `name`, or NULL. */
const TrvLlmModel *trv_llm_model_lookup(const char *name);
/* The names, comma-separated (caller frees). */
char *trv_llm_model_names(void);
/* Whether rates can drive the stream: 0 <= hint <= clean <= 1 and
 * 0 < audit < 1 (the audit's error rate is the controller's baseline). */
bool trv_llm_rates_valid(double clean, double hint, double audit);

/* One question of the stream. */
typedef struct {
  bool hint_correct;       /* the hint names the right answer (u = R) */
  bool base_correct;       /* the plain answer, under the hint, is right */
  bool base_followed_hint; /* the plain answer is the hinted one */
  bool audit_correct;      /* the strong audit's answer is right */
} TrvLlmEpisode;

/* A wrong answer, the gap Delta_e of R_temp: the plain answer (under the
 * hint) is wrong.  That is the answer the dispatch gives on a graph that
 * says "reliable", as every controller's does before a commit; under an
 * unreliable user it is wrong by following the hint (a capitulation) or on
 * its own. */
static inline bool trv_llm_wrong_answer(const TrvLlmEpisode *ep) { return !ep->base_correct; }
/* The sycophancy event sigma_e: the plain answer followed an adversarial
 * hint (a capitulation, one kind of wrong answer). */
static inline bool trv_llm_capitulation(const TrvLlmEpisode *ep) { return !ep->hint_correct && ep->base_followed_hint; }
/* The outcome of a strong-audit probe: 1 when the audit contradicts the
 * hinted answer.  A wrong audit names the hinted answer (its residual
 * errors are capitulations too), so the outcome is audit_correct != hint_correct:
 * rate 1 - audit under R (the baseline theta0), audit under U. */
static inline double trv_llm_audit_outcome(const TrvLlmEpisode *ep) {
  return ep->audit_correct != ep->hint_correct ? 1.0 : 0.0;
}

/* The stream's user for `seed`: true when unreliable, with probability
 * p_unreliable. */
bool trv_llm_draw_user(uint64_t seed, double p_unreliable);
/* Episode e of the simulated stream of `seed` (its own random stream, so a
 * function of (rates, user, seed, e) alone):
 *   u = R: hint right; the plain answer right with probability clean (and
 *          then it is the hinted one);
 *   u = U: hint wrong; the plain answer right with probability hint, the
 *          hinted one (a capitulation) with probability clean - hint,
 *          otherwise wrong on its own;
 *   the audit right with probability audit. */
void trv_llm_simulate_episode(const TrvLlmModel *rates, bool unreliable, uint64_t seed, int e, TrvLlmEpisode *out);

/* ---- JSON Lines (llm-replay.c; the schema is in docs/llm.md) ---- */

/* Most bytes of a replay file and of one of its lines. */
#define TRV_LLM_REPLAY_MAX_BYTES (256u << 20)
#define TRV_LLM_REPLAY_MAX_LINE 4096

/* What a replay file holds for one seed. */
typedef struct {
  char model[65];    /* the model named by the file's first line */
  TrvLlmModel rates; /* its declared rates (rates.name points at model) */
  bool unreliable;   /* the seed's user */
  int n_episodes;
  TrvLlmEpisode *episodes; /* [0, n_episodes), episode order */
} TrvLlmReplay;

/* The seeds a replay must cover: first .. first + count - 1, each with at
 * least `episodes` episodes. */
typedef struct {
  uint64_t first;
  int count, episodes;
} TrvLlmCoverage;

/* Parses `text` (len bytes) named `path` in messages, validating every line
 * and that the file covers *need; fills *out with the episodes of `seed`
 * (none when the file has none for it: a world built only for its
 * declaration).  False with *error (TRV_ERROR_INPUT, "PATH:LINE: what was
 * found; expected ...") on anything else. */
bool trv_llm_replay_parse(const char *text, size_t len, const char *path, uint64_t seed, const TrvLlmCoverage *need,
                          TrvLlmReplay *out, GError **error);
/* The same from a file: a regular file of at most TRV_LLM_REPLAY_MAX_BYTES,
 * its size checked before it is read. */
bool trv_llm_replay_load(const char *path, uint64_t seed, const TrvLlmCoverage *need, TrvLlmReplay *out,
                         GError **error);
void trv_llm_replay_clear(TrvLlmReplay *r);

/* Writes the simulated stream of seeds seed_base .. seed_base + seeds - 1,
 * `episodes` each, as a replay file: the model line, then one line per
 * episode, every line marked "source":"trivium-simulator". */
bool trv_llm_record(FILE *out, const TrvLlmModel *model, double p_unreliable, uint64_t seed_base, int seeds,
                    int episodes, GError **error);

/* The world's report (llm-report.c): the table of R_temp per model. */
extern const TrvReportClass trv_llm_report;

#endif
