/* jssp-sim.c - a job shop as a SimGrid simulation: machines are actors that
 * execute operations as simulated work on their hosts, a dispatcher actor
 * applies the dispatch rule and the job precedences.
 *
 * Actors and messages (all payloads 0 bytes, links of latency 0, so a
 * message costs no simulated time on the platforms trv_jssp_write_platform
 * writes):
 *   machine K  (host mK): waits for an operation on mailbox jssp/mK, notes
 *              the clock, sg_actor_execute(duration) on its host of speed
 *              1 flop/s, notes the clock again and reports the operation
 *              with its start and end to jssp/dispatcher;
 *   dispatcher (host dispatcher): keeps one queue per machine and plays the
 *              event-driven semantics of jssp.h: a dispatch round (idle
 *              machines in index order start the operation their rule
 *              prefers), then the completions of the next event time, then
 *              the next round.
 * SimGrid's C API has no "end of this timestamp" barrier, so the dispatcher
 * must know how many completions to collect before it dispatches again: it
 * routed every running operation and knows its duration, so it waits for
 * exactly the operations planned to end at the earliest planned end.  The
 * simulator is then checked, not trusted to agree: every report must come
 * from a machine planned to end then, its start must be the dispatch time
 * (messages cost nothing) and the clock must read the planned time; any
 * difference is a run error naming the platform.  The schedule itself is
 * what the machines measured on the simulated clock.
 *
 * The platform is a user's file: before any actor starts, the hosts
 * dispatcher and m0..m{M-1} (speed 1) and a route from the dispatcher to
 * every machine must exist, or the run is an input error.
 *
 * SimGrid initialises once per process: trv_jssp_sim_run is one simulation;
 * trv_jssp_sim_run_forked wraps it in a child process, which also contains
 * SimGrid's abort on an option or platform it refuses (the child says how
 * far it got, 'I' after the options and 'L' after the platform, so the
 * parent can tell which one was refused). */
#include "jssp-sim.h"

#include "sim/child.h"
#include "sim/sim.h"

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/mailbox.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xbt/dynar.h>
#include <xbt/log.h>

XBT_LOG_NEW_DEFAULT_CATEGORY(trivium_jssp, "Trivium job shop (machines and dispatcher)");

typedef struct {
  int machine, op; /* op < 0: stop */
  double start, end;
} OpMsg;

typedef struct {
  const TrvJsspInstance *inst;
  TrvJsspRule rule;
  TrvJsspSchedule *out;
  sg_mailbox_t *mb_machine, mb_dispatcher;
  long messages;
  gboolean finished;
  GString *error; /* first run error, or empty */
} Shop;

typedef struct {
  Shop *shop;
  int machine;
} MachineCtx;

static void machine_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  MachineCtx *ctx = sg_actor_self_get_data();
  Shop *shop = ctx->shop;
  for (;;) {
    OpMsg *m = sg_mailbox_get(shop->mb_machine[ctx->machine]);
    if (m->op < 0) {
      g_free(m);
      break;
    }
    m->start = simgrid_get_clock();
    /* A zero-duration operation has nothing to simulate. */
    if (shop->inst->duration[m->op] > 0) sg_actor_execute((double)shop->inst->duration[m->op]);
    m->end = simgrid_get_clock();
    shop->messages++;
    sg_mailbox_put(shop->mb_dispatcher, m, 0);
  }
}

static void run_error(Shop *shop, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void run_error(Shop *shop, const char *fmt, ...) {
  if (shop->error->len) return; /* keep the first */
  va_list ap;
  va_start(ap, fmt);
  g_string_append_vprintf(shop->error, fmt, ap);
  va_end(ap);
}

static void dispatcher_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  Shop *shop = sg_actor_self_get_data();
  const TrvJsspInstance *inst = shop->inst;
  const int J = inst->n_jobs, K = inst->n_ops, M = inst->n_machines;
  GArray **queue = g_new(GArray *, M);
  int *running = g_new(int, M), *next = g_new0(int, J);
  double *planned_end = g_new(double, M), *dispatched_at = g_new(double, M), *remaining = g_new0(double, J);
  for (int m = 0; m < M; m++) {
    queue[m] = g_array_new(FALSE, FALSE, sizeof(TrvJsspCandidate));
    running[m] = -1;
  }
  for (int j = 0; j < J; j++)
    for (int k = 0; k < K; k++) remaining[j] += inst->duration[j * K + k];
  for (int j = 0; j < J; j++) {
    TrvJsspCandidate c = {.job = j, .arrival = 0, .duration = inst->duration[j * K], .remaining = remaining[j]};
    g_array_append_val(queue[inst->machine[j * K]], c);
  }
  int completed = 0;
  double now = 0;
  /* done[m]: machine m's report at the current event time, or NULL.  A
   * report is kept in the slot of its machine, read there once and freed
   * once, so releasing successors in machine index order never touches a
   * report that was already released. */
  OpMsg **done = g_new0(OpMsg *, M);
  for (;;) {
    /* Dispatch round at `now`. */
    int busy = 0;
    for (int m = 0; m < M; m++) {
      if (running[m] < 0 && queue[m]->len > 0) {
        guint best = 0;
        for (guint i = 1; i < queue[m]->len; i++)
          if (trv_jssp_rule_prefers(shop->rule, &g_array_index(queue[m], TrvJsspCandidate, i),
                                    &g_array_index(queue[m], TrvJsspCandidate, best)))
            best = i;
        int j = g_array_index(queue[m], TrvJsspCandidate, best).job;
        g_array_remove_index(queue[m], best);
        OpMsg *msg = g_new0(OpMsg, 1);
        msg->machine = m;
        msg->op = j * K + next[j];
        running[m] = msg->op;
        dispatched_at[m] = now;
        planned_end[m] = now + inst->duration[msg->op];
        shop->messages++;
        sg_mailbox_put(shop->mb_machine[m], msg, 0);
      }
      if (running[m] >= 0) busy++;
    }
    if (busy == 0) break;
    /* Collect every completion planned for the earliest planned end. */
    double t_next = INFINITY;
    for (int m = 0; m < M; m++)
      if (running[m] >= 0 && planned_end[m] < t_next) t_next = planned_end[m];
    int expect = 0;
    for (int m = 0; m < M; m++)
      if (running[m] >= 0 && planned_end[m] == t_next) expect++;
    int got = 0;
    while (got < expect) {
      OpMsg *r = sg_mailbox_get(shop->mb_dispatcher);
      /* Only this file's machine actors post here, one report per
       * dispatched operation. */
      g_assert(r->machine >= 0 && r->machine < M && running[r->machine] == r->op && !done[r->machine]);
      if (planned_end[r->machine] != t_next || r->start != dispatched_at[r->machine] || r->end != t_next)
        run_error(shop,
                  "machine %d ran job %d op %d over [%.17g, %.17g]; dispatched at %.17g, planned to end at %.17g "
                  "(messages must cost no simulated time: latency 0, 0-byte payloads, machine speed 1f)",
                  r->machine, r->op / K, r->op % K, r->start, r->end, dispatched_at[r->machine], t_next);
      done[r->machine] = r;
      got++;
    }
    now = simgrid_get_clock();
    if (now != t_next) run_error(shop, "simulated clock reads %.17g at completions planned for %.17g", now, t_next);
    /* Completions in machine index order: release each job's next op. */
    for (int m = 0; m < M; m++) {
      OpMsg *r = done[m];
      if (!r) continue;
      done[m] = NULL;
      int j = r->op / K;
      shop->out->start[r->op] = r->start;
      shop->out->end[r->op] = r->end;
      running[m] = -1;
      remaining[j] -= inst->duration[r->op];
      next[j]++;
      completed++;
      if (next[j] < K) {
        int op = j * K + next[j];
        TrvJsspCandidate c = {.job = j, .arrival = now, .duration = inst->duration[op], .remaining = remaining[j]};
        g_array_append_val(queue[inst->machine[op]], c);
      }
      g_free(r);
    }
  }
  for (int m = 0; m < M; m++) {
    OpMsg *stop = g_new0(OpMsg, 1);
    stop->op = -1;
    sg_mailbox_put(shop->mb_machine[m], stop, 0);
    g_array_free(queue[m], TRUE);
  }
  shop->out->makespan = simgrid_get_clock();
  shop->finished = completed == J * K;
  g_free(done);
  g_free(queue);
  g_free(running);
  g_free(next);
  g_free(planned_end);
  g_free(dispatched_at);
  g_free(remaining);
}

/* Refuses a platform path SimGrid should not be handed: not a regular
 * file (a FIFO or a device would block or never end) or larger than an
 * instance may be. */
static gboolean platform_file_ok(const char *platform, GError **error) {
  struct stat st;
  if (stat(platform, &st) != 0 || access(platform, R_OK) != 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: platform file not readable (%s)", platform, g_strerror(errno));
    return FALSE;
  }
  if (!S_ISREG(st.st_mode) || st.st_size > TRV_JSSP_MAX_FILE_BYTES) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: %s; expected a SimGrid platform file of at most %d bytes",
                platform, S_ISREG(st.st_mode) ? "too large" : "not a regular file", TRV_JSSP_MAX_FILE_BYTES);
    return FALSE;
  }
  return TRUE;
}

/* The simulation; loaded_fd >= 0 gets the byte 'I' once SimGrid has taken
 * the options and 'L' once it has loaded the platform and the hosts passed
 * their checks (SimGrid aborts the process on a bad option or platform, so
 * the parent of a forked run learns from these bytes what was refused). */
static gboolean sim_run(const TrvJsspInstance *inst, const char *platform, TrvJsspRule rule, int n_simgrid_args,
                        char **simgrid_args, TrvJsspSchedule *out, TrvJsspSimStats *stats, int loaded_fd,
                        GError **error) {
  if (!platform_file_ok(platform, error)) return FALSE;
  /* simgrid_init removes the arguments it consumes from argv: the strings
   * are freed from a copy of the pointers. */
  int argc = 1 + n_simgrid_args;
  char **argv = g_new0(char *, argc + 1);
  argv[0] = g_strdup("trivium");
  for (int i = 0; i < n_simgrid_args; i++) argv[i + 1] = g_strdup(simgrid_args[i]);
  char **owned = g_memdup2(argv, sizeof(char *) * (size_t)(argc + 1));
  simgrid_init(&argc, argv);
  if (loaded_fd >= 0 && write(loaded_fd, "I", 1) != 1) {} /* a lost byte only blurs the parent's message */
  if (!trv_sim_check_contexts(error)) {                   /* the machines share the shop's counters */
    g_free(argv);
    g_strfreev(owned);
    return FALSE;
  }
  simgrid_load_platform(platform);

  gboolean ok = TRUE;
  sg_host_t dispatcher = sg_host_by_name("dispatcher");
  sg_host_t *hosts = g_new0(sg_host_t, inst->n_machines);
  if (!dispatcher) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "%s: no host `dispatcher`; regenerate the platform with `trivium jssp platform`", platform);
    ok = FALSE;
  }
  for (int m = 0; m < inst->n_machines && ok; m++) {
    char name[32];
    g_snprintf(name, sizeof name, "m%d", m);
    hosts[m] = sg_host_by_name(name);
    if (!hosts[m] || sg_host_get_speed(hosts[m]) != 1.0) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                  "%s: %s host `%s` for machine %d of %s; expected one of speed 1f (regenerate the platform with "
                  "`trivium jssp platform`)",
                  platform, hosts[m] ? "wrong speed of" : "no", name, m, inst->name);
      ok = FALSE;
    }
  }
  /* Every machine must be reachable from the dispatcher: SimGrid would
   * abort at the first message otherwise, in the middle of the run.  Asked
   * here, its answer (or its abort) comes before 'L', as a platform error. */
  for (int m = 0; m < inst->n_machines && ok; m++) {
    xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
    sg_host_get_route(dispatcher, hosts[m], links);
    if (xbt_dynar_is_empty(links)) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                  "%s: no route from host `dispatcher` to host `m%d`; expected one route per machine (regenerate "
                  "the platform with `trivium jssp platform`)",
                  platform, m);
      ok = FALSE;
    }
    xbt_dynar_free(&links);
  }
  if (!ok) {
    g_free(hosts);
    g_free(argv);
    g_strfreev(owned);
    return FALSE;
  }
  if (loaded_fd >= 0 && write(loaded_fd, "L", 1) != 1) {}
  Shop shop = {.inst = inst, .rule = rule, .out = out, .error = g_string_new(NULL)};
  shop.mb_machine = g_new(sg_mailbox_t, inst->n_machines);
  MachineCtx *ctx = g_new(MachineCtx, inst->n_machines);
  shop.mb_dispatcher = sg_mailbox_by_name("jssp/dispatcher");
  for (int m = 0; m < inst->n_machines; m++) {
    char name[32];
    g_snprintf(name, sizeof name, "jssp/m%d", m);
    shop.mb_machine[m] = sg_mailbox_by_name(name);
    ctx[m] = (MachineCtx){&shop, m};
    g_snprintf(name, sizeof name, "machine-%d", m);
    sg_actor_t a = sg_actor_init(name, hosts[m]);
    sg_actor_set_data(a, &ctx[m]);
    sg_actor_start(a, machine_actor, 0, NULL);
  }
  sg_actor_t d = sg_actor_init("dispatcher", dispatcher);
  sg_actor_set_data(d, &shop);
  sg_actor_start(d, dispatcher_actor, 0, NULL);
  gint64 t0 = g_get_monotonic_time();
  simgrid_run();
  if (stats) {
    stats->run_seconds = (double)(g_get_monotonic_time() - t0) / 1e6;
    stats->messages = shop.messages;
  }
  if (shop.error->len) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: %s", platform, shop.error->str);
    ok = FALSE;
  } else if (!shop.finished) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO,
                "%s: simulation of %s ended at t=%g before every operation completed (deadlock)", platform, inst->name,
                simgrid_get_clock());
    ok = FALSE;
  }
  g_string_free(shop.error, TRUE);
  g_free(shop.mb_machine);
  g_free(ctx);
  g_free(hosts);
  g_free(argv);
  g_strfreev(owned);
  return ok;
}

gboolean trv_jssp_sim_run(const TrvJsspInstance *inst, const char *platform, TrvJsspRule rule, int n_simgrid_args,
                          char **simgrid_args, TrvJsspSchedule *out, TrvJsspSimStats *stats, GError **error) {
  return sim_run(inst, platform, rule, n_simgrid_args, simgrid_args, out, stats, -1, error);
}

/* ---- one simulation per child process ---------------------------------- */

/* Child's report: the bytes 'I' and 'L' (sim_run), then int ok, int
 * error code, then either the schedule (start[n], end[n], makespan, the
 * statistics) or the error message.  The child's stderr goes to a
 * temporary file: the parent passes it on, except when SimGrid refused the
 * options or the platform, which becomes one TRV_ERROR_INPUT line. */
typedef struct {
  const TrvJsspInstance *inst;
  const char *platform;
  TrvJsspRule rule;
  int n_simgrid_args;
  char **simgrid_args;
  TrvJsspSchedule *out;
} ForkedRun;

/* In the child: the simulation, then its report on the pipe. */
static int forked_run(void *data, int fd) {
  ForkedRun *f = data;
  GError *err = NULL;
  TrvJsspSimStats st = {0};
  int head[2] = {sim_run(f->inst, f->platform, f->rule, f->n_simgrid_args, f->simgrid_args, f->out, &st, fd, &err), 0};
  bool w;
  if (head[0]) {
    w = trv_write_all(fd, head, sizeof head) && trv_write_all(fd, f->out->start, sizeof(double) * (size_t)f->out->n) &&
        trv_write_all(fd, f->out->end, sizeof(double) * (size_t)f->out->n) &&
        trv_write_all(fd, &f->out->makespan, sizeof(double)) && trv_write_all(fd, &st, sizeof st);
  } else {
    head[1] = err->code;
    w = trv_write_all(fd, head, sizeof head) && trv_write_all(fd, err->message, strlen(err->message));
  }
  return w ? 0 : 3;
}

gboolean trv_jssp_sim_run_forked(const TrvJsspInstance *inst, const char *platform, TrvJsspRule rule,
                                 int n_simgrid_args, char **simgrid_args, TrvJsspSchedule *out, TrvJsspSimStats *stats,
                                 GError **error) {
  ForkedRun run = {inst, platform, rule, n_simgrid_args, simgrid_args, out};
  TrvChild *child = trv_child_start(forked_run, &run, true, error);
  if (!child) return FALSE;
  GByteArray *buf = g_byte_array_new();
  int status = trv_child_wait(child, buf);
  char *log = trv_child_log_head(child, 65536);
  int phase = 0; /* 0: before the options were taken, 1: before the platform was loaded, 2: loaded */
  while (phase < 2 && buf->len > 0 && buf->data[0] == "IL"[phase]) {
    g_byte_array_remove_index(buf, 0);
    phase++;
  }
  size_t nd = sizeof(double) * (size_t)out->n;
  int head[2] = {0, 0};
  gboolean ok = FALSE, pass_log = TRUE;
  if (buf->len >= sizeof head) memcpy(head, buf->data, sizeof head);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || buf->len < sizeof head) {
    char *reason = trv_simgrid_reason(log);
    if (phase < 2 && reason) {
      if (phase == 0) {
        /* simgrid_args holds n_simgrid_args strings, not a NULL-terminated
         * vector. */
        GString *options = g_string_new(n_simgrid_args > 0 ? NULL : "(none)");
        for (int i = 0; i < n_simgrid_args; i++) g_string_append_printf(options, "%s%s", i ? " " : "", simgrid_args[i]);
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "SimGrid refused the options %s: %s", options->str, reason);
        g_string_free(options, TRUE);
      } else
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: SimGrid refused the platform: %s", platform, reason);
      pass_log = FALSE;
    } else {
      char *how = trv_child_status_text(status);
      g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "simulation of %s under %s: child process %s%s%s", inst->name,
                  trv_jssp_rule_name(rule), how, reason ? ": " : "", reason ? reason : "");
      g_free(how);
    }
    g_free(reason);
  } else if (!head[0]) {
    char *msg = g_strndup((const char *)buf->data + sizeof head, buf->len - sizeof head);
    g_set_error_literal(error, TRV_ERROR, head[1], msg);
    g_free(msg);
    pass_log = head[1] != TRV_ERROR_INPUT; /* a refusal is its one line, without SimGrid's notes */
  } else if (buf->len != sizeof head + 2 * nd + sizeof(double) + sizeof(TrvJsspSimStats)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "simulation of %s: short report from the child (%u bytes)", inst->name,
                buf->len);
  } else {
    const guint8 *p = buf->data + sizeof head;
    memcpy(out->start, p, nd);
    memcpy(out->end, p + nd, nd);
    memcpy(&out->makespan, p + 2 * nd, sizeof(double));
    TrvJsspSimStats st;
    memcpy(&st, p + 2 * nd + sizeof(double), sizeof st);
    if (stats) *stats = st;
    ok = TRUE;
  }
  /* SimGrid's own log (--log=..., configuration notes, a crash report)
   * reaches the user as the in-process run would have shown it. */
  if (pass_log) trv_child_pass_log(child);
  g_free(log);
  g_byte_array_free(buf, TRUE);
  trv_child_free(child);
  return ok;
}
