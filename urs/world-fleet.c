/* world-fleet.c - a fleet of drivers on the shared request stream.
 *
 * One minute of a fleet (urs_fleet_step), in this order:
 *   1. busy states that end now end: to-pickup becomes on-trip at the
 *      rider's cell, on-trip becomes idle at the destination, a
 *      repositioning move arrives (idle at the new cell);
 *   2. the minute's new requests join the waiting list (oldest first);
 *   3. every waiting request that has waited URS_MAX_WAIT minutes expires;
 *      the others, oldest first, take the nearest idle driver within
 *      URS_RINGS cells (ring by ring; ties to the smaller driver index);
 *      a driver d rings away fetches the rider in the travel time of d
 *      rings (urs_travel_empty_minutes: d minutes without travel times;
 *      d = 0: the trip starts at once), then drives the trip's minutes;
 *      the wait is the minutes since the request plus the pickup's;
 *      empty kilometres add d cell spacings;
 *      A driver declines an offer more than world.accept_rings rings away
 *      (the default 2 accepts every offer of the disc);
 *   4. drivers still idle whose policy is 1 move one cell toward the best
 *      of their cell and its 6 neighbours, scored by the demand predicted
 *      in the cell's matching disc with the driver's graph divided by
 *      1 + the idle drivers already there or arriving (the driver itself
 *      excluded), busy for the travel time of one cell; ties keep the
 *      driver where it is.  With
 *      world.temperature tau > 0 the move is a draw from the repositioning
 *      distribution P(c) ~ exp((s_c / s_max - 1) / tau) over those 7
 *      cells instead, with a uniform per driver and minute that every
 *      fleet shares (tau -> 0: the best cell).
 * Cost per minute: O(drivers + waiting requests + 19 cells x (waiting
 * requests with an idle driver in their disc + drivers becoming or ceasing
 * to be idle) + idle drivers met), no allocation once the per-episode
 * arrays have grown: each cell counts the idle drivers of its disc, so a
 * request with none near it is passed over without a search.
 * Invariants: see world-internal.h; urs_fleet_check verifies them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "urs/world-internal.h"

void urs_fleet_init(UrsFleet *f, int n, int ncells) {
  memset(f, 0, sizeof *f);
  f->n = n;
  f->drivers = g_new0(UrsDriver, n);
  f->idle_head = g_new(int, ncells);
  for (int c = 0; c < ncells; c++) f->idle_head[c] = -1;
  f->idle_count = g_new0(int, ncells);
  f->disc_idle = g_new0(int, ncells);
  f->incoming = g_new0(int, ncells);
  f->incoming_step = g_new(int, ncells);
  for (int c = 0; c < ncells; c++) f->incoming_step[c] = -1;
  f->status = g_array_sized_new(FALSE, FALSE, sizeof(guint8), 4096);
  f->waiting = g_array_sized_new(FALSE, FALSE, sizeof(int), 1024);
  f->payoff = g_new0(double, n);
  f->target = g_new(int, n);
  for (int d = 0; d < n; d++) f->target[d] = -1;
}

void urs_fleet_free(UrsFleet *f) {
  g_free(f->drivers);
  g_free(f->idle_head);
  g_free(f->idle_count);
  g_free(f->disc_idle);
  g_free(f->incoming);
  g_free(f->incoming_step);
  if (f->status) g_array_free(f->status, TRUE);
  if (f->waiting) g_array_free(f->waiting, TRUE);
  g_free(f->payoff);
  g_free(f->target);
}

/* Adds k to the idle count of every disc that holds cell (the cells of its
 * own disc: a disc is the cells within URS_RINGS, a symmetric relation). */
static void disc_idle_add(const UrsWorld *w, UrsFleet *f, int cell, int k) {
  const int *disc = urs_disc(w, cell);
  for (int i = 0; i < URS_DISC; i++)
    if (disc[i] >= 0) f->disc_idle[disc[i]] += k;
}

static void idle_push(const UrsWorld *w, UrsFleet *f, int d) {
  UrsDriver *v = &f->drivers[d];
  disc_idle_add(w, f, v->cell, 1);
  v->prev = -1;
  v->next = f->idle_head[v->cell];
  if (v->next >= 0) f->drivers[v->next].prev = d;
  f->idle_head[v->cell] = d;
  f->idle_count[v->cell]++;
}

static void idle_remove(const UrsWorld *w, UrsFleet *f, int d) {
  UrsDriver *v = &f->drivers[d];
  disc_idle_add(w, f, v->cell, -1);
  if (v->prev >= 0)
    f->drivers[v->prev].next = v->next;
  else
    f->idle_head[v->cell] = v->next;
  if (v->next >= 0) f->drivers[v->next].prev = v->prev;
  f->idle_count[v->cell]--;
  v->next = v->prev = -1;
}

static void set_state(UrsFleet *f, int d, int state) {
  f->state_count[f->drivers[d].state]--;
  f->state_count[state]++;
  f->drivers[d].state = state;
}

void urs_fleet_reset(const UrsWorld *w, UrsFleet *f, const int *cells) {
  if (f->placed)
    for (int d = 0; d < f->n; d++)
      if (f->drivers[d].state == URS_IDLE) idle_remove(w, f, d);
  memset(f->state_count, 0, sizeof f->state_count);
  f->state_count[URS_IDLE] = f->n;
  for (int d = 0; d < f->n; d++) {
    f->drivers[d] = (UrsDriver){.state = URS_IDLE, .cell = cells[d], .next = -1, .prev = -1};
    idle_push(w, f, d);
    f->payoff[d] = 0;
    f->target[d] = -1;
  }
  f->placed = true;
  g_array_set_size(f->status, 0);
  g_array_set_size(f->waiting, 0);
  memset(f->waits, 0, sizeof f->waits);
  f->served = f->expired = 0;
  f->empty_km = f->wait_sum = 0;
}

/* The idle driver nearest to cell (ring by ring, smaller index on ties), or
 * -1; *ring is its distance. */
static int nearest_idle(const UrsWorld *w, const UrsFleet *f, int cell, int *ring) {
  if (f->disc_idle[cell] == 0) return -1; /* nobody idle in the whole disc */
  const int *disc = urs_disc(w, cell);
  int i = 0;
  /* drivers decline offers beyond world.accept_rings */
  for (int d = 0; d <= URS_RINGS && d <= w->p.accept_rings; d++) {
    int best = -1;
    for (; i < urs_ring_end[d]; i++) {
      if (disc[i] < 0) continue;
      for (int v = f->idle_head[disc[i]]; v >= 0; v = f->drivers[v].next)
        if (best < 0 || v < best) best = v;
    }
    if (best >= 0) {
      *ring = d;
      return best;
    }
  }
  return -1;
}

static void serve(UrsWorld *w, UrsFleet *f, int t, int ri, int d, int ring) {
  const UrsRequest *r = &g_array_index(w->requests, UrsRequest, ri);
  UrsDriver *v = &f->drivers[d];
  idle_remove(w, f, d);
  g_array_index(f->status, guint8, ri) = URS_SERVED;
  f->served++;
  int pickup = urs_travel_empty_minutes(w, ring, t);
  int wait = t - r->created + pickup; /* 0 <= t - created < URS_MAX_WAIT, pickup <= URS_MAX_EMPTY_MIN */
  g_assert(wait >= 0 && wait < URS_WAIT_BINS);
  f->wait_sum += wait;
  f->waits[wait]++;
  f->payoff[d] += 1;
  f->empty_km += ring * w->spacing_km;
  v->pickup = r->origin;
  v->dest = r->dest;
  v->trip = r->trip;
  f->target[d] = -1;
  if (pickup == 0) {
    set_state(f, d, URS_ON_TRIP);
    v->busy_until = t + r->trip;
  } else {
    set_state(f, d, URS_TO_PICKUP);
    v->busy_until = t + pickup;
  }
}

static int arriving(const UrsFleet *f, int cell, int t) { return f->incoming_step[cell] == t ? f->incoming[cell] : 0; }

/* Driver d's uniform of minute t, the same in every fleet (common random
 * numbers: the fleets differ by their graphs only). */
static double driver_uniform(const UrsWorld *w, int d, int t) {
  uint64_t x = trv_mix64(w->seed ^ trv_mix64(((uint64_t)(w->episode + 1) << 32) ^ ((uint64_t)d << 12) ^ (uint64_t)t));
  return (double)(x >> 11) * 0x1.0p-53;
}

static void reposition(UrsWorld *w, UrsFleet *f, int t, int d, int slot) {
  UrsDriver *v = &f->drivers[d];
  const int *disc = urs_disc(w, v->cell);
  int cand[URS_DISC];
  double score[URS_DISC];
  int best = v->cell, n = 0;
  double best_score = urs_predict_score(w, slot, v->cell) / (f->idle_count[v->cell] + arriving(f, v->cell, t));
  cand[n] = v->cell, score[n++] = best_score;
  for (int i = 1; i < urs_ring_end[1]; i++) {
    int c = disc[i];
    if (c < 0) continue;
    double s = urs_predict_score(w, slot, c) / (1 + f->idle_count[c] + arriving(f, c, t));
    cand[n] = c, score[n++] = s;
    if (s > best_score) best_score = s, best = c;
  }
  double tau = w->p.temperature;
  if (tau > 0 && best_score > 0) { /* the repositioning distribution: a draw, not the best */
    double weight[URS_DISC], total = 0;
    for (int i = 0; i < n; i++) total += weight[i] = exp((score[i] / best_score - 1) / tau);
    double u = driver_uniform(w, d, t) * total;
    best = cand[n - 1];
    for (int i = 0; i < n; i++)
      if ((u -= weight[i]) < 0) {
        best = cand[i];
        break;
      }
  }
  if (best == v->cell) return;
  urs_fleet_move(w, f, t, d, best);
}

void urs_fleet_move(UrsWorld *w, UrsFleet *f, int t, int d, int cell) {
  UrsDriver *v = &f->drivers[d];
  g_assert(v->state == URS_IDLE && cell != v->cell);
  idle_remove(w, f, d);
  v->cell = cell;
  set_state(f, d, URS_REPOSITIONING);
  v->busy_until = t + urs_travel_empty_minutes(w, 1, t);
  f->empty_km += w->spacing_km;
  if (f->incoming_step[cell] != t) f->incoming_step[cell] = t, f->incoming[cell] = 0;
  f->incoming[cell]++;
}

void urs_fleet_step(UrsWorld *w, UrsFleet *f, int t, const int *policy, const int *slots) {
  for (int d = 0; d < f->n; d++) {
    UrsDriver *v = &f->drivers[d];
    f->payoff[d] = 0;
    if (v->state == URS_IDLE || v->busy_until > t) continue;
    switch (v->state) {
      case URS_TO_PICKUP:
        v->cell = v->pickup;
        set_state(f, d, URS_ON_TRIP);
        v->busy_until += v->trip;
        break;
      case URS_ON_TRIP:
        v->cell = v->dest;
        set_state(f, d, URS_IDLE);
        idle_push(w, f, d);
        break;
      case URS_REPOSITIONING:
        set_state(f, d, URS_IDLE);
        idle_push(w, f, d);
        break;
    }
  }
  for (int ri = (int)f->status->len; ri < (int)w->requests->len; ri++) {
    guint8 s = URS_WAITING;
    g_array_append_val(f->status, s);
    g_array_append_val(f->waiting, ri);
  }
  int *wait = (int *)(void *)f->waiting->data, kept = 0;
  for (guint i = 0; i < f->waiting->len; i++) {
    int ri = wait[i];
    const UrsRequest *r = &g_array_index(w->requests, UrsRequest, ri);
    if (t - r->created >= URS_MAX_WAIT) {
      g_array_index(f->status, guint8, ri) = URS_EXPIRED;
      f->expired++;
      continue;
    }
    int ring, d = f->state_count[URS_IDLE] > 0 ? nearest_idle(w, f, r->origin, &ring) : -1;
    if (d >= 0)
      serve(w, f, t, ri, d, ring);
    else
      wait[kept++] = ri;
  }
  g_array_set_size(f->waiting, kept);
  if (!policy) return;
  for (int d = 0; d < f->n; d++)
    if (policy[d] == 1 && f->drivers[d].state == URS_IDLE) reposition(w, f, t, d, slots[d]);
}

bool urs_fleet_check(const UrsWorld *w, const UrsFleet *f, const char **why) {
  int count[URS_NSTATES] = {0};
  for (int d = 0; d < f->n; d++) {
    int s = f->drivers[d].state;
    if (s < 0 || s >= URS_NSTATES) return *why = "driver in no known state", false;
    count[s]++;
  }
  for (int s = 0; s < URS_NSTATES; s++)
    if (count[s] != f->state_count[s]) return *why = "state counts differ from the drivers' states", false;
  int listed = 0;
  for (int c = 0; c < w->ncells; c++) {
    int n = 0;
    for (int v = f->idle_head[c]; v >= 0; v = f->drivers[v].next, n++)
      if (f->drivers[v].state != URS_IDLE || f->drivers[v].cell != c)
        return *why = "a driver in an idle list is not idle in that cell", false;
    if (n != f->idle_count[c]) return *why = "idle count differs from the idle list", false;
    listed += n;
  }
  if (listed != count[URS_IDLE]) return *why = "an idle driver is in no idle list", false;
  for (int c = 0; c < w->ncells; c++) {
    const int *disc = urs_disc(w, c);
    int n = 0;
    for (int i = 0; i < URS_DISC; i++)
      if (disc[i] >= 0) n += f->idle_count[disc[i]];
    if (n != f->disc_idle[c]) return *why = "a disc's idle count differs from its cells' idle counts", false;
  }
  int64_t st[3] = {0};
  for (guint i = 0; i < f->status->len; i++) st[g_array_index(f->status, guint8, i)]++;
  if ((int64_t)f->status->len != w->created) return *why = "the fleet has not seen every request", false;
  if (st[URS_SERVED] != f->served || st[URS_EXPIRED] != f->expired || st[URS_WAITING] != (int64_t)f->waiting->len)
    return *why = "request statuses differ from the counters", false;
  if (w->created != f->served + f->expired + (int64_t)f->waiting->len)
    return *why = "created != served + expired + waiting", false;
  int64_t by_wait = 0;
  double minutes = 0;
  for (int m = 0; m < URS_WAIT_BINS; m++) by_wait += f->waits[m], minutes += (double)m * (double)f->waits[m];
  if (by_wait != f->served || minutes != f->wait_sum)
    return *why = "the waits by minute differ from the served requests' waits", false;
  return true;
}

/* The k-th smallest wait, k = ceil(0.95 served): waits are whole minutes,
 * so the counts by minute give it exactly. */
double urs_fleet_wait_p95(const UrsFleet *f) {
  if (!f->served) return 0;
  int64_t k = (f->served * 95 + 99) / 100, below = 0;
  for (int m = 0; m < URS_WAIT_BINS; m++)
    if ((below += f->waits[m]) >= k) return m;
  g_assert_not_reached();
}
