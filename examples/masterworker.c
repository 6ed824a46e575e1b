/* masterworker.c - SimGrid's master-worker example (examples/c/
 * app-masterworker in SimGrid) with Trivium attached, and its agents'
 * lifecycle: workers that stop, a worker whose host crashes and restarts.
 *
 * A master sends tasks (flops to execute, bytes to transfer) to its
 * workers in turn, then a "finalize" to each; a worker executes each task
 * it receives until it is told to finalize, and then returns.  The
 * workers are marked as Trivium agents by the deployment (property
 * trivium.agent): before each task a worker plays one episode of the
 * built-in CausalBench-Seq world (trivium_episode_play) and commits it.
 * A worker given a number of episodes leaves Trivium after them
 * (trivium_agent_leave) and goes on with its tasks.  When its tasks run out a
 * worker returns, and so leaves the run; when every worker has left, the
 * run ends early with a warning, after the episodes they played rather
 * than the 500 the setting run.episodes asks for.
 * The deployment may also start `maintenance HOST AT DURATION`, which
 * turns HOST off at AT and on again DURATION seconds later: the worker
 * there dies with its host and, marked on_failure="RESTART", starts again
 * when the host is back; it is the same agent as before (its index, its
 * records' identity, its random stream: each worker prints the first draw
 * of trivium_episode_uniform in each of its lives).  The master sends task i to worker i mod W, as
 * SimGrid's example does, and sends a task again when its transfer failed
 * (the worker's host turned off under it): the restarted worker gets it.
 *
 *   masterworker PLATFORM DEPLOYMENT [--without-trivium | --out DIR] [--cfg=...]
 * --without-trivium runs the same program with no plugin (the workers only
 * execute their tasks), for its simulated time; --out DIR writes the run's
 * directory (trivium_results_write_dir), which `trivium report DIR` turns
 * into the tables and figures of `trivium run`. */
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trivium/trivium.h>

static bool with_trivium = true;

/* Sends `data` to the mailbox `to` until it is delivered: a transfer that
 * failed (its receiver's host turned off under it) is made again, and
 * reaches the receiver once SimGrid restarted it. */
static void send(const char *to, double *data, double bytes) {
  while (sg_comm_wait(sg_mailbox_put_async(sg_mailbox_by_name(to), data, (long)bytes)) != SG_OK)
    ;
}

/* master TASKS FLOPS BYTES WORKER... : task i goes to worker i mod W */
static void master(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "master: expected TASKS FLOPS BYTES WORKER...\n");
    return;
  }
  long tasks = atol(argv[1]);
  double flops = atof(argv[2]), bytes = atof(argv[3]);
  int workers = argc - 4;
  for (long i = 0; i < tasks; i++) {
    double *task = malloc(sizeof *task);
    *task = flops;
    send(argv[4 + i % workers], task, bytes);
  }
  for (int w = 0; w < workers; w++) {
    double *finalize = malloc(sizeof *finalize);
    *finalize = -1.0;
    send(argv[4 + w], finalize, 0);
  }
}

/* worker MAILBOX [EPISODES]: with EPISODES, the worker leaves Trivium
 * after that many episodes (trivium_agent_leave) and goes on with its
 * tasks alone */
static void worker(int argc, char **argv) {
  if (argc < 2) return;
  sg_mailbox_t mb = sg_mailbox_by_name(argv[1]);
  int done = 0, played = 0, agent = -1, first = -1, last = -1, most = argc > 2 ? atoi(argv[2]) : -1;
  for (;;) {
    double *task = NULL;
    if (sg_comm_wait(sg_mailbox_get_async(mb, (void **)&task)) != SG_OK) continue;
    double flops = *task;
    free(task);
    if (flops < 0) break;
    if (with_trivium && played == most) trivium_agent_leave();
    TrvEpisode *ep = with_trivium ? trivium_agent_next_episode() : NULL;
    if (ep) {
      agent = trivium_episode_agent(ep);
      last = trivium_episode_index(ep);
      if (first < 0) {
        first = last;
        printf("%s on %s: agent %d from episode %d, draws %.6f, t=%.6f\n", argv[1], sg_host_self_get_name(), agent,
               first, trivium_episode_uniform(ep), simgrid_get_clock());
      }
      trivium_episode_play(ep);
      trivium_episode_close(ep, NULL);
      played++;
    }
    sg_actor_execute(flops);
    done++;
  }
  printf("%s on %s: %d tasks", argv[1], sg_host_self_get_name(), done);
  if (with_trivium) printf(", agent %d, %d episodes (%d to %d)", agent, played, first, last);
  printf(", t=%.6f\n", simgrid_get_clock());
}

/* maintenance HOST AT DURATION */
static void maintenance(int argc, char **argv) {
  if (argc < 4) return;
  sg_host_t h = sg_host_by_name(argv[1]);
  sg_actor_sleep_until(atof(argv[2]));
  printf("maintenance: %s off at t=%.6f\n", argv[1], simgrid_get_clock());
  sg_host_turn_off(h);
  sg_actor_sleep_for(atof(argv[3]));
  sg_host_turn_on(h);
  printf("maintenance: %s on at t=%.6f\n", argv[1], simgrid_get_clock());
}

int main(int argc, char **argv) {
  /* the program's defaults, before SimGrid parses --cfg=trivium/...:
   * steps that cost their work alone, short episodes */
  GError *err = NULL;
  if (!trivium_plugin_set("sim.clock", "compute", &err) || !trivium_plugin_set("run.steps", "10", &err)) {
    fprintf(stderr, "masterworker: %s\n", err->message);
    return 2;
  }
  simgrid_init(&argc, argv);
  const char *out = NULL;
  if (argc == 4 && !strcmp(argv[3], "--without-trivium"))
    with_trivium = false;
  else if (argc == 5 && !strcmp(argv[3], "--out"))
    out = argv[4];
  else if (argc != 3) {
    fprintf(stderr, "usage: %s PLATFORM DEPLOYMENT [--without-trivium | --out DIR] [--cfg=...]\n", argv[0]);
    return 2;
  }
  if (with_trivium) trivium_plugin_init();
  simgrid_load_platform(argv[1]);
  simgrid_register_function("master", master);
  simgrid_register_function("worker", worker);
  simgrid_register_function("maintenance", maintenance);
  simgrid_load_deployment(argv[2]);
  simgrid_run();
  if (!with_trivium) {
    printf("masterworker: without Trivium, simulated time %.6f s\n", simgrid_get_clock());
    return 0;
  }
  if (!trivium_plugin_finished(&err)) {
    fprintf(stderr, "masterworker: %s\n", err->message);
    return err->code == TRV_ERROR_INPUT ? 2 : 1;
  }
  printf("masterworker: Trivium played %zu episodes, simulated time %.6f s\n", trivium_results_n_episodes(),
         simgrid_get_clock());
  if (!trivium_results_write_csv(stdout, true, &err) || (out && !trivium_results_write_dir(out, &err))) {
    fprintf(stderr, "masterworker: %s\n", err->message);
    return err->code == TRV_ERROR_INPUT ? 2 : 1;
  }
  return 0;
}
