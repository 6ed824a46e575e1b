/* Structural damage, exhaustively, on a 200-record log (20 episodes of 9
 * steps and an END marker, a snapshot after every fifth episode: 204
 * entries): every single-entry deletion, every adjacent swap, every
 * repeated entry, every truncation point, every zeroed tail, and appended
 * garbage of every length up to 600 bytes.
 *
 * Each damaged file is either refused by verify, and then by `trivium ctl
 * replay` and `inspect` without --salvage (exit 1), while salvage keeps a
 * prefix of whole entries that folds to the posterior of exactly those
 * entries; or it is what a crash can leave: a prefix of whole entries and
 * at most one incomplete final frame, which verify reports and a writer's
 * open truncates to exactly that prefix.  The counts of each outcome are
 * asserted, so that a check that stopped working shows. */
#include <config.h>

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "../src/commands.h"
#include "log/ctl-internal.h"
#include "test-ctl-util.h"

#define EPISODES 20
#define STEPS 9

typedef struct {
  uint64_t start, end; /* of the frame in the intact file */
} Entry;

typedef struct {
  char *dir, *path, *work;
  GArray *entries; /* Entry, file order */
  uint8_t *bytes;
  size_t len;
  TrvPosterior *prefix[EPISODES * (STEPS + 1) + EPISODES / 5 + 1]; /* [k]: fold of the first k entries */
  size_t n_entries;
} Log;

static Log log_;

static void build_log(Log *log) {
  log->dir = ctl_test_tmpdir();
  log->path = g_build_filename(log->dir, "two-hundred.ctl", NULL);
  log->work = g_build_filename(log->dir, "work.ctl", NULL);
  log->entries = g_array_new(FALSE, FALSE, sizeof(Entry));
  TrvPosteriorParams params = ctl_test_params();
  GError *err = NULL;
  TrvCtlOptions o = {.fsync = TRV_CTL_FSYNC_NONE}; /* no preallocation: sizes are entry ends */
  TrvCtl *ctl = trv_ctl_create(log->path, 3, &params, &o, &err);
  g_assert_no_error(err);
  TrvPosterior *live = trv_posterior_new(3, &params);
  log->prefix[0] = trv_posterior_copy(live);
  TrvRecord ep[STEPS + 1];
  uint64_t start = TRV_CTL_HEADER_SIZE, seq = 0;
  for (uint32_t e = 0; e < EPISODES; e++) {
    for (uint32_t k = 0; k <= STEPS; k++) {
      ep[k] = k < STEPS ? ctl_test_step(k % 3, seq++, e, k, (int)(k % 3), k % 2 ? 1.0 : -1.0, 0.1 * e - 0.3 * k)
                        : ctl_test_control(TRV_RECORD_EPISODE_END, e, e, -1);
      g_assert_cmpint(trv_ctl_append_record(ctl, &ep[k], NULL, &err), ==, TRV_CTL_APPENDED);
      if (k == STEPS) trv_replay_episode(live, ep, STEPS + 1);
      Entry en = {start, (uint64_t)ctl_test_file_size(log->path)};
      start = en.end;
      g_array_append_val(log->entries, en);
      log->prefix[log->entries->len] = trv_posterior_copy(live);
    }
    if (e % 5 == 4) {
      g_assert_cmpint(trv_ctl_append_snapshot(ctl, e, TRV_CTL_SNAPSHOT_EPISODE, live, NULL, &err), ==,
                      TRV_CTL_APPENDED);
      Entry en = {start, (uint64_t)ctl_test_file_size(log->path)};
      start = en.end;
      g_array_append_val(log->entries, en);
      log->prefix[log->entries->len] = trv_posterior_copy(live);
    }
  }
  trv_posterior_free(live);
  g_assert_true(trv_ctl_close(ctl, NULL));
  log->n_entries = log->entries->len;
  g_assert_cmpuint(log->n_entries, ==, 204);
  gchar *bytes;
  gsize len;
  g_assert_true(g_file_get_contents(log->path, &bytes, &len, NULL));
  log->bytes = (uint8_t *)bytes;
  log->len = len;
  g_assert_cmpuint(len, ==, g_array_index(log->entries, Entry, log->n_entries - 1).end);
}

static void free_log(Log *log) {
  for (size_t k = 0; k <= log->n_entries; k++) trv_posterior_free(log->prefix[k]);
  g_array_free(log->entries, TRUE);
  g_free(log->bytes);
  g_free(log->path);
  g_free(log->work);
  ctl_test_rmdir(log->dir);
}

static const Entry *entry(size_t i) { return &g_array_index(log_.entries, Entry, i); }

/* Number of whole entries in the first `bytes` bytes of the intact log, or
 * -1 if bytes is not an entry boundary. */
static int entries_ending_at(uint64_t bytes) {
  if (bytes == TRV_CTL_HEADER_SIZE) return 0;
  for (size_t i = 0; i < log_.n_entries; i++)
    if (entry(i)->end == bytes) return (int)i + 1;
  return -1;
}

/* `trivium ctl ARGS...` with its output discarded; returns the exit code. */
static int ctl_exit(const char *a, const char *b, const char *c) {
  char *args[4] = {"ctl", (char *)a, (char *)b, (char *)c};
  int argc = c ? 4 : 3;
  fflush(stdout);
  fflush(stderr);
  int saved_out = dup(1), saved_err = dup(2), null = open("/dev/null", O_WRONLY);
  dup2(null, 1);
  dup2(null, 2);
  int code = trv_cmd_ctl(argc, args);
  fflush(stdout);
  fflush(stderr);
  dup2(saved_out, 1);
  dup2(saved_err, 2);
  close(saved_out);
  close(saved_err);
  close(null);
  return code;
}

typedef struct {
  size_t refused, prefix, torn, padded, unchanged;
} Outcome;

/* The log's preallocation pattern salt (its header's). */
static uint64_t pad_salt(void) {
  TrvCtlHeader h;
  g_assert_true(trv_ctl_header_decode(log_.bytes, log_.len, "log", &h, NULL));
  return trv_ctl_pad_salt(&h);
}

/* Checks one damaged image and counts its outcome.  The first
 * intact_prefix entries are known untouched: salvage must keep at least
 * those.  cli: also run the command-line tools on it. */
static void check(const uint8_t *img, size_t len, size_t intact_prefix, bool cli, Outcome *out) {
  if (len == log_.len && memcmp(img, log_.bytes, len) == 0) {
    out->unchanged++;
    return;
  }
  ctl_test_write_file(log_.work, img, len);
  GError *err = NULL;
  TrvCtlRecovery r;
  if (!trv_ctl_verify(log_.work, &r, &err)) {
    out->refused++;
    bool header = len < TRV_CTL_HEADER_SIZE;
    int want = header && len < 8 ? TRV_ERROR_INPUT : TRV_ERROR_CORRUPT; /* no magic: not a CTL at all */
    g_assert_error(err, TRV_ERROR, want);
    g_clear_error(&err);
    if (cli) {
      int code = header && len < 8 ? 2 : 1;
      g_assert_cmpint(ctl_exit("replay", log_.work, NULL), ==, code);
      g_assert_cmpint(ctl_exit("inspect", log_.work, NULL), ==, code);
      if (!header) g_assert_cmpint(ctl_exit("replay", "--salvage", log_.work), ==, 0);
    }
    if (header) return;
    /* Salvage: whole entries of the intact log, at least the untouched
     * ones, folding to exactly their posterior. */
    TrvCtlView *v = trv_ctl_view_new_from_bytes(img, len, "damaged", true, &err);
    g_assert_no_error(err);
    const TrvCtlRecovery *s = trv_ctl_view_recovery(v);
    int k = entries_ending_at(s->valid_bytes);
    g_assert_cmpint(k, >=, (int)intact_prefix);
    g_assert_cmpuint(s->n_entries, ==, (uint64_t)k);
    g_assert_cmpuint(s->corrupt_offset, ==, s->valid_bytes);
    g_assert_true(memcmp(img, log_.bytes, s->valid_bytes) == 0);
    TrvPosterior *p = trv_ctl_view_replay(v, -1, -1, &err);
    g_assert_no_error(err);
    g_assert_true(trv_posterior_equal(p, log_.prefix[k]));
    trv_posterior_free(p);
    trv_ctl_view_free(v);
    return;
  }
  /* Accepted: whole entries of the intact log, then at most one frame that
   * parses as incomplete, or a tail that is the log's preallocation pattern
   * (the header's salt makes that a 1-in-256 chance per tail byte: a tail
   * of a byte or two can be both, and either is what a crash leaves);
   * nothing else. */
  int k = entries_ending_at(r.valid_bytes);
  g_assert_cmpint(k, >=, 0);
  g_assert_true(memcmp(img, log_.bytes, r.valid_bytes) == 0);
  g_assert_cmpuint(r.n_entries, ==, (uint64_t)k);
  g_assert_cmpuint(r.valid_bytes + r.torn_bytes + r.padding_bytes, ==, len);
  if (r.padding_bytes) {
    g_assert_cmpuint(r.torn_bytes, ==, 0); /* a torn frame before pattern needs TRV_CTL_PAD_GUARD of it */
    g_assert_cmpuint(r.padding_bytes, <, TRV_CTL_PAD_GUARD);
    g_assert_cmpuint(trv_ctl_pad_start(pad_salt(), img, r.valid_bytes, len), ==, r.valid_bytes);
    out->padded++;
  } else if (r.torn_bytes) {
    out->torn++;
    TrvCtlScan scan;
    g_assert_true(trv_ctl_scan(img, r.valid_bytes, "prefix", false, &scan, NULL));
    TrvCtlEntry e;
    g_assert_cmpint(trv_ctl_frame_parse(img + r.valid_bytes, r.torn_bytes, &scan.chain, &e), ==,
                    TRV_CTL_FRAME_INCOMPLETE);
    trv_ctl_scan_clear(&scan);
  } else {
    out->prefix++;
  }
  if (cli) g_assert_cmpint(ctl_exit("replay", log_.work, NULL), ==, 0);
  TrvCtlView *v = trv_ctl_view_open(log_.work, false, &err);
  g_assert_no_error(err);
  TrvPosterior *p = trv_ctl_view_replay(v, -1, -1, &err);
  g_assert_no_error(err);
  g_assert_true(trv_posterior_equal(p, log_.prefix[k]));
  trv_posterior_free(p);
  trv_ctl_view_free(v);
}

/* Builds the image of the log with its entries in the order given. */
static size_t image_of(const size_t *order, size_t n, uint8_t *out) {
  memcpy(out, log_.bytes, TRV_CTL_HEADER_SIZE);
  size_t at = TRV_CTL_HEADER_SIZE;
  for (size_t i = 0; i < n; i++) {
    const Entry *e = entry(order[i]);
    memcpy(out + at, log_.bytes + e->start, e->end - e->start);
    at += e->end - e->start;
  }
  return at;
}

static void every_deletion_swap_and_repeat_is_refused_except_the_last_entry_cut(void) {
  size_t n = log_.n_entries;
  size_t *order = g_new(size_t, n + 1);
  uint8_t *img = g_malloc(log_.len + 512);
  Outcome del = {0}, swap = {0}, rep = {0};
  for (size_t d = 0; d < n; d++) { /* delete entry d */
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
      if (i != d) order[m++] = i;
    check(img, image_of(order, m, img), d, true, &del);
  }
  for (size_t s = 0; s + 1 < n; s++) { /* swap entries s and s + 1 */
    for (size_t i = 0; i < n; i++) order[i] = i;
    order[s] = s + 1;
    order[s + 1] = s;
    check(img, image_of(order, n, img), s, true, &swap);
  }
  for (size_t d = 0; d < n; d++) { /* entry d twice in a row */
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
      order[m++] = i;
      if (i == d) order[m++] = i;
    }
    check(img, image_of(order, m, img), d + 1, true, &rep);
  }
  g_test_message("%zu entries: deletions %zu refused, %zu a shorter valid log (the last entry); swaps %zu "
                 "refused of %zu; repeats %zu refused of %zu",
                 n, del.refused, del.prefix, swap.refused, n - 1, rep.refused, n);
  /* Only deleting the last entry leaves a valid log: the log as it was
   * before that append, which no self-contained format can tell apart. */
  g_assert_cmpuint(del.refused, ==, n - 1);
  g_assert_cmpuint(del.prefix, ==, 1);
  g_assert_cmpuint(swap.refused, ==, n - 1);
  g_assert_cmpuint(rep.refused, ==, n);
  g_free(order);
  g_free(img);
}

static void every_truncation_is_refused_in_the_header_or_a_prefix_with_one_torn_frame(void) {
  Outcome o = {0};
  for (size_t cut = 0; cut < log_.len; cut++) {
    int whole = entries_ending_at(cut);
    size_t intact = 0;
    while (intact < log_.n_entries && entry(intact)->end <= cut) intact++;
    /* The command-line tools at a few cuts: inside the header, at a
     * boundary, and inside a record and a snapshot. */
    bool cli = cut == 100 || cut == entry(3)->end || cut == entry(3)->end + 40 || cut == entry(49)->end - 5;
    Outcome before = o;
    check(log_.bytes, cut, intact, cli, &o);
    if (cut >= TRV_CTL_HEADER_SIZE) {
      g_assert_cmpuint(o.refused, ==, before.refused);
      g_assert_cmpuint(o.torn + o.padded - before.torn - before.padded, ==, whole < 0 ? 1 : 0);
    }
  }
  g_test_message("%zu truncation points: %zu refused (inside the header), %zu at an entry boundary (a shorter "
                 "valid log), %zu inside an entry (one torn frame, truncated by recovery; %zu of them a tail "
                 "that is also the preallocation pattern)",
                 log_.len, o.refused, o.prefix, o.torn + o.padded, o.padded);
  g_assert_cmpuint(o.refused, ==, TRV_CTL_HEADER_SIZE);
  g_assert_cmpuint(o.prefix, ==, log_.n_entries);
  g_assert_cmpuint(o.torn + o.padded, ==, log_.len - TRV_CTL_HEADER_SIZE - log_.n_entries);
}

static void every_zeroed_tail_is_refused(void) {
  uint8_t *img = g_malloc(log_.len);
  Outcome o = {0};
  for (size_t from = TRV_CTL_HEADER_SIZE; from < log_.len; from++) {
    memcpy(img, log_.bytes, log_.len);
    memset(img + from, 0, log_.len - from);
    size_t intact = 0;
    while (intact < log_.n_entries && entry(intact)->end <= from) intact++;
    check(img, log_.len, intact, from % 997 == 0, &o);
  }
  g_test_message("zeroed from each of %zu offsets to the end: %zu refused, %zu left the file as it was",
                 log_.len - TRV_CTL_HEADER_SIZE, o.refused, o.unchanged);
  g_assert_cmpuint(o.prefix + o.torn, ==, 0);
  g_assert_cmpuint(o.refused + o.unchanged, ==, log_.len - TRV_CTL_HEADER_SIZE);
  g_assert_cmpuint(o.refused, >, log_.len * 9 / 10);
  g_free(img);
}

static void appended_garbage_is_refused_unless_it_could_start_the_next_frame(void) {
  uint8_t *img = g_malloc(log_.len + 600);
  memcpy(img, log_.bytes, log_.len);
  GRand *rand = g_rand_new_with_seed(20240611);
  Outcome random = {0}, zeros = {0};
  size_t longest_accepted = 0, zeros_like_pattern = 0;
  uint8_t pattern[600];
  trv_ctl_pad_fill(pad_salt(), log_.len, pattern, sizeof pattern);
  for (size_t n = 1; n <= 600; n++) {
    for (size_t i = 0; i < n; i++) img[log_.len + i] = (uint8_t)g_rand_int_range(rand, 0, 256);
    size_t accepted_before = random.torn + random.padded;
    check(img, log_.len + n, log_.n_entries, n % 101 == 0, &random);
    if (random.torn + random.padded > accepted_before) longest_accepted = n;
    memset(img + log_.len, 0, n);
    /* zeros are what the pattern is there only where its bytes are zero
     * (the log's salt decides: for one byte, one log in 256) */
    bool pattern_zero = true;
    for (size_t i = 0; i < n && pattern_zero; i++) pattern_zero = pattern[i] == 0;
    zeros_like_pattern += pattern_zero;
    size_t padded_before = zeros.padded;
    check(img, log_.len + n, log_.n_entries, n % 101 == 0, &zeros);
    g_assert_cmpuint(zeros.padded - padded_before, ==, pattern_zero ? 1 : 0);
  }
  g_test_message("garbage of 1..600 bytes after the last entry: random %zu refused, %zu taken for a torn "
                 "append or the pattern (the longest %zu bytes); zeros %zu refused",
                 random.refused, random.torn + random.padded, longest_accepted, zeros.refused);
  /* Random bytes pass as a torn frame only while they are too short to
   * carry the next sequence number whole (8 bytes). */
  g_assert_cmpuint(longest_accepted, <, 8);
  g_assert_cmpuint(random.refused + random.torn + random.padded, ==, 600);
  g_assert_cmpuint(zeros.refused, ==, 600 - zeros_like_pattern);
  g_rand_free(rand);
  g_free(img);
}

/* Reads img as a view (what verify checks): true with its recovery, or
 * false if it is refused as corrupt. */
static bool accepts(const uint8_t *img, size_t len, TrvCtlRecovery *r) {
  GError *err = NULL;
  TrvCtlView *v = trv_ctl_view_new_from_bytes(img, len, "padded", false, &err);
  if (!v) {
    g_assert_error(err, TRV_ERROR, TRV_ERROR_CORRUPT);
    g_clear_error(&err);
    return false;
  }
  *r = *trv_ctl_view_recovery(v);
  trv_ctl_view_free(v);
  return true;
}

static void preallocation_is_accepted_only_as_a_writer_leaves_it(void) {
  uint64_t salt = pad_salt();
  size_t pad = 2 * TRV_CTL_PAD_GUARD, cut = entry(log_.n_entries - 2)->end + 50; /* inside the last entry */
  uint8_t *img = g_malloc(log_.len + pad);
  TrvCtlRecovery r;
  /* Whole entries, then the pattern: padding. */
  memcpy(img, log_.bytes, log_.len);
  trv_ctl_pad_fill(salt, log_.len, img + log_.len, pad);
  g_assert_true(accepts(img, log_.len + pad, &r));
  g_assert_cmpuint(r.padding_bytes, ==, pad);
  g_assert_cmpuint(r.n_entries, ==, log_.n_entries);
  /* A torn last frame, then the pattern from where the write stopped. */
  trv_ctl_pad_fill(salt, cut, img + cut, log_.len + pad - cut);
  g_assert_true(accepts(img, log_.len + pad, &r));
  g_assert_cmpuint(r.n_entries, ==, log_.n_entries - 1);
  g_assert_cmpuint(r.torn_bytes + r.padding_bytes, ==, log_.len + pad - entry(log_.n_entries - 2)->end);
  g_assert_cmpuint(r.torn_bytes, <=, 50);
  g_assert_cmpuint(r.torn_bytes, >=, 48); /* its last byte or two may agree with the pattern */
  /* A single byte after the whole entries: the pattern's byte there is
   * accepted, as padding, or as a torn frame when it can also start the
   * next one (a possible low byte of a length: the log's salt decides, and
   * either is what a crash leaves); any other byte is refused, or a torn
   * frame if it can start the next one, never padding. */
  memcpy(img, log_.bytes, log_.len);
  trv_ctl_pad_fill(salt, log_.len, img + log_.len, 1);
  g_assert_true(accepts(img, log_.len + 1, &r));
  g_assert_cmpuint(r.padding_bytes + r.torn_bytes, ==, 1);
  g_assert_cmpuint(r.n_entries, ==, log_.n_entries);
  img[log_.len] ^= 0x5a;
  if (accepts(img, log_.len + 1, &r)) {
    g_assert_cmpuint(r.padding_bytes, ==, 0);
    g_assert_cmpuint(r.torn_bytes, ==, 1);
  }
  /* The same with less pattern after it than a writer always keeps: a
   * complete last frame with a bad checksum, refused. */
  g_assert_false(accepts(img, entry(log_.n_entries - 1)->end + 100, &r));
  /* Another log's pattern, or the pattern with a page zeroed: refused. */
  trv_ctl_pad_fill(salt ^ 1, log_.len, img + log_.len, pad);
  memcpy(img, log_.bytes, log_.len);
  g_assert_false(accepts(img, log_.len + pad, &r));
  trv_ctl_pad_fill(salt, log_.len, img + log_.len, pad);
  memset(img + log_.len + 4096, 0, 4096);
  g_assert_false(accepts(img, log_.len + pad, &r));
  g_free(img);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  build_log(&log_);
  g_test_add_func("/ctl/chain/every_deletion_swap_and_repeat_is_refused_except_the_last_entry_cut",
                  every_deletion_swap_and_repeat_is_refused_except_the_last_entry_cut);
  g_test_add_func("/ctl/chain/every_truncation_is_refused_in_the_header_or_a_prefix_with_one_torn_frame",
                  every_truncation_is_refused_in_the_header_or_a_prefix_with_one_torn_frame);
  g_test_add_func("/ctl/chain/every_zeroed_tail_is_refused", every_zeroed_tail_is_refused);
  g_test_add_func("/ctl/chain/appended_garbage_is_refused_unless_it_could_start_the_next_frame",
                  appended_garbage_is_refused_unless_it_could_start_the_next_frame);
  g_test_add_func("/ctl/chain/preallocation_is_accepted_only_as_a_writer_leaves_it",
                  preallocation_is_accepted_only_as_a_writer_leaves_it);
  int rc = g_test_run();
  free_log(&log_);
  return rc;
}
