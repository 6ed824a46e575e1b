/* toy-controller.c - the smallest controller with a parameter of its own:
 * every episode it plans toy.probes probes, all on component 0, commits
 * nothing and believes every component absent with probability 1/2.  It
 * runs the drift detector detector.name selects on each episode's probes
 * and writes its statistic to the row.  Its budget in episodes.csv is
 * toy.probes, its probes those that came back (tests/toys.sh;
 * docs/hacking.md). */
#include "core/controller.h"
#include "core/detector.h"

typedef struct {
  int probes; /* toy.probes */
} ToyControllerParams;

static const TrvParamSpec toy_specs[] = {
    TRV_ROW_INT(ToyControllerParams, "toy.probes", probes, 0, 0, 8,
                "toy controller: probes planned per episode, all on component 0"),
};
static const TrvParamBlock toy_params = TRV_BLOCK(ToyControllerParams, toy_specs);

typedef struct {
  ToyControllerParams p;
  double zabs, s2;
  int n;
  const TrvDetectorClass *detector;
  void *detector_state;
} Toy;

static void *toy_create(const TrvParams *params, const TrvWorldInfo *world, uint64_t seed, int variant) {
  (void)seed, (void)variant;
  Toy *c = g_new0(Toy, 1);
  c->p = *(const ToyControllerParams *)trv_params_block(params, &toy_params);
  c->zabs = params->zabs;
  c->s2 = world->noise_var;
  c->n = world->cand->n_components;
  const TrvModule *detector = trv_detector_selected(params);
  c->detector = detector->klass;
  c->detector_state = trv_detector_create(detector, params, c->n);
  return c;
}

static void toy_plan(void *self, int episode, TrvPlan *plan) {
  Toy *c = self;
  g_assert(!plan->truth); /* a learner is never handed the truth */
  plan->episode = episode;
  trv_graph_clear(&plan->ghat, c->n);
  plan->n_probes = c->p.probes;
  for (int i = 0; i < plan->n_probes; i++) plan->probes[i] = 0;
  plan->zabs = c->zabs;
  plan->gate = false;
  plan->snapshot = NULL;
}

static bool toy_absorb(void *self, int episode, const TrvEpisodeRecords *recs, TrvEpisodeRow *row, TrvBeliefs *beliefs,
                       GArray *out, GError **error) {
  Toy *c = self;
  (void)episode, (void)out, (void)error;
  int *component = g_new(int, recs->n_probes + 1);
  double *z = g_new(double, recs->n_probes + 1), *resid = g_new(double, recs->n_probes + 1);
  for (size_t i = 0; i < recs->n_probes; i++) {
    component[i] = recs->probes[i].a_int;
    z[i] = recs->probes[i].z;
    resid[i] = recs->probes[i].outcome;
  }
  TrvDetectorInput in = {
      .n_probes = recs->n_probes, .component = component, .z = z, .resid = resid, .s2 = c->s2, .n_components = c->n};
  row->alarm = c->detector->step(c->detector_state, &in, &row->detector_stat);
  g_free(component), g_free(z), g_free(resid);
  row->budget = c->p.probes;
  row->probes = (int)recs->n_probes;
  row->entropy_bits = c->n; /* one bit per component: p = 1/2 */
  trv_graph_clear(&beliefs->ghat, c->n);
  beliefs->committed = false;
  for (int j = 0; j < c->n; j++) beliefs->map[j] = false, beliefs->p[j] = 0.5;
  return true;
}

static const TrvPosterior *toy_posterior(void *self) {
  (void)self;
  return NULL;
}

static void toy_free(void *self) {
  Toy *c = self;
  c->detector->free(c->detector_state);
  g_free(c);
}

static const TrvControllerClass toy_class = {
    .summary = "toy: a fixed number of probes, no belief",
    .create = toy_create,
    .plan = toy_plan,
    .absorb = toy_absorb,
    .posterior = toy_posterior,
    .event_sourced = false,
    .free = toy_free,
};

const TrvModule trv_toy_controller = {.name = "toy", .klass = &toy_class, .params = &toy_params, .on_request = true};
