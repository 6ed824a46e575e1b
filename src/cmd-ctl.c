/* cmd-ctl.c - `trivium ctl verify|inspect|replay|compact FILE`: the CTL's
 * command-line tools.  Exit codes: 0 ok, 1 the log is corrupt (or the
 * operation failed on a good log), 2 unusable input (missing file, not a
 * CTL, another format version, bad arguments).  Everything goes through the
 * public ctl.h API; verify, inspect and replay only read (a torn final
 * append is reported, not truncated), and inspect and replay refuse every
 * log verify refuses unless --salvage, which reads the longest valid prefix
 * and says so on stderr; compact is the one that writes. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "log/ctl.h"

static int exit_code(const GError *err) { return err->domain == TRV_ERROR && err->code == TRV_ERROR_CORRUPT ? 1 : 2; }

static int fail(GError *err) {
  int code = exit_code(err);
  fprintf(stderr, "trivium ctl: %s\n", err->message);
  if (code == 1)
    fprintf(stderr, "trivium ctl: `trivium ctl inspect --salvage FILE` shows what a salvage would keep, and "
                    "`trivium ctl replay --salvage FILE` replays it\n");
  g_error_free(err);
  return code;
}

static void usage(FILE *f) {
  fprintf(f, "usage: trivium ctl verify FILE\n"
             "       trivium ctl inspect [--salvage] FILE\n"
             "       trivium ctl replay [--salvage] [--from-snapshot E] [--upto E] FILE\n"
             "       trivium ctl compact [--archive A] FILE      (in place; the original is kept)\n"
             "       trivium ctl compact --out F [--no-archive] FILE (F must be a new file)\n"
             "exit: 0 ok, 1 corrupt log, 2 unusable input\n");
}

static const char *recovery_note(const TrvCtlRecovery *r, char *buf, size_t n) {
  if (r->dropped_bytes)
    snprintf(buf, n,
             "salvage drops %" G_GUINT64_FORMAT " bytes from offset %" G_GUINT64_FORMAT
             " (everything from the first corrupt entry on)",
             r->dropped_bytes, r->corrupt_offset);
  else if (r->torn_bytes)
    snprintf(buf, n,
             "torn final append of %" G_GUINT64_FORMAT " bytes at offset %" G_GUINT64_FORMAT
             " (a crash cut it short; the writer truncates it on open)%s",
             r->torn_bytes, r->valid_bytes, r->padding_bytes ? ", then a writer's preallocation" : "");
  else if (r->padding_bytes)
    snprintf(buf, n, "no torn tail; %" G_GUINT64_FORMAT " bytes of a writer's preallocation after the last entry",
             r->padding_bytes);
  else
    snprintf(buf, n, "no torn tail");
  return buf;
}

/* --salvage read a prefix: say so where it cannot be missed. */
static void salvage_note(const char *path, const TrvCtlView *v) {
  const TrvCtlRecovery *r = trv_ctl_view_recovery(v);
  if (r->dropped_bytes)
    fprintf(stderr,
            "trivium ctl: %s is corrupt from byte offset %" G_GUINT64_FORMAT "; --salvage reads the %" G_GUINT64_FORMAT
            " entries (%" G_GUINT64_FORMAT " bytes) before it and ignores the %" G_GUINT64_FORMAT " bytes after\n",
            path, r->corrupt_offset, r->n_entries, r->valid_bytes, r->dropped_bytes);
}

static int cmd_verify(const char *path) {
  GError *err = NULL;
  TrvCtlRecovery r;
  if (!trv_ctl_verify(path, &r, &err)) return fail(err);
  char note[160];
  printf("%s: valid: %" G_GUINT64_FORMAT " entries, %" G_GUINT64_FORMAT " bytes, snapshots match the records; %s\n",
         path, r.n_entries, r.valid_bytes, recovery_note(&r, note, sizeof note));
  return 0;
}

static int cmd_inspect(const char *path, bool salvage) {
  GError *err = NULL;
  TrvCtlView *v = trv_ctl_view_open(path, salvage, &err);
  if (!v) return fail(err);
  salvage_note(path, v);
  const TrvCtlHeader *h = trv_ctl_view_header(v);
  const TrvPosteriorParams *p = &h->params;
  TrvCtlStats s;
  trv_ctl_view_stats(v, &s);
  char note[160];
  GDateTime *t = g_date_time_new_from_unix_utc((gint64)(h->created_us / 1000000));
  char *when = t ? g_date_time_format_iso8601(t) : g_strdup("?");
  printf("file       %s\n", path);
  printf("format     version %u, created %s\n", h->version, when);
  const char *track = p->track == TRV_TRACK_HAZARD       ? "hazard"
                      : p->track == TRV_TRACK_FORGETTING ? "forgetting"
                                                         : "none";
  if (p->likelihood == TRV_POSTERIOR_BERNOULLI) {
    printf("posterior  %u components, pi0 %g hazard %g lambda %g, track %s\n", h->n_components, p->pi0, p->hazard,
           p->lambda, track);
    printf("likelihood bernoulli, theta0 %g, slab Beta(%g, %g)\n", p->theta0, p->beta_a, p->beta_b);
  } else {
    printf("posterior  %u components, pi0 %g tau2 %g s2 %g kappa_min %g hazard %g lambda %g, slab %s, track %s\n",
           h->n_components, p->pi0, p->tau2, p->s2, p->kappa_min, p->hazard, p->lambda,
           p->slab == TRV_SLAB_SOFT        ? "soft"
           : p->slab == TRV_SLAB_SEPARATED ? "separated"
                                           : "gaussian",
           track);
    if (p->noise == TRV_NOISE_ESTIMATED)
      printf("noise      estimated, noise_df %g\n", p->noise_df);
    else
      printf("noise      known\n");
  }
  if (p->track == TRV_TRACK_HAZARD) printf("effects    redraw %g per episode\n", 1.0 - p->persist);
  if (h->base_episode != TRV_CTL_NO_BASE) printf("compacted  base snapshot of episode %u\n", h->base_episode);
  printf("records    %" G_GUINT64_FORMAT " (step %" G_GUINT64_FORMAT ", reset %" G_GUINT64_FORMAT
         ", episode-end %" G_GUINT64_FORMAT "), %" G_GUINT64_FORMAT " in open episodes\n",
         s.n_records, s.n_by_kind[TRV_RECORD_STEP], s.n_by_kind[TRV_RECORD_RESET], s.n_by_kind[TRV_RECORD_EPISODE_END],
         s.n_pending_records);
  uint32_t first, n = trv_ctl_view_episodes(v, &first);
  if (n)
    printf("episodes   %u complete (%u..%u)\n", n, first, first + n - 1);
  else
    printf("episodes   none complete\n");
  printf("snapshots  %" G_GUINT64_FORMAT, s.n_snapshots);
  size_t ns = trv_ctl_view_n_snapshots(v);
  if (ns) {
    unsigned cp = 0;
    for (size_t i = 0; i < ns; i++) {
      TrvCtlSnapshotReason why;
      trv_ctl_view_snapshot_episode(v, i, &why);
      cp += why == TRV_CTL_SNAPSHOT_CHANGE_POINT;
    }
    printf(" (episodes %u..%u, %u at change-points), %.1f bytes each", trv_ctl_view_snapshot_episode(v, 0, NULL),
           trv_ctl_view_snapshot_episode(v, ns - 1, NULL), cp, (double)s.snapshot_bytes / (double)ns);
  }
  printf("\n");
  printf("size       %" G_GUINT64_FORMAT " bytes: header %" G_GUINT64_FORMAT ", records %" G_GUINT64_FORMAT
         ", snapshots %" G_GUINT64_FORMAT "\n",
         s.file_bytes, s.header_bytes, s.record_bytes, s.snapshot_bytes);
  if (s.n_records)
    printf("per record %.1f bytes framed, %.1f bytes of file\n", (double)s.record_bytes / (double)s.n_records,
           (double)s.file_bytes / (double)s.n_records);
  printf("recovery   %s\n", recovery_note(trv_ctl_view_recovery(v), note, sizeof note));
  g_free(when);
  if (t) g_date_time_unref(t);
  trv_ctl_view_free(v);
  return 0;
}

static int cmd_replay(const char *path, bool salvage, int64_t from, int64_t upto) {
  GError *err = NULL;
  TrvCtlView *v = trv_ctl_view_open(path, salvage, &err);
  if (!v) return fail(err);
  salvage_note(path, v);
  TrvPosterior *post = trv_ctl_view_replay(v, from, upto, &err);
  if (!post) {
    trv_ctl_view_free(v);
    return fail(err);
  }
  uint32_t first, n = trv_ctl_view_episodes(v, &first);
  int64_t last = upto >= 0 ? upto : (int64_t)first + n - 1;
  if (last < 0)
    printf("posterior before episode 0 (no episode is complete), replayed from ");
  else
    printf("posterior after episode %" G_GINT64_FORMAT ", replayed from %s", last, from >= 0 ? "snapshot " : "");
  if (from >= 0)
    printf("%" G_GINT64_FORMAT "\n", from);
  else
    printf("%s\n", trv_ctl_view_header(v)->base_episode == TRV_CTL_NO_BASE ? "zero" : "the base snapshot");
  printf("%-9s %-10s %-12s %-10s %-8s\n", "component", "p", "mu", "v", "n");
  for (int j = 0; j < trv_posterior_n_components(post); j++) {
    double mu, var;
    trv_posterior_effect(post, j, &mu, &var);
    printf("%-9d %-10.6f %-12.6f %-10.6f %-8.3f\n", j, trv_posterior_presence(post, j), mu, var,
           trv_posterior_stats(post, j)->n);
  }
  trv_posterior_free(post);
  trv_ctl_view_free(v);
  return 0;
}

/* In place, the original is always kept (FILE.archive-<unix time>, or
 * --archive A): compaction never destroys the only copy of the raw records.
 * With --out F, F must be a new file and FILE stays as it is. */
static int cmd_compact(const char *path, const char *out, const char *archive, bool no_archive) {
  if (!out && no_archive) {
    fprintf(stderr,
            "trivium ctl compact: compacting %s in place always keeps the original (as %s.archive-TIME, "
            "or --archive A); --no-archive is only valid with --out F, which leaves %s untouched\n",
            path, path, path);
    return 2;
  }
  GError *err = NULL;
  char *def_archive = NULL;
  if (!out && !archive) {
    def_archive = g_strdup_printf("%s.archive-%" G_GINT64_FORMAT, path, g_get_real_time() / 1000000);
    archive = def_archive;
  }
  TrvCtlCompactStats s;
  if (!trv_ctl_compact(path, out, archive, &s, &err)) {
    g_free(def_archive);
    return fail(err);
  }
  printf("%s: compacted to %s: base snapshot of episode %u; %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT
         " bytes, %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT " records%s%s\n",
         path, out ? out : path, s.base_episode, s.bytes_before, s.bytes_after, s.records_before, s.records_after,
         archive ? "; original kept as " : "", archive ? archive : "");
  g_free(def_archive); /* archive may point to it: freed only after the last use */
  return 0;
}

static bool parse_episode(const char *s, int64_t *e) {
  char *end;
  long long v = strtoll(s, &end, 10);
  if (*s == '\0' || *end || v < 0 || v > UINT32_MAX) return false;
  *e = v;
  return true;
}

int trv_cmd_ctl(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const char *sub = argv[1], *file = NULL, *out = NULL, *archive = NULL;
  bool salvage = false, no_archive = false;
  int64_t from = -1, upto = -1;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    bool has_value = i + 1 < argc;
    if (!strcmp(a, "--salvage"))
      salvage = true;
    else if (!strcmp(a, "--no-archive"))
      no_archive = true;
    else if (!strcmp(a, "--out") && has_value)
      out = argv[++i];
    else if (!strcmp(a, "--archive") && has_value)
      archive = argv[++i];
    else if (!strcmp(a, "--from-snapshot") && has_value && parse_episode(argv[i + 1], &from))
      i++;
    else if (!strcmp(a, "--upto") && has_value && parse_episode(argv[i + 1], &upto))
      i++;
    else if (a[0] != '-' && !file)
      file = a;
    else {
      fprintf(stderr, "trivium ctl %s: unknown or incomplete argument '%s'; see trivium ctl --help\n", sub, a);
      return 2;
    }
  }
  if (!file) {
    fprintf(stderr, "trivium ctl %s: no FILE given; see trivium ctl --help\n", sub);
    return 2;
  }
  bool is_verify = !strcmp(sub, "verify"), is_inspect = !strcmp(sub, "inspect");
  bool is_replay = !strcmp(sub, "replay"), is_compact = !strcmp(sub, "compact");
  if ((salvage && !(is_inspect || is_replay)) || ((from >= 0 || upto >= 0) && !is_replay) ||
      ((out || archive || no_archive) && !is_compact) || (archive && no_archive)) {
    fprintf(stderr, "trivium ctl %s: an option that does not go with %s; see trivium ctl --help\n", sub, sub);
    return 2;
  }
  if (is_verify) return cmd_verify(file);
  if (is_inspect) return cmd_inspect(file, salvage);
  if (is_replay) return cmd_replay(file, salvage, from, upto);
  if (is_compact) return cmd_compact(file, out, archive, no_archive);
  fprintf(stderr, "trivium ctl: unknown subcommand '%s'; expected verify, inspect, replay or compact\n", sub);
  return 2;
}
