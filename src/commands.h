/* commands.h - the subcommands of the `trivium` program.
 * Each subcommand is one function with main()'s contract, returning the
 * process exit code: 0 ok, 1 run failure, 2 bad input (trivium(1), EXIT
 * STATUS: docs/man/trivium.1). */
#ifndef TRV_COMMANDS_H
#define TRV_COMMANDS_H

typedef struct {
  const char *name;
  int (*main)(int argc, char **argv);
  const char *summary;
} TrvCommand;

/* The command line: argv[1] names the subcommand.  The modules are
 * registered before (cli-main.c). */
int trv_cli_main(int argc, char **argv);

int trv_cmd_version(int argc, char **argv);
int trv_cmd_run(int argc, char **argv);
int trv_cmd_bench(int argc, char **argv);
int trv_cmd_merge(int argc, char **argv);
int trv_cmd_report(int argc, char **argv);
int trv_cmd_status(int argc, char **argv);
int trv_cmd_params(int argc, char **argv);
int trv_cmd_ctl(int argc, char **argv);
int trv_cmd_trace(int argc, char **argv);
int trv_cmd_validate(int argc, char **argv);
int trv_cmd_jssp(int argc, char **argv);
int trv_cmd_llm(int argc, char **argv);

#endif
