/* cell-file.c - the cell files of a run (cell-file.h): the cell file's
 * seal and its checks, and the bounded readers of a cell's files.
 *
 * Invariants: a cell file is trusted only after its checksum matches, and
 * the checksum is checked whenever the file has this build's size, so a
 * flipped bit anywhere (magic and fingerprint included) reads as damaged,
 * never as another build's or another configuration's file.  No reader
 * follows a symbolic link or waits on a FIFO, and none reads more than its
 * bound: a cell file at most TRV_CELL_FILE_MAX_READ bytes, the lines their
 * recorded length and one byte more, a message TRV_CELL_MESSAGE_MAX_BYTES. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cell-file.h"
#include "core/crc32c.h"
#include "core/input.h"
#include "scenario/scenario.h"
#include <trivium/error.h>

/* A cell file larger than this is read no further: it is no format's. */
#define TRV_CELL_FILE_MAX_READ ((size_t)1 << 20)

/* The magics of the earlier formats: a file with one of them was written
 * by an earlier build (its cells run again), whatever its size. */
static const char *const earlier_magics[] = {"TRVCELL1", "TRVCELL2", "TRVCELL4", NULL};

char *trv_cell_fingerprint(const char *point, const char *controller, uint64_t seed) {
  GChecksum *c = g_checksum_new(G_CHECKSUM_SHA256);
  g_checksum_update(c, (const guchar *)point, (gssize)strlen(point));
  char *tail = g_strdup_printf("\ncontroller %s\nseed %llu\n", controller, (unsigned long long)seed);
  g_checksum_update(c, (const guchar *)tail, (gssize)strlen(tail));
  char *hex = g_strdup(g_checksum_get_string(c));
  g_free(tail);
  g_checksum_free(c);
  return hex;
}

/* The CRC-32C of the `sizeof(TrvCellFile)` bytes at data, the checksum
 * field left out. */
static uint32_t cell_checksum(const void *data) {
  const size_t at = offsetof(TrvCellFile, checksum), after = at + sizeof(uint32_t);
  uint32_t crc = trv_crc32c(0, data, at);
  return trv_crc32c(crc, (const char *)data + after, sizeof(TrvCellFile) - after);
}

void trv_cell_file_seal(TrvCellFile *cf) {
  memcpy(cf->magic, TRV_CELL_MAGIC, sizeof cf->magic);
  cf->size = sizeof *cf;
  cf->checksum = cell_checksum(cf);
}

static bool refuse(GError **error, int code, const char *file, const char *what) {
  g_set_error(error, TRV_ERROR, code, "%s: %s", file, what);
  return false;
}

static bool damaged(GError **error, const char *file, const char *what) {
  g_set_error(error, TRV_ERROR, TRV_ERROR_CORRUPT, "%s: damaged: %s", file, what);
  return false;
}

static bool is_hex64(const char *s) {
  for (int i = 0; i < TRV_SHA256_HEX; i++)
    if (!g_ascii_isxdigit(s[i]) || g_ascii_isupper(s[i])) return false;
  return s[TRV_SHA256_HEX] == 0;
}

/* A file that says it is another format of cell file: an earlier one's
 * magic, or (at another size) any other "TRVCELL" magic. */
static bool other_format(const void *data, size_t len) {
  if (len < 8) return false;
  for (int i = 0; earlier_magics[i]; i++)
    if (!memcmp(data, earlier_magics[i], 8)) return true;
  return len != sizeof(TrvCellFile) && !memcmp(data, TRV_CELL_MAGIC, 7) && memcmp(data, TRV_CELL_MAGIC, 8) != 0;
}

bool trv_cell_file_parse(const char *file, const void *data, size_t len, const char *fingerprint, int episodes,
                         int n_components, int n_world_metrics, TrvCellFile *out, GError **error) {
  if (other_format(data, len))
    return refuse(error, TRV_ERROR_INPUT, file, "a cell file of another build of trivium (another format)");
  if (len != sizeof *out) {
    char *what = g_strdup_printf("%zu bytes; a cell file of this build is %zu bytes", len, sizeof *out);
    damaged(error, file, what);
    g_free(what);
    return false;
  }
  memcpy(out, data, sizeof *out);
  if (out->checksum != cell_checksum(data)) return damaged(error, file, "its checksum does not match its contents");
  if (memcmp(out->magic, TRV_CELL_MAGIC, 8) != 0) /* sealed, of this size, but not ours: a later format */
    return refuse(error, TRV_ERROR_INPUT, file, "a cell file of another build of trivium (another format)");
  const TrvCellSummary *s = &out->sum;
  if (out->size != sizeof *out || !is_hex64(out->fingerprint) || !is_hex64(out->csv_sha256))
    return damaged(error, file, "its size field, fingerprint or checksum of the lines is malformed");
  if (strcmp(out->fingerprint, fingerprint) != 0)
    return refuse(error, TRV_ERROR_INPUT, file,
                  "written by another configuration of this cell (its fingerprint differs)");
  if (out->csv_bytes > ((uint64_t)1 << 50)) return damaged(error, file, "its episodes.csv length is out of range");
  if (s->episodes < 0 || s->episodes > episodes || s->n_components != n_components ||
      s->n_world_metrics != n_world_metrics || s->n_curve < 0 || s->n_curve > TRV_CURVE_POINTS ||
      (s->episodes > 0 && s->n_curve < 1))
    return damaged(error, file,
                   "its counts (episodes, components, world metrics, curve points) do not fit the run's "
                   "layout");
  for (int i = 0; i < s->n_curve; i++)
    if (s->curve_episode[i] < 1 || s->curve_episode[i] > episodes ||
        (i && s->curve_episode[i] <= s->curve_episode[i - 1]))
      return damaged(error, file, "its regret curve's episodes are not increasing within the run");
  if (s->n_change_points < 0 || s->n_change_points > TRV_CELL_CHANGE_POINTS)
    return damaged(error, file, "its number of change-points is out of range");
  for (int i = 0; i < s->n_change_points; i++)
    if (s->change_point[i].change_point < 0 || s->change_point[i].change_point >= episodes ||
        (i && s->change_point[i].change_point <= s->change_point[i - 1].change_point))
      return damaged(error, file, "its change-points are not increasing within the run");
  if (!isfinite(out->controller_cpu) || out->controller_cpu < 0)
    return damaged(error, file, "its controller time is not a non-negative number");
  return true;
}

/* lstat of a cell's file: true for a regular file; false with *error:
 * "missing" (TRV_ERROR_INPUT) when there is none, damaged when it is
 * something else (a link, a directory, a FIFO ...). */
static bool regular_file(const char *path, struct stat *st, GError **error) {
  if (lstat(path, st) != 0) {
    if (errno == ENOENT) return refuse(error, TRV_ERROR_INPUT, path, "missing");
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot read (%s)", path, g_strerror(errno));
    return false;
  }
  if (S_ISREG(st->st_mode)) return true;
  char *what = g_strdup_printf("%s; expected a regular file written by trivium",
                               S_ISLNK(st->st_mode) ? "a symbolic link" : trv_input_file_kind(st));
  damaged(error, path, what);
  g_free(what);
  return false;
}

bool trv_cell_file_read(const char *path, const char *csv_path, const char *fingerprint, int episodes, int n_components,
                        int n_world_metrics, TrvCellFile *out, GError **error) {
  struct stat st;
  if (!regular_file(path, &st, error)) return false;
  if ((unsigned long long)st.st_size > TRV_CELL_FILE_MAX_READ) {
    char *what =
        g_strdup_printf("%lld bytes; a cell file of this build is %zu bytes", (long long)st.st_size, sizeof *out);
    damaged(error, path, what);
    g_free(what);
    return false;
  }
  char *data = NULL;
  size_t len = 0;
  GError *e = NULL;
  if (!trv_input_read(path, TRV_CELL_FILE_MAX_READ, "cell file", TRV_INPUT_REGULAR, &data, &len, &e)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s", e->message); /* it changed under us, or the system refused */
    g_error_free(e);
    return false;
  }
  bool ok = trv_cell_file_parse(path, data, len, fingerprint, episodes, n_components, n_world_metrics, out, error);
  g_free(data);
  if (!ok || !regular_file(csv_path, &st, error)) return false;
  if ((uint64_t)st.st_size != out->csv_bytes) {
    char *what = g_strdup_printf("%lld bytes, its cell file records %llu", (long long)st.st_size,
                                 (unsigned long long)out->csv_bytes);
    damaged(error, csv_path, what);
    g_free(what);
    return false;
  }
  return true;
}

/* Opens a cell's file for reading: not through a symbolic link, not
 * waiting on a FIFO; -1 with *error (a link or a FIFO reads as damaged). */
static int open_cell_file(const char *path, GError **error) {
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0 && errno == ELOOP)
    damaged(error, path, "a symbolic link; expected a regular file written by trivium");
  else if (fd < 0)
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot read (%s)", path, g_strerror(errno));
  return fd;
}

bool trv_cell_lines_append(const char *path, uint64_t csv_bytes, const char *csv_sha256, FILE *out, GError **error) {
  int fd = open_cell_file(path, error);
  if (fd < 0) return false;
  struct stat st;
  bool ok = fstat(fd, &st) == 0;
  if (!ok)
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot read (%s)", path, g_strerror(errno));
  else if (!S_ISREG(st.st_mode))
    ok = damaged(error, path, "not a regular file; expected the lines trivium wrote");
  GChecksum *sha = csv_sha256 ? g_checksum_new(G_CHECKSUM_SHA256) : NULL;
  char buf[1 << 16];
  uint64_t total = 0;
  while (ok && total <= csv_bytes) {
    size_t want = (size_t)MIN((uint64_t)sizeof buf, csv_bytes + 1 - total);
    ssize_t n = read(fd, buf, want);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot read (%s)", path, g_strerror(errno));
      ok = false;
    } else if (n == 0) {
      break;
    } else if ((total += (uint64_t)n) <= csv_bytes) {
      if (fwrite(buf, 1, (size_t)n, out) != (size_t)n) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot append its lines (%s)", path, g_strerror(errno));
        ok = false;
      }
      if (sha) g_checksum_update(sha, (const guchar *)buf, n);
    }
  }
  close(fd);
  if (ok && total != csv_bytes) {
    char *what = total > csv_bytes
                     ? g_strdup_printf("more than the %llu bytes its cell file records", (unsigned long long)csv_bytes)
                     : g_strdup_printf("%llu bytes, its cell file records %llu", (unsigned long long)total,
                                       (unsigned long long)csv_bytes);
    ok = damaged(error, path, what);
    g_free(what);
  }
  if (ok && sha && strcmp(g_checksum_get_string(sha), csv_sha256) != 0)
    ok = damaged(error, path, "its SHA-256 is not the one its cell file records");
  if (sha) g_checksum_free(sha);
  return ok;
}

char *trv_cell_message_read(const char *path) {
  struct stat st;
  char *data = NULL;
  size_t len = 0;
  if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
      !trv_input_read(path, TRV_CELL_MESSAGE_MAX_BYTES, "cell message", TRV_INPUT_REGULAR, &data, &len, NULL))
    return NULL;
  data[strnlen(data, len)] = 0; /* a NUL ends the text */
  g_strchomp(data);
  char *cut = data[0] ? trv_scn_shorten(data, TRV_CELL_MESSAGE_SHOWN) : NULL;
  char *line = cut ? trv_scn_printable(cut) : NULL;
  g_free(cut);
  g_free(data);
  return line;
}
