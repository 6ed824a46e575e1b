/* transfer.c - how long the protocol waits for a transfer: ctl.timeout, or
 * longer where the platform makes the transfer itself longer.
 *
 * An agent's commit is one of many: the agents of a cell close their
 * episodes together (their steps keep the same clock) and each sends its
 * records to every replica at once, so the commits share the links of
 * their routes.  A link that the commits of F agent-replica routes cross
 * takes F / bandwidth seconds for each byte of one commit (a link that is
 * not shared, SimGrid's FATPIPE, 1 / bandwidth); the busiest link of the
 * cell sets the crowd's time.  A commit attempt of b bytes waits
 * ctl.timeout, or TRV_TRANSFER_MARGIN times the crowd's time for b bytes
 * when that is longer: a fleet larger than its network carries in
 * ctl.timeout is given the time its commits take, and only a fault makes
 * them late.  The controller's plans go out to every agent at once as
 * well: their first delivery waits a second (ctl.timeout if less), or the
 * margin times the plans' crowd time over the busiest link from the
 * controller to the agents when that is longer (a shared city's plans:
 * ctl.timeout, or that time), and the failure detector adds what they
 * wait beyond their fixed wait.  The controller's own transfers to and
 * from the replicas (a CLOSE's answer, which carries the episode's
 * records, and DECIDE, which carries the decided ones) go one at a time,
 * over the slowest link of the routes between its host and the
 * replicas'.  Where the crowd's time stays within the fixed waits, every
 * wait is its fixed value.  Bandwidths are the platform's as the cell starts; a wait is at most
 * TRV_TRANSFER_WAIT_MAX, however slow a link a platform declares. */
#include <math.h>

#include "sim-internal.h"

#define ROUTE_MAX 256 /* links of a route counted; a longer route is counted by its first ones */

/* Seconds per byte over the busiest link of the routes between each agent
 * host (counted once per agent on it) and each of the n hosts `ends`:
 * from the agents to the ends, or the other way. */
static double crowd_seconds_per_byte(const Cell *cell, const sg_host_t *ends, int n_ends, bool to_ends) {
  GHashTable *agents_on = g_hash_table_new(NULL, NULL), *flows = g_hash_table_new_full(NULL, NULL, NULL, g_free);
  for (int a = 0; a < cell->n_agents; a++) {
    sg_host_t h = cell->agents[a].host;
    g_hash_table_insert(agents_on, h, GINT_TO_POINTER(GPOINTER_TO_INT(g_hash_table_lookup(agents_on, h)) + 1));
  }
  sg_link_t *route = g_new(sg_link_t, ROUTE_MAX);
  GHashTableIter it;
  gpointer h, n;
  g_hash_table_iter_init(&it, agents_on);
  while (g_hash_table_iter_next(&it, &h, &n))
    for (int r = 0; r < n_ends; r++) {
      size_t len = to_ends ? trv_sim_route_links(h, ends[r], route, ROUTE_MAX)
                           : trv_sim_route_links(ends[r], h, route, ROUTE_MAX);
      for (size_t i = 0; i < len; i++) {
        double *f = g_hash_table_lookup(flows, route[i]);
        if (!f) g_hash_table_insert(flows, route[i], f = g_new0(double, 1));
        *f += GPOINTER_TO_INT(n);
      }
    }
  double spb = 0;
  gpointer l, f;
  g_hash_table_iter_init(&it, flows);
  while (g_hash_table_iter_next(&it, &l, &f)) {
    double bw = sg_link_get_bandwidth(l);
    if (bw > 0 && isfinite(bw)) spb = fmax(spb, (sg_link_is_shared(l) ? *(double *)f : 1.0) / bw);
  }
  g_free(route);
  g_hash_table_destroy(flows);
  g_hash_table_destroy(agents_on);
  return spb;
}

/* Seconds per byte over the slowest link between the controller's host and
 * a replica's, either way. */
static double control_seconds_per_byte(const Cell *cell) {
  sg_link_t *route = g_new(sg_link_t, ROUTE_MAX);
  double spb = 0;
  for (int r = 0; r < cell->n_replicas; r++)
    for (int way = 0; way < 2; way++) {
      sg_host_t from = way ? cell->replicas[r].host : cell->controller_host;
      sg_host_t to = way ? cell->controller_host : cell->replicas[r].host;
      size_t len = trv_sim_route_links(from, to, route, ROUTE_MAX);
      for (size_t i = 0; i < len; i++) {
        double bw = sg_link_get_bandwidth(route[i]);
        if (bw > 0 && isfinite(bw)) spb = fmax(spb, 1.0 / bw);
      }
    }
  g_free(route);
  return spb;
}

void trv_sim_transfer_rates(Cell *cell) {
  sg_host_t *logs = g_new(sg_host_t, cell->n_replicas);
  for (int r = 0; r < cell->n_replicas; r++) logs[r] = cell->replicas[r].host;
  cell->commit_spb = crowd_seconds_per_byte(cell, logs, cell->n_replicas, true);
  cell->plan_spb = crowd_seconds_per_byte(cell, &cell->controller_host, 1, false);
  g_free(logs);
  cell->control_spb = control_seconds_per_byte(cell);
}

/* The margin times the time of `bytes` at spb seconds a byte, bounded. */
static double crowd_time(double spb, long bytes) {
  return fmin(TRV_TRANSFER_WAIT_MAX, TRV_TRANSFER_MARGIN * spb * (double)bytes);
}

double trv_sim_commit_wait(const Cell *cell, long bytes) {
  return fmax(cell->opt->commit_timeout, crowd_time(cell->commit_spb, bytes));
}

double trv_sim_plan_crowd(const Cell *cell, long bytes) { return crowd_time(cell->plan_spb, bytes); }

double trv_sim_control_wait(const Cell *cell, long bytes) {
  return fmax(cell->opt->commit_timeout, crowd_time(cell->control_spb, bytes));
}

long trv_sim_episode_bytes(const Cell *cell, long agents) {
  return 64 + agents * (long)cell->info->steps * (long)sizeof(TrvRecord);
}
