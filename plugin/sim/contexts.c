/* contexts.c - SimGrid's actor contexts for a cell: the settings a cell
 * refuses (more than one thread, stacks too small: sim.h), and the guard
 * pages it gives up when its agents would not fit in the process's memory
 * mappings with them (docs/simgrid-plugin.md). */
#include <config.h>

#include <errno.h>
#include <trivium/error.h>

#include "sim-internal.h"

bool trv_sim_check_contexts(GError **error) {
  int threads, stack_kib;
  trv_sim_context_settings(&threads, &stack_kib);
  if (threads > 1) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "contexts/nthreads is %d: Trivium's actors share their state (the world, the log, the rounds) and "
                "run one at a time; expected contexts/nthreads:1 (SimGrid's default)",
                threads);
    return false;
  }
  if (stack_kib < TRV_SIM_MIN_STACK_KIB) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "contexts/stack-size is %d KiB: Trivium's actors need a larger stack; "
                "expected at least %d KiB (SimGrid's default: 8192)",
                stack_kib, TRV_SIM_MIN_STACK_KIB);
    return false;
  }
  return true;
}

bool trv_sim_guard_pages_fit(int agents, long long max_map_count) {
  return max_map_count <= 0 || 2LL * (agents + agents / 64) + 8192 <= max_map_count;
}

/* vm.max_map_count, or 0 where it cannot be read (not Linux). */
static long long max_map_count(void) {
  char *text = NULL, *end;
  if (!g_file_get_contents("/proc/sys/vm/max_map_count", &text, NULL, NULL)) return 0;
  errno = 0;
  long long limit = g_ascii_strtoll(text, &end, 10);
  bool known = end != text && errno == 0 && limit > 0;
  g_free(text);
  return known ? limit : 0;
}

char **trv_sim_cell_argv(const TrvSimOptions *opt, int *argc) {
  bool guard_set = false;
  for (size_t i = 0; i < opt->n_simgrid_args; i++)
    guard_set |= g_str_has_prefix(opt->simgrid_args[i], "--cfg=contexts/guard-size:");
  bool unguard = !guard_set && !trv_sim_guard_pages_fit(opt->agents, max_map_count());
  *argc = 1 + (int)opt->n_simgrid_args + unguard;
  char **argv = g_new0(char *, *argc + 1);
  argv[0] = g_strdup("trivium");
  for (size_t i = 0; i < opt->n_simgrid_args; i++) argv[i + 1] = g_strdup(opt->simgrid_args[i]);
  if (unguard) argv[*argc - 1] = g_strdup("--cfg=contexts/guard-size:0");
  return argv;
}
