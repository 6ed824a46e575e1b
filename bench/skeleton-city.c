/* skeleton-city.c - the skeleton's shared city (skeleton.h): what
 * plugin/sim/city-round.c does with SimGrid, without the world.  Each
 * participant of an episode hands it to its host's actor, which steps
 * them all together: their work on the world's clock as one execution per
 * core, the sleep to the step's end, the step's end counted in agents (the
 * last to arrive releases the others, who wait on semaphores). */
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/exec.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skeleton.h"

/* One host's participants, stepped by one actor (city-round.c). */
typedef struct {
  sg_host_t host;
  int *agents, n, handed, waiting;
  sg_sem_t sem;
} HostRound;

static sg_host_t *agent_host; /* per agent */

static struct {
  int episode, tag, fixed, members, arrivals;
  char *member;
  int *waiting;
  sg_sem_t *sem;
  sg_sem_t *waiters; /* who arrived at the current step and waits */
  int n_waiters;
  HostRound *hosts, **host_of;
  int n_hosts;
  double start;
} R = {.episode = -1};

/* n participants arrive: the last moves the city (nothing here) and lets
 * the others go on. */
static void round_arrive(int n, sg_sem_t sem) {
  R.arrivals += n;
  if (R.arrivals == R.members) {
    R.arrivals = 0;
    int n_waiters = R.n_waiters; /* a release lets its participant run, and perhaps arrive again */
    sg_sem_t *waiters = malloc(n_waiters * sizeof *waiters);
    memcpy(waiters, R.waiters, n_waiters * sizeof *waiters);
    R.n_waiters = 0;
    for (int i = 0; i < n_waiters; i++) sg_sem_release(waiters[i]);
    free(waiters);
    return;
  }
  R.waiters[R.n_waiters++] = sem;
  sg_sem_acquire(sem);
}

/* T steps of a host's participants: their work on the world's clock as
 * one execution per core (the agents' work dealt round the cores), the
 * sleep to the step's end, the step's end for all of them. */
static void host_round_actor(int argc, char **argv) {
  (void)argc;
  HostRound *h = &R.hosts[atoi(argv[1])];
  int e = R.episode;
  while (h->handed < h->n) {
    h->waiting = 1;
    sg_sem_acquire(h->sem);
    h->waiting = 0;
  }
  const int **probe = malloc(h->n * sizeof *probe), **probe_end = malloc(h->n * sizeof *probe_end);
  for (int i = 0; i < h->n; i++) {
    probe[i] = probe_steps[e] + probe_at[e][h->agents[i]];
    probe_end[i] = probe_steps[e] + probe_at[e][h->agents[i] + 1];
  }
  int cores = sg_host_core_count(h->host);
  cores = cores < 1 ? 1 : cores > 64 ? 64 : cores;
  double start = R.start;
  for (int t = 0; t < P.steps; t++) {
    if (P.step_seconds > 0) {
      double lane[64] = {0};
      for (int i = 0; i < h->n; i++) {
        int probing = probe[i] < probe_end[i] && *probe[i] == t;
        probe[i] += probing;
        lane[i % cores] += P.step_flops + (probing ? P.probe_flops : 0.0);
      }
      int lanes = h->n < cores ? h->n : cores;
      if (lanes == 1) {
        if (lane[0] > 0) sg_actor_execute(lane[0]);
      } else {
        sg_exec_t execs[64];
        int started = 0;
        for (int k = 0; k < lanes; k++)
          if (lane[k] > 0) execs[started++] = sg_actor_exec_async(lane[k]);
        for (int k = 0; k < started; k++) sg_exec_wait(execs[k]);
      }
      double end = start + P.step_seconds;
      if (!(simgrid_get_clock() > end)) sg_actor_sleep_until(end);
    }
    round_arrive(h->n, h->sem);
    start = simgrid_get_clock();
  }
  for (int i = 0; i < h->n; i++) sg_sem_release(R.sem[h->agents[i]]);
  free(probe);
  free(probe_end);
}

int city_fix(void) {
  R.fixed = 1;
  R.members = R.arrivals = R.n_waiters = 0;
  for (int i = 0; i < P.agents; i++) R.members += R.member[i];
  for (int k = 0; k < R.n_hosts; k++) {
    sg_sem_destroy(R.hosts[k].sem);
    free(R.hosts[k].agents);
  }
  R.n_hosts = 0;
  for (int a = 0; a < P.agents; a++) {
    R.host_of[a] = NULL;
    if (!R.member[a]) continue;
    int k = 0;
    while (k < R.n_hosts && R.hosts[k].host != agent_host[a]) k++;
    if (k == R.n_hosts) {
      R.hosts[k] = (HostRound){agent_host[a], malloc(P.agents * sizeof(int)), 0, 0, 0, sg_sem_init(0)};
      R.n_hosts++;
    }
    R.hosts[k].agents[R.hosts[k].n++] = a;
    R.host_of[a] = &R.hosts[k];
  }
  for (int k = 0; k < R.n_hosts; k++) {
    char name[64], idx[16];
    snprintf(name, sizeof name, "trivium-city-%s", sg_host_get_name(R.hosts[k].host));
    snprintf(idx, sizeof idx, "%d", k);
    char *argv[] = {name, idx, NULL};
    sg_actor_start(sg_actor_init(name, R.hosts[k].host), host_round_actor, 2, argv);
  }
  for (int i = 0; i < P.agents; i++)
    if (R.waiting[i]) {
      R.waiting[i] = 0;
      sg_sem_release(R.sem[i]);
    }
  return R.members;
}

/* An agent's episode in the round: handed to its host's actor; 0 when it
 * is no participant. */
int play_hosted(int a, int e, int tag) {
  while (!R.fixed && R.episode == e && R.tag == tag) {
    R.waiting[a] = 1;
    sg_sem_acquire(R.sem[a]);
    R.waiting[a] = 0;
  }
  HostRound *h = R.episode == e && R.tag == tag && R.member[a] ? R.host_of[a] : NULL;
  if (!h) return 0;
  h->handed++;
  if (h->waiting) sg_sem_release(h->sem);
  sg_sem_acquire(R.sem[a]);
  return 1;
}

void city_alloc(const sg_host_t *hosts, int n_hosts) {
  R.member = calloc(P.agents, 1);
  R.waiters = malloc(P.agents * sizeof *R.waiters);
  R.hosts = calloc(P.agents, sizeof *R.hosts);
  R.host_of = calloc(P.agents, sizeof *R.host_of);
  agent_host = malloc(P.agents * sizeof *agent_host);
  for (int a = 0; a < P.agents; a++) agent_host[a] = hosts[a % n_hosts];
  R.waiting = calloc(P.agents, sizeof *R.waiting);
  R.sem = malloc(P.agents * sizeof *R.sem);
  for (int a = 0; a < P.agents; a++) R.sem[a] = sg_sem_init(0);
}

char *city_open(int e, int tag, double start) {
  R.episode = e;
  R.tag = tag;
  R.fixed = 0;
  memset(R.member, 0, P.agents);
  R.start = start;
  return R.member;
}
