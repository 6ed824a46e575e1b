/* skeleton.h - what the skeleton's simulation (skeleton.c), its messages
 * (skeleton-msg.c) and its probe schedule (skeleton-schedule.c, the only
 * part that reads Trivium's CTL files) share: the options, the messages
 * and, per episode, the controller's own records and each agent's probe
 * steps. */
#ifndef TRIVIUM_BENCH_SKELETON_H
#define TRIVIUM_BENCH_SKELETON_H

#include <simgrid/forward.h>

#define RECORD_BYTES 128 /* sizeof(TrvRecord), checked in skeleton-schedule.c */
#define HEADER_BYTES 64

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

/* Messages (skeleton-msg.c): the sizes Trivium's have on the wire. */
typedef enum { PLAN, DONE, COMMIT, ACK, NACK, CLOSE, CLOSED, DECIDE, STOP } Kind;

typedef struct {
  Kind kind;
  int episode, agent, tag;
  long bytes;
  long n; /* COMMIT: records carried; CLOSED: records held */
  double until;
  sg_mailbox_t reply;
} Msg;
Msg *msg_new(Kind k, int e);
void msg_free(void *m);
int msg_send(sg_mailbox_t mb, Msg *m, double timeout); /* frees m when not delivered */
sg_comm_t msg_post(sg_mailbox_t mb, Msg *m);
void msg_reply(sg_mailbox_t mb, Msg *m); /* detached */
int msg_finish(sg_comm_t c, Msg *m, double timeout);
Msg *msg_wait(sg_mailbox_t mb);
Msg *msg_recv(sg_mailbox_t mb, double timeout);
int msg_recv_many(sg_mailbox_t mb, int n, double timeout, Msg **out, double *at);
void msg_send_many(sg_mailbox_t *mbs, Msg **msgs, int n, double deadline, char *delivered);

/* A shared city's round (skeleton-city.c, as plugin/sim/city-round.c):
 * city_alloc once (agent a on hosts[a % n_hosts]); per episode city_open
 * (the member flags it returns are filled by the plans' delivery), then
 * city_fix, which starts the host actors and returns the participants;
 * play_hosted is an agent's episode in the round, 0 when it is none. */
void city_alloc(const sg_host_t *hosts, int n_hosts);
char *city_open(int e, int tag, double start);
int city_fix(void);
int play_hosted(int a, int e, int tag);

/* How long a transfer may take (skeleton-transfer.c, as
 * plugin/sim/transfer.c): transfer_rates once the cell is placed (agent a
 * on ah[a % na], replica r on rh[r % nr], the controller on ch), then
 * ctl.timeout or the platform's time for the transfer when longer: one
 * commit attempt (every agent committing as much at once), every agent's
 * plan at once (no floor), the controller's to or from a replica. */
void transfer_rates(const sg_host_t *ah, int na, const sg_host_t *rh, int nr, sg_host_t ch);
double commit_wait(long bytes);
double plan_crowd(long bytes);
double control_wait(long bytes);

static inline int probes_of(int a, int e) { return probe_at[e][a + 1] - probe_at[e][a]; }

#endif
