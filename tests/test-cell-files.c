/* The files a cell leaves for the merge (src/cell-file.h), damaged on
 * purpose, as SQLite tests its file: a real run of the built program
 * (TRV_TEST_TRIVIUM: one controller, one seed, 20 episodes) makes a cell
 * file and its lines; then
 *   - a single-bit flip of every byte of the cell file is refused by the
 *     reader the merge uses as damaged, naming the file: every bit of the
 *     bytes that hold something (the header, and every byte the run wrote
 *     a value into), one bit of each zero byte of its unused arrays (the
 *     bit's position turning with the offset; every bit of all 66 KB
 *     takes 15 s, 75 s under the sanitizers); and so is every single-bit
 *     flip of the lines (checked against the SHA-256 the cell file
 *     records): no flip reads as another build's or another
 *     configuration's file, none is accepted;
 *   - `trivium merge` on a sample of those flips (every field of the cell
 *     file's header, places spread over the rest, the lines) exits 2 with
 *     one line naming the file and leaves summary.csv as it was, which
 *     shows that what the reader calls damaged stops the merge; a plain
 *     `trivium run` runs the damaged cell again, says so, and gives the
 *     same summary;
 *   - a missing cell, a cell file of an earlier format or of another
 *     configuration is not damaged (exit 1 in a merge: run the jobs again);
 *   - links, FIFOs and lengths that are not the recorded one read as
 *     damaged without blocking;
 *   - a failed cell's message is shown as one bounded printable line. */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cell-file.h"

enum { EPISODES = 20, COMPONENTS = 3, WORLD_METRICS = 0 }; /* the run below: CausalBench-Seq */

static char *run_dir, *sum_path, *csv_path, *summary_path, *summary0;
static TrvCellFile pristine;

static char *slurp(const char *path, gsize *len) {
  char *text = NULL;
  g_assert_true(g_file_get_contents(path, &text, len, NULL));
  return text;
}

static void put(const char *path, const void *data, gsize len) {
  g_assert_true(g_file_set_contents(path, data, (gssize)len, NULL));
}

/* stderr without AddressSanitizer's notices about SimGrid's stack switches
 * (sanitizer builds only): its lines. */
static char **stderr_lines(const char *err) {
  GPtrArray *keep = g_ptr_array_new();
  char **lines = g_strsplit(err, "\n", -1);
  for (int i = 0; lines[i]; i++)
    if (lines[i][0] && !g_str_has_prefix(lines[i], "==") && !g_str_has_prefix(lines[i], "False positive error") &&
        !g_str_has_prefix(lines[i], "For details see"))
      g_ptr_array_add(keep, g_strdup(lines[i]));
  g_strfreev(lines);
  g_ptr_array_add(keep, NULL);
  return (char **)g_ptr_array_free(keep, FALSE);
}

/* Runs the built trivium with args; its exit code and stderr (g_free). */
static int trivium(const char *const *args, char **err_text) {
  GPtrArray *argv = g_ptr_array_new();
  g_ptr_array_add(argv, (char *)TRV_TEST_TRIVIUM);
  for (int i = 0; args[i]; i++) g_ptr_array_add(argv, (char *)args[i]);
  g_ptr_array_add(argv, NULL);
  int status;
  GError *err = NULL;
  g_assert_true(g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, err_text,
                             &status, &err));
  g_ptr_array_free(argv, TRUE);
  g_assert_true(WIFEXITED(status));
  return WEXITSTATUS(status);
}

static int run_cell(char **err_text) {
  const char *args[] = {"run", "-c",    "trivium", "--set", "run.seeds=1", "--set", "run.episodes=20",
                        "-o",  run_dir, "-q",      NULL};
  return trivium(args, err_text);
}

static int merge(char **err_text) {
  const char *args[] = {"merge", "-q", run_dir, NULL};
  return trivium(args, err_text);
}

static bool parse(const void *data, size_t len, const char *fingerprint, TrvCellFile *out, GError **error) {
  return trv_cell_file_parse(sum_path, data, len, fingerprint, EPISODES, COMPONENTS, WORLD_METRICS, out, error);
}

static void assert_damaged(GError *err, const char *file) {
  if (!err || err->code != TRV_ERROR_CORRUPT || !g_str_has_prefix(err->message, file))
    g_error("expected %s damaged, got %s", file, err ? err->message : "no error");
}

static void every_byte_of_a_real_cell_file_flipped_reads_as_damaged(void) {
  gsize len;
  guint8 *data = (guint8 *)slurp(sum_path, &len);
  g_assert_cmpuint(len, ==, sizeof(TrvCellFile));
  TrvCellFile *out = g_new(TrvCellFile, 1);
  GError *err = NULL;
  g_assert_true(parse(data, len, pristine.fingerprint, out, &err));
  g_assert_no_error(err);
  gsize flips = 0;
  for (gsize at = 0; at < len; at++) {
    bool live = at < offsetof(TrvCellFile, sum) || data[at] != 0;
    for (int bit = live ? 0 : (int)(at % 8); bit < (live ? 8 : (int)(at % 8) + 1); bit++, flips++) {
      data[at] ^= (guint8)(1u << bit);
      if (parse(data, len, pristine.fingerprint, out, &err))
        g_error("byte %zu bit %d of %s flipped: accepted", at, bit, sum_path);
      assert_damaged(err, sum_path);
      g_clear_error(&err);
      data[at] ^= (guint8)(1u << bit);
    }
  }
  g_assert_cmpuint(flips, >, len);
  g_test_message("%zu flips of %zu bytes", flips, len);
  g_free(out);
  g_free(data);
}

/* Appends the lines at csv_path as the merge does (checked against the
 * pristine cell file's SHA-256); true when accepted. */
static bool lines_accepted(GError **err) {
  FILE *sink = fopen("/dev/null", "w");
  g_assert_nonnull(sink);
  bool ok = trv_cell_lines_append(csv_path, pristine.csv_bytes, pristine.csv_sha256, sink, err);
  fclose(sink);
  return ok;
}

static void every_bit_flip_of_a_real_cells_lines_reads_as_damaged(void) {
  GError *err = NULL;
  g_assert_true(lines_accepted(&err));
  int fd = open(csv_path, O_RDWR);
  g_assert_cmpint(fd, >=, 0);
  for (guint64 bit = 0; bit < pristine.csv_bytes * 8; bit++) {
    guint8 b;
    g_assert_cmpint(pread(fd, &b, 1, (off_t)(bit / 8)), ==, 1);
    b ^= (guint8)(1u << bit % 8);
    g_assert_cmpint(pwrite(fd, &b, 1, (off_t)(bit / 8)), ==, 1);
    if (lines_accepted(&err)) g_error("bit %" G_GUINT64_FORMAT " of %s flipped: accepted", bit, csv_path);
    assert_damaged(err, csv_path);
    g_clear_error(&err);
    b ^= (guint8)(1u << bit % 8);
    g_assert_cmpint(pwrite(fd, &b, 1, (off_t)(bit / 8)), ==, 1);
  }
  close(fd);
  g_assert_true(lines_accepted(&err));
}

/* Flips bit `bit` of the byte at `offset` of path, runs `trivium merge`,
 * restores the file: exit 2, one line naming the file, summary.csv as it
 * was. */
static void merge_refuses_flip(const char *path, gsize offset, int bit) {
  gsize len;
  char *orig = slurp(path, &len), *bad = g_memdup2(orig, len);
  g_assert_cmpuint(offset, <, len);
  bad[offset] ^= (char)(1 << bit);
  put(path, bad, len);
  char *err = NULL;
  int rc = merge(&err);
  char **lines = stderr_lines(err);
  if (rc != 2 || g_strv_length(lines) != 1 || !strstr(lines[0], path) || !strstr(lines[0], "damaged"))
    g_error("byte %zu bit %d of %s flipped: merge exit %d, stderr '%s'", offset, bit, path, rc, err);
  char *summary = slurp(summary_path, NULL);
  g_assert_cmpstr(summary, ==, summary0);
  put(path, orig, len);
  g_free(summary);
  g_strfreev(lines);
  g_free(err);
  g_free(bad);
  g_free(orig);
}

static void merge_refuses_a_damaged_cell_with_exit_2_and_one_line(void) {
  /* every field before the reduction, then places spread over the reduction */
  const gsize head[] = {0, 3, 7, 8, 11, 12, 15, 16, 40, 80, 81, 120, 145, 146, 150, 152, 159, 160, 170, 200};
  for (gsize i = 0; i < G_N_ELEMENTS(head); i++) merge_refuses_flip(sum_path, head[i], (int)(i % 8));
  for (int k = 1; k < 12; k++) merge_refuses_flip(sum_path, sizeof(TrvCellFile) * k / 12, k % 8);
  merge_refuses_flip(sum_path, sizeof(TrvCellFile) - 1, 7);
  for (int k = 0; k < 6; k++) merge_refuses_flip(csv_path, (gsize)pristine.csv_bytes * k / 6, (k * 3) % 8);
  merge_refuses_flip(csv_path, (gsize)pristine.csv_bytes - 1, 0);
  char *err = NULL;
  g_assert_cmpint(merge(&err), ==, 0); /* restored: merged again */
  g_free(err);
}

/* `trivium run` on a damaged cell file runs the cell again, says so, and
 * gives the summary it gave. */
static void run_runs_a_damaged_cell_again(void) {
  gsize len;
  char *orig = slurp(sum_path, &len);
  orig[len / 2] ^= 4;
  put(sum_path, orig, len);
  char *err = NULL;
  g_assert_cmpint(run_cell(&err), ==, 0);
  char **lines = stderr_lines(err);
  g_assert_cmpuint(g_strv_length(lines), ==, 1);
  g_assert_true(strstr(lines[0], sum_path) && strstr(lines[0], "damaged") && strstr(lines[0], "the cell runs again"));
  char *summary = slurp(summary_path, NULL);
  g_assert_cmpstr(summary, ==, summary0);
  char *now = slurp(sum_path, NULL);
  g_assert_true(memcmp(now, orig, len) != 0); /* written anew */
  g_free(now);
  g_free(summary);
  g_strfreev(lines);
  g_free(err);
  g_free(orig);
}

/* Missing, an earlier format, another configuration: the cell is not
 * complete here, nothing is damaged; a merge says so with exit 1. */
static void foreign_or_missing_cells_are_not_damaged(void) {
  gsize len;
  char *orig = slurp(sum_path, &len);
  TrvCellFile *out = g_new(TrvCellFile, 1);
  GError *err = NULL;
  char other[TRV_SHA256_HEX + 1];
  memcpy(other, pristine.fingerprint, sizeof other);
  other[5] = other[5] == 'a' ? 'b' : 'a';
  g_assert_false(parse(orig, len, other, out, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "another configuration"));
  g_clear_error(&err);
  char *old = g_memdup2(orig, len);
  memcpy(old, "TRVCELL1", 8); /* the earlier format: same size, no checksum */
  g_assert_false(parse(old, len, pristine.fingerprint, out, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_clear_error(&err);
  g_assert_false(parse("TRVCELL9 of another size", 24, pristine.fingerprint, out, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_clear_error(&err);
  /* the format before steps_late and bits_lost: a summary two metrics (16 bytes) smaller */
  char *format2 = g_memdup2(orig, len);
  memcpy(format2, "TRVCELL2", 8);
  g_assert_false(parse(format2, len - 2 * sizeof(double), pristine.fingerprint, out, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "another build"));
  g_clear_error(&err);
  g_free(format2);
  g_assert_false(parse(orig, len - 1, pristine.fingerprint, out, &err)); /* cut */
  assert_damaged(err, sum_path);
  g_clear_error(&err);
  put(sum_path, old, len);
  char *text = NULL;
  g_assert_cmpint(merge(&text), ==, 1);
  g_assert_nonnull(strstr(text, "another build"));
  g_free(text);
  g_assert_cmpint(g_unlink(sum_path), ==, 0);
  g_assert_cmpint(merge(&text), ==, 1);
  g_assert_nonnull(strstr(text, "trivium-seed1.sum: missing"));
  g_free(text);
  put(sum_path, orig, len);
  g_free(old);
  g_free(out);
  g_free(orig);
}

/* Both readers refuse the lines at csv_path as damaged: the check of a
 * complete cell (its length) and the merge's (its length and SHA-256). */
static void assert_lines_damaged(TrvCellFile *out) {
  GError *err = NULL;
  g_assert_false(lines_accepted(&err));
  assert_damaged(err, csv_path);
  g_clear_error(&err);
  g_assert_false(
      trv_cell_file_read(sum_path, csv_path, pristine.fingerprint, EPISODES, COMPONENTS, WORLD_METRICS, out, &err));
  assert_damaged(err, csv_path);
  g_clear_error(&err);
}

static void links_fifos_and_other_lengths_read_as_damaged_without_blocking(void) {
  TrvCellFile *out = g_new(TrvCellFile, 1);
  GError *err = NULL;
  char *real = g_strconcat(sum_path, ".real", NULL), *csv_real = g_strconcat(csv_path, ".real", NULL);
  g_assert_cmpint(g_rename(sum_path, real), ==, 0);
  for (int k = 0; k < 2; k++) { /* the cell file: a link, a FIFO */
    g_assert_cmpint(k ? mkfifo(sum_path, 0644) : symlink(real, sum_path), ==, 0);
    g_assert_false(
        trv_cell_file_read(sum_path, csv_path, pristine.fingerprint, EPISODES, COMPONENTS, WORLD_METRICS, out, &err));
    assert_damaged(err, sum_path);
    g_clear_error(&err);
    g_assert_cmpint(g_unlink(sum_path), ==, 0);
  }
  g_assert_cmpint(g_rename(real, sum_path), ==, 0);
  /* the lines: a FIFO, a link, one byte more, one byte less */
  g_assert_cmpint(g_rename(csv_path, csv_real), ==, 0);
  for (int k = 0; k < 2; k++) {
    g_assert_cmpint(k ? symlink(csv_real, csv_path) : mkfifo(csv_path, 0644), ==, 0);
    assert_lines_damaged(out);
    g_assert_cmpint(g_unlink(csv_path), ==, 0);
  }
  gsize len;
  char *lines = slurp(csv_real, &len), *longer = g_strconcat(lines, "x", NULL);
  for (int k = 0; k < 2; k++) {
    put(csv_path, longer, k ? len - 1 : len + 1);
    assert_lines_damaged(out);
  }
  g_assert_cmpint(g_rename(csv_real, csv_path), ==, 0);
  g_assert_true(
      trv_cell_file_read(sum_path, csv_path, pristine.fingerprint, EPISODES, COMPONENTS, WORLD_METRICS, out, &err));
  g_free(longer);
  g_free(lines);
  g_free(real);
  g_free(csv_real);
  g_free(out);
}

/* True when s holds no control character (C0, DEL, C1) and is UTF-8. */
static bool printable_line(const char *s) {
  if (!g_utf8_validate(s, -1, NULL)) return false;
  for (const char *p = s; *p; p = g_utf8_next_char(p)) {
    gunichar u = g_utf8_get_char(p);
    if (u < 0x20 || (u >= 0x7f && u < 0xa0)) return false;
  }
  return true;
}

static void a_failed_cells_message_is_one_bounded_printable_line(void) {
  char *path = g_build_filename(run_dir, "cells", "x.err", NULL);
  static const char hostile[] = "cell said \x1b[2J\x1b]0;owned\x07 and\nmore \xc2\x9b"
                                "31m \xff\xfe end\n\n";
  put(path, hostile, sizeof hostile - 1);
  char *m = trv_cell_message_read(path);
  g_assert_nonnull(m);
  g_assert_true(printable_line(m));
  g_assert_cmpstr(m, ==, "cell said \\x1b[2J\\x1b]0;owned\\x07 and\\x0amore \\u009b31m \\xff\\xfe end");
  g_free(m);
  GString *big = g_string_new(NULL);
  while (big->len < TRV_CELL_MESSAGE_MAX_BYTES - 8) g_string_append(big, "\x1b\xc3\xa9");
  put(path, big->str, big->len);
  m = trv_cell_message_read(path);
  g_assert_nonnull(m);
  g_assert_true(printable_line(m));
  g_assert_cmpuint(strlen(m), <=, 4 * TRV_CELL_MESSAGE_SHOWN + 3);
  g_assert_true(g_str_has_suffix(m, "..."));
  g_free(m);
  g_string_append(big, "0123456789"); /* past the bound: not read */
  put(path, big->str, big->len);
  g_assert_null(trv_cell_message_read(path));
  g_string_free(big, TRUE);
  put(path, "", 0);
  g_assert_null(trv_cell_message_read(path));
  g_assert_cmpint(g_unlink(path), ==, 0);
  g_assert_null(trv_cell_message_read(path));
  g_assert_cmpint(mkfifo(path, 0644), ==, 0); /* never waited on */
  g_assert_null(trv_cell_message_read(path));
  g_assert_cmpint(g_unlink(path), ==, 0);
  g_assert_cmpint(symlink(sum_path, path), ==, 0);
  g_assert_null(trv_cell_message_read(path));
  g_assert_cmpint(g_unlink(path), ==, 0);
  g_free(path);
}

static void remove_tree(const char *dir) {
  GDir *d = g_dir_open(dir, 0, NULL);
  for (const char *n; d && (n = g_dir_read_name(d));) {
    char *p = g_build_filename(dir, n, NULL);
    if (g_file_test(p, G_FILE_TEST_IS_DIR) && !g_file_test(p, G_FILE_TEST_IS_SYMLINK))
      remove_tree(p);
    else
      g_unlink(p);
    g_free(p);
  }
  if (d) g_dir_close(d);
  g_rmdir(dir);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  char *tmp = g_dir_make_tmp("trv-cells-XXXXXX", NULL);
  g_assert_nonnull(tmp);
  run_dir = g_build_filename(tmp, "D", NULL);
  sum_path = g_build_filename(run_dir, "cells", "trivium-seed1.sum", NULL);
  csv_path = g_build_filename(run_dir, "cells", "trivium-seed1.csv", NULL);
  char *err = NULL;
  if (run_cell(&err) != 0) g_error("the run failed: %s", err);
  g_free(err);
  gsize len;
  char *data = slurp(sum_path, &len);
  g_assert_cmpuint(len, ==, sizeof pristine);
  memcpy(&pristine, data, sizeof pristine);
  g_free(data);
  summary_path = g_build_filename(run_dir, "summary.csv", NULL);
  summary0 = slurp(summary_path, NULL);
  g_test_add_func("/cell/every_byte_of_a_real_cell_file_flipped_reads_as_damaged",
                  every_byte_of_a_real_cell_file_flipped_reads_as_damaged);
  g_test_add_func("/cell/every_bit_flip_of_a_real_cells_lines_reads_as_damaged",
                  every_bit_flip_of_a_real_cells_lines_reads_as_damaged);
  g_test_add_func("/cell/merge_refuses_a_damaged_cell_with_exit_2_and_one_line",
                  merge_refuses_a_damaged_cell_with_exit_2_and_one_line);
  g_test_add_func("/cell/run_runs_a_damaged_cell_again", run_runs_a_damaged_cell_again);
  g_test_add_func("/cell/foreign_or_missing_cells_are_not_damaged", foreign_or_missing_cells_are_not_damaged);
  g_test_add_func("/cell/links_fifos_and_other_lengths_read_as_damaged_without_blocking",
                  links_fifos_and_other_lengths_read_as_damaged_without_blocking);
  g_test_add_func("/cell/a_failed_cells_message_is_one_bounded_printable_line",
                  a_failed_cells_message_is_one_bounded_printable_line);
  int rc = g_test_run();
  remove_tree(tmp);
  g_free(tmp);
  return rc;
}
