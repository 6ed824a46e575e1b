/* trivium-toys.c - the `trivium` program with three modules of tests/
 * added: a world, a controller and a drift detector, each one file
 * (toy-world.c, toy-controller.c, toy-detector.c) and one registration
 * line below.  tests/toys.sh runs it as it would run `trivium`. */
#include <stdio.h>

#include "api/modules.h"
#include "commands.h"
#include "core/controller.h"
#include "core/detector.h"

extern const TrvWorldClass trv_toy_world;
extern const TrvModule trv_toy_controller, trv_toy_detector;

int main(int argc, char **argv) {
  trv_modules_register_builtin();
  GError *err = NULL;
  if (!trivium_world_register(&trv_toy_world, &err) || !trv_controller_register(&trv_toy_controller, &err) ||
      !trv_detector_register(&trv_toy_detector, &err)) {
    fprintf(stderr, "trivium-toys: %s\n", err->message);
    return 2;
  }
  return trv_cli_main(argc, argv);
}
