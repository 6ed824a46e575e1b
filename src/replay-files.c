/* replay-files.c - the files a run.json names, checked for a replay
 * (replay-files.h).
 *
 * A file is recorded as {"path": ..., "sha256": ...[, "copy": ...]}: where
 * the run read it, the SHA-256 of its bytes then, and its copy in the run
 * directory (run-inputs.h).  Nothing is read until asked, and each of the
 * two is hashed at most once: the original first, the copy only when the
 * original will not do.  A copy is resolved only below the run
 * directory's inputs/ (trv_run_inputs_resolve), so a hostile run.json can
 * name nothing else to read.  The files that name each other by relative
 * paths (the scenario, the platforms, their profile files, the fault
 * traces) are chosen together: all from where the run read them, or all
 * from the copies.  A world's data file is chosen alone and handed to the
 * world by what named it: its parameter (set to the file chosen) or its
 * name in the data directory (the directory that file is found in). */
#include <config.h>

#include <string.h>

#include "core/input.h"
#include "json-file.h"
#include "replay-config.h"
#include "replay-files.h"
#include "run-inputs.h"
#include "scenario/scenario.h"

#define RUN_JSON_MAX_PATH 4096 /* bytes of a path run.json records */

/* Where messages are about: run.json, and where they go. */
typedef struct {
  const char *file;
  GError **error;
} Reader;

/* A refusal of the file being read: false with *r->error. */
#define bad(r, ...) trv_input_fail((r)->error, (r)->file, __VA_ARGS__)
#define wrong(r, where, n, want) trv_json_wrong((r)->error, (r)->file, where, n, want)

static bool text_ok(Reader *r, const char *where, const char *s, size_t max) {
  return trv_json_text_ok(r->error, r->file, where, s, max);
}

void trv_recorded_file_free(gpointer p) {
  TrvRecordedFile *f = p;
  g_free(f->where), g_free(f->path), g_free(f->sum), g_free(f->copy);
  g_free(f->kept), g_free(f->now), g_free(f->kept_now);
  g_free(f);
}

static bool original_intact(TrvRecordedFile *f) {
  if (!f->hashed) f->now = trv_file_sha256(f->path), f->hashed = true;
  return f->now && !strcmp(f->now, f->sum);
}

static bool copy_intact(TrvRecordedFile *f) {
  if (!f->kept_hashed) f->kept_now = f->kept ? trv_file_sha256(f->kept) : NULL, f->kept_hashed = true;
  return f->kept_now && !strcmp(f->kept_now, f->sum);
}

static TrvRecordedFile *record(Reader *r, JsonNode *n, const char *where) {
  JsonObject *o = n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
  JsonNode *pn = o ? json_object_get_member(o, "path") : NULL, *sn = o ? json_object_get_member(o, "sha256") : NULL;
  JsonNode *cn = o ? json_object_get_member(o, "copy") : NULL;
  if (!o) return wrong(r, where, n, "{\"path\": ..., \"sha256\": ...}"), NULL;
  if (!trv_json_is_string(pn)) return bad(r, "%s.path is %s; expected text", where, trv_json_kind(pn)), NULL;
  if (!trv_json_is_string(sn)) return bad(r, "%s.sha256 is %s; expected text", where, trv_json_kind(sn)), NULL;
  if (cn && !JSON_NODE_HOLDS_NULL(cn) && !trv_json_is_string(cn))
    return bad(r, "%s.copy is %s; expected text", where, trv_json_kind(cn)), NULL;
  const char *path = json_node_get_string(pn), *sum = json_node_get_string(sn);
  const char *copy = trv_json_is_string(cn) ? json_node_get_string(cn) : NULL;
  if (!text_ok(r, where, path, RUN_JSON_MAX_PATH) || !text_ok(r, where, sum, 64) ||
      (copy && !text_ok(r, where, copy, RUN_JSON_MAX_PATH)))
    return NULL;
  char *dir = g_path_get_dirname(r->file), *kept = copy ? trv_run_inputs_resolve(dir, copy) : NULL;
  g_free(dir);
  if (copy && !kept) return bad(r, "%s.copy '%s' is not a path below the run directory's inputs/", where, copy), NULL;
  TrvRecordedFile *f = g_new0(TrvRecordedFile, 1);
  f->where = g_strdup(where), f->path = g_strdup(path), f->sum = g_strdup(sum), f->copy = g_strdup(copy);
  f->kept = kept;
  f->fault = -1;
  return f;
}

TrvRecordedFile *trv_recorded_file_new(const char *run_json, JsonNode *n, const char *where, GError **error) {
  Reader r = {.file = run_json, .error = error};
  return record(&r, n, where);
}

const char *trv_recorded_file_path(const TrvRecordedFile *f, bool copy) { return copy ? f->kept : f->path; }

/* Refuses f: neither the file nor its copy has the recorded SHA-256. */
static bool refuse_file(Reader *r, TrvRecordedFile *f) {
  if (original_intact(f) || copy_intact(f)) g_error("refuse_file: %s is intact", f->where); /* both hashed now */
  return bad(r, "%s %s %s since the run (SHA-256 %s, recorded %s)%s%s%s; a replay runs on the same inputs", f->where,
             f->path, f->now ? "changed" : "cannot be read", f->now ? f->now : "-", f->sum,
             f->kept ? " and its copy " : "", f->kept ? f->kept : "",
             f->kept ? (f->kept_now ? " changed" : " cannot be read") : "");
}

static const char *choose_file(Reader *r, TrvRecordedFile *f) {
  if (original_intact(f)) return f->path;
  if (copy_intact(f)) return f->kept; /* the original moved or changed: the run's own copy */
  refuse_file(r, f);
  return NULL;
}

bool trv_recorded_files_choose(const char *run_json, GPtrArray *files, bool *copies, GError **error) {
  Reader rd = {.file = run_json, .error = error}, *r = &rd;
  bool originals = true, kept = true;
  for (guint i = 0; i < files->len && originals; i++) originals = original_intact(files->pdata[i]);
  for (guint i = 0; i < files->len && kept && !originals; i++) kept = copy_intact(files->pdata[i]);
  *copies = !originals;
  if (originals || kept) return true;
  TrvRecordedFile *changed = NULL, *copy_changed = NULL;
  for (guint i = 0; i < files->len; i++) {
    TrvRecordedFile *f = files->pdata[i];
    if (!original_intact(f) && !copy_intact(f)) return refuse_file(r, f);
    if (!changed && !original_intact(f)) changed = f;
    if (!copy_changed && !copy_intact(f)) copy_changed = f;
  }
  return bad(r,
             "%s %s %s since the run, and %s has %s%s%s; a replay reads the scenario, the platforms, their profiles "
             "and the fault traces all from where the run read them or all from the run directory's inputs/",
             changed->where, changed->path, changed->now ? "changed" : "cannot be read", copy_changed->where,
             copy_changed->kept ? "its copy " : "no copy", copy_changed->kept ? copy_changed->kept : "",
             copy_changed->kept ? (copy_changed->kept_now ? " changed" : " unreadable") : "");
}

bool trv_recorded_profiles_check(const char *run_json, const char *platform, GPtrArray *files, bool copies,
                                 GError **error) {
  Reader rd = {.file = run_json, .error = error}, *r = &rd;
  TrvPlatformNames *pn = trv_platform_names_read(platform, r->error);
  if (!pn) return false;
  bool ok = true;
  for (guint k = 0; ok && k < pn->profiles->len; k++) {
    const char *want = pn->profiles->pdata[k];
    bool found = false;
    for (guint i = 0; i < files->len && !found; i++) {
      TrvRecordedFile *f = files->pdata[i];
      char *read = g_canonicalize_filename(trv_recorded_file_path(f, copies), NULL);
      found = !strcmp(read, want) || (copies && !strcmp(f->path, want) && original_intact(f));
      g_free(read);
    }
    if (!found)
      ok = bad(r,
               "platform_file %s names the profile file %s, which run.json does not record as read by the run (or "
               "which changed since); a profile named by an absolute path must still be where the run read it, one "
               "named relative to the platform travels with the run directory",
               platform, want);
  }
  trv_platform_names_free(pn);
  return ok;
}

bool trv_recorded_world_input(const char *run_json, JsonNode *n, guint i, GPtrArray *sets, char **data_dir,
                              GError **error) {
  Reader rd = {.file = run_json, .error = error}, *r = &rd;
  char *where = g_strdup_printf("\"inputs\"[%u]", i);
  TrvRecordedFile *f = record(r, n, where);
  g_free(where);
  if (!f) return false;
  JsonObject *o = json_node_get_object(n);
  JsonNode *pn = json_object_get_member(o, "parameter"), *dn = json_object_get_member(o, "data");
  const char *key = trv_json_is_string(pn) ? json_node_get_string(pn) : NULL;
  const char *data = trv_json_is_string(dn) ? json_node_get_string(dn) : NULL;
  const TrvParamSpec *spec = key ? trv_param_lookup(key) : NULL;
  const char *file = NULL;
  bool ok = true;
  if ((pn && !JSON_NODE_HOLDS_NULL(pn) && !key) || (key && (!spec || spec->type != TRV_PARAM_TEXT)))
    ok = bad(r, "%s.parameter is %s; expected the key of a text parameter (world.table, world.instance, ...)", f->where,
             key ? "not a text parameter of this build" : trv_json_kind(pn));
  else if ((dn && !JSON_NODE_HOLDS_NULL(dn) && !data) || (data && !trv_run_inputs_plain(data)))
    ok = bad(r, "%s.data is %s; expected a relative path of plain names (data/urs/sf.cal)", f->where,
             data ? "not one" : trv_json_kind(dn));
  else if (key && data)
    ok = bad(r, "%s has both a parameter and a data name; expected one of them", f->where);
  else if (!(file = choose_file(r, f)))
    ok = false;
  else if (!key && !data && file != f->path)
    ok = bad(r,
             "%s %s changed since the run or cannot be read, and nothing points the world at its copy %s (no "
             "parameter or data name recorded); a replay runs on the same inputs",
             f->where, f->path, f->kept);
  if (ok && key) { /* the parameter names the file checked, in place of the value recorded */
    char *abs = g_canonicalize_filename(file, NULL);
    TrvParams scratch;
    trv_params_defaults(&scratch);
    GError *e = NULL;
    if (!trv_params_set(&scratch, key, abs, &e)) {
      ok = bad(r, "%s: %s cannot be given as %s: %s", f->where, abs, key, e->message);
      g_error_free(e);
    }
    for (guint k = sets->len; ok && k-- > 0;)
      if (g_str_has_prefix(sets->pdata[k], key) && ((char *)sets->pdata[k])[strlen(key)] == '=')
        g_ptr_array_remove_index(sets, k);
    if (ok) g_ptr_array_add(sets, g_strdup_printf("%s=%s", key, abs));
    g_free(abs);
  }
  if (ok && data) { /* the data directory where the file chosen is found by its name */
    char *abs = g_canonicalize_filename(file, NULL);
    size_t n_abs = strlen(abs), n_data = strlen(data);
    char *dir = n_abs > n_data + 1 && abs[n_abs - n_data - 1] == '/' && !strcmp(abs + n_abs - n_data, data)
                    ? g_strndup(abs, n_abs - n_data - 1)
                    : NULL;
    if (!dir)
      ok = bad(r, "%s.data '%s' is not the end of the file's path %s; expected its name in the data directory",
               f->where, data, abs);
    else if (*data_dir && strcmp(*data_dir, dir))
      ok = bad(r, "%s is in the data directory %s, another data file in %s; expected one data directory", f->where, dir,
               *data_dir);
    else if (!*data_dir)
      *data_dir = g_steal_pointer(&dir);
    g_free(dir);
    g_free(abs);
  }
  trv_recorded_file_free(f);
  return ok;
}
