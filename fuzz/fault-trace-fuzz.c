/* fault-trace-fuzz.c - libFuzzer harness for the fault trace reader
 * (plugin/scenario/fault-trace.c), which a scenario's <fault-trace
 * file="..."> and a run.json replayed with --replay-config feed with a
 * user's file.
 *
 * Parses the input from memory.  Beyond memory safety (ASan, UBSan, leaks)
 * it checks the reader's promises and aborts when one breaks:
 *   - a refusal is one TRV_ERROR_INPUT line, valid UTF-8, starting with
 *     the file's name;
 *   - an accepted trace keeps every bound (events, resources, globs) and
 *     gives each resource at least one interval, its intervals in time
 *     order, disjoint and not touching, each within [0, 1e9] s and longer
 *     than 0 s, only the last one open (down to the end of the run), with
 *     the lines that made them in increasing order; the events are at
 *     least the lines its intervals need; its SHA-256 is of the input.
 * Built and run by fuzz/run.sh (fuzz/fault-trace.sources,
 * fuzz/fault-trace.options with the dictionary fuzz/fault-trace.dict). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "fuzz-registries.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NAME "fuzz.trace"
#define CHECK(cond)                                                                                                    \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      fprintf(stderr, "fault-trace-fuzz: broken promise: %s (line %d)\n", #cond, __LINE__);                            \
      abort();                                                                                                         \
    }                                                                                                                  \
  } while (0)

static void check_trace(const TrvFaultTrace *t, const uint8_t *data, size_t size) {
  CHECK(!strcmp(t->file, NAME));
  CHECK(t->n_events >= 1 && t->n_events <= TRV_FAULT_TRACE_MAX_EVENTS);
  CHECK(t->resources->len >= 1 && t->resources->len <= TRV_FAULT_TRACE_MAX_RESOURCES);
  char *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, data, size);
  CHECK(!strcmp(sum, t->sha256));
  g_free(sum);
  size_t needed = 0, globs = 0;
  for (guint i = 0; i < t->resources->len; i++) {
    const TrvTraceResource *r = t->resources->pdata[i];
    CHECK(r->name[0] && strlen(r->name) <= TRV_PLATFORM_MAX_NAME && !strchr(r->name, ',') && !strchr(r->name, ' '));
    CHECK(g_utf8_validate(r->name, -1, NULL) && r->name[0] != '#');
    CHECK(r->glob == (strpbrk(r->name, "*?[\\") != NULL));
    globs += r->glob;
    CHECK(r->line >= 1 && r->intervals->len >= 1);
    int line = r->line - 1;
    double after = -1;
    for (guint k = 0; k < r->intervals->len; k++) {
      const TrvTraceInterval *iv = &g_array_index(r->intervals, TrvTraceInterval, k);
      bool last = k + 1 == r->intervals->len;
      CHECK(isfinite(iv->down) && iv->down >= 0 && iv->down <= TRV_FAULT_MAX_SECONDS && iv->down > after);
      CHECK(iv->up > iv->down && (isinf(iv->up) ? last && iv->up_line == 0 : iv->up <= TRV_FAULT_MAX_SECONDS));
      CHECK(iv->down_line > line && (isinf(iv->up) || iv->up_line > iv->down_line));
      CHECK(k > 0 || iv->down_line == r->line);
      line = isinf(iv->up) ? iv->down_line : iv->up_line;
      after = iv->up;
      needed += isinf(iv->up) ? 1 : 2;
    }
  }
  CHECK(globs <= TRV_FAULT_TRACE_MAX_GLOBS);
  CHECK(t->n_events >= needed); /* more when touching outages were joined */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  GError *err = NULL;
  TrvFaultTrace *t = trv_fault_trace_parse((const char *)data, size, NAME, &err);
  if (!t) {
    CHECK(err && err->domain == TRV_ERROR && err->code == TRV_ERROR_INPUT);
    CHECK(g_str_has_prefix(err->message, NAME ":"));
    CHECK(!strchr(err->message, '\n') && !strchr(err->message, '\r'));
    CHECK(g_utf8_validate(err->message, -1, NULL));
    g_error_free(err);
    return 0;
  }
  CHECK(!err);
  check_trace(t, data, size);
  trv_fault_trace_free(t);
  return 0;
}
