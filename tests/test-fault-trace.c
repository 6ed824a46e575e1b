/* Fault traces (<fault-trace file="...">, plugin/scenario/fault-trace.c):
 * what a good trace reads as (intervals per resource, lines, units,
 * comments, joined outages, outages to the end), every kind of mistake
 * with its exact FILE:LINE message, every bound refused before it is
 * exceeded, and the loader's side: the file is found from the scenario's
 * directory and never outside it (absolute paths, '..', symbolic links),
 * is a regular file, and names only links and hosts of the platform. */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scenario/scenario-internal.h"
#include "test-scenario-util.h"
#include "api/modules.h"
#include "worlds.h"

/* ---- the reader, from memory ---- */

static TrvFaultTrace *parse_ok(const char *text) {
  GError *err = NULL;
  TrvFaultTrace *t = trv_fault_trace_parse(text, strlen(text), "t.trace", &err);
  g_assert_no_error(err);
  g_assert_nonnull(t);
  return t;
}

static void parse_fails_len(const char *text, size_t len, const char *want) {
  GError *err = NULL;
  g_assert_null(trv_fault_trace_parse(text, len, "t.trace", &err));
  g_assert_nonnull(err);
  g_assert_cmpint(err->domain, ==, TRV_ERROR);
  g_assert_cmpint(err->code, ==, TRV_ERROR_INPUT);
  g_assert_cmpstr(err->message, ==, want);
  g_error_free(err);
}

static void parse_fails(const char *text, const char *want) { parse_fails_len(text, strlen(text), want); }

static const TrvTraceInterval *interval(const TrvTraceResource *r, guint k) {
  g_assert_cmpuint(k, <, r->intervals->len);
  return &g_array_index(r->intervals, TrvTraceInterval, k);
}

static void assert_interval(const TrvTraceResource *r, guint k, double down, double up, int down_line, int up_line) {
  const TrvTraceInterval *iv = interval(r, k);
  g_assert_cmpfloat(iv->down, ==, down);
  g_assert_cmpfloat(iv->up, ==, up);
  g_assert_cmpint(iv->down_line, ==, down_line);
  g_assert_cmpint(iv->up_line, ==, up_line);
}

static void shipped_trace_reads_as_its_three_outages(void) {
  char *path = src_path("scenarios/faults/tower-outages.trace"), *text;
  gsize len;
  g_assert_true(g_file_get_contents(path, &text, &len, NULL));
  GError *err = NULL;
  TrvFaultTrace *t = trv_fault_trace_load(path, &err);
  g_assert_no_error(err);
  g_assert_cmpstr(t->file, ==, path);
  char *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
  g_assert_cmpstr(t->sha256, ==, sum);
  g_assert_cmpuint(t->n_events, ==, 6);
  g_assert_cmpuint(t->resources->len, ==, 3);
  const TrvTraceResource *r0 = t->resources->pdata[0], *r1 = t->resources->pdata[1], *r2 = t->resources->pdata[2];
  g_assert_cmpstr(r0->name, ==, "tower-0-uplink");
  g_assert_false(r0->host);
  g_assert_cmpuint(r0->intervals->len, ==, 1);
  g_assert_cmpfloat(interval(r0, 0)->down, ==, 600);
  g_assert_cmpfloat(interval(r0, 0)->up, ==, 1200);
  g_assert_cmpstr(r1->name, ==, "tower-1-uplink");
  g_assert_cmpfloat(interval(r1, 0)->down, ==, 1500); /* 25min */
  g_assert_cmpfloat(interval(r1, 0)->up, ==, 2400);   /* 40min */
  g_assert_cmpstr(r2->name, ==, "tower-2");
  g_assert_true(r2->host);
  g_assert_cmpfloat(interval(r2, 0)->down, ==, 4200);
  g_assert_cmpfloat(interval(r2, 0)->up, ==, 4800);
  trv_fault_trace_free(t);
  g_free(sum);
  g_free(text);
  g_free(path);
}

static void good_trace_gives_each_resource_its_intervals(void) {
  TrvFaultTrace *t = parse_ok("# outages\n"
                              "\n"
                              "  600\tlink-a   down   # storm\r\n" /* 3: tabs, a comment, CRLF */
                              "15min link-a up\n"                  /* 4 */
                              "1h host-a off\n"                    /* 5: a host */
                              "700 link-b down\n"                  /* 6: the file need not be sorted */
                              "1h link-a down\n"                   /* 7 */
                              "2h link-a up\n"                     /* 8 */
                              "1.5h host-a on\n"                   /* 9 */
                              "1d link-* down\n"                   /* 10: a glob */
                              "500ms host-a down\n"                /* 11: a link of a host's name */
                              "#");                                /* 12: no end of line */
  g_assert_cmpuint(t->n_events, ==, 9);
  g_assert_cmpuint(t->resources->len, ==, 5);
  const TrvTraceResource *a = t->resources->pdata[0], *h = t->resources->pdata[1], *b = t->resources->pdata[2],
                         *g = t->resources->pdata[3], *ha = t->resources->pdata[4];
  g_assert_cmpstr(a->name, ==, "link-a");
  g_assert_false(a->host || a->glob);
  g_assert_cmpint(a->line, ==, 3);
  g_assert_cmpuint(a->intervals->len, ==, 2);
  assert_interval(a, 0, 600, 900, 3, 4);
  assert_interval(a, 1, 3600, 7200, 7, 8);
  g_assert_cmpstr(h->name, ==, "host-a");
  g_assert_true(h->host);
  g_assert_cmpint(h->line, ==, 5);
  g_assert_cmpuint(h->intervals->len, ==, 1);
  assert_interval(h, 0, 3600, 5400, 5, 9);
  g_assert_cmpstr(b->name, ==, "link-b");
  assert_interval(b, 0, 700, INFINITY, 6, 0); /* down to the end of the run */
  g_assert_cmpstr(g->name, ==, "link-*");
  g_assert_true(g->glob);
  g_assert_false(g->host);
  assert_interval(g, 0, 86400, INFINITY, 10, 0);
  g_assert_cmpstr(ha->name, ==, "host-a");
  g_assert_false(ha->host); /* the state word says the kind: down/up, a link */
  assert_interval(ha, 0, 0.5, INFINITY, 11, 0);
  trv_fault_trace_free(t);
}

static void touching_outages_join_and_a_last_down_lasts_to_the_end(void) {
  TrvFaultTrace *t = parse_ok("600 l down\n"
                              "1200 l up\n"
                              "1200 l down\n" /* back and gone at once */
                              "1800 l up\n"
                              "2000 l down\n"
                              "100 h off\n");
  const TrvTraceResource *l = t->resources->pdata[0], *h = t->resources->pdata[1];
  g_assert_cmpuint(l->intervals->len, ==, 2);
  assert_interval(l, 0, 600, 1800, 1, 4);
  assert_interval(l, 1, 2000, INFINITY, 5, 0);
  g_assert_true(h->host);
  assert_interval(h, 0, 100, INFINITY, 6, 0);
  g_assert_cmpuint(t->n_events, ==, 6);
  trv_fault_trace_free(t);
}

#define TIME_EXPECTED                                                                                                  \
  "expected a number of simulated seconds in [0, 1e+09], or of a unit (ms, s, min or m, h, d: 10min, 6h)"

static void each_mistake_has_its_message(void) {
  parse_fails(
      "# fields\n600 tower-0-uplink\n",
      "t.trace:2: 2 fields in '600 tower-0-uplink'; expected TIME RESOURCE STATE, e.g. '10min tower-0-uplink down'");
  parse_fails("600 tower-0-uplink down now\n", "t.trace:1: more than 3 fields in '600 tower-0-uplink down now'; "
                                               "expected TIME RESOURCE STATE (a comment starts with '#')");
  parse_fails("-5 l down\n", "t.trace:1: time '-5'; " TIME_EXPECTED);
  parse_fails("inf l down\n", "t.trace:1: time 'inf'; " TIME_EXPECTED);
  parse_fails("nan l down\n", "t.trace:1: time 'nan'; " TIME_EXPECTED);
  parse_fails("1e10 l down\n", "t.trace:1: time '1e10'; " TIME_EXPECTED);
  parse_fails("0x10 l down\n", "t.trace:1: time '0x10'; " TIME_EXPECTED);
  parse_fails("10mins l down\n", "t.trace:1: time '10mins'; " TIME_EXPECTED);
  parse_fails("600 l donw\n",
              "t.trace:1: state 'donw'; expected down or up (a link), off or on (a host); did you mean 'down'?");
  parse_fails("600 l DOWN\n", "t.trace:1: state 'DOWN'; expected down or up (a link), off or on (a host)");
  parse_fails("600 a,b down\n", "t.trace:1: resource 'a,b' holds a comma; expected one name or glob per line");
}

static void states_alternate_in_time_order(void) {
  parse_fails("600 l down\n900 l down\n",
              "t.trace:2: link 'l' down, but it is down since line 1; expected 'up' before another 'down'");
  parse_fails(
      "600 l up\n",
      "t.trace:1: link 'l' up, but it is up (every link is up until a line takes it down); expected 'down' first");
  parse_fails("600 l down\n900 l up\n1000 l up\n",
              "t.trace:3: link 'l' up, but it is up since line 2; expected 'down' before another 'up'");
  parse_fails("1 h off\n2 h off\n",
              "t.trace:2: host 'h' off, but it is off since line 1; expected 'on' before another 'off'");
  parse_fails(
      "1 h on\n",
      "t.trace:1: host 'h' on, but it is on (every host is on until a line takes it off); expected 'off' first");
  /* a link and a host of one name are two resources: this host is on */
  parse_fails(
      "1 h down\n2 h on\n",
      "t.trace:2: host 'h' on, but it is on (every host is on until a line takes it off); expected 'off' first");
  parse_fails("600 l down\n500 l up\n", "t.trace:2: link 'l' up at 500 s, before its previous event (line 1, at 600 "
                                        "s); expected the lines of a resource in time order");
  parse_fails("600 l down\n900 l up\n899.5 l down\n",
              "t.trace:3: link 'l' down at 899.5 s, before its previous event "
              "(line 2, at 900 s); expected the lines of a resource in time order");
  parse_fails("600 l down\n10min l up\n", "t.trace:2: link 'l' up at 600 s, the time it went down (line 1); expected a "
                                          "later time (an outage of 0 s changes nothing)");
  /* other resources' lines may come in any order */
  TrvFaultTrace *t = parse_ok("900 a down\n600 b down\n");
  trv_fault_trace_free(t);
}

static void text_that_is_not_a_trace_is_refused(void) {
  parse_fails("", "t.trace: no event; expected lines TIME RESOURCE STATE, e.g. '10min tower-0-uplink down'");
  parse_fails("# only\n\n   \n",
              "t.trace: no event; expected lines TIME RESOURCE STATE, e.g. '10min tower-0-uplink down'");
  parse_fails("1 l down\n2 l\x01 up\n",
              "t.trace:2: control character \\x01; expected text (TIME RESOURCE STATE, blanks between)");
  parse_fails_len("1 l down\n2 l\0 up\n", 17,
                  "t.trace:2: control character \\x00; expected text (TIME RESOURCE STATE, blanks between)");
  parse_fails("1 l\r down\n",
              "t.trace:1: control character \\x0d; expected text (TIME RESOURCE STATE, blanks between)");
  parse_fails("1 caf\xe9 down\n", "t.trace:1: bytes that are not UTF-8; expected text");
  /* a C1 control is UTF-8, but a message never shows it raw */
  parse_fails("1 \xc2\x9b[2J up\n", "t.trace:1: link '\\u009b[2J' up, but it is up (every link is up until a line "
                                    "takes it down); expected 'down' first");
}

/* Every bound at its edge: the largest count passes, one more is refused
 * at the line that would exceed it. */
static void every_count_is_bounded_at_its_edge(void) {
  char *name = g_strnfill(TRV_PLATFORM_MAX_NAME, 'n'), *text = g_strdup_printf("1 %s down\n", name);
  trv_fault_trace_free(parse_ok(text));
  g_free(text);
  text = g_strdup_printf("1 %sn down\n", name);
  parse_fails(text, "t.trace:1: resource of 256 bytes; expected a link or host name or glob of at most 255 bytes");
  g_free(text);
  g_free(name);
  /* a line of 1024 bytes, its end excluded, then one of 1025 */
  char *pad = g_strnfill(TRV_FAULT_TRACE_MAX_LINE - 9, ' ');
  text = g_strdup_printf("1 l down%s#\n", pad);
  g_assert_cmpuint(strlen(text), ==, TRV_FAULT_TRACE_MAX_LINE + 1);
  trv_fault_trace_free(parse_ok(text));
  g_free(text);
  text = g_strdup_printf("1 l down%s #\r\n", pad);
  parse_fails(text, "t.trace:1: line of 1025 bytes; expected at most 1024 bytes (TIME RESOURCE STATE)");
  g_free(text);
  g_free(pad);
  /* events: 100000 then 100001 */
  GString *g = g_string_new(NULL);
  for (int i = 0; i < TRV_FAULT_TRACE_MAX_EVENTS; i++) g_string_append_printf(g, "%d l %s\n", i, i % 2 ? "up" : "down");
  TrvFaultTrace *t = parse_ok(g->str);
  g_assert_cmpuint(t->n_events, ==, TRV_FAULT_TRACE_MAX_EVENTS);
  g_assert_cmpuint(((TrvTraceResource *)t->resources->pdata[0])->intervals->len, ==, TRV_FAULT_TRACE_MAX_EVENTS / 2);
  trv_fault_trace_free(t);
  g_string_append(g, "# a comment is no event\n100000 l down\n");
  parse_fails(g->str, "t.trace:100002: event number 100001; expected at most 100000 events");
  /* distinct resources: 10000 then 10001 */
  g_string_truncate(g, 0);
  for (int i = 0; i < TRV_FAULT_TRACE_MAX_RESOURCES; i++) g_string_append_printf(g, "1 r%d down\n", i);
  trv_fault_trace_free(parse_ok(g->str));
  g_string_append(g, "2 r0 up\n3 r10000 down\n");
  parse_fails(g->str, "t.trace:10002: resource number 10001 ('r10000'); expected at most 10000 distinct resources in a "
                      "trace");
  /* globs: 64 then 65 (a glob named again is the same one) */
  g_string_truncate(g, 0);
  for (int i = 0; i < TRV_FAULT_TRACE_MAX_GLOBS; i++) g_string_append_printf(g, "1 g%d-* down\n", i);
  g_string_append(g, "2 g0-* up\n");
  trv_fault_trace_free(parse_ok(g->str));
  g_string_append(g, "3 g[0-9] down\n");
  parse_fails(g->str, "t.trace:66: glob number 65 ('g[0-9]'); expected at most 64 distinct globs in a trace (name the "
                      "resources one by one)");
  g_string_free(g, TRUE);
  /* bytes: a buffer over the file limit is refused before any line */
  size_t big = TRV_FAULT_TRACE_MAX_BYTES + 1;
  char *bytes = g_malloc(big);
  memset(bytes, '#', big);
  parse_fails_len(bytes, big, "t.trace: the fault trace is 4194305 bytes; expected at most 4194304 bytes");
  g_free(bytes);
}

/* ---- files: what is read ---- */

static void trace_file_is_checked_before_it_is_read(void) {
  alarm(10); /* opening a FIFO without O_NONBLOCK would hang here */
  char *dir = g_dir_make_tmp("trivium-trace-XXXXXX", NULL), *fifo = g_build_filename(dir, "f.trace", NULL),
       *big = g_build_filename(dir, "big.trace", NULL);
  GError *err = NULL;
  g_assert_cmpint(mkfifo(fifo, 0600), ==, 0);
  g_assert_null(trv_fault_trace_load(fifo, &err));
  char *want = g_strdup_printf("%s: the fault trace is a FIFO; expected a regular file", fifo);
  assert_error_message(err, want);
  g_clear_error(&err);
  g_free(want);
  g_assert_null(trv_fault_trace_load(dir, &err));
  want = g_strdup_printf("%s: the fault trace is a directory; expected a regular file", dir);
  assert_error_message(err, want);
  g_clear_error(&err);
  g_free(want);
  int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  g_assert_cmpint(fd, >=, 0);
  g_assert_cmpint(ftruncate(fd, (off_t)TRV_FAULT_TRACE_MAX_BYTES + 1), ==, 0); /* sparse: nothing is written */
  close(fd);
  g_assert_null(trv_fault_trace_load(big, &err));
  want = g_strdup_printf("%s: the fault trace is 4194305 bytes; expected at most 4194304 bytes", big);
  assert_error_message(err, want);
  g_clear_error(&err);
  g_free(want);
  alarm(0);
  g_unlink(fifo);
  g_unlink(big);
  g_rmdir(dir);
  g_free(fifo);
  g_free(big);
  g_free(dir);
}

/* ---- the loader: <fault-trace file="..."> ---- */

/* A scenario directory (scn/, with faults/ok.trace) inside a scratch
 * directory that also holds a trace outside it. */
typedef struct {
  char *top, *dir, *platform;
} Site;

static void write_file(const char *path, const char *text) { g_assert_true(g_file_set_contents(path, text, -1, NULL)); }

static Site site_new(void) {
  Site s = {.top = g_dir_make_tmp("trivium-trace-XXXXXX", NULL), .platform = src_path("platforms/causalbench.xml")};
  s.dir = g_build_filename(s.top, "scn", NULL);
  char *faults = g_build_filename(s.dir, "faults", NULL);
  g_assert_cmpint(g_mkdir_with_parents(faults, 0700), ==, 0);
  g_free(faults);
  char *p = g_build_filename(s.dir, "faults", "ok.trace", NULL);
  write_file(p, "10 agent-0-uplink down\n20 agent-0-uplink up\n30 agent-0 off\n40 agent-0 on\n");
  g_free(p);
  p = g_build_filename(s.top, "outside.trace", NULL);
  write_file(p, "10 agent-0-uplink down\n");
  g_free(p);
  return s;
}

static void site_free(Site *s) {
  char *argv[] = {"rm", "-rf", s->top, NULL};
  g_assert_true(g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL));
  g_free(s->top);
  g_free(s->dir);
  g_free(s->platform);
}

/* The scenario "mem.xml" in the site's directory with `faults` inside <faults> (line 5 on). */
static TrvScenario *load_in(const Site *s, const char *faults, GError **error) {
  char *xml = g_strdup_printf("<trivium-scenario version=\"1\">\n"
                              "  <platform file=\"%s\"/>\n"
                              "  <world name=\"causalbench\"/>\n"
                              "  <faults>\n%s  </faults>\n"
                              "</trivium-scenario>\n",
                              s->platform, faults);
  TrvScenario *sc = trv_scenario_load_from_memory(xml, strlen(xml), "mem.xml", s->dir, error);
  g_free(xml);
  return sc;
}

static void load_fails_in(const Site *s, const char *faults, const char *want) {
  GError *err = NULL;
  g_assert_null(load_in(s, faults, &err));
  GString *w = g_string_new(want);
  char *real = realpath(s->dir, NULL);
  g_string_replace(w, "@DIR@", s->dir, 0); /* as the loader joins it */
  g_string_replace(w, "@REAL@", real, 0);  /* resolved */
  free(real);
  assert_error_message(err, w->str);
  g_string_free(w, TRUE);
  g_error_free(err);
}

#define FILE_EXPECTED                                                                                                  \
  "expected a trace file inside the scenario's directory, relative and without '..', e.g. "                            \
  "file=\"faults/outages.trace\""

static void scenario_reads_its_trace_from_its_own_directory(void) {
  Site s = site_new();
  GError *err = NULL;
  TrvScenario *sc = load_in(&s, "    <fault-trace file=\"faults/ok.trace\"/>\n", &err);
  g_assert_no_error(err);
  g_assert_cmpuint(sc->faults->len, ==, 1);
  const TrvFaultSpec *f = &g_array_index(sc->faults, TrvFaultSpec, 0);
  g_assert_cmpint(f->kind, ==, TRV_FAULT_TRACE);
  g_assert_cmpstr(f->pattern, ==, "faults/ok.trace");
  g_assert_cmpint(f->line, ==, 5);
  char *real_dir = realpath(s.dir, NULL), *want = g_build_filename(real_dir, "faults", "ok.trace", NULL);
  g_assert_cmpstr(f->trace->file, ==, want); /* absolute: what run.json records */
  g_assert_cmpuint(f->trace->n_events, ==, 4);
  /* the points share it */
  TrvParams p;
  GArray *faults = trv_scenario_point(sc, 0, &p);
  g_assert_true(g_array_index(faults, TrvFaultSpec, 0).trace == f->trace);
  g_array_free(faults, TRUE);
  trv_scenario_free(sc);
  /* a symbolic link that stays inside is followed; two traces of one file are two faults */
  char *alias = g_build_filename(s.dir, "alias.trace", NULL);
  g_assert_cmpint(symlink("faults/ok.trace", alias), ==, 0);
  sc = load_in(&s, "    <fault-trace file=\"./alias.trace\"/>\n    <fault-trace file=\"faults//ok.trace\"/>\n", &err);
  g_assert_no_error(err);
  g_assert_cmpuint(sc->faults->len, ==, 2);
  g_assert_cmpstr(g_array_index(sc->faults, TrvFaultSpec, 0).trace->file, ==, want);
  trv_scenario_free(sc);
  g_free(alias);
  g_free(want);
  free(real_dir);
  site_free(&s);
}

static void trace_outside_the_scenario_directory_is_refused(void) {
  Site s = site_new();
  load_fails_in(&s, "    <fault-trace file=\"/etc/passwd\"/>\n",
                "mem.xml:5:18: file=\"/etc/passwd\" on <fault-trace> is an absolute path; " FILE_EXPECTED);
  load_fails_in(
      &s, "    <fault-trace file=\"faults/../../outside.trace\"/>\n",
      "mem.xml:5:18: file=\"faults/../../outside.trace\" on <fault-trace> has a '..' component; " FILE_EXPECTED);
  load_fails_in(&s, "    <fault-trace file=\"\"/>\n",
                "mem.xml:5:18: file=\"\" on <fault-trace> is empty; " FILE_EXPECTED);
  load_fails_in(&s, "    <fault-trace file=\"a&#10;b\"/>\n",
                "mem.xml:5:18: file=\"a\\x0ab\" on <fault-trace> holds a control character; " FILE_EXPECTED);
  /* a link inside the directory that leads out of it, to a file or to a directory */
  char *evil = g_build_filename(s.dir, "evil.trace", NULL), *up = g_build_filename(s.dir, "up", NULL);
  char *outside = g_build_filename(s.top, "outside.trace", NULL), *real_out = NULL;
  g_assert_cmpint(symlink("../outside.trace", evil), ==, 0);
  g_assert_cmpint(symlink("..", up), ==, 0);
  real_out = realpath(outside, NULL);
  char *want = g_strdup_printf("mem.xml:5:18: file=\"evil.trace\" on <fault-trace> leads through a symbolic link to "
                               "%s, outside the scenario's directory; " FILE_EXPECTED,
                               real_out);
  load_fails_in(&s, "    <fault-trace file=\"evil.trace\"/>\n", want);
  g_free(want);
  want = g_strdup_printf("mem.xml:5:18: file=\"up/outside.trace\" on <fault-trace> leads through a symbolic link to "
                         "%s, outside the scenario's directory; " FILE_EXPECTED,
                         real_out);
  load_fails_in(&s, "    <fault-trace file=\"up/outside.trace\"/>\n", want);
  g_free(want);
  load_fails_in(&s, "    <fault-trace file=\"none.trace\"/>\n",
                "mem.xml:5:18: file=\"none.trace\" on <fault-trace> cannot be resolved: @DIR@/none.trace (No such file "
                "or directory); " FILE_EXPECTED);
  /* what is inside must still be a regular file */
  load_fails_in(&s, "    <fault-trace file=\"faults\"/>\n",
                "mem.xml:5:18: fault trace 'faults' refused: @REAL@/faults: the fault trace is a directory; expected a "
                "regular file");
  free(real_out);
  g_free(outside);
  g_free(evil);
  g_free(up);
  site_free(&s);
}

static void trace_mistakes_name_the_trace_and_its_line(void) {
  Site s = site_new();
  char *bad = g_build_filename(s.dir, "bad.trace", NULL);
  write_file(bad, "# one outage\n10 agent-0-uplink down\n5 agent-0-uplink up\n");
  load_fails_in(&s, "    <fault-trace file=\"bad.trace\"/>\n",
                "mem.xml:5:18: fault trace 'bad.trace' refused: @REAL@/bad.trace:3: link 'agent-0-uplink' up at 5 s, "
                "before its previous event (line 2, at 10 s); expected the lines of a resource in time order");
  /* an unknown resource: the file, its line, the platform's names */
  write_file(bad, "10 agent-0-uplink down\n20 agent-0-uplink up\n30 agent-0-uplnk down\n");
  load_fails_in(&s, "    <fault-trace file=\"bad.trace\"/>\n",
                "mem.xml:5:18: fault trace 'bad.trace' refused: @REAL@/bad.trace:3: link 'agent-0-uplnk' matches no "
                "link of @PLATFORM@; expected one of its links: centre-lan, agent-0-uplink; did you mean "
                "'agent-0-uplink'?");
  write_file(bad, "10 agent-? off\n20 ctl down\n");
  load_fails_in(&s, "    <fault-trace file=\"bad.trace\"/>\n",
                "mem.xml:5:18: fault trace 'bad.trace' refused: @REAL@/bad.trace:2: link 'ctl' matches no link of "
                "@PLATFORM@ (it is a host: off or on); expected one of its links: centre-lan, agent-0-uplink");
  write_file(bad, "10 agent-0-uplink off\n");
  load_fails_in(&s, "    <fault-trace file=\"bad.trace\"/>\n",
                "mem.xml:5:18: fault trace 'bad.trace' refused: @REAL@/bad.trace:1: host 'agent-0-uplink' matches no "
                "host of @PLATFORM@ (it is a link: down or up); expected one of its hosts: controller, ctl, agent-0");
  write_file(bad, "10 tower-* down\n");
  load_fails_in(&s, "    <fault-trace file=\"bad.trace\"/>\n",
                "mem.xml:5:18: fault trace 'bad.trace' refused: @REAL@/bad.trace:1: link 'tower-*' matches no link of "
                "@PLATFORM@; expected one of its links: centre-lan, agent-0-uplink");
  /* the element itself */
  load_fails_in(&s, "    <fault-trace/>\n",
                "mem.xml:5:5: <fault-trace> without file; expected <fault-trace "
                "file=\"TRACE\"> (relative to the scenario's directory)");
  load_fails_in(&s, "    <fault-trace file=\"faults/ok.trace\" at=\"5\"/>\n",
                "mem.xml:5:41: unknown attribute 'at' on <fault-trace>; expected one of: file");
  load_fails_in(&s,
                "    <fault-trace file=\"faults/ok.trace\"><host-crash host=\"ctl\" at=\"1\" duration=\"1\"/>"
                "</fault-trace>\n",
                "mem.xml:5:41: element <host-crash> inside <fault-trace>; expected <fault-trace/> to be empty");
  g_free(bad);
  site_free(&s);
}

/* The events of all a scenario's traces together are bounded too. */
static void scenario_trace_events_are_bounded_in_all(void) {
  Site s = site_new();
  char *half = g_build_filename(s.dir, "half.trace", NULL);
  GString *g = g_string_new(NULL);
  for (int i = 0; i < TRV_FAULT_TRACE_MAX_EVENTS / 2; i++)
    g_string_append_printf(g, "%d agent-0-uplink %s\n", i, i % 2 ? "up" : "down");
  write_file(half, g->str);
  GError *err = NULL;
  TrvScenario *sc =
      load_in(&s, "    <fault-trace file=\"half.trace\"/>\n    <fault-trace file=\"half.trace\"/>\n", &err);
  g_assert_no_error(err);
  trv_scenario_free(sc);
  load_fails_in(&s,
                "    <fault-trace file=\"half.trace\"/>\n    <fault-trace file=\"half.trace\"/>\n"
                "    <fault-trace file=\"faults/ok.trace\"/>\n",
                "mem.xml:7:18: fault trace 'faults/ok.trace' brings the scenario to 100004 events; expected at most "
                "100000 in all its traces");
  g_string_free(g, TRUE);
  g_free(half);
  site_free(&s);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  trv_modules_register_builtin(); /* the loader checks names and keys against the registries */
  g_test_add_func("/fault-trace/shipped_trace_reads_as_its_three_outages", shipped_trace_reads_as_its_three_outages);
  g_test_add_func("/fault-trace/good_trace_gives_each_resource_its_intervals",
                  good_trace_gives_each_resource_its_intervals);
  g_test_add_func("/fault-trace/touching_outages_join_and_a_last_down_lasts_to_the_end",
                  touching_outages_join_and_a_last_down_lasts_to_the_end);
  g_test_add_func("/fault-trace/each_mistake_has_its_message", each_mistake_has_its_message);
  g_test_add_func("/fault-trace/states_alternate_in_time_order", states_alternate_in_time_order);
  g_test_add_func("/fault-trace/text_that_is_not_a_trace_is_refused", text_that_is_not_a_trace_is_refused);
  g_test_add_func("/fault-trace/every_count_is_bounded_at_its_edge", every_count_is_bounded_at_its_edge);
  g_test_add_func("/fault-trace/trace_file_is_checked_before_it_is_read", trace_file_is_checked_before_it_is_read);
  g_test_add_func("/fault-trace/scenario_reads_its_trace_from_its_own_directory",
                  scenario_reads_its_trace_from_its_own_directory);
  g_test_add_func("/fault-trace/trace_outside_the_scenario_directory_is_refused",
                  trace_outside_the_scenario_directory_is_refused);
  g_test_add_func("/fault-trace/trace_mistakes_name_the_trace_and_its_line",
                  trace_mistakes_name_the_trace_and_its_line);
  g_test_add_func("/fault-trace/scenario_trace_events_are_bounded_in_all", scenario_trace_events_are_bounded_in_all);
  return g_test_run();
}
