/* The files the job shop writes (envs/jssp/jssp-platform.c), without the
 * simulator: a writer replaces only its own output unless forced, never
 * writes through a symbolic link, never replaces a directory or a FIFO,
 * checks both platform files before writing either, and an instance's file
 * name cannot break platform.xml or add lines to jobs.txt. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jssp/jssp.h"

static char *tmp_root;

static TrvJsspInstance *small_instance(const char *name) {
  GError *err = NULL;
  TrvJsspInstance *inst = trv_jssp_instance_parse("2 2\n0 1 1 2\n1 3 0 4\n", -1, name, &err);
  g_assert_no_error(err);
  return inst;
}

static char *slurp(const char *path) {
  char *text = NULL;
  g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
  return text;
}

static char *fresh_dir(const char *name) {
  char *dir = g_build_filename(tmp_root, name, NULL);
  g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
  return dir;
}

/* A foreign platform.xml is refused with its path and left as it was, and
 * jobs.txt is not written either (both are checked first); --force
 * replaces it with the writer's output. */
static void platform_refuses_to_overwrite_foreign_files(void) {
  TrvJsspInstance *inst = small_instance("shop");
  char *dir = fresh_dir("foreign");
  char *px = g_build_filename(dir, "platform.xml", NULL), *pj = g_build_filename(dir, "jobs.txt", NULL);
  g_assert_true(g_file_set_contents(px, "precious\n", -1, NULL));
  GError *err = NULL;
  g_assert_false(trv_jssp_write_platform(inst, dir, FALSE, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  char *want = g_strdup_printf("%s: exists and was not written by trivium jssp (its first bytes differ); refusing to "
                               "overwrite it (--force replaces it)",
                               px);
  g_assert_cmpstr(err->message, ==, want);
  g_clear_error(&err);
  char *kept = slurp(px);
  g_assert_cmpstr(kept, ==, "precious\n");
  g_assert_false(g_file_test(pj, G_FILE_TEST_EXISTS));
  g_assert_true(trv_jssp_write_platform(inst, dir, TRUE, &err));
  char *xml = slurp(px);
  g_assert_true(g_str_has_prefix(xml, TRV_JSSP_PLATFORM_MARKER "shop (2 jobs, 2 machines)"));
  g_free(xml);
  g_free(kept);
  g_free(want);
  g_free(px);
  g_free(pj);
  g_free(dir);
  trv_jssp_instance_free(inst);
}

/* Regenerating a platform replaces the writer's own files without
 * --force, edits included, as long as they keep the marker. */
static void platform_rewrites_its_own_output(void) {
  TrvJsspInstance *inst = small_instance("shop");
  char *dir = g_build_filename(tmp_root, "own", NULL); /* created by the writer */
  GError *err = NULL;
  g_assert_true(trv_jssp_write_platform(inst, dir, FALSE, &err));
  char *pj = g_build_filename(dir, "jobs.txt", NULL);
  g_assert_true(g_file_set_contents(pj, TRV_JSSP_JOBS_MARKER "edited\n1 1\n0 9\n", -1, NULL));
  g_assert_true(trv_jssp_write_platform(inst, dir, FALSE, &err));
  g_assert_no_error(err);
  TrvJsspInstance *back = trv_jssp_instance_load(pj, &err);
  g_assert_no_error(err);
  g_assert_cmpint(back->n_jobs, ==, 2);
  g_assert_cmpint(back->duration[3], ==, 4);
  trv_jssp_instance_free(back);
  g_free(pj);
  g_free(dir);
  trv_jssp_instance_free(inst);
}

/* A platform directory that is a link would send both files wherever it
 * points: refused even with --force, and nothing appears there.  A link
 * in place of platform.xml is refused without --force; with it the link
 * itself is replaced and the file it pointed to is untouched. */
static void platform_never_writes_through_links(void) {
  TrvJsspInstance *inst = small_instance("shop");
  char *outside = fresh_dir("outside"), *links = fresh_dir("links");
  char *dir_link = g_build_filename(links, "shop", NULL);
  g_assert_cmpint(symlink(outside, dir_link), ==, 0);
  GError *err = NULL;
  for (int force = 0; force <= 1; force++) {
    g_assert_false(trv_jssp_write_platform(inst, dir_link, force, &err));
    g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
    g_assert_nonnull(strstr(err->message, "is a symbolic link"));
    g_clear_error(&err);
  }
  GDir *d = g_dir_open(outside, 0, NULL);
  g_assert_null(g_dir_read_name(d));
  g_dir_close(d);

  char *dir = fresh_dir("linked-file"), *victim = g_build_filename(outside, "victim.txt", NULL);
  char *px = g_build_filename(dir, "platform.xml", NULL);
  g_assert_true(g_file_set_contents(victim, TRV_JSSP_PLATFORM_MARKER "but someone else's\n", -1, NULL));
  g_assert_cmpint(symlink(victim, px), ==, 0);
  g_assert_false(trv_jssp_write_platform(inst, dir, FALSE, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "platform.xml: is a symbolic link; refusing to write through it"));
  g_clear_error(&err);
  g_assert_true(trv_jssp_write_platform(inst, dir, TRUE, &err));
  struct stat st;
  g_assert_cmpint(lstat(px, &st), ==, 0);
  g_assert_true(S_ISREG(st.st_mode));
  char *v = slurp(victim);
  g_assert_cmpstr(v, ==, TRV_JSSP_PLATFORM_MARKER "but someone else's\n");
  g_free(v);
  g_free(px);
  g_free(victim);
  g_free(dir);
  g_free(dir_link);
  g_free(links);
  g_free(outside);
  trv_jssp_instance_free(inst);
}

/* The instance's name is a file name, which may hold quotes, angle
 * brackets, "--" and newlines: platform.xml stays well-formed XML with the
 * expected hosts, and jobs.txt parses back to the same instance (a name
 * "x\n9 9\ny" must not put a header line `9 9` before the real one). */
static int hosts_seen;
static void count_host(GMarkupParseContext *ctx, const char *element, const char **names, const char **values,
                       gpointer data, GError **error) {
  (void)ctx, (void)names, (void)values, (void)data, (void)error;
  hosts_seen += !strcmp(element, "host");
}

static void file_names_cannot_break_the_platform_files(void) {
  TrvJsspInstance *inst = small_instance("a\"b<c>--d\n9 9\n&e");
  GString *x = trv_jssp_platform_xml(inst), *j = trv_jssp_jobs_text(inst);
  GMarkupParser parser = {.start_element = count_host};
  hosts_seen = 0;
  GMarkupParseContext *ctx = g_markup_parse_context_new(&parser, 0, NULL, NULL);
  GError *err = NULL;
  g_assert_true(g_markup_parse_context_parse(ctx, x->str, (gssize)x->len, &err) &&
                g_markup_parse_context_end_parse(ctx, &err));
  g_assert_no_error(err);
  g_assert_cmpint(hosts_seen, ==, 3); /* dispatcher, m0, m1 */
  g_assert_nonnull(strstr(x->str, "<zone id=\"jssp-a_b_c_--d_9_9__e\""));
  g_markup_parse_context_free(ctx);
  TrvJsspInstance *back = trv_jssp_instance_parse(j->str, (gssize)j->len, "jobs.txt", &err);
  g_assert_no_error(err);
  g_assert_cmpint(back->n_jobs, ==, inst->n_jobs);
  g_assert_cmpint(back->n_machines, ==, inst->n_machines);
  g_assert_cmpmem(back->machine, sizeof(int) * 4, inst->machine, sizeof(int) * 4);
  g_assert_cmpmem(back->duration, sizeof(int) * 4, inst->duration, sizeof(int) * 4);
  trv_jssp_instance_free(back);
  g_string_free(x, TRUE);
  g_string_free(j, TRUE);
  trv_jssp_instance_free(inst);
}

/* The schedule CSV follows the same rule; a directory or a FIFO is never
 * replaced, even when forced; a path in a missing directory is an input
 * error found before anything is computed. */
static void schedule_csv_and_other_paths_follow_the_rule(void) {
  TrvJsspInstance *inst = small_instance("shop");
  TrvJsspSchedule *s = trv_jssp_list_schedule(inst, TRV_JSSP_FIFO);
  char *dir = fresh_dir("csv");
  char *csv = g_build_filename(dir, "s.csv", NULL), *fifo = g_build_filename(dir, "fifo", NULL);
  char *missing = g_build_filename(dir, "no", "such", "s.csv", NULL);
  GError *err = NULL;
  g_assert_true(g_file_set_contents(csv, "job,op\n", -1, NULL));
  g_assert_false(trv_jssp_schedule_write_csv(inst, s, csv, FALSE, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_clear_error(&err);
  g_assert_true(trv_jssp_schedule_write_csv(inst, s, csv, TRUE, &err));
  g_assert_true(trv_jssp_schedule_write_csv(inst, s, csv, FALSE, &err)); /* its own now */
  char *text = slurp(csv);
  g_assert_cmpstr(text, ==, "job,op,machine,start,end\n0,0,0,0,1\n0,1,1,3,5\n1,0,1,0,3\n1,1,0,3,7\n");
  g_free(text);
  g_assert_cmpint(mkfifo(fifo, 0600), ==, 0);
  const char *never[] = {dir, fifo};
  for (size_t i = 0; i < G_N_ELEMENTS(never); i++) {
    g_assert_false(trv_jssp_output_check(never[i], TRV_JSSP_SCHEDULE_MARKER, TRUE, &err));
    g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
    g_clear_error(&err);
  }
  g_assert_false(trv_jssp_output_check(missing, TRV_JSSP_SCHEDULE_MARKER, FALSE, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "does not exist"));
  g_clear_error(&err);
  g_assert_false(trv_jssp_output_check("", TRV_JSSP_SCHEDULE_MARKER, FALSE, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_clear_error(&err);
  g_unlink(fifo);
  g_free(missing);
  g_free(fifo);
  g_free(csv);
  g_free(dir);
  trv_jssp_schedule_free(s);
  trv_jssp_instance_free(inst);
}

static void remove_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    GDir *d = g_dir_open(path, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name(d))) {
      char *child = g_build_filename(path, name, NULL);
      remove_tree(child);
      g_free(child);
    }
    if (d) g_dir_close(d);
    g_rmdir(path);
  } else
    g_unlink(path);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  tmp_root = g_dir_make_tmp("test-jssp-output-XXXXXX", NULL);
  g_assert_nonnull(tmp_root);
  g_test_add_func("/jssp/output/platform_refuses_to_overwrite_foreign_files",
                  platform_refuses_to_overwrite_foreign_files);
  g_test_add_func("/jssp/output/platform_rewrites_its_own_output", platform_rewrites_its_own_output);
  g_test_add_func("/jssp/output/platform_never_writes_through_links", platform_never_writes_through_links);
  g_test_add_func("/jssp/output/file_names_cannot_break_the_platform_files",
                  file_names_cannot_break_the_platform_files);
  g_test_add_func("/jssp/output/schedule_csv_and_other_paths_follow_the_rule",
                  schedule_csv_and_other_paths_follow_the_rule);
  int rc = g_test_run();
  remove_tree(tmp_root);
  g_free(tmp_root);
  return rc;
}
