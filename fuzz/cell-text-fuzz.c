/* cell-text-fuzz.c - libFuzzer harness for the readers of a cell's text
 * files (src/cell-file.c): the lines a merge joins (cells/NAME.csv, checked
 * against the length and SHA-256 its cell file records) and the message a
 * failed cell leaves for the run to show (cells/NAME.err).
 *
 * The input's first byte chooses the reader and what the cell file is said
 * to record; the rest is written to a file in a temporary directory, which
 * the reader then reads as the run does.
 *   lines (first byte even): recorded length the true one or one off
 *     (bit 1), SHA-256 the true one, another one, or none (a cell this
 *     process has just run; bits 2-3).  Accepted exactly when the length
 *     and the SHA-256 are the recorded ones, and then what was appended is
 *     the file, byte for byte; refused as damaged (TRV_ERROR_CORRUPT)
 *     naming the file otherwise.
 *   message (first byte odd): NULL exactly when there is nothing to show
 *     (empty or blank up to its first NUL, or longer than
 *     TRV_CELL_MESSAGE_MAX_BYTES); else one line of valid UTF-8 with no
 *     control character (C0, DEL, C1) and at most four bytes for each
 *     byte of the TRV_CELL_MESSAGE_SHOWN shown, "..." included; printable
 *     ASCII that needs no cutting comes back as it was.
 * Any crash, sanitizer report, leak or failed assertion is a bug.  Built
 * and run by fuzz/run.sh (fuzz/cell-text.options allows inputs past the
 * message bound). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cell-file.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *dir, *csv_path, *err_path;

static void remove_dir(void) {
  unlink(csv_path);
  unlink(err_path);
  rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  dir = g_dir_make_tmp("trv-cell-text-XXXXXX", NULL);
  g_assert(dir);
  csv_path = g_build_filename(dir, "trivium-seed1.csv", NULL);
  err_path = g_build_filename(dir, "trivium-seed1.err", NULL);
  atexit(remove_dir);
  return 0;
}

static void write_file(const char *path, const uint8_t *data, size_t size) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  g_assert(fd >= 0);
  for (size_t done = 0; done < size;) {
    ssize_t n = write(fd, data + done, size - done);
    g_assert(n > 0);
    done += (size_t)n;
  }
  g_assert(close(fd) == 0);
}

static void lines(uint8_t how, const uint8_t *data, size_t size) {
  write_file(csv_path, data, size);
  char *sha = g_compute_checksum_for_data(G_CHECKSUM_SHA256, data, size);
  uint64_t recorded = size; /* bit 1: one byte more (bit 4) or less than the file */
  if (how & 2) recorded = (how & 16) || size == 0 ? recorded + 1 : recorded - 1;
  int which = (how >> 2) & 3; /* 0, 3: the true SHA-256; 1: another; 2: none */
  char other[TRV_SHA256_HEX + 1];
  memcpy(other, sha, sizeof other);
  other[TRV_SHA256_HEX - 1] = other[TRV_SHA256_HEX - 1] == '0' ? '1' : '0';
  const char *expected = which == 1 ? other : which == 2 ? NULL : sha;
  char *got = NULL;
  size_t got_len = 0;
  FILE *out = open_memstream(&got, &got_len);
  g_assert(out);
  GError *err = NULL;
  bool ok = trv_cell_lines_append(csv_path, recorded, expected, out, &err);
  g_assert(fclose(out) == 0);
  bool should = recorded == size && which != 1;
  g_assert(ok == should);
  if (ok) {
    g_assert_no_error(err);
    g_assert(got_len == size && memcmp(got, data, size) == 0);
  } else {
    g_assert(err && err->code == TRV_ERROR_CORRUPT && g_str_has_prefix(err->message, csv_path));
    g_error_free(err);
  }
  free(got);
  g_free(sha);
}

static bool printable_ascii(const uint8_t *data, size_t size) {
  for (size_t i = 0; i < size; i++)
    if (data[i] < 0x20 || data[i] > 0x7e) return false;
  return true;
}

static void message(const uint8_t *data, size_t size) {
  write_file(err_path, data, size);
  char *m = trv_cell_message_read(err_path);
  size_t text = strnlen((const char *)data, size); /* up to the first NUL */
  while (text > 0 && g_ascii_isspace(data[text - 1])) text--;
  if (size > TRV_CELL_MESSAGE_MAX_BYTES || text == 0) {
    g_assert(m == NULL);
    return;
  }
  g_assert(m != NULL);
  g_assert(g_utf8_validate(m, -1, NULL));
  for (const char *p = m; *p; p = g_utf8_next_char(p)) {
    gunichar u = g_utf8_get_char(p);
    g_assert(u >= 0x20 && !(u >= 0x7f && u < 0xa0));
  }
  g_assert(strlen(m) <= 4 * (size_t)TRV_CELL_MESSAGE_SHOWN + 3);
  if (text <= TRV_CELL_MESSAGE_SHOWN && printable_ascii(data, text))
    g_assert(strlen(m) == text && memcmp(m, data, text) == 0);
  g_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!dir) LLVMFuzzerInitialize(NULL, NULL);
  if (size == 0) return 0;
  if (data[0] & 1)
    message(data + 1, size - 1);
  else
    lines(data[0], data + 1, size - 1);
  return 0;
}
