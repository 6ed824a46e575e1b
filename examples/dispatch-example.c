/* dispatch-example.c - a SimGrid program of its own, with Trivium attached
 * as a plugin (trivium/trivium.h).
 *
 * Its platform and deployment are its own (dispatch-platform.xml,
 * dispatch-deployment.xml): two cars, a radio mast, a dispatch centre and
 * a logbook.  The cars are its own actors, marked as Trivium agents by the
 * deployment (property trivium.agent).  Each warms up, reports in over the
 * network to a `tower` actor of the program's own, and then, episode after
 * episode, asks Trivium for its plan, plays it in the built-in
 * CausalBench-Seq world (trivium_episode_play) and closes it: its records
 * go to the log on the logbook host over the radio and the wire.  After
 * simgrid_run() the program asks Trivium whether every episode finished
 * and prints the per-episode results as episodes.csv lines.
 *
 *   dispatch-example PLATFORM DEPLOYMENT [EPISODES]   (default 60)
 * SimGrid's options work as usual, Trivium's too: --cfg=trivium/seed:3. */
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <trivium/trivium.h>

static int reports = 0; /* the tower's count of cars that reported in */

static void tower(int argc, char **argv) {
  (void)argc;
  (void)argv;
  sg_mailbox_t mb = sg_mailbox_by_name("tower");
  for (int i = 0; i < 2; i++) {
    char *hello = sg_mailbox_get(mb);
    printf("tower: %s reported in at t=%.3f\n", hello, simgrid_get_clock());
    free(hello);
    reports++;
  }
}

static void car(int argc, char **argv) {
  (void)argc;
  (void)argv;
  sg_actor_execute(5e7); /* warming up: 50 ms on a 1 Gf host */
  char *hello = malloc(64);
  snprintf(hello, 64, "%s", sg_host_self_get_name());
  sg_mailbox_put(sg_mailbox_by_name("tower"), hello, 64);
  int episodes = 0, probes = 0;
  TrvEpisode *ep;
  while ((ep = trivium_agent_next_episode()) != NULL) {
    probes += trivium_episode_n_probes(ep);
    trivium_episode_play(ep);
    trivium_episode_close(ep, NULL);
    episodes++;
  }
  printf("%s: released by Trivium at t=%.3f after %d episodes, %d probes\n", sg_host_self_get_name(),
         simgrid_get_clock(), episodes, probes);
}

int main(int argc, char **argv) {
  simgrid_init(&argc, argv);
  if (argc < 3) {
    fprintf(stderr, "usage: %s PLATFORM DEPLOYMENT [EPISODES]\n", argv[0]);
    return 2;
  }
  trivium_plugin_init();
  trivium_plugin_init(); /* idempotent, like SimGrid's plugins */
  GError *err = NULL;
  if (!trivium_plugin_set("run.episodes", argc > 3 ? argv[3] : "60", &err) ||
      !trivium_plugin_set("world", "causalbench", &err) || !trivium_plugin_set("controller", "trivium", &err)) {
    fprintf(stderr, "dispatch-example: %s\n", err->message);
    return 2;
  }
  simgrid_load_platform(argv[1]);
  simgrid_register_function("car", car);
  simgrid_register_function("tower", tower);
  simgrid_load_deployment(argv[2]);
  simgrid_run();
  if (!trivium_plugin_finished(&err)) {
    fprintf(stderr, "dispatch-example: %s\n", err->message);
    return 1;
  }
  const TrvCellSummary *sum = trivium_results_summary();
  printf("dispatch-example: %d cars reported in; Trivium finished %zu episodes at t=%.3f: hard exposure %.0f, "
         "p_f %.3f\n",
         reports, trivium_results_n_episodes(), simgrid_get_clock(), sum->metric[TRV_METRIC_EXPOSURE_TOTAL],
         sum->metric[TRV_METRIC_P_F]);
  return trivium_results_write_csv(stdout, true, &err) ? 0 : 1;
}
