/* ctl-bench.c - CTL append throughput and size against SQLite 3, same run,
 * same records, same durability, for each fsync policy (`make bench`).
 *
 * Equivalences (SQLite in WAL mode, one table keyed by (agent, seq), INSERT
 * OR IGNORE so a retried record is a no-op as in the CTL):
 *   none   CTL fsync=none            SQLite synchronous=OFF, one transaction per record
 *   group  CTL fsync=group, G/record SQLite synchronous=FULL, one transaction per G
 *                                    records (one WAL sync per G, as the CTL)
 *   always CTL fsync=always          SQLite synchronous=FULL, one transaction per record
 * Each record is visible to readers when its append (insert) returns, in
 * both.  The disk's raw sync rate (4 KiB write + fdatasync, one second) is
 * measured first: it bounds both stores under `always`.
 *
 * usage: ctl-bench [--records N] [--always-records N] [--group G] [--dir D] */
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "log/ctl.h"
#include "core/rng.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static long long file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long long)st.st_size : 0;
}

static void die(const char *what, const char *detail) {
  fprintf(stderr, "ctl-bench: %s: %s\n", what, detail);
  exit(1);
}

/* Records as CausalBench-Seq produces them: 3 agents, 15 steps an episode. */
static TrvRecord *make_records(size_t n) {
  TrvRecord *recs = g_new0(TrvRecord, n);
  TrvRng rng;
  trv_rng_init(&rng, 1, TRV_STREAM_WORLD);
  for (size_t i = 0; i < n; i++) {
    TrvRecord *r = &recs[i];
    r->agent = (uint32_t)(i % 3);
    r->seq = i / 3;
    r->episode = (uint32_t)(i / 15);
    r->step = (uint32_t)(i % 15 / 3);
    r->kind = TRV_RECORD_STEP;
    r->commit_status = TRV_COMMIT_COMMITTED;
    r->a_disp = (int32_t)(i % 4);
    r->a_int = (int32_t)(i % 3);
    r->z = trv_rng_sign(&rng);
    r->outcome = r->z + trv_rng_normal(&rng);
    r->reward = trv_rng_normal(&rng);
    r->n_context = 2;
    r->context[0] = trv_rng_uniform(&rng);
    r->context[1] = trv_rng_uniform(&rng);
  }
  return recs;
}

static double disk_sync_rate(const char *dir) {
  char *path = g_build_filename(dir, "sync-probe", NULL);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) die(path, g_strerror(errno));
  char block[4096] = {0};
  double t0 = now_s(), t;
  long n = 0;
  do {
    if (pwrite(fd, block, sizeof block, (off_t)(n % 256) * 4096) != (ssize_t)sizeof block || fdatasync(fd) != 0)
      die(path, g_strerror(errno));
    n++;
  } while ((t = now_s() - t0) < 1.0);
  close(fd);
  unlink(path);
  g_free(path);
  return (double)n / t;
}

typedef struct {
  double per_s, bytes_per_record;
} Result;

static Result bench_ctl(const char *dir, TrvCtlFsync policy, unsigned group, const TrvRecord *recs, size_t n) {
  char *path = g_build_filename(dir, "bench.ctl", NULL);
  unlink(path);
  TrvPosteriorParams params = {0.5, 1, 1, 0.5, 0.01, 0.9, TRV_SLAB_SEPARATED, TRV_TRACK_HAZARD};
  TrvCtlOptions o = {.fsync = policy, .group_records = group, .group_ms = 10};
  GError *err = NULL;
  TrvCtl *ctl = trv_ctl_create(path, 3, &params, &o, &err);
  if (!ctl) die("ctl", err->message);
  double t0 = now_s();
  for (size_t i = 0; i < n; i++)
    if (trv_ctl_append_record(ctl, &recs[i], NULL, &err) != TRV_CTL_APPENDED) die("ctl append", err->message);
  if (!trv_ctl_close(ctl, &err)) die("ctl close", err->message);
  double dt = now_s() - t0;
  Result r = {(double)n / dt, (double)(file_size(path) - 128) / (double)n};
  unlink(path);
  g_free(path);
  return r;
}

static void sql(sqlite3 *db, const char *stmt) {
  char *msg = NULL;
  if (sqlite3_exec(db, stmt, NULL, NULL, &msg) != SQLITE_OK) die(stmt, msg ? msg : "?");
}

/* group == 0: one autocommit transaction per record. */
static Result bench_sqlite(const char *dir, const char *sync, unsigned group, const TrvRecord *recs, size_t n) {
  char *path = g_build_filename(dir, "bench.sqlite", NULL);
  char *wal = g_strconcat(path, "-wal", NULL), *shm = g_strconcat(path, "-shm", NULL);
  unlink(path);
  unlink(wal);
  unlink(shm);
  sqlite3 *db;
  if (sqlite3_open(path, &db) != SQLITE_OK) die(path, sqlite3_errmsg(db));
  sql(db, "PRAGMA journal_mode=WAL");
  char *pragma = g_strdup_printf("PRAGMA synchronous=%s", sync);
  sql(db, pragma);
  g_free(pragma);
  sql(db, "CREATE TABLE ctl (agent INTEGER, seq INTEGER, episode INTEGER, step INTEGER, snapshot_ref INTEGER,"
          " kind INTEGER, commit_status INTEGER, a_disp INTEGER, a_int INTEGER, z REAL, outcome REAL,"
          " reward REAL, context BLOB, PRIMARY KEY (agent, seq)) WITHOUT ROWID");
  sqlite3_stmt *ins;
  if (sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO ctl VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", -1, &ins, NULL) !=
      SQLITE_OK)
    die("prepare", sqlite3_errmsg(db));
  double t0 = now_s();
  for (size_t i = 0; i < n; i++) {
    if (group && i % group == 0) sql(db, "BEGIN");
    const TrvRecord *r = &recs[i];
    sqlite3_bind_int64(ins, 1, r->agent);
    sqlite3_bind_int64(ins, 2, (sqlite3_int64)r->seq);
    sqlite3_bind_int64(ins, 3, r->episode);
    sqlite3_bind_int64(ins, 4, r->step);
    sqlite3_bind_int64(ins, 5, r->snapshot_ref);
    sqlite3_bind_int(ins, 6, r->kind);
    sqlite3_bind_int(ins, 7, r->commit_status);
    sqlite3_bind_int(ins, 8, r->a_disp);
    sqlite3_bind_int(ins, 9, r->a_int);
    sqlite3_bind_double(ins, 10, r->z);
    sqlite3_bind_double(ins, 11, r->outcome);
    sqlite3_bind_double(ins, 12, r->reward);
    sqlite3_bind_blob(ins, 13, r->context, (int)(sizeof(double) * r->n_context), SQLITE_STATIC);
    if (sqlite3_step(ins) != SQLITE_DONE) die("insert", sqlite3_errmsg(db));
    sqlite3_reset(ins);
    if (group && (i % group == group - 1 || i == n - 1)) sql(db, "COMMIT");
  }
  double dt = now_s() - t0;
  sqlite3_finalize(ins);
  sql(db, "PRAGMA wal_checkpoint(TRUNCATE)");
  sqlite3_close(db);
  Result res = {(double)n / dt, (double)file_size(path) / (double)n};
  unlink(path);
  unlink(wal);
  unlink(shm);
  g_free(path);
  g_free(wal);
  g_free(shm);
  return res;
}

int main(int argc, char **argv) {
  size_t n = 200000, n_always = 3000;
  unsigned group = 64;
  const char *dir_arg = NULL;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--records"))
      n = strtoul(argv[i + 1], NULL, 10);
    else if (!strcmp(argv[i], "--always-records"))
      n_always = strtoul(argv[i + 1], NULL, 10);
    else if (!strcmp(argv[i], "--group"))
      group = (unsigned)strtoul(argv[i + 1], NULL, 10);
    else if (!strcmp(argv[i], "--dir"))
      dir_arg = argv[i + 1];
    else
      die("unknown option", argv[i]);
  }
  if (!n || !n_always || !group) die("usage", "counts must be positive");
  GError *err = NULL;
  char *dir = dir_arg ? g_strdup(dir_arg) : g_dir_make_tmp("trv-ctl-bench-XXXXXX", &err);
  if (!dir) die("tmpdir", err->message);
  TrvRecord *recs = make_records(n > n_always ? n : n_always);
  double rate = disk_sync_rate(dir);
  printf("CTL vs SQLite %s (WAL), in %s\n", sqlite3_libversion(), dir);
  printf("disk sync rate: %.0f fdatasync/s (4 KiB write + fdatasync)\n", rate);
  printf("records: %zu (none, group of %u), %zu (always); 2 context values each\n\n", n, group, n_always);
  printf("%-8s %-40s %14s %14s %8s %10s %10s\n", "policy", "sqlite equivalent", "ctl rec/s", "sqlite rec/s", "ratio",
         "ctl B/rec", "sql B/rec");
  struct {
    const char *name, *sqlite_name, *sync;
    TrvCtlFsync policy;
    unsigned sqlite_group;
    size_t n;
  } rows[] = {
      {"none", "synchronous=OFF, txn per record", "OFF", TRV_CTL_FSYNC_NONE, 0, n},
      {"group", "synchronous=FULL, txn per group", "FULL", TRV_CTL_FSYNC_GROUP, group, n},
      {"group", "synchronous=NORMAL, txn per group (*)", "NORMAL", TRV_CTL_FSYNC_GROUP, group, n},
      {"always", "synchronous=FULL, txn per record", "FULL", TRV_CTL_FSYNC_ALWAYS, 0, n_always},
  };
  for (size_t k = 0; k < G_N_ELEMENTS(rows); k++) {
    Result c = bench_ctl(dir, rows[k].policy, group, recs, rows[k].n);
    Result s = bench_sqlite(dir, rows[k].sync, rows[k].sqlite_group, recs, rows[k].n);
    printf("%-8s %-40s %14.0f %14.0f %7.2fx %10.1f %10.1f\n", rows[k].name, rows[k].sqlite_name, c.per_s, s.per_s,
           c.per_s / s.per_s, c.bytes_per_record, s.bytes_per_record);
    fflush(stdout);
  }
  printf(
      "\n(*) NORMAL in WAL mode does not sync at commit: weaker than the CTL's group commit, shown for reference.\n");
  g_free(recs);
  if (!dir_arg) rmdir(dir);
  g_free(dir);
  return 0;
}
