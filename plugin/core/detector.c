/* detector.c - the three shipped drift detectors, each with its
 * parameters, and the registry that selects one by name (detector.name).
 * Adding a detector: its class and parameter block, beside its code (here
 * or a file of its own), and one row in `builtin` below; a program with a
 * detector of its own calls trv_detector_register (tests/toy-detector.c). */
#include "detector.h"

#include <string.h>

/* ---- ce-eig-cusum ------------------------------------------------------- */

static const TrvParamSpec ce_specs[] = {
    TRV_ROW_DOUBLE(TrvCeEigParams, "detector.mu_bar", mu_bar, 0.05, -1e9, 1e9,
                   "ce-eig-cusum drift mu_bar (bits per episode)"),
    TRV_ROW_DOUBLE(TrvCeEigParams, "detector.h_cusum", h_cusum, 0.5, 0, 1e9, "ce-eig-cusum threshold h (bits)"),
};
static const TrvParamBlock ce_params = TRV_BLOCK(TrvCeEigParams, ce_specs);

typedef struct {
  TrvCeEigParams p;
  double s;
} CeEig;

static void *ce_create(const void *p, int n) {
  (void)n;
  CeEig *d = g_new0(CeEig, 1);
  d->p = *(const TrvCeEigParams *)p;
  return d;
}

static bool ce_step(void *state, const TrvDetectorInput *in, double *stat) {
  CeEig *d = state;
  double s = d->s + (in->h_prev_bits - in->h_bits) - d->p.mu_bar;
  d->s = s > 0 ? s : 0;
  *stat = d->s;
  if (d->s > d->p.h_cusum) {
    d->s = 0;
    return true;
  }
  return false;
}

/* ---- residual-ratio ----------------------------------------------------- */

static const TrvParamSpec rr_specs[] = {
    TRV_ROW_INT(TrvResidualRatioParams, "detector.rr_window", window, 30, 1, 1e6, "residual-ratio window (probes)"),
    TRV_ROW_DOUBLE(TrvResidualRatioParams, "detector.rr_ratio", ratio, 2.2, 0, 1e9,
                   "residual-ratio threshold (times the baseline mean)"),
};
static const TrvParamBlock rr_params = TRV_BLOCK(TrvResidualRatioParams, rr_specs);

typedef struct {
  TrvResidualRatioParams p;
  double *ring; /* last `window` squared standardized residuals */
  int len, head;
  double baseline; /* 0 until the first full window */
} ResRatio;

static void *rr_create(const void *p, int n) {
  (void)n;
  ResRatio *d = g_new0(ResRatio, 1);
  d->p = *(const TrvResidualRatioParams *)p;
  d->ring = g_new0(double, d->p.window);
  return d;
}

static bool rr_step(void *state, const TrvDetectorInput *in, double *stat) {
  ResRatio *d = state;
  bool alarm = false;
  *stat = 0;
  for (size_t i = 0; i < in->n_probes; i++) {
    d->ring[d->head] = in->resid[i] * in->resid[i] / in->s2;
    d->head = (d->head + 1) % d->p.window;
    if (d->len < d->p.window) d->len++;
    if (d->len < d->p.window) continue;
    double mean = 0;
    for (int k = 0; k < d->len; k++) mean += d->ring[k];
    mean /= d->len;
    if (d->baseline == 0) {
      d->baseline = mean > 0 ? mean : 1e-12;
      continue;
    }
    double ratio = mean / d->baseline;
    if (ratio > *stat) *stat = ratio;
    if (ratio > d->p.ratio) {
      alarm = true;
      d->len = d->head = 0;
      d->baseline = 0;
    }
  }
  return alarm;
}

static void rr_free(void *state) {
  ResRatio *d = state;
  g_free(d->ring);
  g_free(d);
}

/* ---- loglik-cusum ------------------------------------------------------- */

static const TrvParamSpec ll_specs[] = {
    TRV_ROW_DOUBLE(TrvLoglikParams, "detector.ll_delta", delta, 0.5, 1e-9, 1e9,
                   "loglik-cusum: slope shift delta tested against G_hat (use kappa_min)"),
    TRV_ROW_DOUBLE(TrvLoglikParams, "detector.ll_h", h, 8.0, 0, 1e9, "loglik-cusum threshold (nats)"),
};
static const TrvParamBlock ll_params = TRV_BLOCK(TrvLoglikParams, ll_specs);

typedef struct {
  TrvLoglikParams p;
  int n;
  double *up, *down; /* per component: CUSUM of the +delta and -delta LLR */
} LlCusum;

static void *ll_create(const void *p, int n) {
  LlCusum *d = g_new0(LlCusum, 1);
  d->p = *(const TrvLoglikParams *)p;
  d->n = n;
  d->up = g_new0(double, n);
  d->down = g_new0(double, n);
  return d;
}

static bool ll_step(void *state, const TrvDetectorInput *in, double *stat) {
  LlCusum *d = state;
  const double delta = d->p.delta;
  for (size_t i = 0; i < in->n_probes; i++) {
    int j = in->component[i];
    double z = in->z[i], r = in->resid[i];
    double half = 0.5 * delta * delta * z * z;
    double up = d->up[j] + (delta * z * r - half) / in->s2;
    double down = d->down[j] + (-delta * z * r - half) / in->s2;
    d->up[j] = up > 0 ? up : 0;
    d->down[j] = down > 0 ? down : 0;
  }
  double m = 0;
  for (int j = 0; j < d->n; j++) {
    if (d->up[j] > m) m = d->up[j];
    if (d->down[j] > m) m = d->down[j];
  }
  *stat = m;
  if (m > d->p.h) {
    memset(d->up, 0, sizeof(double) * d->n);
    memset(d->down, 0, sizeof(double) * d->n);
    return true;
  }
  return false;
}

static void ll_free(void *state) {
  LlCusum *d = state;
  g_free(d->up);
  g_free(d->down);
  g_free(d);
}

/* ---- the registry ------------------------------------------------------ */

static const TrvDetectorClass ce_class = {ce_create, ce_step, g_free};
static const TrvDetectorClass rr_class = {rr_create, rr_step, rr_free};
static const TrvDetectorClass ll_class = {ll_create, ll_step, ll_free};

static const TrvModule builtin[] = {
    {.name = "ce-eig-cusum", .klass = &ce_class, .params = &ce_params},
    {.name = "residual-ratio", .klass = &rr_class, .params = &rr_params},
    {.name = "loglik-cusum", .klass = &ll_class, .params = &ll_params},
};

static TrvRegistry detectors = {.kind = "detector"};

/* detector.name: an index into the registry's names, whatever their order;
 * its default is a name. */
typedef struct {
  int detector;
} Selection;
static const TrvParamSpec selection_specs[] = {
    TRV_ROW_ENUM(Selection, "detector.name", detector, "loglik-cusum", detectors.names,
                 "drift detector of the trivium controller"),
};
static const TrvParamBlock selection_params = TRV_BLOCK(Selection, selection_specs);

bool trv_detector_register(const TrvModule *m, GError **error) {
  return trv_params_register(&selection_params, error) && trv_registry_add(&detectors, m, error);
}

const TrvModule *trv_detectors_builtin(size_t *n) {
  *n = G_N_ELEMENTS(builtin);
  return builtin;
}

void trv_detectors_register_builtin(void) {
  for (size_t i = 0; i < G_N_ELEMENTS(builtin); i++) {
    GError *err = NULL;
    if (!trv_detector_register(&builtin[i], &err)) g_error("built-in detector: %s", err->message); /* a bug of ours */
  }
}

const TrvModule *trv_detector_lookup(const char *name) { return trv_registry_lookup(&detectors, name); }

const char *const *trv_detector_names(void) { return detectors.names; }

const TrvModule *trv_detector_selected(const TrvParams *p) {
  const Selection *s = trv_params_block(p, &selection_params);
  g_assert(s->detector >= 0 && s->detector < detectors.n);
  return &detectors.entries[s->detector];
}

void *trv_detector_create(const TrvModule *m, const TrvParams *p, int n_components) {
  const TrvDetectorClass *k = m->klass;
  return k->create(m->params ? trv_params_block(p, m->params) : NULL, n_components);
}
