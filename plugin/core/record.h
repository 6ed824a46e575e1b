/* record.h - one entry of the Causal Transaction Log (docs/ctl.md, "File
 * format (version 2)").
 *
 * A record is what an agent (or the controller) commits after a step: the
 * context it saw, its dispatch and intervention actions, and the outcome.
 * (agent, seq) is the record's identity: a retried commit carries the same
 * pair, so the log can drop the duplicate.  Records are plain values: no
 * pointers, fixed size, so they can be copied into messages and onto disk.
 *
 * Kinds:
 *  - TRV_RECORD_STEP:  an agent step.  a_int >= 0 means the step carried a
 *    probe of component a_int with intervention value z and probe outcome
 *    `outcome`; a_int < 0 means no probe (outcome is then unused).
 *  - TRV_RECORD_RESET: written by the controller at the end of `episode`:
 *    component a_int was reset to the prior (PartialReset: docs/controller.md,
 *    "Drift detectors and PartialReset").
 *  - TRV_RECORD_EPISODE_END: written by the controller once every record of
 *    `episode` is committed; readers see an episode only after its marker.
 * The posterior is a deterministic fold over these (see replay.h). */
#ifndef TRV_RECORD_H
#define TRV_RECORD_H

#include <stdint.h>
#include <trivium/world.h> /* TRV_RECORD_CONTEXT_MAX */

#define TRV_AGENT_CONTROLLER UINT32_MAX

typedef enum {
  TRV_RECORD_STEP = 1,
  TRV_RECORD_RESET = 2,
  TRV_RECORD_EPISODE_END = 3, /* controller: every record of `episode` is in */
} TrvRecordKind;

typedef enum {
  TRV_COMMIT_PENDING = 0,
  TRV_COMMIT_COMMITTED = 1,
  TRV_COMMIT_FAILED = 2,
} TrvCommitStatus;

typedef struct {
  uint64_t seq;   /* per-agent sequence number, from 0 */
  uint32_t agent; /* agent id, TRV_AGENT_CONTROLLER for the controller */
  uint32_t episode;
  uint32_t step;
  uint32_t snapshot_ref; /* episode of the posterior snapshot the agent acted on */
  uint8_t kind;          /* TrvRecordKind */
  uint8_t commit_status; /* TrvCommitStatus */
  uint16_t n_context;    /* used entries of context[] */
  int32_t a_disp;        /* dispatch action */
  int32_t a_int;         /* probed (or reset) component, -1 for none */
  double z;              /* intervention value do(Z = z) */
  double outcome;        /* probe outcome w */
  double reward;         /* payoff of the dispatch action */
  double context[TRV_RECORD_CONTEXT_MAX];
} TrvRecord;

#endif
