/* main.c - `trivium SUBCOMMAND ...`: dispatch to one subcommand
 * (trv_cli_main; the program's main() is cli-main.c, which registers the
 * modules first).  Adding a subcommand: write its function (commands.h)
 * and add a row here. */
#include <config.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "commands.h"
#include "report.h"

static const TrvCommand commands[] = {
    {"run", trv_cmd_run, "run an experiment (default: the headline CausalBench-Seq run)"},
    {"merge", trv_cmd_merge, "join the cells a job list (trivium run --emit) left in a directory"},
    {"report", trv_cmd_report, "write a run's tables and figures again from its cells"},
    {"status", trv_cmd_status, "each point's cells complete, running and missing, of a run or a job list"},
    {"bench", trv_cmd_bench,
     "time the headline run: wall and CPU time, probes/s, memory, the SimGrid skeleton's CPU time"},
    {"params", trv_cmd_params, "list every parameter with its default and meaning"},
    {"version", trv_cmd_version, "print the version and git revision"},
    {"ctl", trv_cmd_ctl, "verify, inspect, replay or compact a CTL file"},
    {"trace", trv_cmd_trace, "import raw taxi traces into a calibration table"},
    {"validate", trv_cmd_validate, "check a scenario file without running it"},
    {"llm", trv_cmd_llm, "the LLM stream: model rates, record a simulated stream, check a replay file"},
    {"jssp", trv_cmd_jssp,
     "job-shop platforms from benchmark instances, dispatch rules, the confounded machine stream"},
};

int trv_cmd_version(int argc, char **argv) {
  (void)argc;
  (void)argv;
  printf("trivium %s (git %s)\n", PACKAGE_VERSION, trv_git_revision);
  return 0;
}

static void usage(FILE *f) {
  fprintf(f, "usage: trivium COMMAND [OPTIONS]\n\ncommands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
}

int trv_cli_main(int argc, char **argv) {
  /* a file-size limit is a full disk to us: a failed write, reported, not a signal */
  signal(SIGXFSZ, SIG_IGN);
#if defined(__GLIBC__)
  /* A cell's per-episode record arrays (a city's 128 drivers x 120 steps:
   * a few MB, grown by doubling) are allocated and freed every episode.
   * Above glibc's mmap threshold each is a fresh mapping, and freed heap
   * above its trim threshold goes back to the kernel: page faults on every
   * episode (a tenth of the URS cell's CPU time).  A fixed trim threshold
   * of 32 MB and an mmap threshold of 8 MB keep that memory in the heap
   * (the largest cell's max RSS grows by about 1 MB), while SimGrid's
   * actor stacks (8 MB each by default) stay mappings of their own: an
   * actor started every episode (a city's host actor, the controller's
   * helpers) would otherwise leave the stack pages it touched in the heap,
   * a new place every time.  Set here, so every forked cell inherits them;
   * the library leaves its callers' malloc alone. */
  mallopt(M_MMAP_THRESHOLD, 8 << 20);
  mallopt(M_TRIM_THRESHOLD, 32 << 20);
#endif
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) return trv_cmd_version(argc - 1, argv + 1);
  if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
    usage(stdout);
    return 0;
  }
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
    if (strcmp(argv[1], commands[i].name)) continue;
    /* one --help behaviour for every subcommand: -h or --help anywhere
     * among its arguments prints its usage on stdout and exits 0 */
    for (int k = 2; k < argc && strcmp(argv[k], "--"); k++)
      if (!strcmp(argv[k], "-h") || !strcmp(argv[k], "--help")) {
        char *help[] = {argv[1], "--help", NULL};
        return commands[i].main(2, help);
      }
    return commands[i].main(argc - 1, argv + 1);
  }
  fprintf(stderr, "trivium: unknown command '%s'\n", argv[1]);
  usage(stderr);
  return 2;
}
