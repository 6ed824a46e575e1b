/* report.c - the files and the table a run produces.  See report.h.
 * Uncertainty is across seeds (docs/outputs.md, "summary.csv"): each metric
 * is first reduced to one number per (controller, seed) by the cell itself
 * (core/results.c), then summarised across seeds by trv_summarize.
 * episodes.csv is the cells' own lines, concatenated by run-pool.c. */
#include "report.h"
#include "json-file.h"
#include "replay-config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <config.h>

#include <json-glib/json-glib.h>
#include <simgrid/forward.h>
#include <simgrid/version.h>

/* the one object that includes the generated header (src/cli.am) */
#include "src/git-revision.h"
const char trv_git_revision[] = TRV_GIT_REVISION;

static const TrvCellSummary *cell_of(const TrvRunResult *r, int c, int s) { return &r->cells[c * r->n_seeds + s]; }

/* An output is built in memory and written whole by trv_write_file_atomic,
 * so an interrupted run never leaves half a file under its final name. */
typedef struct {
  FILE *f;
  char *buf;
  size_t len;
} Out;

static FILE *open_out(Out *o) {
  o->buf = NULL;
  o->len = 0;
  o->f = open_memstream(&o->buf, &o->len);
  g_assert(o->f); /* only fails without memory */
  return o->f;
}

static bool close_out(Out *o, const char *path, GError **error) {
  fclose(o->f);
  bool ok = trv_write_file_atomic(path, o->buf, (gssize)o->len, error);
  free(o->buf);
  return ok;
}

/* ---- run.json ----------------------------------------------------------------
 * Built as a tree with JsonBuilder and printed by JsonGenerator (pretty, an
 * indent of 2; json-glib escapes every string), then written whole by
 * trv_write_file_atomic.  src/replay-config.c reads it back. */

static void add_member_string(JsonBuilder *b, const char *name, const char *s) {
  json_builder_set_member_name(b, name);
  if (s)
    trv_json_add_bytes(b, s);
  else
    json_builder_add_null_value(b);
}

/* "copy": the file's copy in the run directory, when it has one. */
static void add_copy(JsonBuilder *b, const char *path, GHashTable *copies) {
  const char *copy = copies && path ? g_hash_table_lookup(copies, path) : NULL;
  if (copy) add_member_string(b, "copy", copy);
}

/* {"path": ..., "sha256": ...[, "copy": ...]} of a file (sha256 null when
 * it cannot be read); a world's data file (`how` not NULL) also has the
 * "parameter" that named it or its "data" name in the data directory. */
static void add_file(JsonBuilder *b, const char *path, GHashTable *known, GHashTable *copies, const TrvRunInput *how) {
  json_builder_begin_object(b);
  add_member_string(b, "path", path);
  add_copy(b, path, copies);
  if (how && how->parameter) add_member_string(b, "parameter", how->parameter);
  if (how && how->data) add_member_string(b, "data", how->data);
  /* the digest the run's fingerprints were made with, when it has one (a
   * calibration table is megabytes: hashing it again costs tens of ms) */
  gpointer have;
  char *sum = known && g_hash_table_lookup_extended(known, path, NULL, &have) ? g_strdup(have) : trv_file_sha256(path);
  add_member_string(b, "sha256", sum);
  g_free(sum);
  json_builder_end_object(b);
}

/* {"path": ..., "sha256": ...[, "copy": ...]} of a file already hashed. */
static void add_file_digest(JsonBuilder *b, const char *path, const char *sha256, GHashTable *copies) {
  json_builder_begin_object(b);
  add_member_string(b, "path", path);
  add_copy(b, path, copies);
  add_member_string(b, "sha256", sha256);
  json_builder_end_object(b);
}

static void add_member_number(JsonBuilder *b, const char *name, double v) {
  json_builder_set_member_name(b, name);
  if (isfinite(v))
    json_builder_add_double_value(b, v);
  else
    json_builder_add_null_value(b); /* a fault's stop: "to the end of the run" */
}

static void add_string_array(JsonBuilder *b, const char *name, const char *const *v, size_t n) {
  json_builder_set_member_name(b, name);
  json_builder_begin_array(b);
  for (size_t i = 0; i < n; i++) trv_json_add_bytes(b, v[i]);
  json_builder_end_array(b);
}

static void add_int_array(JsonBuilder *b, const char *name, const int *v, int n) {
  json_builder_set_member_name(b, name);
  json_builder_begin_array(b);
  for (int i = 0; i < n; i++) json_builder_add_int_value(b, v[i]);
  json_builder_end_array(b);
}

/* JsonGenerator prints a double with g_ascii_dtostr, 17 significant digits
 * (json-glib 1.6, Debian 12): 0.1 comes out as 0.10000000000000001 and 30
 * as 30.0, and the generator has no hook to print numbers otherwise
 * (whole numbers as int nodes would leave 0.1 as it is).  So its text is
 * rewritten here: every number token with a '.' or an exponent
 * (a double; integers are left alone) becomes trv_format_double's shortest
 * decimal that reads back as the same double, the text trv_params_format
 * gives and --set accepts.  Strings are copied untouched, so only number
 * text changes, never a value.  Negative zero keeps the generator's "-0.0":
 * "-0" would read back as the integer 0. */
static char *shortest_numbers(const char *json) {
  GString *out = g_string_sized_new(strlen(json) + 1);
  const char *p = json;
  while (*p) {
    if (*p == '"') {
      const char *q = p + 1;
      while (*q && *q != '"') q += q[0] == '\\' && q[1] ? 2 : 1;
      if (*q) q++;
      g_string_append_len(out, p, q - p);
      p = q;
    } else if (*p == '-' || g_ascii_isdigit(*p)) {
      size_t n = strspn(p, "-+.0123456789eE");
      char *tok = g_strndup(p, n);
      double v = g_ascii_strtod(tok, NULL);
      char *t = strpbrk(tok, ".eE") && !(v == 0 && signbit(v)) ? trv_format_double(v) : g_strdup(tok);
      g_string_append(out, t);
      g_free(t);
      g_free(tok);
      p += n;
    } else {
      g_string_append_c(out, *p++);
    }
  }
  return g_string_free(out, FALSE);
}

bool trv_write_run_json(const TrvRunResult *r, const char *path, const char *status, GError **error) {
  JsonBuilder *b = json_builder_new();
  json_builder_begin_object(b);
  add_member_string(b, "status", status);
  add_member_string(b, "experiment", r->experiment);
  add_member_string(b, "world", r->world_class->name);
  add_member_string(b, "platform", r->platform);
  json_builder_set_member_name(b, "platform_file");
  char *platform = r->platform ? g_canonicalize_filename(r->platform, NULL) : NULL; /* replayable from anywhere */
  add_file(b, platform, r->file_sha256, r->input_copies, NULL);
  g_free(platform);
  json_builder_set_member_name(b, "scenario_file");
  if (r->scenario_file)
    add_file(b, r->scenario_file, r->file_sha256, r->input_copies, NULL);
  else
    json_builder_add_null_value(b);
  json_builder_set_member_name(b, "inputs");
  json_builder_begin_array(b);
  for (size_t i = 0; i < r->n_inputs; i++)
    add_file(b, r->inputs[i].path, r->file_sha256, r->input_copies, &r->inputs[i]);
  json_builder_end_array(b);
  json_builder_set_member_name(b, "profiles");
  json_builder_begin_array(b);
  for (int i = 0; r->profiles && r->profiles[i]; i++)
    add_file(b, r->profiles[i], r->file_sha256, r->input_copies, NULL);
  json_builder_end_array(b);
  json_builder_set_member_name(b, "roles");
  json_builder_begin_object(b);
  for (int k = 0; k < TRV_N_ROLES; k++) /* null: the hosts whose trivium.role property names the role */
    add_member_string(b, trv_role_names[k], r->role_hosts ? r->role_hosts[k] : NULL);
  json_builder_end_object(b);
  json_builder_set_member_name(b, "faults");
  json_builder_begin_array(b);
  for (size_t i = 0; i < r->n_faults; i++) {
    const TrvFaultSpec *ft = &r->faults[i];
    json_builder_begin_object(b);
    add_member_string(b, "kind", trv_scn_fault_elements[ft->kind]);
    add_member_string(b, "pattern", ft->pattern);
    add_member_number(b, "mtbf", ft->mtbf);
    add_member_number(b, "mttr", ft->mttr);
    add_member_number(b, "start", ft->start);
    add_member_number(b, "stop", ft->stop);
    add_member_number(b, "at", ft->at);
    add_member_number(b, "duration", ft->duration);
    /* a link-flap's laws; a shape only for a law that has one */
    bool flap = ft->kind == TRV_FAULT_LINK_FLAP;
    add_member_string(b, "up", flap ? trv_fault_law_names[ft->up] : NULL);
    add_member_string(b, "down", flap ? trv_fault_law_names[ft->down] : NULL);
    add_member_number(b, "up_shape", flap && trv_fault_law_shaped(ft->up) ? ft->up_shape : NAN);
    add_member_number(b, "down_shape", flap && trv_fault_law_shaped(ft->down) ? ft->down_shape : NAN);
    /* a fault trace also has the file read and the SHA-256 of the bytes its
     * events came from (the other kinds have no "file": their run.json is
     * as before fault traces) */
    if (ft->trace) {
      json_builder_set_member_name(b, "file");
      add_file_digest(b, ft->trace->file, ft->trace->sha256, r->input_copies);
    }
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
  add_string_array(b, "simgrid_options", r->simgrid_args, r->n_simgrid_args);
  add_string_array(b, "controllers", r->controllers, (size_t)r->n_controllers);
  add_int_array(b, "seeds", r->seeds, r->n_seeds);
  add_int_array(b, "change_points", r->layout->change_points, r->layout->n_change_points);
  double lost = 0;
  for (int i = 0; r->cells && i < r->n_controllers * r->n_seeds; i++)
    lost += r->cells[i].metric[TRV_METRIC_UNCOMMITTED_EPISODES];
  json_builder_set_member_name(b, "uncommitted_episodes");
  if (r->cells && isfinite(lost))
    json_builder_add_int_value(b, (gint64)llround(lost));
  else
    json_builder_add_null_value(b);
  /* every resolved parameter: names as text, numbers as numbers */
  json_builder_set_member_name(b, "parameters");
  json_builder_begin_object(b);
  size_t n;
  const TrvParamSpec *specs = trv_param_specs(&n);
  for (size_t i = 0; i < n; i++) {
    if (specs[i].type == TRV_PARAM_ENUM || specs[i].type == TRV_PARAM_TEXT) {
      char *v = trv_params_format(r->params, &specs[i]);
      add_member_string(b, specs[i].key, v);
      g_free(v);
      continue;
    }
    const char *f = (const char *)r->params + specs[i].offset;
    if (specs[i].type == TRV_PARAM_INT) {
      json_builder_set_member_name(b, specs[i].key);
      json_builder_add_int_value(b, *(const int *)f);
    } else {
      add_member_number(b, specs[i].key, *(const double *)f);
    }
  }
  json_builder_end_object(b);
  json_builder_set_member_name(b, "versions");
  json_builder_begin_object(b);
  add_member_string(b, "trivium", PACKAGE_VERSION);
  add_member_string(b, "git", trv_git_revision);
  char *glib = g_strdup_printf("%u.%u.%u", glib_major_version, glib_minor_version, glib_micro_version);
  add_member_string(b, "glib", glib);
  g_free(glib);
  int sg_major, sg_minor, sg_patch;
  sg_version_get(&sg_major, &sg_minor, &sg_patch);
  char *sg = g_strdup_printf("%d.%d.%d", sg_major, sg_minor, sg_patch);
  add_member_string(b, "simgrid", sg);
  g_free(sg);
  json_builder_end_object(b);
  json_builder_set_member_name(b, "command");
  json_builder_begin_array(b);
  for (int i = 0; i < r->argc; i++) trv_json_add_bytes(b, r->argv[i]);
  json_builder_end_array(b);
  json_builder_end_object(b);

  JsonNode *root = json_builder_get_root(b);
  JsonGenerator *gen = json_generator_new();
  json_generator_set_pretty(gen, TRUE);
  json_generator_set_indent(gen, 2);
  json_generator_set_root(gen, root);
  char *raw = json_generator_to_data(gen, NULL);
  char *text = shortest_numbers(raw);
  char *file = g_strconcat(text, "\n", NULL);
  bool ok = trv_write_file_atomic(path, file, -1, error);
  g_free(file);
  g_free(text);
  g_free(raw);
  g_object_unref(gen);
  json_node_unref(root);
  g_object_unref(b);
  return ok;
}

/* ---- metrics across seeds ------------------------------------------------- */

static TrvSummary summarize_metric(const TrvRunResult *r, int c, int k) {
  double *v = g_new(double, r->n_seeds);
  size_t n = 0;
  for (int s = 0; s < r->n_seeds; s++) {
    double m = cell_of(r, c, s)->metric[k];
    if (!isnan(m)) v[n++] = m;
  }
  TrvSummary sum = trv_summarize(v, n);
  g_free(v);
  return sum;
}

TrvSummary trv_run_metric(const TrvRunResult *r, int c, const char *name) {
  int k = trivium_metric_lookup(name);
  g_assert(k >= 0);
  return summarize_metric(r, c, k);
}

void trv_run_metric_values(const TrvRunResult *r, int c, const char *name, double *out) {
  int k = trivium_metric_lookup(name);
  g_assert(k >= 0);
  for (int s = 0; s < r->n_seeds; s++) out[s] = cell_of(r, c, s)->metric[k];
}

/* Final presence of component j per seed (last episode), for separation. */
static double *final_presence(const TrvRunResult *r, int c, int j) {
  double *v = g_new(double, r->n_seeds);
  for (int s = 0; s < r->n_seeds; s++) v[s] = cell_of(r, c, s)->final_p[j];
  return v;
}

static double median(const double *x, int n) {
  double *c = g_memdup2(x, sizeof(double) * n);
  qsort(c, n, sizeof(double), trv_cmp_double);
  double m = n % 2 ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]);
  g_free(c);
  return m;
}

/* Separation table: final P(X->Y) per controller, and Mann-Whitney of the
 * first controller against each other one. */
static void separation_table(const TrvRunResult *r, FILE *f) {
  int j = -1;
  const TrvCandidates *cand = r->layout->cand;
  for (int k = 0; k < cand->n_components; k++)
    if (cand->components[k].observed) j = k;
  if (j < 0) return;
  fprintf(f, "\nSeparation: final P(%s) after T = %d steps, %d seeds (truth: absent)\n\n", cand->components[j].name,
          r->steps, r->n_seeds);
  fprintf(f, "| controller | median P | min P | max P | hard readout right (P < 0.5) |\n|---|---|---|---|---|\n");
  double *first = final_presence(r, 0, j);
  for (int c = 0; c < r->n_controllers; c++) {
    double *v = final_presence(r, c, j), lo = 1, hi = 0;
    int right = 0;
    for (int s = 0; s < r->n_seeds; s++) {
      lo = fmin(lo, v[s]);
      hi = fmax(hi, v[s]);
      right += v[s] < 0.5;
    }
    fprintf(f, "| %s | %.4g | %.4g | %.4g | %d / %d |\n", r->controllers[c], median(v, r->n_seeds), lo, hi, right,
            r->n_seeds);
    if (c > 0) {
      TrvMannWhitney mw = trv_mann_whitney(first, r->n_seeds, v, r->n_seeds);
      fprintf(f, "\nMann-Whitney U (%s vs %s, two-sided, %s): U = %g, p = %.3g\n\n", r->controllers[0],
              r->controllers[c], mw.exact ? "exact" : "normal approximation", mw.u, mw.p_value);
    }
    g_free(v);
  }
  g_free(first);
}

void trv_format_summary(char *buf, size_t n, TrvSummary s, int metric) {
  if (s.n == 0)
    snprintf(buf, n, "-");
  else if (metric == TRV_METRIC_P_F)
    snprintf(buf, n, "%.3g ± %.2g", s.mean, s.sd); /* small rates matter: never 0.00 */
  else if (s.mean != 0 && fabs(s.mean) < 0.01)
    snprintf(buf, n, "%.3g ± %.2g", s.mean, s.sd);
  else if (fabs(s.mean) >= 1000)
    snprintf(buf, n, "%.0f ± %.0f", s.mean, s.sd);
  else
    snprintf(buf, n, "%.2f ± %.2f", s.mean, s.sd);
}

/* One row per controller: mean ± sd of each metric in cols. */
static void table_rows(const TrvRunResult *r, FILE *f, const int *cols, size_t n_cols) {
  for (int c = 0; c < r->n_controllers; c++) {
    fprintf(f, "| %s", r->controllers[c]);
    for (size_t k = 0; k < n_cols; k++) {
      char b[64];
      trv_format_summary(b, sizeof b, summarize_metric(r, c, cols[k]), cols[k]);
      fprintf(f, " | %s", b);
    }
    fprintf(f, " |\n");
  }
}

/* Mean over the episodes of a seed of world metric k, summarised across seeds. */
static TrvSummary world_metric(const TrvRunResult *r, int c, int k) {
  double *v = g_new(double, r->n_seeds);
  for (int s = 0; s < r->n_seeds; s++) v[s] = cell_of(r, c, s)->world_metric_mean[k];
  TrvSummary out = trv_summarize(v, r->n_seeds);
  g_free(v);
  return out;
}

static void world_table(const TrvRunResult *r, FILE *f) {
  const char *const *wm = r->layout->metric_names;
  if (!wm || !wm[0]) return;
  fprintf(f, "\nWorld metrics (%s), mean per episode, mean ± sd over seeds\n\n| controller", r->world_class->name);
  int n = 0;
  for (; wm[n]; n++) fprintf(f, " | %s", wm[n]);
  fprintf(f, " |\n|---");
  for (int k = 0; k < n; k++) fprintf(f, "|---");
  fprintf(f, "|\n");
  for (int c = 0; c < r->n_controllers; c++) {
    fprintf(f, "| %s", r->controllers[c]);
    for (int k = 0; k < n; k++) {
      char b[64];
      trv_format_summary(b, sizeof b, world_metric(r, c, k), -1);
      fprintf(f, " | %s", b);
    }
    fprintf(f, " |\n");
  }
}

/* The mean cumulative R_out curve of controller c over its seeds and its
 * two fits; false when the cells' curves differ in shape. */
static bool regret_fits(const TrvRunResult *r, int c, TrvLinFit *log_fit, TrvLinFit *linear_fit) {
  const TrvCellSummary *first = cell_of(r, c, 0);
  int n = first->n_curve;
  if (n < 2) return false;
  for (int s = 1; s < r->n_seeds; s++)
    if (cell_of(r, c, s)->n_curve != n ||
        memcmp(cell_of(r, c, s)->curve_episode, first->curve_episode, sizeof(int) * n))
      return false;
  double *x = g_new(double, n), *y = g_new0(double, n);
  for (int i = 0; i < n; i++) {
    for (int s = 0; s < r->n_seeds; s++) y[i] += cell_of(r, c, s)->curve_r_out[i] / r->n_seeds;
    x[i] = log(first->curve_episode[i]);
  }
  *log_fit = trv_linear_fit(x, y, (size_t)n);
  for (int i = 0; i < n; i++) x[i] = first->curve_episode[i];
  *linear_fit = trv_linear_fit(x, y, (size_t)n);
  g_free(x);
  g_free(y);
  return true;
}

static const char *better_fit(const TrvLinFit *log_fit, const TrvLinFit *linear_fit) {
  if (!(log_fit->r2 == log_fit->r2 && linear_fit->r2 == linear_fit->r2) || log_fit->r2 == linear_fit->r2) return "-";
  return log_fit->r2 > linear_fit->r2 ? "log" : "linear";
}

static void regret_fit_table(const TrvRunResult *r, FILE *f) {
  fprintf(
      f,
      "\nCumulative outcome regret R_out: the mean curve over seeds, fitted by a + b ln(e) and by a + b e "
      "(e = episodes so far)\n\n| controller | R_out at E | b ln(e) | R^2 a+b*ln(e) | b e | R^2 a+b*e | better fit |\n"
      "|---|---|---|---|---|---|---|\n");
  for (int c = 0; c < r->n_controllers; c++) {
    TrvLinFit lf, nf;
    char b[64];
    trv_format_summary(b, sizeof b, summarize_metric(r, c, TRV_METRIC_R_OUT), TRV_METRIC_R_OUT);
    if (!regret_fits(r, c, &lf, &nf)) {
      fprintf(f, "| %s | %s | - | - | - | - | - |\n", r->controllers[c], b);
      continue;
    }
    fprintf(f, "| %s | %s | %.4g | %.4f | %.4g | %.4f | %s |\n", r->controllers[c], b, lf.b, lf.r2, nf.b, nf.r2,
            better_fit(&lf, &nf));
  }
}

/* Whether controller c acted on a wrong graph throughout: G_hat_e wrong
 * in every episode of every seed (committed exposure = the seed's
 * episodes) while its MAP was right in some (hard posterior exposure
 * below that, in the mean).  Its exposure then counts a belief its agents
 * never acted on, and does not compare with a controller that commits. */
static bool exposure_of_unused_belief(const TrvRunResult *r, int c) {
  if (r->n_seeds < 1) return false;
  for (int s = 0; s < r->n_seeds; s++) {
    const TrvCellSummary *z = cell_of(r, c, s);
    if (z->episodes < 1 || z->metric[TRV_METRIC_COMMITTED_EXPOSURE] != z->episodes) return false;
  }
  return summarize_metric(r, c, TRV_METRIC_EXPOSURE_TOTAL).mean <
         summarize_metric(r, c, TRV_METRIC_COMMITTED_EXPOSURE).mean;
}

/* The caveats under the main table: one line per controller whose
 * exposure does not say what its agents acted on (docs/outputs.md). */
static void exposure_caveats(const TrvRunResult *r, FILE *f) {
  for (int c = 0; c < r->n_controllers; c++) {
    if (!exposure_of_unused_belief(r, c)) continue;
    char total[64], committed[64];
    trv_format_summary(total, sizeof total, summarize_metric(r, c, TRV_METRIC_EXPOSURE_TOTAL),
                       TRV_METRIC_EXPOSURE_TOTAL);
    trv_format_summary(committed, sizeof committed, summarize_metric(r, c, TRV_METRIC_COMMITTED_EXPOSURE),
                       TRV_METRIC_COMMITTED_EXPOSURE);
    fprintf(f,
            "\nCaveat: %s's committed graph G_hat, the one its agents acted on, was wrong in every episode of "
            "every seed (committed %s); its exposure (total %s) is that of a MAP graph it never acted on, and "
            "does not compare with the exposure of a controller that commits: read its committed exposure, R_out "
            "and the world's metrics.\n",
            r->controllers[c], committed, total);
  }
}

static void main_table(const TrvRunResult *r, FILE *f) {
  fprintf(f,
          "Hard posterior exposure (episodes whose MAP graph differs from the truth) of %d episodes, "
          "mean ± sd over %d seeds; regrets are totals per seed (R_epi, the log-loss of the belief, grows "
          "without bound for a belief sure of a wrong graph; R_epi per step floors each probability at 1e-15, "
          "so it compares across controllers)\n\n",
          r->layout->episodes, r->n_seeds);
  fprintf(f, "| controller | init | recovery | stationary | total | committed | R_out | R_epi | R_epi per step | "
             "R_temp |\n");
  fprintf(f, "|---|---|---|---|---|---|---|---|---|---|\n");
  const int cols[] = {TRV_METRIC_EXPOSURE_INIT,  TRV_METRIC_EXPOSURE_RECOVERY,  TRV_METRIC_EXPOSURE_STATIONARY,
                      TRV_METRIC_EXPOSURE_TOTAL, TRV_METRIC_COMMITTED_EXPOSURE, TRV_METRIC_R_OUT,
                      TRV_METRIC_R_EPI,          TRV_METRIC_R_EPI_STEP,         TRV_METRIC_R_TEMP};
  table_rows(r, f, cols, G_N_ELEMENTS(cols));
  exposure_caveats(r, f);
  fprintf(f, "\nDetectors (change-points at");
  for (int i = 0; i < r->layout->n_change_points; i++) fprintf(f, " %d", r->layout->change_points[i]);
  fprintf(f, "), probes, commits\n\n| controller | alarms | detections | false alarms | delay | probes | p_f | "
             "uncommitted episodes | detector closes | time lost (s) | bits lost | steps late | sim time (s) |\n");
  fprintf(f, "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  const int cols2[] = {
      TRV_METRIC_ALARMS,    TRV_METRIC_DETECTIONS, TRV_METRIC_FALSE_ALARMS,         TRV_METRIC_DETECTION_DELAY,
      TRV_METRIC_PROBES,    TRV_METRIC_P_F,        TRV_METRIC_UNCOMMITTED_EPISODES, TRV_METRIC_DETECTOR_CLOSES,
      TRV_METRIC_TIME_LOST, TRV_METRIC_BITS_LOST,  TRV_METRIC_STEPS_LATE,           TRV_METRIC_SIM_TIME};
  table_rows(r, f, cols2, G_N_ELEMENTS(cols2));
  trv_recovery_md(r, f);
  regret_fit_table(r, f);
  world_table(r, f);
  if (r->world_text) fputs(r->world_text, f);
}

bool trv_write_summary(const TrvRunResult *r, const char *dir, FILE *out, GError **error) {
  char *path = g_build_filename(dir, "summary.csv", NULL);
  Out o;
  FILE *f = open_out(&o);
  fprintf(f, "controller,metric,mean,sd,ci95_lo,ci95_hi,n_seeds\n");
  for (int c = 0; c < r->n_controllers; c++)
    for (int k = 0; k < TRV_METRIC_COUNT; k++) {
      TrvSummary s = summarize_metric(r, c, k);
      fprintf(f, "%s,%s,%.9g,%.9g,%.9g,%.9g,%zu\n", r->controllers[c], trivium_metric_name(k), s.mean, s.sd, s.lo, s.hi,
              s.n);
    }
  const char *const *wm = r->layout->metric_names;
  for (int c = 0; c < r->n_controllers; c++)
    for (int k = 0; wm && wm[k]; k++) {
      TrvSummary s = world_metric(r, c, k);
      fprintf(f, "%s,world.%s,%.9g,%.9g,%.9g,%.9g,%zu\n", r->controllers[c], wm[k], s.mean, s.sd, s.lo, s.hi, s.n);
    }
  trv_recovery_csv(r, f);
  for (int c = 0; c < r->n_controllers; c++) { /* fits of the mean curve: one number each, no spread */
    TrvLinFit fit[2];
    if (!regret_fits(r, c, &fit[0], &fit[1])) continue;
    static const char *const names[] = {"log", "linear"};
    for (int k = 0; k < 2; k++) {
      fprintf(f, "%s,fit.r_out_%s_b,%.9g,nan,nan,nan,%d\n", r->controllers[c], names[k], fit[k].b, r->n_seeds);
      fprintf(f, "%s,fit.r_out_%s_r2,%.9g,nan,nan,nan,%d\n", r->controllers[c], names[k], fit[k].r2, r->n_seeds);
    }
  }
  bool ok = close_out(&o, path, error);
  g_free(path);
  if (!ok) return false;

  path = g_build_filename(dir, "summary.md", NULL);
  f = open_out(&o);
  fprintf(f, "# Trivium run: %s\n\n", r->experiment);
  /* CausalBench-Seq's separation variant has a table of its own */
  const TrvParamSpec *variant = trv_param_lookup("world.variant");
  char *v = variant ? trv_params_format(r->params, variant) : NULL;
  bool separation = v && !strcmp(v, "separation");
  g_free(v);
  if (separation)
    separation_table(r, f);
  else
    main_table(r, f);
  fprintf(f, "\nIntervals: summary.csv has the 95%% t-interval of every metric across seeds.\n");
  ok = close_out(&o, path, error);
  g_free(path);
  if (!ok) return false;
  if (out) {
    if (separation)
      separation_table(r, out);
    else
      main_table(r, out);
  }
  return true;
}
