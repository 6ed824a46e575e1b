/* skeleton.h - what the skeleton's simulation (skeleton.c) and its probe
 * schedule (skeleton-schedule.c, the only part that reads Trivium's CTL
 * files) share: the options and, per episode, the controller's own records
 * and each agent's probe steps. */
#ifndef TRIVIUM_BENCH_SKELETON_H
#define TRIVIUM_BENCH_SKELETON_H

#define RECORD_BYTES 128 /* sizeof(TrvRecord), checked in skeleton-schedule.c */

typedef struct {
  const char *platform, *agent_hosts, *schedule, *probes;
  int episodes, steps, agents, replicas, ncomp, cells, jobs, barrier, verbose, retries;
  double step_seconds, step_flops, probe_flops, commit_timeout, episode_timeout, detector_factor;
} SkelParams;
extern SkelParams P;

/* The cell's schedule: per episode, the controller's own records (end
 * marker included) and each agent's probe steps (probe_at[e][a] .. [a+1]
 * in probe_steps[e]). */
extern int *own;
extern int **probe_at, **probe_steps;

void die(const char *what);
int schedule_from_ctl(int n, char **files); /* --schedule-from-ctl: prints the schedule */
void schedule_alloc(void);
void schedule_default(void);
void probes_load(int cell);
void schedule_load(int cell);

static inline int probes_of(int a, int e) { return probe_at[e][a + 1] - probe_at[e][a]; }

#endif
