/* commit.h - the two commit rules (docs/controller.md, "Commit rules").
 *
 *  - executed snapshot (default): if H(P) <= h_ent bits, G_hat <- MAP(P)
 *    with kappa_hat = mu; re-taken at every eligible episode, never absorbing.
 *    Given `active` (NULL: every component), H and the MAP are over the
 *    active components and the others are absent from G_hat.
 *  - ideal frozen commit: component j is frozen into G_hat (present, with
 *    kappa_hat) once EIG_j of one more probe, in nats, is below ln(T)/T and
 *    |kappa_hat_j| >= kappa_min; frozen components stay until a detector
 *    reset clears G_hat.  Components never frozen are absent from G_hat.
 * Both return true when they changed or re-took G_hat this call. */
#ifndef TRV_COMMIT_H
#define TRV_COMMIT_H

#include <stdbool.h>

#include "graph.h"
#include "posterior.h"

typedef enum { TRV_COMMIT_EXECUTED = 0, TRV_COMMIT_IDEAL = 1 } TrvCommitRule;

bool trv_commit_executed(const TrvPosterior *post, const bool *active, double h_ent, TrvGraph *ghat);
bool trv_commit_ideal(const TrvPosterior *post, int steps, double kappa_min, double zabs, TrvGraph *ghat);

#endif
