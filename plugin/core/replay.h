/* replay.h - the posterior as a deterministic fold over CTL records.
 *
 * The live controller and every replay (from zero, from a snapshot, after
 * compaction) apply records through this one function, so they cannot
 * disagree.  Fold of one episode e, given all of e's committed records:
 *   1. trv_posterior_episode_begin()            (hazard / forgetting)
 *   2. every TRV_RECORD_STEP record of a known component (0 <= a_int <
 *      n_components), in (step, agent, seq) order, step by step: each
 *      record's trv_posterior_add_probe(a_int, z, outcome), then at the
 *      step's end trv_posterior_settle of every component it probed, in
 *      component order (trv_fold_step).  One Bayes factor per component
 *      and step: components do not share state, so this is the fold
 *      record by record (trv_posterior_observe) whenever no component has
 *      two probes in one step, which only agents probing in coalitions
 *      give it.
 *   3. every TRV_RECORD_RESET record, in component order:
 *      trv_posterior_reset_component(a_int)
 * Records of other episodes are ignored; the caller groups by episode. */
#ifndef TRV_REPLAY_H
#define TRV_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "posterior.h"
#include "record.h"

/* Sorts recs in place into fold order, then folds them into post.
 * All records must belong to one episode. */
void trv_replay_episode(TrvPosterior *post, TrvRecord *recs, size_t n);
/* Folds the step records of recs[i]'s step (step 2 above; recs in fold
 * order, recs[i] a step record of a known component) into post; returns the
 * index after them and, in *settled if not NULL (only for posteriors of
 * at most 64 components), the mask of the components they probed.  Records the fold does not take in (unknown
 * components, other kinds) among them are skipped. */
size_t trv_fold_step(TrvPosterior *post, const TrvRecord *recs, size_t i, size_t n, uint64_t *settled);
/* The fold order of recs as a permutation (g_free it): the i-th record in
 * fold order is recs[order[i]].  Linear time when the records span few
 * (kind, step, agent) values, as one episode's do (a counting sort on those,
 * then seq and a_int within each), an index qsort otherwise.  The order is
 * the unique sorted one whenever no two records are equal in all five keys. */
size_t *trv_records_fold_order(const TrvRecord *recs, size_t n);
/* Sorts recs in place into fold order. */
void trv_records_sort_fold(TrvRecord *recs, size_t n);
/* Total order used by the fold: (kind, step, agent, seq, a_int). */
int trv_record_fold_cmp(const void *a, const void *b);

#endif
