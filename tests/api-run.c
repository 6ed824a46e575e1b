/* api-run.c - a SimGrid program that runs one cell of a built-in world
 * through the public plugin API alone (trivium/trivium.h): settings from
 * --cfg=trivium/KEY:VALUE, Trivium's own agents (no actor of the program is
 * marked), the results written as episodes.csv lines.  tests/api.sh
 * compares them with `trivium run` on the same scenario and seeds.
 *
 *   api-run PLATFORM [--cfg=trivium/KEY:VALUE ...] [--header] */
#include <simgrid/engine.h>
#include <stdio.h>
#include <string.h>
#include <trivium/trivium.h>

int main(int argc, char **argv) {
  simgrid_init(&argc, argv);
  bool header = argc > 2 && !strcmp(argv[argc - 1], "--header");
  if (argc != (header ? 3 : 2)) {
    fprintf(stderr, "usage: %s PLATFORM [--cfg=trivium/KEY:VALUE ...] [--header]\n", argv[0]);
    return 2;
  }
  trivium_plugin_init();
  simgrid_load_platform(argv[1]);
  simgrid_run();
  GError *err = NULL;
  if (!trivium_plugin_finished(&err) || !trivium_results_write_csv(stdout, header, &err)) {
    fprintf(stderr, "api-run: %s\n", err->message);
    return err->code == TRV_ERROR_INPUT ? 2 : 1;
  }
  return 0;
}
