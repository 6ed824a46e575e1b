/* skeleton-transfer.c - how long the skeleton waits for a transfer, as
 * plugin/sim/transfer.c: ctl.timeout, or TRANSFER_MARGIN times what the
 * platform needs for it when longer.  The seconds per byte are measured
 * once, on the routes of the cell as placed: the agents' commits to every
 * replica together over their busiest link (a shared link crossed by F
 * agent-replica routes: F / bandwidth; a FATPIPE: 1 / bandwidth), the
 * plans from the controller to every agent likewise, and the controller's
 * transfers to and from a replica over the slowest link of those routes. */
#include <math.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdlib.h>
#include <xbt/dynar.h>

#include "skeleton.h"

#define TRANSFER_MARGIN 2.0
#define TRANSFER_WAIT_MAX 1e9 /* as transfer.c */
#define ROUTE_MAX 256         /* links of a route counted, as transfer.c */

static double commit_spb, plan_spb, control_spb;

/* The route from -> to, of which the first *n links (at most ROUTE_MAX) count. */
static xbt_dynar_t route(sg_host_t from, sg_host_t to, unsigned *n) {
  xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
  sg_host_get_route(from, to, links);
  *n = xbt_dynar_length(links) < ROUTE_MAX ? xbt_dynar_length(links) : ROUTE_MAX;
  return links;
}

/* A link's bandwidth, 0 when it does not count (not positive, not finite). */
static double bandwidth(sg_link_t l) {
  double bw = sg_link_get_bandwidth(l);
  return bw > 0 && isfinite(bw) ? bw : 0;
}

/* Seconds per byte over the busiest link of the routes between each agent
 * (agent a on ah[a % na], counted once per agent on a host) and each of
 * the n_ends hosts ends: to them or from them. */
static double crowd(const sg_host_t *ah, int na, const sg_host_t *ends, int n_ends, int to_ends) {
  sg_link_t *link = NULL;
  double *flows = NULL, spb = 0;
  int n_links = 0;
  for (int k = 0; k < na && k < P.agents; k++) {
    int agents = P.agents / na + (k < P.agents % na);
    for (int r = 0; r < n_ends; r++) {
      unsigned len;
      xbt_dynar_t links = to_ends ? route(ah[k], ends[r], &len) : route(ends[r], ah[k], &len);
      for (unsigned i = 0; i < len; i++) {
        sg_link_t l = xbt_dynar_get_as(links, i, sg_link_t);
        int f = 0;
        while (f < n_links && link[f] != l) f++;
        if (f == n_links) {
          link = realloc(link, (n_links + 1) * sizeof *link);
          flows = realloc(flows, (n_links + 1) * sizeof *flows);
          link[f] = l, flows[f] = 0, n_links++;
        }
        flows[f] += agents;
      }
      xbt_dynar_free(&links);
    }
  }
  for (int f = 0; f < n_links; f++)
    if (bandwidth(link[f]) > 0) spb = fmax(spb, (sg_link_is_shared(link[f]) ? flows[f] : 1.0) / bandwidth(link[f]));
  free(link);
  free(flows);
  return spb;
}

void transfer_rates(const sg_host_t *ah, int na, const sg_host_t *rh, int nr, sg_host_t ch) {
  sg_host_t *logs = malloc(P.replicas * sizeof *logs);
  for (int r = 0; r < P.replicas; r++) logs[r] = rh[r % nr];
  commit_spb = crowd(ah, na, logs, P.replicas, 1);
  plan_spb = crowd(ah, na, &ch, 1, 0);
  control_spb = 0;
  for (int r = 0; r < P.replicas; r++)
    for (int way = 0; way < 2; way++) {
      unsigned len;
      xbt_dynar_t links = way ? route(logs[r], ch, &len) : route(ch, logs[r], &len);
      for (unsigned i = 0; i < len; i++) {
        double bw = bandwidth(xbt_dynar_get_as(links, i, sg_link_t));
        if (bw > 0) control_spb = fmax(control_spb, 1.0 / bw);
      }
      xbt_dynar_free(&links);
    }
  free(logs);
}

static double crowd_time(double spb, long bytes) {
  return fmin(TRANSFER_WAIT_MAX, TRANSFER_MARGIN * spb * (double)bytes);
}
double commit_wait(long bytes) { return fmax(P.commit_timeout, crowd_time(commit_spb, bytes)); }
double plan_crowd(long bytes) { return crowd_time(plan_spb, bytes); }
double control_wait(long bytes) { return fmax(P.commit_timeout, crowd_time(control_spb, bytes)); }
