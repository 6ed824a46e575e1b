/* ctl-params.c - the rows of ctl.*.  See ctl-params.h. */
#include "ctl-params.h"

static const char *const mode_names[] = {"atomic", "best-effort", NULL};
static const char *const fsync_names[] = {"always", "group", "none", NULL};

static const TrvParamSpec specs[] = {
    TRV_ROW_ENUM(
        TrvCtlParams, "ctl.mode", mode, "atomic", mode_names,
        "log commits: atomic (acknowledged, idempotent, majority of replicas) or best-effort (fire and forget)"),
    TRV_ROW_INT(TrvCtlParams, "ctl.replicas", replicas, 1, 1, 15,
                "CTL replicas; a record is committed when a majority acknowledges"),
    TRV_ROW_DOUBLE(TrvCtlParams, "ctl.timeout", timeout, 5.0, 1e-9, 1e9,
                   "commit timeout per attempt (simulated seconds), longer where the agents' commits together take "
                   "longer on the platform (twice their time over the busiest link)"),
    TRV_ROW_INT(TrvCtlParams, "ctl.retries", retries, 3, 0, 1000, "commit retries after a timeout or network error"),
    TRV_ROW_ENUM(TrvCtlParams, "ctl.fsync", fsync, "none", fsync_names,
                 "log fsync policy: always (one fdatasync per record), group (one per 64 records or 10 ms), none (only "
                 "at close: a process crash loses nothing, a power loss may)"),
};

const TrvParamBlock trv_ctl_params = TRV_BLOCK(TrvCtlParams, specs);
