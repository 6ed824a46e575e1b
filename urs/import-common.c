/* import-common.c - what the three trace importers share: the cities,
 * input listing, local time and slots of the week, a line reader over a
 * file held in memory, warnings and the "no usable rows" error.
 *
 * Cities are fixed bounding boxes that hold the city and its airports; a
 * point outside its city's box is rejected by every importer.  Slots are
 * 15-minute slots of the week in local time, Monday 00:00 = slot 0.  The
 * line reader holds a whole input that was at most its limit and ended
 * with a newline (checked when it is opened), so its lines are complete. */
#include <config.h>

#include "urs/import.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/input.h"
#include "core/posterior.h"

static const TrvCity CITIES[] = {
    /* San Francisco with SFO and Daly City; the traces' cabs also leave for
     * the East Bay and beyond, which the box excludes. */
    {"sf", "America/Los_Angeles (unix time; PST/PDT, US rules since 2007)", 37.60, 37.84, -122.53, -122.35},
    /* The five boroughs and Newark airport (TLC zone 1). */
    {"nyc", "America/New_York (TLC wall-clock times as recorded)", 40.49, 40.92, -74.27, -73.68},
    /* Singapore island with Changi, Jurong and Tuas. */
    {"sg", "Asia/Singapore (the API timestamps' own +08:00 offset)", 1.15, 1.48, 103.59, 104.10},
};

const TrvCity *trv_city_find(const char *name) {
  for (size_t i = 0; i < G_N_ELEMENTS(CITIES); i++)
    if (!strcmp(CITIES[i].name, name)) return &CITIES[i];
  return NULL;
}

static bool name_matches(const char *format, const char *name) {
  if (!strcmp(format, "cabspotting")) return g_str_has_prefix(name, "new_") && g_str_has_suffix(name, ".txt");
  if (!strcmp(format, "tlc")) return g_str_has_suffix(name, ".csv") && !g_str_has_prefix(name, "taxi_zone_");
  return g_str_has_suffix(name, ".jsonl");
}

static int compare_strings(gconstpointer a, gconstpointer b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

GPtrArray *trv_import_list_inputs(const char *format, char **inputs, int n_inputs, GError **error) {
  GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
  for (int i = 0; i < n_inputs; i++) {
    if (g_file_test(inputs[i], G_FILE_TEST_IS_DIR)) {
      GError *local = NULL;
      GDir *dir = g_dir_open(inputs[i], 0, &local);
      if (!dir) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: %s", inputs[i], local->message);
        g_error_free(local);
        g_ptr_array_unref(files);
        return NULL;
      }
      GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
      const char *name;
      while ((name = g_dir_read_name(dir)))
        if (name_matches(format, name)) g_ptr_array_add(names, g_build_filename(inputs[i], name, NULL));
      g_dir_close(dir);
      g_ptr_array_sort(names, compare_strings);
      for (guint k = 0; k < names->len; k++) g_ptr_array_add(files, g_strdup(names->pdata[k]));
      g_ptr_array_unref(names);
    } else {
      /* A file (or a pipe) is taken as given; the reader checks its size.
       * A device is refused here: /dev/urandom would never end. */
      GStatBuf st;
      const char *why = g_stat(inputs[i], &st) != 0                     ? "no such file or directory"
                        : !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) ? "not a file or directory (a device?)"
                                                                        : NULL;
      if (why) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: %s; expected a trace file or a directory of them",
                    inputs[i], why);
        g_ptr_array_unref(files);
        return NULL;
      }
      g_ptr_array_add(files, g_strdup(inputs[i]));
    }
  }
  if (files->len == 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "no input files for --format %s (give files, or directories holding %s)", format,
                !strcmp(format, "cabspotting") ? "new_*.txt"
                : !strcmp(format, "tlc")       ? "*.csv"
                                               : "*.jsonl");
    g_ptr_array_unref(files);
    return NULL;
  }
  return files;
}

int trv_slot_of_week(int weekday_monday0, int hour, int minute) {
  return weekday_monday0 * TRV_SLOTS_PER_DAY + hour * 4 + minute / 15;
}

int64_t trv_days_from_civil(int y, int m, int d) {
  /* Howard Hinnant's days_from_civil. */
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

int trv_slot_of_local_seconds(int64_t s) {
  int64_t days = s >= 0 ? s / 86400 : -((-s + 86399) / 86400);
  int64_t sec = s - days * 86400;
  int weekday = (int)(((days + 3) % 7 + 7) % 7); /* 1970-01-01 was a Thursday */
  return trv_slot_of_week(weekday, (int)(sec / 3600), (int)(sec % 3600 / 60));
}

/* Unix time of local 02:00 on the n-th Sunday (n >= 1) of a month, given the
 * offset in force before the switch. */
static int64_t nth_sunday_2am(int year, int month, int n, int offset) {
  int64_t first = trv_days_from_civil(year, month, 1);
  int weekday_sunday0 = (int)(((first + 4) % 7 + 7) % 7);
  int64_t day = first + (7 - weekday_sunday0) % 7 + 7 * (n - 1);
  return day * 86400 + 2 * 3600 - offset;
}

int trv_us_pacific_offset(int64_t t) {
  int64_t days = (t - 8 * 3600) / 86400;
  /* civil year of the (standard-time) day */
  int year = 1970 + (int)(days / 366);
  while (trv_days_from_civil(year + 1, 1, 1) <= days) year++;
  while (trv_days_from_civil(year, 1, 1) > days) year--;
  int64_t start = nth_sunday_2am(year, 3, 2, -8 * 3600);
  int64_t end = nth_sunday_2am(year, 11, 1, -7 * 3600);
  return t >= start && t < end ? -7 * 3600 : -8 * 3600;
}

char *trv_format_local(int64_t s) {
  GDateTime *dt = g_date_time_new_from_unix_utc(s);
  char *out = g_date_time_format(dt, "%Y-%m-%dT%H:%M:%S");
  g_date_time_unref(dt);
  return out;
}

bool trv_line_reader_open(TrvLineReader *r, const TrvImportInput *in, size_t max_bytes, const char *what,
                          GError **error) {
  memset(r, 0, sizeof *r);
  if (in->data) {
    if (in->len > max_bytes) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: the %s is %zu bytes; expected at most %zu bytes", in->name,
                  what, in->len, max_bytes);
      return false;
    }
    r->data = g_malloc(in->len + 1);
    memcpy(r->data, in->data, in->len);
    r->data[in->len] = '\0';
    r->len = in->len;
  } else if (!trv_input_read(in->name, max_bytes, what, TRV_INPUT_PIPE_OK, &r->data, &r->len, error)) {
    return false;
  }
  if (r->len > 0 && r->data[r->len - 1] != '\n') {
    /* Every file we know ends with a newline; one that does not was cut
     * (a copy or download interrupted), and its last line may still parse
     * as a wrong value ("68.0,5" for "68.0,50.0"). */
    uint64_t lines = 1;
    for (const char *p = r->data; (p = memchr(p, '\n', r->len - (size_t)(p - r->data))); p++) lines++;
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "%s:%" G_GUINT64_FORMAT ": the last line has no newline: the file was cut (truncated?); "
                "expected every line to end with a newline",
                in->name, lines);
    trv_line_reader_close(r);
    return false;
  }
  return true;
}

bool trv_import_check_zone_count(const TrvCalTable *t, const char *path, GError **error) {
  if (t->zones->len <= TRV_CAL_MAX_ZONES && t->od->len <= TRV_CAL_MAX_OD) return true;
  g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
              "%s: the trace fills %u zones and %u OD pairs, more than a calibration table may hold (%d zones, "
              "%d pairs): use coarser cells (--cell-km2)",
              path, t->zones->len, t->od->len, TRV_CAL_MAX_ZONES, TRV_CAL_MAX_OD);
  return false;
}

int trv_csv_split(char *line, char **field, int max) {
  int n = 0;
  char *p = line;
  for (;;) {
    if (n == max) return -1; /* a field beyond max: never written, never read */
    char *out = p;
    field[n++] = p;
    bool quoted = *p == '"';
    if (quoted) p++;
    while (*p) {
      if (quoted && *p == '"') {
        if (p[1] == '"') {
          *out++ = '"';
          p += 2;
          continue;
        }
        quoted = false;
        p++;
        continue;
      }
      if (!quoted && *p == ',') break;
      *out++ = *p++;
    }
    bool more = *p == ',';
    *out = '\0';
    if (!more) return n;
    p++;
  }
}

int trv_csv_column(char **names, int n, const char *a, const char *b) {
  for (int i = 0; i < n; i++) {
    char *s = g_strstrip(names[i]);
    if (!g_ascii_strcasecmp(s, a) || (b && !g_ascii_strcasecmp(s, b))) return i;
  }
  return -1;
}

char *trv_csv_skip_bom(char *line) { return g_str_has_prefix(line, "\xef\xbb\xbf") ? line + 3 : line; }

bool trv_line_is_text(const char *line, size_t len) { return !memchr(line, '\0', len); }

TrvImportInput *trv_import_inputs_of_files(GPtrArray *files) {
  TrvImportInput *in = g_new0(TrvImportInput, files->len ? files->len : 1);
  for (guint i = 0; i < files->len; i++) in[i].name = files->pdata[i];
  return in;
}

void trv_import_warn(GPtrArray *warnings, const char *fmt, ...) {
  if (!warnings) return;
  va_list ap;
  va_start(ap, fmt);
  g_ptr_array_add(warnings, g_strdup_vprintf(fmt, ap));
  va_end(ap);
}

char *trv_line_reader_next(TrvLineReader *r, size_t *len) {
  if (r->pos >= r->len) return NULL;
  char *line = r->data + r->pos;
  char *nl = memchr(line, '\n', r->len - r->pos);
  size_t n = nl ? (size_t)(nl - line) : r->len - r->pos;
  r->pos += n + (nl != NULL);
  if (nl) *nl = '\0'; /* the last line without a newline is NUL-terminated by the reader */
  if (n > 0 && line[n - 1] == '\r') line[--n] = '\0';
  r->line_no++;
  *len = n;
  return line;
}

void trv_line_reader_close(TrvLineReader *r) {
  g_free(r->data);
  memset(r, 0, sizeof *r);
}

void trv_import_no_usable_rows(GError **error, const char *path, uint64_t rows_read, const TrvCalTable *table) {
  GString *why = g_string_new("");
  for (guint i = 0; i < table->rejections->len; i++) {
    const TrvRejection *r = &g_array_index(table->rejections, TrvRejection, i);
    if (strcmp(r->first_file, path)) continue;
    g_string_append_printf(why, "%s%s first at %s:%" G_GUINT64_FORMAT " '%s'", why->len ? "; " : " (", r->reason,
                           r->first_file, r->first_line, r->first_text);
  }
  if (why->len) g_string_append(why, ")");
  g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
              "%s: no usable rows among %" G_GUINT64_FORMAT " read%s: fix the file or leave it out", path, rows_read,
              why->str);
  g_string_free(why, TRUE);
}
