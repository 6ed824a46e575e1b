/* rng.c - xoshiro256** streams keyed by (seed, stream).  See rng.h. */
#include "rng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x) { return trv_mix64(*x += 0x9e3779b97f4a7c15ULL); }

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void trv_rng_init(TrvRng *rng, uint64_t seed, uint64_t stream) {
  /* Mix the pair through splitmix first so that (seed, stream) and
   * (seed + 1, stream - 1) do not land on neighbouring states. */
  uint64_t x = seed;
  uint64_t a = splitmix64(&x);
  x = stream ^ 0x5851f42d4c957f2dULL;
  uint64_t b = splitmix64(&x);
  x = a ^ rotl(b, 17);
  for (int i = 0; i < 4; i++) rng->s[i] = splitmix64(&x);
}

uint64_t trv_rng_next_u64(TrvRng *rng) {
  uint64_t *s = rng->s;
  const uint64_t result = rotl(s[1] * 5, 7) * 9;
  const uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

double trv_rng_uniform(TrvRng *rng) { return (double)(trv_rng_next_u64(rng) >> 11) * 0x1.0p-53; }

uint64_t trv_rng_below(TrvRng *rng, uint64_t n) {
  /* Rejection on the top of the range keeps every residue equally likely. */
  uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  uint64_t r;
  do r = trv_rng_next_u64(rng);
  while (r >= limit);
  return r % n;
}

double trv_rng_normal(TrvRng *rng) {
  double u1 = 1.0 - trv_rng_uniform(rng); /* (0, 1]: log is finite */
  double u2 = trv_rng_uniform(rng);
  return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

double trv_rng_sign(TrvRng *rng) { return (trv_rng_next_u64(rng) >> 63) ? 1.0 : -1.0; }
