/* causalbench.h - the CausalBench-Seq world's parameters (world.*): its
 * variants and the coefficients of its structural model (docs/scenarios.md,
 * "<world name=...>"; the variants' experiments in docs/experiments/).
 * The world is causalbench.c, which declares these rows; nothing outside
 * the world needs this header but the world's tests. */
#ifndef TRV_CAUSALBENCH_H
#define TRV_CAUSALBENCH_H

#include <trivium/world.h>

typedef enum {
  TRV_VARIANT_HEADLINE = 0,
  TRV_VARIANT_FLIPS = 1,
  TRV_VARIANT_VARIANCE = 2,
  TRV_VARIANT_NONLINEAR = 3,
  TRV_VARIANT_SEPARATION = 4,
  TRV_VARIANT_TANH = 5,
  TRV_VARIANT_RANDOM = 6,
  TRV_VARIANT_OUTSIDE = 7,
} TrvVariant;

typedef struct {
  int variant; /* TrvVariant */
  int flips;
  int components; /* |G_inf| (3: C->X, C->Y, X->Y; more: extra hidden confounders) */
  double a, b, kappa, s, s_high, nu;
  double tanh_scale;      /* tanh variant: a of a tanh(nu u)/tanh(nu a); 0: budget.zabs */
  double disruption_rate; /* random variant: per-episode probability of a flip of X->Y */
} TrvCausalbenchParams;

extern const TrvParamBlock trv_causalbench_params;

#endif
