/* cli-main.c - the `trivium` program's main(): registers the shipped
 * modules (plugin/api/modules.h), then runs the command line (main.c).
 * A program built from the command line's objects with modules of its
 * own has its own main() instead, which registers them after these
 * (tests/trivium-toys.c). */
#include "api/modules.h"
#include "commands.h"

int main(int argc, char **argv) {
  trv_modules_register_builtin();
  return trv_cli_main(argc, argv);
}
