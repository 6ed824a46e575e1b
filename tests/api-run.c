/* api-run.c - a SimGrid program that runs one cell of a built-in world
 * through the public plugin API alone (trivium/trivium.h): settings from
 * --cfg=trivium/KEY:VALUE, Trivium's own agents (no actor of the program is
 * marked), the results written as episodes.csv lines.  tests/api.sh
 * compares them with `trivium run` on the same scenario and seeds.
 *
 *   api-run PLATFORM [--cfg=trivium/KEY:VALUE ...] [--header] [--out DIR]
 * With --out, the run's directory is also written to DIR
 * (trivium_results_write_dir), for `trivium report DIR`. */
#include <simgrid/engine.h>
#include <stdio.h>
#include <string.h>
#include <trivium/trivium.h>

int main(int argc, char **argv) {
  simgrid_init(&argc, argv);
  bool header = false, usage = argc < 2;
  const char *out = NULL;
  for (int i = 2; i < argc && !usage; i++) {
    if (!strcmp(argv[i], "--header"))
      header = true;
    else if (!strcmp(argv[i], "--out") && i + 1 < argc)
      out = argv[++i];
    else
      usage = true;
  }
  if (usage) {
    fprintf(stderr, "usage: %s PLATFORM [--cfg=trivium/KEY:VALUE ...] [--header] [--out DIR]\n", argv[0]);
    return 2;
  }
  trivium_plugin_init();
  simgrid_load_platform(argv[1]);
  simgrid_run();
  GError *err = NULL;
  if (!trivium_plugin_finished(&err) || !trivium_results_write_csv(stdout, header, &err) ||
      (out && !trivium_results_write_dir(out, &err))) {
    fprintf(stderr, "api-run: %s\n", err->message);
    return err->code == TRV_ERROR_INPUT ? 2 : 1;
  }
  return 0;
}
