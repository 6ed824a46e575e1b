/* skeleton-msg.c - the skeleton's messages over SimGrid mailboxes, as
 * plugin/sim/cell-sim.c sends and receives Trivium's: a send waited for
 * until a timeout, a detached reply, n receives posted at once and waited
 * for in order until a deadline, and, above COURIER_SLICE comms at once,
 * helper actors on the caller's host that start and wait for
 * COURIER_SLICE each (SimGrid 3.32 scans an actor's list of activities on
 * every completion). */
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <simgrid/semaphore.h>
#include <stdio.h>
#include <stdlib.h>

#include "skeleton.h"

Msg *msg_new(Kind k, int e) {
  Msg *m = calloc(1, sizeof *m);
  m->kind = k;
  m->episode = e;
  m->agent = -1;
  m->bytes = HEADER_BYTES;
  return m;
}
void msg_free(void *m) { free(m); }

int msg_send(sg_mailbox_t mb, Msg *m, double timeout) {
  if (timeout <= 0) {
    free(m);
    return 0;
  }
  if (sg_comm_wait_for(sg_mailbox_put_async(mb, m, m->bytes), timeout) != SG_OK) {
    free(m);
    return 0;
  }
  return 1;
}
sg_comm_t msg_post(sg_mailbox_t mb, Msg *m) { return sg_mailbox_put_async(mb, m, m->bytes); }
void msg_reply(sg_mailbox_t mb, Msg *m) { sg_comm_detach(sg_mailbox_put_init(mb, m, m->bytes), msg_free); }
int msg_finish(sg_comm_t c, Msg *m, double timeout) {
  if (sg_comm_wait_for(c, timeout > 0 ? timeout : 0) != SG_OK) {
    free(m);
    return 0;
  }
  return 1;
}
Msg *msg_wait(sg_mailbox_t mb) {
  for (;;) {
    void *d = NULL;
    if (sg_comm_wait(sg_mailbox_get_async(mb, &d)) == SG_OK) return d;
  }
}
Msg *msg_recv(sg_mailbox_t mb, double timeout) {
  if (timeout <= 0) return NULL;
  void *d = NULL;
  sg_comm_t c = sg_mailbox_get_async(mb, &d);
  return sg_comm_wait_for(c, timeout) == SG_OK ? d : NULL;
}
/* n receives posted at once, waited for in order until the deadline. */
static int recv_slice(sg_mailbox_t mb, int n, double deadline, Msg **out, double *at) {
  void **d = calloc(n, sizeof *d);
  sg_comm_t *c = malloc(n * sizeof *c);
  for (int i = 0; i < n; i++) c[i] = sg_mailbox_get_async(mb, &d[i]);
  int got = 0;
  for (int i = 0; i < n; i++) {
    double left = deadline - simgrid_get_clock();
    if (sg_comm_wait_for(c[i], left > 0 ? left : 0) != SG_OK) continue;
    if (at) at[got] = simgrid_get_clock();
    out[got++] = d[i];
  }
  free(d);
  free(c);
  return got;
}

/* n messages started at once, each waited for in order until the deadline. */
static void send_slice(sg_mailbox_t *mbs, Msg **msgs, int n, double deadline, char *delivered) {
  sg_comm_t *c = malloc(n * sizeof *c);
  for (int i = 0; i < n; i++) c[i] = msg_post(mbs[i], msgs[i]);
  for (int i = 0; i < n; i++) delivered[i] = (char)msg_finish(c[i], msgs[i], deadline - simgrid_get_clock());
  free(c);
}

/* Above COURIER_SLICE comms, helper actors on the caller's host start and
 * wait for COURIER_SLICE each (cell-sim.c: SimGrid scans an actor's list
 * of activities on every completion). */
#define COURIER_SLICE 256
typedef struct {
  sg_sem_t over;
  sg_mailbox_t mb, *mbs;
  Msg **msgs;
  double *at, deadline;
  char *delivered;
  int *got;
} Gather;

static void courier_actor(int argc, char **argv) {
  Gather *g = sg_actor_self_get_data();
  int i = atoi(argv[1]), first = i * COURIER_SLICE, n = atoi(argv[2]);
  (void)argc;
  if (g->mb)
    g->got[i] = recv_slice(g->mb, n, g->deadline, g->msgs + first, g->at ? g->at + first : NULL);
  else
    send_slice(g->mbs + first, g->msgs + first, n, g->deadline, g->delivered + first);
  sg_sem_release(g->over);
}

static int run_couriers(Gather *g, int n) {
  int k = (n + COURIER_SLICE - 1) / COURIER_SLICE;
  g->over = sg_sem_init(0);
  g->got = calloc(k, sizeof *g->got);
  for (int i = 0; i < k; i++) {
    char idx[16], cnt[16];
    snprintf(idx, sizeof idx, "%d", i);
    snprintf(cnt, sizeof cnt, "%d", n - i * COURIER_SLICE < COURIER_SLICE ? n - i * COURIER_SLICE : COURIER_SLICE);
    char *argv[] = {"trivium-courier", idx, cnt, NULL};
    sg_actor_t a = sg_actor_init("trivium-courier", sg_host_self());
    sg_actor_set_data(a, g);
    sg_actor_start(a, courier_actor, 3, argv);
  }
  for (int i = 0; i < k; i++) sg_sem_acquire(g->over);
  sg_sem_destroy(g->over);
  return k;
}

int msg_recv_many(sg_mailbox_t mb, int n, double timeout, Msg **out, double *at) {
  if (n <= 0 || timeout <= 0) return 0;
  double deadline = simgrid_get_clock() + timeout;
  if (n <= COURIER_SLICE) return recv_slice(mb, n, deadline, out, at);
  Gather g = {
      .mb = mb, .msgs = malloc(n * sizeof(Msg *)), .at = at ? malloc(n * sizeof(double)) : NULL, .deadline = deadline};
  int k = run_couriers(&g, n), got = 0;
  for (int i = 0; i < k; i++)
    for (int j = 0; j < g.got[i]; j++) {
      if (at) at[got] = g.at[i * COURIER_SLICE + j];
      out[got++] = g.msgs[i * COURIER_SLICE + j];
    }
  free(g.msgs);
  free(g.at);
  free(g.got);
  return got;
}

void msg_send_many(sg_mailbox_t *mbs, Msg **msgs, int n, double deadline, char *delivered) {
  if (n <= COURIER_SLICE) {
    send_slice(mbs, msgs, n, deadline, delivered);
    return;
  }
  Gather g = {.mbs = mbs, .msgs = msgs, .delivered = delivered, .deadline = deadline};
  run_couriers(&g, n);
  free(g.got);
}
