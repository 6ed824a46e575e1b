/* rng.h - explicitly seeded random streams.
 *
 * Every source of randomness in a run is a TrvRng made from (seed, stream):
 * the world's noise, the probe signs, a controller's exploration, each a
 * stream of its own.  A stream's sequence depends only on those two numbers,
 * never on which process, worker or order the cells of a sweep run in, which
 * is what makes runs bit-identical whatever --jobs is.  GRand is not used
 * because its sequence is not promised to stay fixed across GLib versions.
 *
 * Generator: xoshiro256** (Blackman & Vigna), state filled by splitmix64 from
 * a 64-bit mix of seed and stream.  Normals: Box-Muller, no cached pair, so
 * the n-th normal of a stream is a function of the stream alone. */
#ifndef TRV_RNG_H
#define TRV_RNG_H

#include <stdint.h>

typedef struct {
  uint64_t s[4];
} TrvRng;

/* Named streams, so that two parts of the program never share one. */
enum {
  TRV_STREAM_WORLD = 1,       /* structural noise of the world */
  TRV_STREAM_PROBE = 2,       /* probe designs (signs of z) */
  TRV_STREAM_POLICY = 3,      /* exploration of a controller's policy */
  TRV_STREAM_SCHEDULE = 4,    /* the uniform-random scheduler */
  TRV_STREAM_DISPATCH = 5,    /* payoff noise of the dispatch head */
  TRV_STREAM_FAULTS = 6,      /* scenario fault processes */
  TRV_STREAM_PROBE_NOISE = 7, /* noise of probe outcomes */
  TRV_STREAM_AGENT = 8,       /* an agent's own stream (trivium_episode_uniform), + 100 x its index */
  TRV_STREAM_STRUCTURE = 9,   /* a world's schedule of structural changes (random change-points) */
};

/* Seeds rng from (seed, stream).  Equal inputs give equal sequences. */
void trv_rng_init(TrvRng *rng, uint64_t seed, uint64_t stream);
/* The splitmix64 finaliser: a bijection of 64 bits that mixes every input
 * bit into every output bit (for hash tables keyed by 64-bit integers). */
static inline uint64_t trv_mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
uint64_t trv_rng_next_u64(TrvRng *rng);
/* Uniform on [0, 1) with 53 random bits. */
double trv_rng_uniform(TrvRng *rng);
/* Uniform integer in [0, n), n > 0, without modulo bias. */
uint64_t trv_rng_below(TrvRng *rng, uint64_t n);
/* Standard normal. */
double trv_rng_normal(TrvRng *rng);
/* +1 or -1 with equal probability. */
double trv_rng_sign(TrvRng *rng);

#endif
