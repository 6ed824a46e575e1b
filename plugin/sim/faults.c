/* faults.c - scenario fault processes turned into SimGrid state changes.
 *
 * Each fault process gives, per resource it touches, a sequence of
 * off-intervals; one actor, the fault driver, plays them in time order,
 * turning links off and on (Link::turn_off/turn_on through s4u.cpp) and
 * hosts off and on (sg_host_turn_off/on; actors on a host die with it and
 * auto-restart when it comes back).
 *  - link-flap: per matching link, up for a time of mean mtbf, down for a
 *    time of mean mttr (exponential, or Weibull or lognormal of the given
 *    shape: trv_sim_flap_period), from `start` to `stop` (0 or +inf: to the
 *    end of the run).  Its intervals are drawn as the run goes, one at a
 *    time, so a process costs the same memory however long the run is;
 *  - host-crash: per matching host, off on [at, at + duration);
 *  - partition: off on [at, at + duration), the links that carry traffic
 *    between the matching hosts and the others and none within either side;
 *  - fault-trace: per resource of the trace and per link (down/up lines) or
 *    host (off/on lines) it names, the trace's intervals, read in turn from
 *    the trace the scenario holds; an interval without an end lasts to the
 *    end of the run.
 * A resource is off while at least one of its intervals is open (a count
 * per resource); at equal times intervals open before they close, so
 * touching intervals never flicker.  A schedule is a pure function of
 * (seed, scenario, resource name): runs reproduce whatever the platform's
 * order.  The driver keeps the sources in a binary heap ordered by (time
 * of the next event, openings first, creation order), a total order, so
 * the events come in the same order as a scan of every source would give,
 * at a cost logarithmic in the sources (a trace may give thousands).  The
 * driver runs on a host no host-crash or trace targets (it must outlive
 * what it turns off); a scenario in which every host may go off is
 * refused.  A pattern or trace name that matches nothing is an input
 * error.  The controller stops the driver when the run is over. */
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "sim-internal.h"

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(trivium_faults, trivium, "Trivium: the scenario's fault processes");

/* One source of off-intervals on one resource. */
typedef struct {
  sg_link_t link; /* one of link, host */
  sg_host_t host;
  int resource;                  /* index into the driver's down counts */
  bool flapping;                 /* draws its intervals as it goes */
  const TrvTraceInterval *trace; /* fault-trace: its intervals, n_trace of them; the next is trace[k] */
  guint n_trace, k;
  TrvRng rng; /* link-flap */
  double mtbf, mttr, stop;
  TrvFaultLaw up, down;
  double up_shape, down_shape;
  double from, to; /* the next (or open) interval */
  bool open;       /* the interval [from, to) has begun */
  bool done;
  int order; /* ties: stable by creation */
} Source;

static GArray *sources; /* Source */
static int *down;       /* per resource: intervals open */
static guint *heap;     /* indices into sources: the ones not done, earliest event first */
static guint heap_len;

static double exponential(TrvRng *rng, double mean) { return -mean * log1p(-trv_rng_uniform(rng)); }

/* Inverse CDFs of one uniform U in [0, 1) each: the exponential and the
 * Weibull of 1 - U (in (0, 1], so -log(1 - U) is finite), the lognormal of
 * U with U = 0 moved to 2^-54 (half the uniform's step) so that the
 * quantile is finite.  Weibull scale = mean / Gamma(1 + 1/k); lognormal
 * mu = ln(mean) - sigma^2 / 2: the mean is `mean` in both.  A fixed time
 * is the mean, and draws nothing. */
double trv_sim_flap_period(TrvFaultLaw law, double mean, double shape, TrvRng *rng) {
  switch (law) {
    case TRV_FAULT_WEIBULL: return mean / tgamma(1 + 1 / shape) * pow(-log1p(-trv_rng_uniform(rng)), 1 / shape);
    case TRV_FAULT_LOGNORMAL: {
      double u = trv_rng_uniform(rng);
      return exp(log(mean) - shape * shape / 2 + shape * trv_normal_quantile(u > 0 ? u : 0x1p-54));
    }
    case TRV_FAULT_FIXED: return mean;
    default: return exponential(rng, mean);
  }
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

/* The next event of a source: its interval's start, or its end once open. */
static double next_time(const Source *s) { return s->open ? s->to : s->from; }

/* Whether source a's next event comes before b's: earlier, or at the same
 * time an opening before a closing, or else the one created first. */
static bool before(const Source *a, const Source *b) {
  double ta = next_time(a), tb = next_time(b);
  if (ta != tb) return ta < tb;
  if (a->open != b->open) return !a->open;
  return a->order < b->order;
}

static Source *at(guint h) { return &g_array_index(sources, Source, heap[h]); }

static void heap_swap(guint a, guint b) {
  guint t = heap[a];
  heap[a] = heap[b];
  heap[b] = t;
}

/* Restores the heap below position h after its key changed (either way
 * for the top: it is the only one that changes). */
static void sift_down(guint h) {
  for (;;) {
    guint l = 2 * h + 1, r = l + 1, m = h;
    if (l < heap_len && before(at(l), at(m))) m = l;
    if (r < heap_len && before(at(r), at(m))) m = r;
    if (m == h) return;
    heap_swap(h, m);
    h = m;
  }
}

static void sift_up(guint h) {
  while (h > 0 && before(at(h), at((h - 1) / 2))) {
    heap_swap(h, (h - 1) / 2);
    h = (h - 1) / 2;
  }
}

/* Draws a flapping source's next interval, starting after `after`. */
static void draw_flap(Source *s, double after) {
  s->from = after + trv_sim_flap_period(s->up, s->mtbf, s->up_shape, &s->rng);
  if (s->from >= s->stop) {
    s->done = true;
    return;
  }
  s->to = fmin(s->from + trv_sim_flap_period(s->down, s->mttr, s->down_shape, &s->rng), s->stop);
}

static void add_source(Source s) {
  s.order = (int)sources->len;
  if (!s.done && !(s.to > s.from)) s.done = true; /* an empty interval turns nothing off */
  g_array_append_val(sources, s);
}

/* The sources not done, in a heap (once every source is added). */
static void build_heap(void) {
  g_free(heap);
  heap = g_new(guint, sources->len + 1);
  heap_len = 0;
  for (guint i = 0; i < sources->len; i++)
    if (!g_array_index(sources, Source, i).done) {
      heap[heap_len] = i;
      sift_up(heap_len++);
    }
}

/* A source of a fault trace's intervals on one resource. */
static Source trace_source(const TrvTraceResource *res, sg_link_t link, sg_host_t host, int resource) {
  const TrvTraceInterval *iv = (const TrvTraceInterval *)(void *)res->intervals->data;
  return (Source){.link = link,
                  .host = host,
                  .resource = resource,
                  .trace = iv,
                  .n_trace = res->intervals->len,
                  .from = iv[0].down,
                  .to = iv[0].up};
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

static void set_state(const Source *s, bool on) {
  if (s->link) {
    XBT_INFO("link %s %s", sg_link_get_name(s->link), on ? "up" : "down");
    trv_sim_link_set_on(s->link, on);
  } else {
    XBT_INFO("host %s %s", sg_host_get_name(s->host), on ? "on" : "off");
    if (on) {
      sg_host_turn_on(s->host);
    } else {
      sg_host_turn_off(s->host);
      /* the participants that died with it arrive through stand-ins */
      if (trv_sim_cell && trv_sim_cell->shared_city) trv_sim_round_stand_ins(trv_sim_cell);
    }
  }
}

/* Not a daemon: while the controller's host is down (its actor dead until
 * the host returns) the driver is what keeps the simulation going.  The
 * controller kills it when the run is over. */
static void fault_driver(int argc, char **argv) {
  (void)argc;
  (void)argv;
  while (heap_len > 0) {
    /* the earliest event; at equal times openings first, then creation order */
    Source *next = at(0);
    double t = next_time(next);
    if (isinf(t)) break; /* only outages that last to the end of the run are left */
    /* SimGrid does not sleep below its numerical accuracy (1e-9 s) and says so */
    if (t - simgrid_get_clock() >= 1e-9) sg_actor_sleep_for(t - simgrid_get_clock());
    next = at(0); /* the same source: nothing else touches the heap */
    if (!next->open) {
      next->open = true;
      if (down[next->resource]++ == 0) set_state(next, false);
    } else {
      next->open = false;
      if (--down[next->resource] == 0) set_state(next, true);
      if (next->flapping) {
        draw_flap(next, next->to);
      } else if (next->trace && ++next->k < next->n_trace) {
        next->from = next->trace[next->k].down;
        next->to = next->trace[next->k].up;
      } else {
        next->done = true;
      }
    }
    if (next->done) heap[0] = heap[--heap_len];
    sift_down(0);
  }
  trv_sim_cell->fault_driver = NULL; /* done: nothing left for the controller to stop */
}

/* The platform's links and hosts by name, as "l:NAME" and "h:NAME" ->
 * index into links, or into hosts, plus 1. */
static GHashTable *resource_names(sg_link_t *links, size_t n_links, sg_host_t *hosts, size_t n_hosts) {
  GHashTable *t = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  for (size_t l = 0; l < n_links; l++)
    g_hash_table_insert(t, g_strdup_printf("l:%s", sg_link_get_name(links[l])), GSIZE_TO_POINTER(l + 1));
  for (size_t h = 0; h < n_hosts; h++)
    g_hash_table_insert(t, g_strdup_printf("h:%s", sg_host_get_name(hosts[h])), GSIZE_TO_POINTER(h + 1));
  return t;
}

/* One source per resource of the trace and per link or host it names (a
 * name by lookup, a glob against every name, in the platform's name
 * order); a resource that names nothing is an input error at its line.
 * The hosts it turns off are marked in crashes. */
static bool add_trace(const TrvFaultTrace *trace, GHashTable *by_name, sg_link_t *links, size_t n_links,
                      sg_host_t *hosts, size_t n_hosts, bool *crashes, const char *platform, GError **error) {
  for (guint i = 0; i < trace->resources->len; i++) {
    const TrvTraceResource *res = trace->resources->pdata[i];
    int matched = 0;
    size_t n = res->host ? n_hosts : n_links;
    char *key = g_strdup_printf("%c:%s", res->host ? 'h' : 'l', res->name);
    size_t only = GPOINTER_TO_SIZE(g_hash_table_lookup(by_name, key)); /* index + 1, or 0 */
    g_free(key);
    for (size_t k = res->glob ? 0 : only ? only - 1 : n; k < n; k++) {
      const char *name = res->host ? sg_host_get_name(hosts[k]) : sg_link_get_name(links[k]);
      if (res->glob ? fnmatch(res->name, name, 0) != 0 : k != only - 1) continue;
      matched++;
      if (res->host) crashes[k] = true;
      add_source(res->host ? trace_source(res, NULL, hosts[k], (int)(n_links + k))
                           : trace_source(res, links[k], NULL, (int)k));
      if (!res->glob) break;
    }
    if (matched == 0) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s:%d: %s '%s' matches no %s of %s", trace->file, res->line,
                  res->host ? "host" : "link", res->name, res->host ? "host" : "link", platform);
      return false;
    }
  }
  return true;
}

bool trv_sim_install_faults(Cell *cell, GError **error) {
  const TrvSimOptions *opt = cell->opt;
  if (opt->n_faults == 0) return true;
  size_t n_links = sg_link_count(), n_hosts = sg_host_count();
  sg_link_t *links = sg_link_list();
  sg_host_t *hosts = sg_host_list();
  qsort(links, n_links, sizeof *links, cmp_link_name);
  if (sources) g_array_free(sources, TRUE);
  sources = g_array_new(FALSE, FALSE, sizeof(Source));
  g_free(down);
  down = g_new0(int, n_links + n_hosts); /* links first, then hosts */
  bool *crashes = g_new0(bool, n_hosts);
  bool ok = true;
  GHashTable *by_name = NULL; /* "l:NAME" / "h:NAME" -> resource index + 1, for the traces */
  for (size_t f = 0; f < opt->n_faults && ok; f++) {
    const TrvFaultSpec *fs = &opt->faults[f];
    int matched = 0;
    if (fs->kind == TRV_FAULT_TRACE) {
      if (!by_name) by_name = resource_names(links, n_links, hosts, n_hosts);
      ok = add_trace(fs->trace, by_name, links, n_links, hosts, n_hosts, crashes, opt->platform, error);
      continue;
    }
    if (fs->kind == TRV_FAULT_LINK_FLAP) {
      double stop = fs->stop > 0 ? fs->stop : INFINITY;
      for (size_t l = 0; l < n_links; l++) {
        const char *name = sg_link_get_name(links[l]);
        if (!name_matches(fs->pattern, name)) continue;
        matched++;
        Source s = {.link = links[l],
                    .resource = (int)l,
                    .flapping = true,
                    .mtbf = fs->mtbf,
                    .mttr = fs->mttr,
                    .stop = stop,
                    .up = fs->up,
                    .down = fs->down,
                    .up_shape = fs->up_shape,
                    .down_shape = fs->down_shape};
        /* keyed by the link's name: independent of the platform's order */
        trv_rng_init(&s.rng, cell->spec->seed, TRV_STREAM_FAULTS + ((uint64_t)(f + 1) << 32) + g_str_hash(name));
        draw_flap(&s, fs->start);
        add_source(s);
      }
    } else if (fs->kind == TRV_FAULT_HOST_CRASH) {
      for (size_t h = 0; h < n_hosts; h++)
        if (name_matches(fs->pattern, sg_host_get_name(hosts[h]))) {
          matched++;
          crashes[h] = true;
          add_source(
              (Source){.host = hosts[h], .resource = (int)(n_links + h), .from = fs->at, .to = fs->at + fs->duration});
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
          add_source((Source){.link = links[l], .resource = (int)l, .from = fs->at, .to = fs->at + fs->duration});
        }
      g_hash_table_destroy(cross);
      g_hash_table_destroy(inside);
      g_ptr_array_free(in, TRUE);
      g_ptr_array_free(out, TRUE);
    }
    if (matched == 0) {
      const char *what = fs->kind == TRV_FAULT_HOST_CRASH  ? "host"
                         : fs->kind == TRV_FAULT_LINK_FLAP ? "link"
                                                           : "link between the set and the others";
      if (fs->line)
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "fault %zu (scenario line %d): '%s' matches no %s of %s", f + 1,
                    fs->line, fs->pattern, what, opt->platform);
      else
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "fault %zu: '%s' matches no %s of %s", f + 1, fs->pattern, what,
                    opt->platform);
      ok = false;
    }
  }
  if (by_name) g_hash_table_destroy(by_name);
  sg_host_t driver = NULL;
  for (size_t h = 0; ok && h < n_hosts && !driver; h++)
    if (!crashes[h]) driver = hosts[h];
  if (ok && !driver) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "%s: every host is the target of a host-crash or a fault trace: none is left to run the fault "
                "processes",
                opt->platform);
    ok = false;
  }
  if (ok) {
    build_heap();
    cell->fault_driver = sg_actor_init("trivium-faults", driver);
    sg_actor_start(cell->fault_driver, fault_driver, 0, NULL);
  }
  g_free(crashes);
  g_free(links);
  g_free(hosts);
  return ok;
}
