/* The reader of a point's episodes.csv for a world's report
 * (src/episode-columns.h): what it takes from a well-formed table (the
 * columns asked for, per cell), and how it refuses one that is not (one
 * TRV_ERROR_INPUT line naming the file and the line, the file's text
 * escaped), before reading it when its size already says so, and without
 * waiting on a FIFO. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "episode-columns.h"
#include <trivium/error.h>

static const char *const controllers[] = {"trivium", "rlvr"};
/* the Warehouse report's columns */
static const char *const columns[] = {"committed_reward", "commits", "commit_failures", "delivered", "ideal", "fd_eps",
                                      "fd_eta",           NULL};
enum { REWARD, COMMITS, FAILURES, DELIVERED, IDEAL, FD_EPS, FD_ETA };
static const char header[] =
    "seed,controller,episode,committed_reward,commits,commit_failures,lrcp_trace,delivered,ideal,"
    "fd_eps,fd_eta\n";
static char *dir, *path;

static void put(const char *text, gssize len) { g_assert_true(g_file_set_contents(path, text, len, NULL)); }

static GPtrArray *read_back(long max_rows, GError **err) {
  return trv_episode_columns_read(path, controllers, 2, columns, max_rows, err);
}

/* The table `body` (after the header) is refused, naming the file, the
 * line `line` (0: none) and saying `says`. */
static void assert_refused(const char *body, long max_rows, int line, const char *says) {
  char *text = g_strconcat(header, body, NULL);
  put(text, -1);
  GError *err = NULL;
  g_assert_null(read_back(max_rows, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  char *where = line ? g_strdup_printf("%s:%d: ", path, line) : g_strdup_printf("%s: ", path);
  if (!g_str_has_prefix(err->message, where) || !strstr(err->message, says))
    g_error("'%s': expected '%s...%s'", err->message, where, says);
  for (const char *p = err->message; *p; p++) g_assert_cmpint((unsigned char)*p, >=, 0x20);
  g_free(where);
  g_error_free(err);
  g_free(text);
}

/* The value of column k of cell c at episode i. */
static double at(const TrvEpisodeColumns *c, int k, int i) { return g_array_index(c->values[k], double, i); }

static void a_table_gives_each_cells_columns_in_episode_order(void) {
  put("seed,controller,episode,committed_reward,commits,commit_failures,lrcp_trace,delivered,ideal,fd_eps,fd_eta\n"
      "1,trivium,0,28,8,1,1;0,30,29,29,24\n"
      "1,trivium,1,30,8,0,1;0,30,32,31,27\n"
      "2,trivium,0,20,6,2,0,23,25,24,22\n"
      "1,rlvr,0,10,5,0,0,10,12,11,10\n",
      -1);
  GError *err = NULL;
  GPtrArray *cells = read_back(8, &err);
  g_assert_no_error(err);
  g_assert_cmpuint(cells->len, ==, 3);
  const TrvEpisodeColumns *a = g_ptr_array_index(cells, 0), *b = g_ptr_array_index(cells, 1),
                          *c = g_ptr_array_index(cells, 2);
  g_assert_cmpint(a->controller, ==, 0);
  g_assert_cmpint(a->seed, ==, 1);
  g_assert_cmpint(a->n_columns, ==, 7);
  for (int k = 0; k < 7; k++) g_assert_cmpuint(a->values[k]->len, ==, 2);
  g_assert_cmpfloat(at(a, REWARD, 1), ==, 30);
  g_assert_cmpfloat(at(a, IDEAL, 0), ==, 29);
  g_assert_cmpfloat(at(a, FD_ETA, 1), ==, 27);
  g_assert_cmpfloat(at(a, DELIVERED, 0) + at(a, DELIVERED, 1), ==, 60);
  g_assert_cmpfloat(at(a, FAILURES, 0) + at(a, FAILURES, 1), ==, 1);
  g_assert_cmpfloat(at(a, COMMITS, 0) + at(a, COMMITS, 1), ==, 16);
  g_assert_cmpint(b->seed, ==, 2);
  g_assert_cmpfloat(at(b, DELIVERED, 0) - at(b, REWARD, 0), ==, 3);
  g_assert_cmpint(c->controller, ==, 1);
  g_assert_cmpfloat(at(c, FD_EPS, 0), ==, 11);
  g_ptr_array_free(cells, TRUE);
}

/* Only the columns asked for are read: a header without the others is
 * fine, a field that is not a number outside them too. */
static void only_the_columns_asked_for_are_read(void) {
  put("seed,controller,ideal,note\n3,rlvr,12.5,not a number\n", -1);
  static const char *const ideal[] = {"ideal", NULL};
  GError *err = NULL;
  GPtrArray *cells = trv_episode_columns_read(path, controllers, 2, ideal, 8, &err);
  g_assert_no_error(err);
  g_assert_cmpuint(cells->len, ==, 1);
  const TrvEpisodeColumns *a = g_ptr_array_index(cells, 0);
  g_assert_cmpint(a->controller, ==, 1);
  g_assert_cmpint(a->seed, ==, 3);
  g_assert_cmpint(a->n_columns, ==, 1);
  g_assert_cmpfloat(at(a, 0, 0), ==, 12.5);
  g_ptr_array_free(cells, TRUE);
  static const char *const fd[] = {"ideal", "fd_eps", NULL};
  g_assert_null(trv_episode_columns_read(path, controllers, 2, fd, 8, &err));
  g_assert_nonnull(strstr(err->message, ":1: no column 'fd_eps'"));
  g_clear_error(&err);
}

static void malformed_tables_are_refused_with_their_line(void) {
  assert_refused("1,trivium,0,28,8,1,x,30,29,29,24\n1,trivium,0,28,8,1,x,30,29\n", 8, 3,
                 "9 fields; expected the header's 11");
  assert_refused("1,dqn,0,28,8,1,x,30,29,29,24\n", 8, 2, "controller 'dqn'; expected one of the run's");
  assert_refused("one,trivium,0,28,8,1,x,30,29,29,24\n", 8, 2, "seed 'one'; expected a whole number");
  assert_refused("99999999999,trivium,0,28,8,1,x,30,29,29,24\n", 8, 2, "seed '99999999999'");
  assert_refused("1,trivium,0,28,8,1,x,30,29,,24\n", 8, 2, "fd_eps ''; expected a number");
  assert_refused("1,trivium,0,28x,8,1,x,30,29,29,24\n", 8, 2, "committed_reward '28x'; expected a number");
  assert_refused("1,trivium,0,28,8,1,x,30,29,29,24\n\n1,trivium,1,28,8,1,x,30,29,29,24\n", 8, 3, "an empty line");
  assert_refused("1,trivium,0,28,8,1,x,30,29,29,24\n1,trivium,1,28,8,1,x,30,29,29,24\n", 1, 3,
                 "more rows than the run's 1");
  assert_refused("1,\x1b[2J,0,28,8,1,x,30,29,29,24\n", 8, 2, "controller '\\x1b[2J'");
  put("seed,controller,committed_reward\n1,trivium,3\n", -1);
  GError *err = NULL;
  g_assert_null(read_back(8, &err));
  g_assert_nonnull(strstr(err->message, ":1: no column 'commits'"));
  g_clear_error(&err);
  put("", 0);
  g_assert_null(read_back(8, &err));
  g_assert_nonnull(strstr(err->message, "empty; expected the episodes.csv header"));
  g_clear_error(&err);
}

static void a_nul_byte_inside_a_line_is_refused(void) {
  static const char text[] = "seed,controller,committed_reward,commits,commit_failures,delivered,ideal,fd_eps,fd_eta\n"
                             "1,trivium,2\0003,8,1,30,29,29,24\n";
  put(text, sizeof text - 1);
  GError *err = NULL;
  g_assert_null(read_back(8, &err));
  g_assert_nonnull(strstr(err->message, ":2: a NUL byte; expected text"));
  g_error_free(err);
}

static void sizes_are_bounded_before_and_while_reading(void) {
  /* a line past the bound */
  GString *t = g_string_new(header);
  g_string_append(t, "1,trivium,0,28,8,1,");
  while (t->len < sizeof header + TRV_EPISODES_MAX_LINE + 10) g_string_append_c(t, 'x');
  g_string_append(t, ",30,29,29,24\n");
  put(t->str, (gssize)t->len);
  GError *err = NULL;
  g_assert_null(read_back(8, &err));
  g_assert_nonnull(strstr(err->message, ":2: a line of more than 65536 bytes"));
  g_clear_error(&err);
  /* a file larger than the run's rows can be: refused from its size, before reading */
  g_string_truncate(t, 0);
  g_string_append(t, header);
  while (t->len <= 2 * (gsize)TRV_EPISODES_MAX_LINE) g_string_append(t, "1,trivium,0,28,8,1,x,30,29,29,24\n");
  put(t->str, (gssize)t->len);
  g_assert_null(read_back(1, &err));
  char *says = g_strdup_printf("%s: %zu bytes; expected at most the run's 1 rows", path, t->len);
  g_assert_true(g_str_has_prefix(err->message, says));
  g_free(says);
  g_clear_error(&err);
  g_string_free(t, TRUE);
  /* a FIFO: refused, never waited on */
  g_assert_cmpint(g_unlink(path), ==, 0);
  g_assert_cmpint(mkfifo(path, 0644), ==, 0);
  g_assert_null(read_back(8, &err));
  g_assert_nonnull(strstr(err->message, "a FIFO; expected a regular file"));
  g_clear_error(&err);
  g_assert_cmpint(g_unlink(path), ==, 0);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  dir = g_dir_make_tmp("trv-episode-columns-XXXXXX", NULL);
  path = g_build_filename(dir, "episodes.csv", NULL);
  g_test_add_func("/episode-columns/a_table_gives_each_cells_columns_in_episode_order",
                  a_table_gives_each_cells_columns_in_episode_order);
  g_test_add_func("/episode-columns/only_the_columns_asked_for_are_read", only_the_columns_asked_for_are_read);
  g_test_add_func("/episode-columns/malformed_tables_are_refused_with_their_line",
                  malformed_tables_are_refused_with_their_line);
  g_test_add_func("/episode-columns/a_nul_byte_inside_a_line_is_refused", a_nul_byte_inside_a_line_is_refused);
  g_test_add_func("/episode-columns/sizes_are_bounded_before_and_while_reading",
                  sizes_are_bounded_before_and_while_reading);
  int rc = g_test_run();
  g_unlink(path);
  g_rmdir(dir);
  g_free(path);
  g_free(dir);
  return rc;
}
