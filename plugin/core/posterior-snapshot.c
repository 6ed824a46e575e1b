/* posterior-snapshot.c - the posterior's binary snapshot (what the CTL
 * checkpoints and replays from) and the bitwise equality the controller
 * asserts between the live posterior and the log's fold.
 *
 * Invariants: a snapshot holds exactly the serialized state of
 * posterior-internal.h (never the derived fields, which are recomputed);
 * the deserializer validates every size and value before it builds a
 * posterior, and a posterior's snapshot reads back bit for bit. */
#include <math.h>
#include <string.h>

#include "posterior-internal.h"

/* ---- snapshots ---------------------------------------------------------- */

#define SNAP_MAGIC 0x50565254u /* "TRVP" little-endian */
#define SNAP_VERSION 2u

static void put_u32(GByteArray *b, uint32_t x) {
  uint8_t t[4] = {x, x >> 8, x >> 16, x >> 24};
  g_byte_array_append(b, t, 4);
}
static void put_f64(GByteArray *b, double d) {
  uint64_t x;
  memcpy(&x, &d, 8);
  uint8_t t[8];
  for (int i = 0; i < 8; i++) t[i] = (uint8_t)(x >> (8 * i));
  g_byte_array_append(b, t, 8);
}
static uint32_t get_u32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static double get_f64(const uint8_t *p) {
  uint64_t x = 0;
  for (int i = 0; i < 8; i++) x |= (uint64_t)p[i] << (8 * i);
  double d;
  memcpy(&d, &x, 8);
  return d;
}

/* Version 2: magic, version, n, slab, track, noise (u32); pi0, tau2, s2,
 * kappa_min, hazard, lambda, noise_df, persist, noise_scale; per component
 * n, Szz, Szw, Sww pooled and of the episode, log-odds, begin_lbf.
 * Version 1 (known noise, a fresh effect every episode) is still read.
 * Version 3, written only for the Bernoulli likelihood: version 2 with the
 * likelihood (u32) after noise and theta0, beta_a, beta_b after
 * noise_scale; Gaussian posteriors never write it, so their snapshots are
 * the bytes they always were. */
#define PARAM_DOUBLES 9
#define COMPONENT_DOUBLES 10
#define V1_PARAM_DOUBLES 6
#define V1_COMPONENT_DOUBLES 9
#define V3_EXTRA_DOUBLES 3

/* The model of version 1 (known noise, a fresh effect every episode) is
 * still written as version 1: its extra state is constant (noise scale 1,
 * begin_lbf unused), and logs of that model keep the snapshot size they
 * always had. */
static bool version_one_model(const TrvPosteriorParams *p) { return p->noise == TRV_NOISE_KNOWN && p->persist == 0; }

void trv_posterior_serialize(const TrvPosterior *post, GByteArray *out) {
  const TrvPosteriorParams *p = &post->params;
  bool v3 = bernoulli(p), v1 = !v3 && version_one_model(p);
  put_u32(out, SNAP_MAGIC);
  put_u32(out, v3 ? 3u : v1 ? 1u : SNAP_VERSION);
  put_u32(out, (uint32_t)post->n);
  put_u32(out, (uint32_t)p->slab);
  put_u32(out, (uint32_t)p->track);
  if (!v1) put_u32(out, (uint32_t)p->noise);
  if (v3) put_u32(out, (uint32_t)p->likelihood);
  double pd[PARAM_DOUBLES] = {p->pi0,    p->tau2,     p->s2,      p->kappa_min,     p->hazard,
                              p->lambda, p->noise_df, p->persist, post->noise_scale};
  for (int i = 0; i < (v1 ? V1_PARAM_DOUBLES : PARAM_DOUBLES); i++) put_f64(out, pd[i]);
  if (v3) put_f64(out, p->theta0), put_f64(out, p->beta_a), put_f64(out, p->beta_b);
  for (int j = 0; j < post->n; j++) {
    const TrvSuffStats *s = &post->stats[j], *e = &post->episode[j];
    double cd[COMPONENT_DOUBLES] = {
        s->n, s->szz, s->szw, s->sww, e->n, e->szz, e->szw, e->sww, post->log_odds[j], post->begin_lbf[j]};
    for (int i = 0; i < (v1 ? V1_COMPONENT_DOUBLES : COMPONENT_DOUBLES); i++) put_f64(out, cd[i]);
  }
}

TrvPosterior *trv_posterior_deserialize(const uint8_t *data, size_t len, GError **error) {
  if (len < 8 || get_u32(data) != SNAP_MAGIC) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_CORRUPT, "posterior snapshot: bad magic or short header (%zu bytes)", len);
    return NULL;
  }
  uint32_t version = get_u32(data + 4);
  if (version != 1 && version != SNAP_VERSION && version != 3) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_CORRUPT, "posterior snapshot: unsupported version %u", version);
    return NULL;
  }
  bool v1 = version == 1, v3 = version == 3;
  size_t n_u32 = v1 ? 5 : v3 ? 7 : 6;
  size_t n_par = v1 ? V1_PARAM_DOUBLES : v3 ? PARAM_DOUBLES + V3_EXTRA_DOUBLES : PARAM_DOUBLES;
  size_t n_comp = v1 ? V1_COMPONENT_DOUBLES : COMPONENT_DOUBLES;
  const size_t head = n_u32 * 4 + n_par * 8;
  if (len < head) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_CORRUPT, "posterior snapshot: short header (%zu bytes)", len);
    return NULL;
  }
  uint32_t n = get_u32(data + 8), slab = get_u32(data + 12), track = get_u32(data + 16);
  uint32_t noise = v1 ? TRV_NOISE_KNOWN : get_u32(data + 20);
  uint32_t likelihood = v3 ? get_u32(data + 24) : TRV_POSTERIOR_GAUSSIAN;
  if (n == 0 || n > 1u << 20 || len != head + (size_t)n * n_comp * 8 || slab > TRV_SLAB_SOFT || track > 2 ||
      noise > 1 || likelihood != (v3 ? TRV_POSTERIOR_BERNOULLI : TRV_POSTERIOR_GAUSSIAN)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_CORRUPT, "posterior snapshot: inconsistent sizes or kinds");
    return NULL;
  }
  const uint8_t *q = data + n_u32 * 4;
  TrvPosteriorParams p = {.slab = slab, .track = track, .noise = noise, .likelihood = likelihood};
  p.pi0 = get_f64(q), p.tau2 = get_f64(q + 8), p.s2 = get_f64(q + 16);
  p.kappa_min = get_f64(q + 24), p.hazard = get_f64(q + 32), p.lambda = get_f64(q + 40);
  double scale = 1;
  if (!v1) p.noise_df = get_f64(q + 48), p.persist = get_f64(q + 56), scale = get_f64(q + 64);
  if (v3) p.theta0 = get_f64(q + 72), p.beta_a = get_f64(q + 80), p.beta_b = get_f64(q + 88);
  if (!trv_posterior_params_valid(&p) || !isfinite(scale) || scale < 1 || (p.noise == TRV_NOISE_KNOWN && scale != 1) ||
      (!v1 && !v3 && version_one_model(&p))) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_CORRUPT, "posterior snapshot: parameters out of range");
    return NULL;
  }
  q += n_par * 8;
  TrvPosterior *post = trv_posterior_new((int)n, &p);
  post->noise_scale = scale;
  trv_posterior_derive_model(post);
  for (uint32_t j = 0; j < n; j++, q += n_comp * 8) {
    TrvSuffStats *st[2] = {&post->stats[j], &post->episode[j]};
    bool ok = true;
    for (int k = 0; k < 2; k++) {
      TrvSuffStats *s = st[k];
      const uint8_t *b = q + 32 * k;
      s->n = get_f64(b), s->szz = get_f64(b + 8), s->szw = get_f64(b + 16), s->sww = get_f64(b + 24);
      ok = ok && isfinite(s->n) && isfinite(s->szz) && isfinite(s->szw) && isfinite(s->sww) && s->n >= 0 &&
           s->szz >= 0 && s->sww >= 0;
    }
    post->log_odds[j] = get_f64(q + 64);
    post->begin_lbf[j] = v1 ? post->zero_lbf : get_f64(q + 72);
    if (!ok || !isfinite(post->log_odds[j]) || !isfinite(post->begin_lbf[j])) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_CORRUPT, "posterior snapshot: component %u has invalid statistics", j);
      trv_posterior_free(post);
      return NULL;
    }
  }
  trv_posterior_derive(post);
  return post;
}

/* Bitwise equality of what the snapshot holds, compared in place (no
 * serialization). */
G_STATIC_ASSERT(sizeof(TrvSuffStats) == 4 * sizeof(double)); /* no padding for memcmp */
bool trv_posterior_equal(const TrvPosterior *a, const TrvPosterior *b) {
  if (a->n != b->n || a->params.slab != b->params.slab || a->params.track != b->params.track ||
      a->params.noise != b->params.noise || a->params.likelihood != b->params.likelihood)
    return false;
  const TrvPosteriorParams *p = &a->params, *q = &b->params;
  double pd[12] = {p->pi0,      p->tau2,    p->s2,          p->kappa_min, p->hazard, p->lambda,
                   p->noise_df, p->persist, a->noise_scale, p->theta0,    p->beta_a, p->beta_b};
  double qd[12] = {q->pi0,      q->tau2,    q->s2,          q->kappa_min, q->hazard, q->lambda,
                   q->noise_df, q->persist, b->noise_scale, q->theta0,    q->beta_a, q->beta_b};
  size_t n = (size_t)a->n;
  return memcmp(pd, qd, sizeof pd) == 0 && memcmp(a->stats, b->stats, n * sizeof *a->stats) == 0 &&
         memcmp(a->episode, b->episode, n * sizeof *a->episode) == 0 &&
         memcmp(a->log_odds, b->log_odds, n * sizeof *a->log_odds) == 0 &&
         memcmp(a->begin_lbf, b->begin_lbf, n * sizeof *a->begin_lbf) == 0;
}
