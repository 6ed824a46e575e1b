/* ctl-compact.c - snapshot+delta compaction of a CTL.
 *
 * A compacted log is: the header (flag COMPACTED, base_episode C), the
 * snapshot of C computed by replaying the log (reason COMPACTION), then the
 * records of every episode after C in their original order (C is the last
 * complete episode, so these are the open episodes' records).  The fold of
 * the compacted log from its base therefore equals the fold of the original
 * from zero, bit for bit, since it is the same function on the same data.
 *
 * Compaction never destroys the only copy of the raw records.  In place,
 * an archive path is required: it receives the original file as a hard
 * link before the rename, so the full history stays one file away (the CLI
 * names it FILE.archive-<unix time> by default).  To another file, the
 * output must not exist yet (it is linked into place, never renamed over,
 * so neither the log itself nor any other file can be replaced by it).
 * Compaction runs only while no writer holds the log (it takes the
 * writer's flock) and replaces the file atomically: temporary file,
 * fdatasync, rename, directory fsync.  A crash leaves either the old or the
 * new log, never a mix. */
#include "ctl-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* Builds the compacted image of view into out. */
static bool build_image(const TrvCtlView *v, GByteArray *out, TrvCtlCompactStats *stats, GError **error) {
  const TrvCtlScan *scan = trv_ctl_view_scan(v);
  uint32_t first, n = trv_ctl_view_episodes(v, &first);
  uint32_t base = first + n - 1;
  TrvPosterior *post = trv_ctl_view_replay(v, -1, -1, error);
  if (!post) return false;
  TrvCtlHeader h = scan->header;
  h.flags |= TRV_CTL_FLAG_COMPACTED;
  h.base_episode = base;
  g_byte_array_set_size(out, TRV_CTL_HEADER_SIZE);
  trv_ctl_header_encode(&h, out->data);
  GByteArray *blob = g_byte_array_new();
  trv_posterior_serialize(post, blob);
  trv_posterior_free(post);
  /* A new file, a new chain: seeded by the new header, numbered from 1. */
  TrvCtlChain chain;
  trv_ctl_chain_init(&chain, &h);
  trv_ctl_frame_snapshot(out, &chain, base, TRV_CTL_SNAPSHOT_COMPACTION, blob->data, blob->len);
  g_byte_array_unref(blob);
  stats->base_episode = base;
  for (guint i = 0; i < scan->entries->len; i++) {
    const TrvCtlEntry *e = &g_array_index(scan->entries, TrvCtlEntry, i);
    if (e->type != TRV_CTL_ENTRY_RECORD) continue;
    stats->records_before++;
    if (e->rec.episode <= base) continue;
    trv_ctl_frame_record(out, &chain, &e->rec);
    stats->records_after++;
  }
  stats->bytes_after = out->len;
  return true;
}

static bool write_durably(const char *tmp, const GByteArray *img, GError **error) {
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  size_t done = 0;
  int err = 0;
  if (fd < 0) err = errno;
  while (fd >= 0 && done < img->len) {
    ssize_t w = write(fd, img->data + done, img->len - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      err = w < 0 ? errno : ENOSPC;
      break;
    }
    done += (size_t)w;
  }
  if (fd >= 0 && !err && fdatasync(fd) != 0) err = errno;
  if (fd >= 0) close(fd);
  if (err) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot write the compacted log: %s", tmp, g_strerror(err));
    unlink(tmp);
    return false;
  }
  return true;
}

bool trv_ctl_compact(const char *path, const char *out_path, const char *archive_path, TrvCtlCompactStats *stats,
                     GError **error) {
  TrvCtlCompactStats local;
  if (!stats) stats = &local;
  memset(stats, 0, sizeof *stats);
  if (!out_path && !archive_path) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "%s: compacting in place needs an archive path for the original: compaction never destroys "
                "the only copy of the raw records",
                path);
    return false;
  }
  struct stat out_st;
  if (out_path && lstat(out_path, &out_st) == 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "%s: the output file %s exists (it may be the log itself); compaction writes only to a new "
                "file, or in place with an archive of the original",
                path, out_path);
    return false;
  }
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    g_set_error(error, TRV_ERROR, err == ENOENT ? TRV_ERROR_INPUT : TRV_ERROR_IO, "%s: cannot open the log: %s", path,
                g_strerror(err));
    return false;
  }
  /* Held until the rename: no writer can append to the old inode meanwhile. */
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: a writer has the log open; compact it when it is closed", path);
    close(fd);
    return false;
  }
  struct stat st;
  bool ok = fstat(fd, &st) == 0;
  size_t len = ok ? (size_t)st.st_size : 0;
  uint8_t *data = ok ? trv_ctl_read_fd(fd, path, &len, error) : NULL;
  if (!ok) g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot stat: %s", path, g_strerror(errno));
  TrvCtlView *v = data ? trv_ctl_view_take(data, len, path, false, error) : NULL;
  ok = v != NULL;
  uint32_t first = 0;
  if (ok && trv_ctl_view_episodes(v, &first) == 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: nothing to compact: no complete episode after %s", path,
                first ? "the base snapshot" : "the start");
    ok = false;
  }
  GByteArray *img = g_byte_array_new();
  if (ok) {
    stats->bytes_before = trv_ctl_view_recovery(v)->valid_bytes;
    ok = build_image(v, img, stats, error);
  }
  const char *dest = out_path ? out_path : path;
  char *tmp = g_strconcat(dest, ".compact-tmp", NULL);
  if (ok && g_file_test(tmp, G_FILE_TEST_EXISTS)) unlink(tmp); /* left by a crash during compaction */
  ok = ok && write_durably(tmp, img, error);
  if (ok && archive_path && link(path, archive_path) != 0) {
    int err = errno;
    g_set_error(error, TRV_ERROR, err == EEXIST ? TRV_ERROR_INPUT : TRV_ERROR_IO,
                "%s: cannot keep the original as %s: %s", path, archive_path, g_strerror(err));
    ok = false;
  }
  /* In place: rename over the log (the archive link holds the original).
   * To a new file: link, which fails rather than replace a file created
   * since the check above. */
  if (ok && (out_path ? link(tmp, dest) : rename(tmp, dest)) != 0) {
    int err = errno;
    g_set_error(error, TRV_ERROR, err == EEXIST ? TRV_ERROR_INPUT : TRV_ERROR_IO, "%s: cannot %s %s: %s", tmp,
                out_path ? "link it as" : "rename it over", dest, g_strerror(err));
    ok = false;
  }
  if (out_path || !ok) unlink(tmp);
  ok = ok && trv_ctl_sync_dir(dest, error);
  g_free(tmp);
  g_byte_array_unref(img);
  trv_ctl_view_free(v);
  close(fd);
  return ok;
}
