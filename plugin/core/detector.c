/* detector.c - the three shipped drift detectors and their registry.
 * Adding a detector: a state struct, three functions and one table row. */
#include "detector.h"

#include <glib.h>
#include <string.h>

/* ---- ce-eig-cusum ------------------------------------------------------- */

typedef struct {
  TrvDetectorParams p;
  double s;
} CeEig;

static void *ce_create(const TrvDetectorParams *p, int n) {
  (void)n;
  CeEig *d = g_new0(CeEig, 1);
  d->p = *p;
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

typedef struct {
  TrvDetectorParams p;
  double *ring; /* last rr_window squared standardized residuals */
  int len, head;
  double baseline; /* 0 until the first full window */
} ResRatio;

static void *rr_create(const TrvDetectorParams *p, int n) {
  (void)n;
  ResRatio *d = g_new0(ResRatio, 1);
  d->p = *p;
  d->ring = g_new0(double, p->rr_window);
  return d;
}

static bool rr_step(void *state, const TrvDetectorInput *in, double *stat) {
  ResRatio *d = state;
  bool alarm = false;
  *stat = 0;
  for (size_t i = 0; i < in->n_probes; i++) {
    d->ring[d->head] = in->resid[i] * in->resid[i] / in->s2;
    d->head = (d->head + 1) % d->p.rr_window;
    if (d->len < d->p.rr_window) d->len++;
    if (d->len < d->p.rr_window) continue;
    double mean = 0;
    for (int k = 0; k < d->len; k++) mean += d->ring[k];
    mean /= d->len;
    if (d->baseline == 0) {
      d->baseline = mean > 0 ? mean : 1e-12;
      continue;
    }
    double ratio = mean / d->baseline;
    if (ratio > *stat) *stat = ratio;
    if (ratio > d->p.rr_ratio) {
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

typedef struct {
  TrvDetectorParams p;
  int n;
  double *up, *down; /* per component: CUSUM of the +delta and -delta LLR */
} LlCusum;

static void *ll_create(const TrvDetectorParams *p, int n) {
  LlCusum *d = g_new0(LlCusum, 1);
  d->p = *p;
  d->n = n;
  d->up = g_new0(double, n);
  d->down = g_new0(double, n);
  return d;
}

static bool ll_step(void *state, const TrvDetectorInput *in, double *stat) {
  LlCusum *d = state;
  const double delta = d->p.ll_delta;
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
  if (m > d->p.ll_h) {
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

static const TrvDetectorClass detectors[] = {
    {"ce-eig-cusum", ce_create, ce_step, g_free},
    {"residual-ratio", rr_create, rr_step, rr_free},
    {"loglik-cusum", ll_create, ll_step, ll_free},
};
const char *const trv_detector_name_list[] = {"ce-eig-cusum", "residual-ratio", "loglik-cusum", NULL};

const TrvDetectorClass *trv_detector_lookup(const char *name) {
  for (size_t i = 0; i < G_N_ELEMENTS(detectors); i++) {
    g_assert(!strcmp(detectors[i].name, trv_detector_name_list[i]));
    if (!strcmp(detectors[i].name, name)) return &detectors[i];
  }
  return NULL;
}

