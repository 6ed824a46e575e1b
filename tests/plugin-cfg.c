/* plugin-cfg.c - a SimGrid program whose main() knows nothing of Trivium:
 * its actors "worker" are Trivium agents when the deployment marks them
 * (property trivium.agent) and the plugin is attached with
 * --cfg=plugin:trivium on the command line; each plays episodes
 * (trivium_episode_play) until the run is over, then executes a task of
 * its own.  A worker the deployment starts later (start_time) joins the
 * run late.  tests/plugin-cfg.sh runs it.
 *
 *   plugin-cfg PLATFORM DEPLOYMENT [--attach DIR [--abi N]] [--cfg=...]
 * --attach DIR attaches Trivium through the API instead
 * (trivium_plugin_init, trivium_plugin_finished,
 * trivium_results_write_dir DIR): the same run, for comparison; --abi N
 * as a program compiled against the headers of interface N would. */
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trivium/trivium.h>

/* worker [EPISODES [FLOPS]]: with EPISODES (-1: all), the worker leaves
 * the run after that many episodes (trivium_agent_leave); with FLOPS, it
 * computes that much of its own work before asking for each episode.  It
 * prints the longest time its commits took (trivium_episode_close). */
static void worker(int argc, char **argv) {
  int played = 0, agent = -1, first = -1, most = argc > 1 ? atoi(argv[1]) : -1;
  double flops = argc > 2 ? atof(argv[2]) : 0, start = simgrid_get_clock(), closing = 0;
  TrvEpisode *ep;
  while (played != most && (flops <= 0 || (sg_actor_execute(flops), true)) &&
         (ep = trivium_agent_next_episode()) != NULL) {
    if (first < 0) first = trivium_episode_index(ep), agent = trivium_episode_agent(ep);
    trivium_episode_play(ep);
    double before = simgrid_get_clock();
    trivium_episode_close(ep, NULL);
    if (simgrid_get_clock() - before > closing) closing = simgrid_get_clock() - before;
    played++;
  }
  if (played == most) trivium_agent_leave();
  sg_actor_execute(1e8);
  printf("%s: %d episodes, agent %d from episode %d, started t=%.6f, t=%.6f, longest commit %.6f s\n",
         sg_host_self_get_name(), played, agent, first, start, simgrid_get_clock(), closing);
}

int main(int argc, char **argv) {
  simgrid_init(&argc, argv);
  const char *attach = NULL;
  int abi = TRIVIUM_ABI_VERSION;
  if ((argc == 5 || (argc == 7 && !strcmp(argv[5], "--abi"))) && !strcmp(argv[3], "--attach")) {
    attach = argv[4];
    if (argc == 7) abi = atoi(argv[6]);
  } else if (argc != 3) {
    fprintf(stderr, "usage: %s PLATFORM DEPLOYMENT [--attach DIR [--abi N]] [--cfg=...]\n", argv[0]);
    return 2;
  }
  if (attach) trivium_plugin_init_abi(abi); /* trivium_plugin_init(), or as if compiled against interface N */
  simgrid_load_platform(argv[1]);
  simgrid_register_function("worker", worker);
  simgrid_load_deployment(argv[2]);
  simgrid_run();
  if (attach) {
    GError *err = NULL;
    if (!trivium_plugin_finished(&err) || !trivium_results_write_dir(attach, &err)) {
      fprintf(stderr, "plugin-cfg: %s\n", err->message);
      return err->code == TRV_ERROR_INPUT ? 2 : 1;
    }
  }
  printf("plugin-cfg: simulated time %.6f s\n", simgrid_get_clock());
  return 0;
}
