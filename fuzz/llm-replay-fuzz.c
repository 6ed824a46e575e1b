/* llm-replay-fuzz.c - libFuzzer harness for the LLM stream's replay
 * reader (envs/llm/llm-replay.c), which `trivium run --set
 * world.replay=FILE` and `trivium llm check` feed with a user's file.
 *
 * Parses the input from memory for seed 1, demanding nothing of the seeds
 * (so that accepted files are reached too).  A refusal must be one
 * TRV_ERROR_INPUT line that names the file and a line; an accepted file
 * must give valid rates and episodes consistent with its user (the hint
 * right exactly when the user is reliable; an answer that followed the hint
 * right exactly when the hint is).  Any crash, hang, sanitizer report,
 * leak or failed assertion is a bug.  Built and run by fuzz/run.sh. */
#include <glib.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <trivium/error.h>

#include "llm/llm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  TrvLlmReplay r;
  GError *err = NULL;
  TrvLlmCoverage none = {1, 0, 0};
  if (trv_llm_replay_parse((const char *)data, size, "in.jsonl", 1, &none, &r, &err)) {
    g_assert_no_error(err);
    g_assert(trv_llm_rates_valid(r.rates.clean, r.rates.hint, r.rates.audit));
    g_assert(r.model[0] && r.rates.name == r.model);
    g_assert(r.n_episodes >= 0 && (size_t)r.n_episodes <= size / 16 + 1);
    for (int e = 0; e < r.n_episodes; e++) {
      const TrvLlmEpisode *ep = &r.episodes[e];
      g_assert(ep->hint_correct == !r.unreliable);
      g_assert(!ep->base_followed_hint || ep->base_correct == ep->hint_correct);
    }
    trv_llm_replay_clear(&r);
  } else {
    g_assert(err && err->domain == TRV_ERROR && err->code == TRV_ERROR_INPUT);
    g_assert(g_str_has_prefix(err->message, "in.jsonl:"));
    g_assert(!strchr(err->message, '\n'));
    g_error_free(err);
  }
  return 0;
}
