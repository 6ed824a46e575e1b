/* import-sg.c - Singapore taxi availability (data.gov.sg API responses).
 *
 * One API response per line: a GeoJSON Feature whose geometry.coordinates
 * lists [lon, lat] of every AVAILABLE taxi and properties.timestamp is an
 * ISO-8601 time with offset (+08:00; a stamp with another offset is
 * converted to Singapore time, UTC+08:00).  A line that is not such an object
 * (bad JSON, missing fields, a coordinate that is not two numbers) is
 * "bad-line", and so is a line over TRV_IMPORT_SG_MAX_LINE_BYTES, holding a
 * NUL byte, or nested deeper than TRV_IMPORT_SG_MAX_JSON_DEPTH arrays and
 * objects: json-glib parses by recursion, so a line of 100,000 brackets
 * would overflow the stack; the depth is counted by a scan of the line
 * before it is parsed.  An unparsable timestamp, or one outside
 * [TRV_IMPORT_TIME_MIN, TRV_IMPORT_TIME_MAX), is "bad-timestamp"; a second
 * snapshot with the same time "duplicate-time".  Each point outside the
 * city box is counted under "outside-city" (unit: points; its snapshot is
 * still used).  A file over TRV_IMPORT_MAX_TRACE_BYTES or cut inside its
 * last line, and more than TRV_IMPORT_SG_MAX_POINTS points in all, are input
 * errors.
 *
 * Demand estimator.  Taxis carry no identifier, so trips cannot be seen;
 * they are inferred from available taxis disappearing.  Snapshots are
 * sorted by time; for each consecutive pair (a, b) no more than 180 s apart
 * and each cell c:
 *     D(c) = max(0, n_a(c) - n_b(c))
 * is the number of requests in c during [a, b) (a taxi that becomes
 * occupied leaves the available set), credited to the slot of a's local
 * time; (b - a) is credited to that slot's exposure, so rates are requests
 * per hour whatever the snapshot spacing.  Pairs further apart are skipped
 * (counted in stats).  Known biases: (1) taxis cruising from one cell to
 * another add a disappearance in the first cell that the clamp does not
 * cancel (upward, grows with finer cells and with the number of cruising
 * taxis); (2) a pickup and a new available taxi in the same cell in the same
 * minute cancel (downward, in busy cells); (3) drivers going off duty count
 * as demand (upward, at shift changes).  The estimate is non-negative by
 * construction.  The data covers one day: slots of other days are filled
 * with the same time of day (caltable.h), and the table has no OD matrix
 * or trip histograms. */
#include <config.h>

#include <json-glib/json-glib.h>
#include <stdlib.h>
#include <string.h>

#include "core/posterior.h"
#include "urs/caltable-travel.h"
#include "urs/import.h"

/* Singapore keeps UTC+08:00 all year (since 1982, no daylight saving). */
#define SG_UTC_OFFSET_S (8 * 3600)

typedef struct {
  int64_t unix_time;
  int64_t local_seconds;
  uint64_t line;
  guint file;
  uint64_t *cells; /* sorted cell keys, one per available taxi */
  size_t n;
} Snapshot;

static int compare_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

static int compare_snapshot(const void *a, const void *b) {
  const Snapshot *x = a, *y = b;
  if (x->unix_time != y->unix_time) return x->unix_time < y->unix_time ? -1 : 1;
  if (x->file != y->file) return x->file < y->file ? -1 : 1;
  return (x->line > y->line) - (x->line < y->line);
}

static bool is_number(JsonNode *n) {
  if (!JSON_NODE_HOLDS_VALUE(n)) return false;
  GType type = json_node_get_value_type(n);
  return type == G_TYPE_DOUBLE || type == G_TYPE_INT64;
}

/* The member `name` of o when it is an object, else NULL.  json-glib's
 * own getters assert the member's type (a GLib critical on stderr for a
 * hostile line), so every node's type is checked before it is read. */
static JsonObject *object_member(JsonObject *o, const char *name) {
  JsonNode *n = json_object_get_member(o, name);
  return n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

/* True when no array or object in the JSON text is nested deeper than
 * max and nothing outside its strings is foreign to strict JSON (brackets
 * inside strings do not count; the text need not be valid: the parser
 * judges that, once the depth is known to be safe). */
static bool json_depth_at_most(const char *s, size_t len, int max) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < len; i++) {
    char ch = s[i];
    if (in_string) {
      if (ch == '\\')
        i++;
      else if (ch == '"')
        in_string = false;
    } else if (ch == '"') {
      in_string = true;
    } else if (ch == '[' || ch == '{') {
      if (++depth > max) return false;
    } else if (ch == ']' || ch == '}') {
      depth--;
    } else if (!strchr(" \t\r\n:,0123456789+-.eEtruefalsn", ch)) {
      /* outside a string strict JSON has nothing else; json-glib would also
       * read single-quoted strings and comments, which could hide brackets
       * from this count: such a line is refused */
      return false;
    }
  }
  return true;
}

/* Parses one response; returns NULL or the rejection reason. */
static const char *parse_snapshot(TrvCalTable *t, JsonParser *parser, const char *line, size_t len, const char *path,
                                  uint64_t line_no, Snapshot *snap) {
  if (len > TRV_IMPORT_SG_MAX_LINE_BYTES || !trv_line_is_text(line, len) ||
      !json_depth_at_most(line, len, TRV_IMPORT_SG_MAX_JSON_DEPTH))
    return "bad-line";
  if (!json_parser_load_from_data(parser, line, (gssize)len, NULL)) return "bad-line";
  JsonNode *root = json_parser_get_root(parser);
  if (!root || !JSON_NODE_HOLDS_OBJECT(root)) return "bad-line";
  JsonObject *o = json_node_get_object(root);
  JsonObject *geometry = object_member(o, "geometry"), *props = object_member(o, "properties");
  JsonNode *coordinates = geometry ? json_object_get_member(geometry, "coordinates") : NULL;
  JsonNode *timestamp = props ? json_object_get_member(props, "timestamp") : NULL;
  if (!coordinates || !JSON_NODE_HOLDS_ARRAY(coordinates) || !timestamp || !JSON_NODE_HOLDS_VALUE(timestamp) ||
      json_node_get_value_type(timestamp) != G_TYPE_STRING)
    return "bad-line";
  GDateTime *dt = g_date_time_new_from_iso8601(json_node_get_string(timestamp), NULL);
  if (!dt) return "bad-timestamp";
  snap->unix_time = g_date_time_to_unix(dt);
  /* Local time is Singapore's, whatever offset the stamp was written with
   * (a stamp in UTC or another offset names the same instant): slots and
   * the period then follow the order of the instants. */
  snap->local_seconds = snap->unix_time + SG_UTC_OFFSET_S;
  g_date_time_unref(dt);
  if (snap->unix_time < TRV_IMPORT_TIME_MIN || snap->unix_time >= TRV_IMPORT_TIME_MAX) return "bad-timestamp";
  JsonArray *coords = json_node_get_array(coordinates);
  guint n = json_array_get_length(coords);
  /* Every point is checked before any is counted, so that a bad line adds
   * nothing to outside-city. */
  for (guint i = 0; i < n; i++) {
    JsonNode *pt = json_array_get_element(coords, i);
    JsonArray *a = JSON_NODE_HOLDS_ARRAY(pt) ? json_node_get_array(pt) : NULL;
    if (!a || json_array_get_length(a) != 2 || !is_number(json_array_get_element(a, 0)) ||
        !is_number(json_array_get_element(a, 1)))
      return "bad-line";
  }
  snap->cells = g_new(uint64_t, n ? n : 1); /* n is at most a sixth of the line's bytes */
  snap->n = 0;
  for (guint i = 0; i < n; i++) {
    JsonArray *a = json_array_get_array_element(coords, i);
    double lon = json_array_get_double_element(a, 0), lat = json_array_get_double_element(a, 1);
    if (!trv_hex_grid_contains(&t->grid, lat, lon)) {
      trv_cal_table_reject(t, "outside-city", path, line_no, line, len);
      continue;
    }
    snap->cells[snap->n++] = trv_hex_cell_key(trv_hex_cell_of_point(&t->grid, lat, lon));
  }
  qsort(snap->cells, snap->n, sizeof *snap->cells, compare_u64);
  return NULL;
}

/* D(c) = max(0, n_a(c) - n_b(c)) over the cells of a, merged in key order. */
static double credit_disappearances(TrvCalTable *t, const Snapshot *a, const Snapshot *b, int slot) {
  TrvHexCell cell;
  size_t i = 0, j = 0;
  double total = 0;
  while (i < a->n) {
    uint64_t key = a->cells[i];
    size_t na = 0, nb = 0;
    while (i < a->n && a->cells[i] == key) i++, na++;
    while (j < b->n && b->cells[j] < key) j++;
    while (j < b->n && b->cells[j] == key) j++, nb++;
    if (na > nb) {
      cell = trv_hex_cell_from_key(key);
      trv_cal_table_add_demand(t, cell, slot, (double)(na - nb));
      trv_effects_add_demand(t, cell, a->local_seconds, (double)(na - nb));
      total += (double)(na - nb);
    }
  }
  return total;
}

TrvCalTable *trv_import_sg(const TrvImportOptions *opt, GPtrArray *files, GError **error) {
  TrvImportInput *in = trv_import_inputs_of_files(files);
  TrvCalTable *t = trv_import_sg_inputs(opt, in, files->len, error);
  g_free(in);
  return t;
}

TrvCalTable *trv_import_sg_inputs(const TrvImportOptions *opt, const TrvImportInput *in, size_t n_in, GError **error) {
  TrvHexGrid grid;
  const TrvCity *c = opt->city;
  if (!trv_hex_grid_init(&grid, c->lat_min, c->lat_max, c->lon_min, c->lon_max, opt->cell_km2, error)) return NULL;
  TrvCalTable *t = trv_cal_table_new(c->name, "sg-availability", &grid);
  g_free(t->timezone);
  t->timezone = g_strdup(c->timezone);
  GArray *snaps = g_array_new(FALSE, FALSE, sizeof(Snapshot));
  JsonParser *parser = json_parser_new_immutable();
  bool ok = true;
  uint64_t points_in_all = 0;
  for (size_t k = 0; ok && k < n_in; k++) {
    const char *path = in[k].name;
    TrvLineReader rd;
    if (!trv_line_reader_open(&rd, &in[k], TRV_IMPORT_MAX_TRACE_BYTES, "taxi availability file", error)) {
      ok = false;
      break;
    }
    trv_cal_table_add_source(t, path, rd.data, rd.len);
    t->files++;
    uint64_t read = 0, used = 0;
    char *line;
    size_t len;
    while ((line = trv_line_reader_next(&rd, &len))) {
      read++;
      t->rows_read++;
      Snapshot s = {.line = rd.line_no, .file = (guint)k};
      const char *why = parse_snapshot(t, parser, line, len, path, rd.line_no, &s);
      if (why) {
        trv_cal_table_reject(t, why, path, rd.line_no, line, len);
        continue;
      }
      g_array_append_val(snaps, s);
      used++;
      points_in_all += s.n;
      if (points_in_all > TRV_IMPORT_SG_MAX_POINTS) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                    "%s:%" G_GUINT64_FORMAT ": more than %llu available taxis in all; import fewer days at a time",
                    path, rd.line_no, TRV_IMPORT_SG_MAX_POINTS);
        ok = false;
        break;
      }
    }
    trv_line_reader_close(&rd);
    if (ok && used == 0) {
      trv_import_no_usable_rows(error, path, read, t);
      ok = false;
    }
  }
  g_object_unref(parser);
  if (!ok) goto out;
  g_array_sort(snaps, compare_snapshot);
  /* Duplicate times: keep the first snapshot (file order, then line). */
  guint w = 0;
  for (guint i = 0; i < snaps->len; i++) {
    Snapshot *s = &g_array_index(snaps, Snapshot, i);
    if (w > 0 && g_array_index(snaps, Snapshot, w - 1).unix_time == s->unix_time) {
      /* the line text is gone; report file:line of the duplicate */
      trv_cal_table_reject(t, "duplicate-time", in[s->file].name, s->line, "", 0);
      g_free(s->cells);
      continue;
    }
    g_array_index(snaps, Snapshot, w++) = *s;
  }
  g_array_set_size(snaps, w);
  t->rows_used = snaps->len;
  uint64_t pairs = 0, gaps = 0;
  double points = 0, demand = 0;
  for (guint i = 0; i < snaps->len; i++) {
    const Snapshot *a = &g_array_index(snaps, Snapshot, i);
    points += (double)a->n;
    if (i + 1 == snaps->len) break;
    const Snapshot *b = a + 1;
    int64_t dt = b->unix_time - a->unix_time;
    if (dt > TRV_IMPORT_SG_MAX_INTERVAL_S) {
      gaps++;
      continue;
    }
    pairs++;
    int slot = trv_slot_of_local_seconds(a->local_seconds);
    t->exposure_hours[slot] += (double)dt / 3600.0;
    trv_effects_add_exposure(t, a->local_seconds, (double)dt / 3600.0);
    demand += credit_disappearances(t, a, b, slot);
    if (!trv_import_check_zone_count(t, in[b->file].name, error)) {
      ok = false;
      goto out;
    }
  }
  if (snaps->len) {
    const Snapshot *first = &g_array_index(snaps, Snapshot, 0);
    const Snapshot *last = &g_array_index(snaps, Snapshot, snaps->len - 1);
    g_free(t->period_start);
    g_free(t->period_end);
    t->period_start = trv_format_local(first->local_seconds);
    t->period_end = trv_format_local(last->local_seconds);
  }
  trv_cal_table_set_stat(t, "snapshots", (double)snaps->len);
  trv_cal_table_set_stat(t, "available_taxi_points", points);
  trv_cal_table_set_stat(t, "snapshot_pairs_used", (double)pairs);
  trv_cal_table_set_stat(t, "snapshot_gaps_over_180s", (double)gaps);
  trv_cal_table_set_stat(t, "estimated_requests", demand);
  /* No trips are observed: the travel times are an assumed speed
   * (docs/urs.md, "Travel times"). */
  trv_travel_set_synthetic(t, TRV_TRAVEL_SYNTHETIC_KMH, TRV_TRAVEL_SYNTHETIC_ROUTE_FACTOR);
  trv_cal_table_finish(t);
out:
  for (guint i = 0; i < snaps->len; i++) g_free(g_array_index(snaps, Snapshot, i).cells);
  g_array_free(snaps, TRUE);
  if (!ok) {
    trv_cal_table_free(t);
    return NULL;
  }
  return t;
}
