/* sim-faults.c - scenario fault processes turned into SimGrid state changes.
 *
 * Every fault is precomputed, from the seed's fault stream, into intervals
 * during which a link or a host is off; the intervals of one resource are
 * merged, and one daemon actor, the fault driver, walks the resulting
 * events in time order, turning links off and on (Link::turn_off/turn_on
 * through sim-s4u.cpp) and hosts off and on (sg_host_turn_off/on; actors
 * on a host die with it and auto-restart when it comes back).  A schedule
 * is a pure function of (seed, scenario, resource name): runs reproduce.
 *  - link-flap: per matching link, up for Exp(mtbf), down for Exp(mttr),
 *    from `start` to `stop` (0 or +inf: a horizon of 1e5 s);
 *  - host-crash: per matching host, off on [at, at + duration);
 *  - partition: off on [at, at + duration), the links that carry traffic
 *    between the matching hosts and the others and none within either side.
 * The driver runs on a host no host-crash targets (it must outlive what it
 * turns off); a scenario in which every host may crash is refused.  A
 * pattern that matches nothing is an input error. */
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim-internal.h"

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(trivium_faults, trivium, "Trivium: the scenario's fault processes");

#define HORIZON 1e5


typedef struct {
  double t;
  bool on;
  sg_link_t link; /* one of link, host */
  sg_host_t host;
  int order; /* ties: stable by creation */
} FaultEvent;

typedef struct {
  double from, to;
} Interval;

static GArray *events; /* FaultEvent, sorted */

static int cmp_interval(const void *a, const void *b) {
  const Interval *x = a, *y = b;
  return x->from < y->from ? -1 : x->from > y->from;
}

static int cmp_event(const void *a, const void *b) {
  const FaultEvent *x = a, *y = b;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  return x->order - y->order;
}

static int cmp_link_name(const void *a, const void *b) {
  return strcmp(sg_link_get_name(*(const sg_link_t *)a), sg_link_get_name(*(const sg_link_t *)b));
}

static bool name_matches(const char *globs, const char *name) {
  char **pats = g_strsplit(globs, ",", -1);
  bool hit = false;
  for (int i = 0; pats[i] && !hit; i++) hit = fnmatch(g_strstrip(pats[i]), name, 0) == 0;
  g_strfreev(pats);
  return hit;
}

static double exponential(TrvRng *rng, double mean) { return -mean * log1p(-trv_rng_uniform(rng)); }

/* Merges a resource's off-intervals into off/on events. */
static void add_events(GArray *iv, sg_link_t link, sg_host_t host) {
  if (iv->len == 0) return;
  qsort(iv->data, iv->len, sizeof(Interval), cmp_interval);
  double from = g_array_index(iv, Interval, 0).from, to = g_array_index(iv, Interval, 0).to;
  for (guint k = 1; k <= iv->len; k++) {
    Interval *i = k < iv->len ? &g_array_index(iv, Interval, k) : NULL;
    if (i && i->from <= to) {
      if (i->to > to) to = i->to;
      continue;
    }
    FaultEvent off = {from, false, link, host, (int)events->len}, on = {to, true, link, host, (int)events->len + 1};
    g_array_append_val(events, off);
    g_array_append_val(events, on);
    if (i) from = i->from, to = i->to;
  }
}

/* Links on some route between a host of `a` and a host of `b`. */
static void links_between(GPtrArray *a, GPtrArray *b, GHashTable *out) {
  sg_link_t buf[256];
  for (guint i = 0; i < a->len; i++)
    for (guint j = 0; j < b->len; j++) {
      if (a->pdata[i] == b->pdata[j]) continue;
      size_t n = trv_sim_route_links(a->pdata[i], b->pdata[j], buf, G_N_ELEMENTS(buf));
      for (size_t k = 0; k < n; k++) g_hash_table_add(out, buf[k]);
    }
}

/* Not a daemon: while the controller's host is down (its actor dead until
 * the host returns) the driver is what keeps the simulation going.  The
 * controller kills it when the run is over. */
static void fault_driver(int argc, char **argv) {
  (void)argc;
  (void)argv;
  for (guint i = 0; i < events->len; i++) {
    const FaultEvent *ev = &g_array_index(events, FaultEvent, i);
    if (ev->t > simgrid_get_clock()) sg_actor_sleep_for(ev->t - simgrid_get_clock());
    if (ev->link) {
      XBT_INFO("link %s %s", sg_link_get_name(ev->link), ev->on ? "up" : "down");
      trv_sim_link_set_on(ev->link, ev->on);
    } else {
      XBT_INFO("host %s %s", sg_host_get_name(ev->host), ev->on ? "on" : "off");
      if (ev->on) sg_host_turn_on(ev->host);
      else sg_host_turn_off(ev->host);
    }
  }
  trv_sim_cell->fault_driver = NULL; /* done: nothing left for the controller to stop */
}

bool trv_sim_install_faults(Cell *cell, GError **error) {
  const TrvSimOptions *opt = cell->opt;
  if (opt->n_faults == 0) return true;
  size_t n_links = sg_link_count(), n_hosts = sg_host_count();
  sg_link_t *links = sg_link_list();
  sg_host_t *hosts = sg_host_list();
  qsort(links, n_links, sizeof *links, cmp_link_name);
  if (events) g_array_free(events, TRUE);
  events = g_array_new(FALSE, FALSE, sizeof(FaultEvent));
  GArray **link_iv = g_new(GArray *, n_links), **host_iv = g_new(GArray *, n_hosts);
  for (size_t l = 0; l < n_links; l++) link_iv[l] = g_array_new(FALSE, FALSE, sizeof(Interval));
  for (size_t h = 0; h < n_hosts; h++) host_iv[h] = g_array_new(FALSE, FALSE, sizeof(Interval));
  bool ok = true;
  for (size_t f = 0; f < opt->n_faults && ok; f++) {
    const TrvFaultSpec *fs = &opt->faults[f];
    int matched = 0;
    if (fs->kind == TRV_FAULT_LINK_FLAP) {
      double stop = fs->stop > 0 && fs->stop < HORIZON ? fs->stop : HORIZON;
      for (size_t l = 0; l < n_links; l++) {
        const char *name = sg_link_get_name(links[l]);
        if (!name_matches(fs->pattern, name)) continue;
        matched++;
        TrvRng rng; /* keyed by the link's name: independent of the platform's order */
        trv_rng_init(&rng, cell->spec->seed, TRV_STREAM_FAULTS + ((uint64_t)(f + 1) << 32) + g_str_hash(name));
        for (double t = fs->start + exponential(&rng, fs->mtbf); t < stop; t += exponential(&rng, fs->mtbf)) {
          double down = exponential(&rng, fs->mttr);
          Interval i = {t, fmin(t + down, stop)};
          g_array_append_val(link_iv[l], i);
          t += down;
        }
      }
    } else if (fs->kind == TRV_FAULT_HOST_CRASH) {
      for (size_t h = 0; h < n_hosts; h++)
        if (name_matches(fs->pattern, sg_host_get_name(hosts[h]))) {
          matched++;
          Interval i = {fs->at, fs->at + fs->duration};
          if (i.to > i.from) g_array_append_val(host_iv[h], i);
        }
    } else {
      GPtrArray *in = g_ptr_array_new(), *out = g_ptr_array_new();
      for (size_t h = 0; h < n_hosts; h++)
        g_ptr_array_add(name_matches(fs->pattern, sg_host_get_name(hosts[h])) ? in : out, hosts[h]);
      GHashTable *cross = g_hash_table_new(NULL, NULL), *inside = g_hash_table_new(NULL, NULL);
      links_between(in, out, cross);
      links_between(in, in, inside);
      links_between(out, out, inside);
      for (size_t l = 0; in->len && l < n_links; l++)
        if (g_hash_table_contains(cross, links[l]) && !g_hash_table_contains(inside, links[l])) {
          matched++;
          Interval i = {fs->at, fs->at + fs->duration};
          if (i.to > i.from) g_array_append_val(link_iv[l], i);
        }
      g_hash_table_destroy(cross);
      g_hash_table_destroy(inside);
      g_ptr_array_free(in, TRUE);
      g_ptr_array_free(out, TRUE);
    }
    if (matched == 0) {
      const char *what = fs->kind == TRV_FAULT_HOST_CRASH ? "host" : fs->kind == TRV_FAULT_LINK_FLAP
                                                                          ? "link"
                                                                          : "link between the set and the others";
      if (fs->line)
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "fault %zu (scenario line %d): '%s' matches no %s of %s",
                    f + 1, fs->line, fs->pattern, what, opt->platform);
      else
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "fault %zu: '%s' matches no %s of %s", f + 1, fs->pattern, what,
                    opt->platform);
      ok = false;
    }
  }
  sg_host_t driver = NULL;
  for (size_t l = 0; ok && l < n_links; l++) add_events(link_iv[l], links[l], NULL);
  for (size_t h = 0; ok && h < n_hosts; h++) {
    add_events(host_iv[h], NULL, hosts[h]);
    if (!driver && host_iv[h]->len == 0) driver = hosts[h];
  }
  if (ok && !driver) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "%s: every host is the target of a host-crash: none is left to run the fault processes", opt->platform);
    ok = false;
  }
  if (ok) {
    qsort(events->data, events->len, sizeof(FaultEvent), cmp_event);
    cell->fault_driver = sg_actor_init("trivium-faults", driver);
    sg_actor_start(cell->fault_driver, fault_driver, 0, NULL);
  }
  for (size_t l = 0; l < n_links; l++) g_array_free(link_iv[l], TRUE);
  for (size_t h = 0; h < n_hosts; h++) g_array_free(host_iv[h], TRUE);
  g_free(link_iv);
  g_free(host_iv);
  g_free(links);
  g_free(hosts);
  return ok;
}
