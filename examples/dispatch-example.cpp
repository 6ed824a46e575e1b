/* dispatch-example.cpp - dispatch-example.c as a C++ SimGrid program (s4u):
 * the same platform, deployment, actors and output, with Trivium's C API
 * called from C++ (its headers are C++-safe).
 *
 *   dispatch-example-cxx PLATFORM DEPLOYMENT [EPISODES]   (default 60) */
#include <simgrid/s4u.hpp>
#include <trivium/trivium.h>

#include <cstdio>
#include <memory>
#include <string>

namespace sg4 = simgrid::s4u;

static int reports = 0; // the tower's count of cars that reported in

static void tower() {
  sg4::Mailbox *mb = sg4::Mailbox::by_name("tower");
  for (int i = 0; i < 2; i++) {
    auto hello = mb->get_unique<std::string>();
    std::printf("tower: %s reported in at t=%.3f\n", hello->c_str(), sg4::Engine::get_clock());
    reports++;
  }
}

static void car() {
  sg4::this_actor::execute(5e7); // warming up: 50 ms on a 1 Gf host
  sg4::Mailbox::by_name("tower")->put(new std::string(sg4::this_actor::get_host()->get_name()), 64);
  int episodes = 0, probes = 0;
  while (TrvEpisode *ep = trivium_agent_next_episode()) {
    probes += trivium_episode_n_probes(ep);
    trivium_episode_play(ep);
    trivium_episode_close(ep, nullptr);
    episodes++;
  }
  std::printf("%s: released by Trivium at t=%.3f after %d episodes, %d probes\n",
              sg4::this_actor::get_host()->get_cname(), sg4::Engine::get_clock(), episodes, probes);
}

int main(int argc, char **argv) {
  sg4::Engine e(&argc, argv);
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s PLATFORM DEPLOYMENT [EPISODES]\n", argv[0]);
    return 2;
  }
  trivium_plugin_init();
  GError *err = nullptr;
  if (!trivium_plugin_set("run.episodes", argc > 3 ? argv[3] : "60", &err) ||
      !trivium_plugin_set("world", "causalbench", &err) || !trivium_plugin_set("controller", "trivium", &err)) {
    std::fprintf(stderr, "dispatch-example-cxx: %s\n", err->message);
    return 2;
  }
  e.load_platform(argv[1]);
  e.register_function("car", [](int, char **) { car(); });
  e.register_function("tower", [](int, char **) { tower(); });
  e.load_deployment(argv[2]);
  e.run();
  if (!trivium_plugin_finished(&err)) {
    std::fprintf(stderr, "dispatch-example-cxx: %s\n", err->message);
    return 1;
  }
  const TrvCellSummary *sum = trivium_results_summary();
  std::printf("dispatch-example: %d cars reported in; Trivium finished %zu episodes at t=%.3f: hard exposure %.0f, "
              "p_f %.3f\n",
              reports, trivium_results_n_episodes(), sg4::Engine::get_clock(), sum->metric[TRV_METRIC_EXPOSURE_TOTAL],
              sum->metric[TRV_METRIC_P_F]);
  return trivium_results_write_csv(stdout, true, &err) ? 0 : 1;
}
