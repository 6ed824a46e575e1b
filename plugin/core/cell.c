/* cell.c - the episode protocol without a simulator.  See cell.h. */
#include "cell.h"

#include <string.h>

/* The direct loop's single agent: the shared city moves right after it. */
typedef struct {
  const TrvWorldClass *wc;
  void *world;
} DirectSync;

static void direct_step_end(void *ctx, int step) {
  DirectSync *d = ctx;
  d->wc->step_end(d->world, step);
}

bool trv_cell_run_direct(const TrvCellSpec *spec, GArray *rows, GArray *log, GError **error) {
  void *world = spec->world_class->init(spec->params, spec->seed, error);
  if (!world) return false;
  TrvController *ctl =
      trv_controller_new(spec->controller, spec->params, world, spec->world_class, spec->seed, error);
  if (!ctl) {
    spec->world_class->free(world);
    return false;
  }
  TrvRng probe_rng;
  trv_rng_init(&probe_rng, spec->seed, TRV_STREAM_PROBE);
  const TrvWorldClass *wc = spec->world_class;
  bool shared = wc->step_end != NULL;
  void *agent_world = shared ? wc->agent_instance(world, 0) : world;
  DirectSync ds = {wc, world};
  TrvStepSync sync = {direct_step_end, &ds};
  GArray *recs = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
  GArray *own = g_array_new(FALSE, FALSE, sizeof(TrvRecord));
  TrvPlan *plan = g_new0(TrvPlan, 1);
  uint64_t seq = 0;
  int episodes = spec->world_class->episodes(world);
  for (int e = 0; e < episodes; e++) {
    spec->world_class->episode_begin(world, e);
    ctl->klass->plan(ctl->self, e, plan);
    g_array_set_size(recs, 0);
    g_array_set_size(own, 0);
    if (shared) wc->episode_begin(agent_world, e);
    int gated = trv_agent_run_episode(wc, agent_world, plan, 0, &seq, &probe_rng, recs, shared ? &sync : NULL);
    for (guint i = 0; i < recs->len; i++) g_array_index(recs, TrvRecord, i).commit_status = TRV_COMMIT_COMMITTED;
    if (log) g_array_append_vals(log, recs->data, recs->len);
    TrvEpisodeRow row;
    memset(&row, 0, sizeof row);
    row.seed = (int)spec->seed;
    row.episode = e;
    trv_row_fill_readouts(&row, spec->world_class, world, (TrvRecord *)recs->data, recs->len);
    ctl->klass->absorb(ctl->self, e, (TrvRecord *)recs->data, recs->len, &row, own);
    row.gated_steps = gated;
    row.commits = row.commit_attempts = 1;
    TrvRecord end = trv_episode_end_record(e);
    g_array_append_val(own, end);
    if (log) g_array_append_vals(log, own->data, own->len);
    g_array_append_val(rows, row);
    trv_plan_clear(plan);
  }
  g_free(plan);
  if (spec->final_posterior) {
    const TrvPosterior *post = ctl->klass->posterior(ctl->self);
    *spec->final_posterior = post ? trv_posterior_copy(post) : NULL;
  }
  g_array_free(recs, TRUE);
  g_array_free(own, TRUE);
  trv_controller_free(ctl);
  if (shared) wc->free(agent_world);
  spec->world_class->free(world);
  return true;
}
