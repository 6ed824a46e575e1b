/* direct.c - the in-process transport of the episode protocol.  See
 * direct.h.  One agent (index 0) with its own instance of the world;
 * worlds whose agents share a city move it right after that agent acted. */
#include "direct.h"

#include <string.h>

#include "world-call.h"

typedef struct {
  const TrvWorldClass *wc;
  void *world;
} DirectSync;

static void direct_step_end(void *ctx, int step) {
  DirectSync *d = ctx;
  d->wc->agent->step_end(d->world, step);
}

/* The transport's commit: everything the agent closes is committed. */
static bool direct_close(void *ctx, TrvEpisode *ep, GArray *records, GError **error) {
  (void)ep;
  (void)error;
  GArray *committed = ctx;
  for (guint i = 0; i < records->len; i++) {
    TrvRecord r = g_array_index(records, TrvRecord, i);
    r.commit_status = TRV_COMMIT_COMMITTED;
    g_array_append_val(committed, r);
  }
  return true;
}

bool trv_cell_run_direct(const TrvCellSpec *spec, GArray *rows, GArray *log, GError **error) {
  const TrvWorldClass *wc = spec->world_class;
  if (!wc->agent) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "world %s has no agent class: its agents are a program's own actors, run it under SimGrid", wc->name);
    return false;
  }
  TrvSession *s = trv_session_new(spec->params, wc, spec->controller, spec->seed, error);
  if (!s) return false;
  const TrvWorldInfo *info = trv_session_info(s);
  void *world = trv_session_world(s);
  void *agent_world = trv_world_agent_new(wc, world, 0, error);
  if (!agent_world) {
    trv_session_free(s);
    return false;
  }
  TrvProbeSigns signs;
  trv_probe_signs_init(&signs, spec->seed, 0);
  DirectSync ds = {wc, world};
  TrvStepSync sync = {direct_step_end, &ds};
  GArray *committed = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
  GArray *decided = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
  TrvEpisodeSink sink = {direct_close, committed};
  uint64_t seq = 0;
  bool ok = true;
  for (int e = 0; e < info->episodes; e++) {
    TrvPlan *share;
    if (!(ok = trv_session_plan(s, e, 1, &share, error))) break;
    wc->agent->episode_begin(agent_world, e);
    g_array_set_size(committed, 0);
    TrvEpisode *ep = trv_episode_new(share, 0, info->steps, info->safe_action, &seq, &signs, &sink);
    trv_session_parts_free(&share, 1);
    if (!(ok = trv_agent_play(wc, agent_world, ep, wc->agent->step_end ? &sync : NULL, error))) {
      trv_episode_discard(ep); /* the world answered out of bounds: the cell stops */
      break;
    }
    TrvEpisodeCounts counts = {.commits = 1, .attempts = 1, .gated = trv_episode_gated(ep)};
    trivium_episode_close(ep, NULL);
    TrvEpisodeRow row;
    g_array_set_size(decided, 0);
    if (!(ok = trv_session_close(s, e, (TrvRecord *)committed->data, committed->len, NULL, 0, &counts, &row, decided,
                                 error)))
      break;
    if (log) g_array_append_vals(log, decided->data, decided->len);
    g_array_append_val(rows, row);
  }
  if (ok && spec->final_posterior) {
    const TrvController *c = trv_session_controller(s);
    const TrvPosterior *post = c->klass->posterior(c->self);
    *spec->final_posterior = post ? trv_posterior_copy(post) : NULL;
  }
  g_array_free(committed, TRUE);
  g_array_free(decided, TRUE);
  wc->agent->free(agent_world);
  trv_session_free(s);
  return ok;
}
