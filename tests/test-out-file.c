/* trv_out_dir_check (plugin/core/out-file.h) from several processes at
 * once: the jobs of a job list (`trivium run --cells`, run side by side by
 * GNU parallel) each probe their output directory before they write.  No
 * process's probe ever fails because another's came and went, and a
 * symbolic link at a process's probe name is refused, not followed. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trivium/error.h>

#include "core/out-file.h"

#define PROCESSES 4
#define ROUNDS 3000

static void processes_probing_one_directory_at_once_never_fail(void) {
  char *dir = g_dir_make_tmp("trv-out-file-XXXXXX", NULL);
  pid_t pids[PROCESSES];
  for (int p = 0; p < PROCESSES; p++) {
    pids[p] = fork();
    g_assert_cmpint(pids[p], >=, 0);
    if (pids[p] == 0) {
      int failures = 0;
      for (int i = 0; i < ROUNDS; i++) {
        GError *err = NULL;
        if (!trv_out_dir_check(dir, false, &err)) {
          if (failures++ == 0) g_printerr("# %s\n", err->message);
          g_clear_error(&err);
        }
      }
      _exit(failures > 255 ? 255 : failures);
    }
  }
  int failed = 0;
  for (int p = 0; p < PROCESSES; p++) {
    int status = 0;
    g_assert_cmpint(waitpid(pids[p], &status, 0), ==, pids[p]);
    g_assert_true(WIFEXITED(status));
    failed += WEXITSTATUS(status);
  }
  g_assert_cmpint(failed, ==, 0);
  GDir *d = g_dir_open(dir, 0, NULL); /* and each probe is gone */
  g_assert_null(g_dir_read_name(d));
  g_dir_close(d);
  g_rmdir(dir);
  g_free(dir);
}

static void a_link_at_the_probe_is_refused(void) {
  char *dir = g_dir_make_tmp("trv-out-file-XXXXXX", NULL);
  char *name = g_strdup_printf(".write-test-%ld", (long)getpid());
  char *probe = g_build_filename(dir, name, NULL), *victim = g_build_filename(dir, "victim", NULL);
  g_assert_true(g_file_set_contents(victim, "kept", -1, NULL));
  g_assert_cmpint(symlink(victim, probe), ==, 0);
  GError *err = NULL;
  g_assert_false(trv_out_dir_check(dir, false, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "a symbolic link where the run writes"));
  g_error_free(err);
  char *kept = NULL;
  g_assert_true(g_file_get_contents(victim, &kept, NULL, NULL));
  g_assert_cmpstr(kept, ==, "kept");
  g_free(kept);
  g_unlink(probe);
  g_unlink(victim);
  g_rmdir(dir);
  g_free(probe);
  g_free(victim);
  g_free(name);
  g_free(dir);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/out-file/processes_probing_one_directory_at_once_never_fail",
                  processes_probing_one_directory_at_once_never_fail);
  g_test_add_func("/out-file/a_link_at_the_probe_is_refused", a_link_at_the_probe_is_refused);
  return g_test_run();
}
