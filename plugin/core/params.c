/* params.c - the parameter table: the core's own rows, the registration
 * of the modules' blocks, and the parser and formatter every reader of
 * the table shares.  See params.h.
 *
 * The table is two fixed arrays, so that a row's address never moves
 * (callers keep them): the rows, each with the block it belongs to (-1
 * for the core's own), and the blocks, each with its place among the
 * bytes of TrvParams.blocks.  A row's offset in the table is its offset
 * in TrvParams: the block's place plus the row's offset in the block. */
#include "params.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const slab_names[] = {"gaussian", "separated", "soft", NULL};
static const char *const track_names[] = {"hazard", "forgetting", "none", NULL};
static const char *const noise_names[] = {"known", "estimated", NULL};
static const char *const sched_names[] = {"ig", "roundrobin", "random", "parallel", NULL};
static const char *const lrcp_edit_names[] = {"map", "local", NULL};

#define I(k, f, d, lo, hi, doc) TRV_ROW_INT(TrvParams, k, f, d, lo, hi, doc)
#define D(k, f, d, lo, hi, doc) TRV_ROW_DOUBLE(TrvParams, k, f, d, lo, hi, doc)
#define E(k, f, d, names, doc) TRV_ROW_ENUM(TrvParams, k, f, d, names, doc)

/* The core's own rows: offsets into TrvParams itself. */
static const TrvParamSpec core_specs[] = {
    I("run.episodes", episodes, 500, 1, 1e7, "episodes E per seed"),
    I("run.seeds", seeds, 20, 1, 1e5, "number of seeds"),
    I("run.seed_base", seed_base, 1, 0, 2e9, "first seed; seeds are seed_base .. seed_base+seeds-1"),
    I("run.steps", steps, 50, 1, 1e6, "steps T per episode (the separation instance uses T = 500)"),
    D("posterior.pi0", pi0, 0.5, 1e-6, 1 - 1e-6, "prior presence probability P(H1)"),
    D("posterior.tau2", tau2, 1.0, 1e-9, 1e9, "slab variance tau^2"),
    D("posterior.kappa_min", kappa_min, 0.5, 0, 1e9, "separation bound: |kappa| >= kappa_min when present"),
    E("posterior.slab", slab, "separated", slab_names,
      "slab: gaussian N(0,tau^2), separated (truncated to |beta| >= kappa_min), or soft (separated, with a Gaussian "
      "taper of width kappa_min/8 below the bound)"),
    E("posterior.track", track, "hazard", track_names,
      "change tracking: hazard filter, forgetting factor, or none (pooled)"),
    D("posterior.hazard", hazard, 0.001, 0, 0.49, "per-episode structure-change hazard h"),
    D("posterior.lambda", lambda, 0.9, 1e-6, 1, "per-episode forgetting factor on the statistics"),
    E("posterior.noise", noise, "estimated", noise_names,
      "probe noise: the world's variance (known), or estimated from the residuals with it as floor and prior"),
    D("posterior.noise_df", noise_df, 10, 1e-6, 1e9,
      "estimated noise: weight of the world's variance, in residual degrees of freedom"),
    D("posterior.beta_a", beta_a, 1.0, 1e-6, 1e6,
      "Bernoulli worlds (LLM stream): a of the H1 prior theta ~ Beta(a, b) of the probe outcome rate"),
    D("posterior.beta_b", beta_b, 1.0, 1e-6, 1e6,
      "Bernoulli worlds (LLM stream): b of the H1 prior theta ~ Beta(a, b)"),
    D("posterior.redraw", redraw, 0.1, 0, 1,
      "hazard track: per-episode probability that a present effect is a fresh slab draw (1: every episode)"),
    D("budget.alpha", alpha, 1.0, 0, 1e6, "budget multiplier alpha in B_e = ceil(alpha m0 ln(max(e,w_e)+1))"),
    D("budget.m0", m0, 0, 0, 1e6, "m0 of the budget; 0 means |G_inf|"),
    D("budget.zabs", zabs, 1.0, 1e-9, 1e9, "intervention magnitude |z| of a probe (sign drawn at random)"),
    E("budget.scheduler", scheduler, "ig", sched_names, "probe scheduler of the trivium controller"),
    I("budget.probe_value", probe_value, 0, 0, 1,
      "1: an episode's probes go first to the agents whose probes carry the most information, and each agent runs "
      "its probes at its steps of highest value (worlds that declare it: URS, by the calibrated demand of the "
      "driver's cell and slot)"),
    I("budget.coalition", coalition, 1, 0, 4096,
      "most agents probing one component in one episode: 1 = disjoint assignment; more (0: m0) = coalitions, and "
      "every m0 agents (a team) bring a budget B_e"),
    D("commit.h_ent", h_ent, 0.8, 0, 1e6, "executed snapshot: commit MAP when H(P) <= h_ent bits"),
    I("lrcp.window", lrcp_window, 20, 1, 1e6, "rolling window of probes per component"),
    D("lrcp.z_max", lrcp_zmax, 3.0, 0, 1e9, "violation threshold on the standardized residual"),
    I("lrcp.radius", lrcp_radius, 1, 0, 64, "repair neighbourhood radius r"),
    D("lrcp.beta_max", lrcp_beta_max, 0.9, 0, 1e9, "flag when eps_{k+1}/eps_k exceeds beta_max"),
    E("lrcp.edit", lrcp_edit, "map", lrcp_edit_names,
      "repair: map (every violator's neighbourhood toward the posterior MAP at once) or local (one node per "
      "iteration, the most uncertain violator: each violated component of its neighbourhood set to the edit of best "
      "posterior-predictive fit of its window)"),
};

#define MAX_ROWS 512
#define MAX_BLOCKS 128

static struct {
  bool ready;                  /* the core's rows are in */
  TrvParamSpec rows[MAX_ROWS]; /* offsets into TrvParams */
  int row_block[MAX_ROWS];     /* the row's block, -1 for the core's */
  size_t n_rows;
  struct {
    const TrvParamBlock *block;
    size_t place;     /* of its struct in TrvParams.blocks.bytes */
    size_t first_row; /* its rows are rows[first_row .. first_row + n_specs) */
  } blocks[MAX_BLOCKS];
  int n_blocks;
  size_t used; /* bytes of TrvParams.blocks taken */
} table;

static void table_init(void) {
  if (table.ready) return;
  table.ready = true;
  for (size_t i = 0; i < G_N_ELEMENTS(core_specs); i++) {
    table.rows[table.n_rows] = core_specs[i];
    table.row_block[table.n_rows++] = -1;
  }
}

static size_t value_width(TrvParamType type) {
  switch (type) {
    case TRV_PARAM_INT:
    case TRV_PARAM_ENUM: return sizeof(int);
    case TRV_PARAM_DOUBLE: return sizeof(double);
    case TRV_PARAM_TEXT: return TRV_PARAM_TEXT_MAX;
  }
  return 0;
}

/* A key is SECTION.NAME: lower-case letters, digits and '_', one dot
 * between two non-empty parts (they become a scenario's element and
 * attribute names). */
static bool valid_key(const char *key) {
  const char *dot = key ? strchr(key, '.') : NULL;
  if (!dot || dot == key || !dot[1] || strchr(dot + 1, '.') || strlen(key) > 64) return false;
  for (const char *c = key; *c; c++)
    if (c != dot && !g_ascii_islower(*c) && !g_ascii_isdigit(*c) && *c != '_') return false;
  return g_ascii_islower(key[0]) && g_ascii_islower(dot[1]);
}

/* What is wrong with row s of a block of `size` bytes, or NULL. */
static const char *row_lack(const TrvParamSpec *s, size_t size) {
  if (!valid_key(s->key)) return "a key SECTION.NAME of lower-case letters, digits and '_'";
  if (s->type < TRV_PARAM_INT || s->type > TRV_PARAM_TEXT) return "a type (int, double, enum or text)";
  if (s->offset % (s->type == TRV_PARAM_DOUBLE ? sizeof(double)
                   : s->type == TRV_PARAM_TEXT ? 1
                                               : sizeof(int)) ||
      s->offset + value_width(s->type) > size)
    return "an offset inside the block's struct, aligned for its type";
  if (!s->doc || !*s->doc) return "a line of documentation";
  if (s->type == TRV_PARAM_ENUM && (!s->choices || !s->def_choice)) return "choices and a default among them";
  if ((s->type == TRV_PARAM_INT || s->type == TRV_PARAM_DOUBLE) &&
      !(isfinite(s->min) && isfinite(s->max) && s->min <= s->def && s->def <= s->max))
    return "a finite range that holds its default";
  if (s->type == TRV_PARAM_INT && (s->def != floor(s->def) || s->min < INT_MIN || s->max > INT_MAX))
    return "an integer default and a range within int";
  return NULL;
}

const TrvParamSpec *trv_param_lookup(const char *key) {
  table_init();
  for (size_t i = 0; key && i < table.n_rows; i++)
    if (!strcmp(table.rows[i].key, key)) return &table.rows[i];
  return NULL;
}

bool trv_params_register(const TrvParamBlock *b, GError **error) {
  table_init();
  g_return_val_if_fail(b != NULL, false);
  for (int i = 0; i < table.n_blocks; i++)
    if (table.blocks[i].block == b) return true;
  if (b->n_specs > 0 && (!b->specs || b->size == 0)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "a parameter block with %zu rows needs them and its struct's size",
                b->n_specs);
    return false;
  }
  for (size_t i = 0; i < b->n_specs; i++) {
    const TrvParamSpec *s = &b->specs[i];
    const char *lack = row_lack(s, b->size);
    if (lack) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "parameter %s: expected %s", s->key ? s->key : "(no key)", lack);
      return false;
    }
    bool twice = trv_param_lookup(s->key) != NULL;
    for (size_t k = 0; k < i && !twice; k++) twice = !strcmp(b->specs[k].key, s->key);
    if (twice) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "parameter %s: the table already has that key", s->key);
      return false;
    }
  }
  size_t align = G_ALIGNOF(max_align_t), place = (table.used + align - 1) / align * align;
  if (table.n_blocks == MAX_BLOCKS || table.n_rows + b->n_specs > MAX_ROWS ||
      place + b->size > TRV_PARAMS_BLOCK_BYTES) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "parameter %s: the table is full (at most %d blocks, %d rows, "
                "%d bytes of values)",
                b->n_specs ? b->specs[0].key : "block", MAX_BLOCKS, MAX_ROWS, TRV_PARAMS_BLOCK_BYTES);
    return false;
  }
  int index = table.n_blocks++;
  table.blocks[index].block = b;
  table.blocks[index].place = place;
  table.blocks[index].first_row = table.n_rows;
  table.used = place + b->size;
  for (size_t i = 0; i < b->n_specs; i++) {
    TrvParamSpec row = b->specs[i];
    row.offset += offsetof(TrvParams, blocks) + place;
    table.rows[table.n_rows] = row;
    table.row_block[table.n_rows++] = index;
  }
  return true;
}

/* The default of row s into its value at `value`. */
static void row_default(const TrvParamSpec *s, char *value) {
  switch (s->type) {
    case TRV_PARAM_INT: *(int *)value = (int)s->def; return;
    case TRV_PARAM_DOUBLE: *(double *)value = s->def; return;
    case TRV_PARAM_TEXT: *value = '\0'; return;
    case TRV_PARAM_ENUM:
      for (int i = 0; s->choices[i]; i++)
        if (!strcmp(s->choices[i], s->def_choice)) {
          *(int *)value = i;
          return;
        }
      g_error("parameter %s: its default '%s' is not one of its choices", s->key, s->def_choice); /* a bug */
  }
}

void trv_param_block_defaults(const TrvParamBlock *b, void *values) {
  memset(values, 0, b->size);
  for (size_t i = 0; i < b->n_specs; i++) row_default(&b->specs[i], (char *)values + b->specs[i].offset);
}

static void fill_block(TrvParams *p, int index) {
  const TrvParamBlock *b = table.blocks[index].block;
  trv_param_block_defaults(b, p->blocks.bytes + table.blocks[index].place);
}

void trv_params_defaults(TrvParams *p) {
  table_init();
  memset(p, 0, sizeof *p);
  for (size_t i = 0; i < G_N_ELEMENTS(core_specs); i++) row_default(&core_specs[i], (char *)p + core_specs[i].offset);
  for (int b = 0; b < table.n_blocks; b++) fill_block(p, b);
  p->n_blocks = table.n_blocks;
}

void trv_params_complete(TrvParams *p) {
  for (; p->n_blocks < table.n_blocks; p->n_blocks++) fill_block(p, p->n_blocks);
}

static int block_index(const TrvParamBlock *b) {
  for (int i = 0; i < table.n_blocks; i++)
    if (table.blocks[i].block == b) return i;
  return -1;
}

const void *trv_params_block(const TrvParams *p, const TrvParamBlock *b) {
  int i = block_index(b);
  if (i < 0 || i >= p->n_blocks)
    g_error("parameter block of %s: %s", b->n_specs ? b->specs[0].key : "(no rows)",
            i < 0 ? "not registered (register its module first)"
                  : "registered after the values were filled"); /* a bug */
  return p->blocks.bytes + table.blocks[i].place;
}

void *trv_params_block_mut(TrvParams *p, const TrvParamBlock *b) {
  trv_params_complete(p);
  return (void *)trv_params_block(p, b);
}

const void *trivium_params_block(const TrvParams *params, const TrvParamBlock *block) {
  int i = params && block ? block_index(block) : -1;
  if (i < 0) return NULL;
  return trv_params_block(params, block);
}

const TrvParamSpec *trv_param_specs(size_t *n) {
  table_init();
  *n = table.n_rows;
  return table.rows;
}

/* Where row s's value is in p: in p itself, or (a block registered after p
 * was filled) in *scratch, filled with the block's defaults; the caller
 * frees *scratch. */
static const char *value_of(const TrvParams *p, const TrvParamSpec *s, char **scratch) {
  size_t row = (size_t)(s - table.rows);
  g_assert(row < table.n_rows);
  int b = table.row_block[row];
  *scratch = NULL;
  if (b < p->n_blocks) return (const char *)p + s->offset;
  const TrvParamBlock *block = table.blocks[b].block;
  *scratch = g_malloc(block->size);
  trv_param_block_defaults(block, *scratch);
  return *scratch + (s->offset - offsetof(TrvParams, blocks) - table.blocks[b].place);
}

static int edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  int *row = g_new(int, lb + 1);
  for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
  for (size_t i = 1; i <= la; i++) {
    int prev = row[0];
    row[0] = (int)i;
    for (size_t j = 1; j <= lb; j++) {
      int cur = row[j];
      int sub = prev + (a[i - 1] != b[j - 1]);
      int del = row[j] + 1, ins = row[j - 1] + 1;
      row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
      prev = cur;
    }
  }
  int d = row[lb];
  g_free(row);
  return d;
}

const char *trv_params_suggest(const char *key) {
  const char *best = NULL;
  int bd = 4;
  table_init();
  for (size_t i = 0; i < table.n_rows; i++) {
    const char *k = table.rows[i].key, *dot = strchr(k, '.');
    int d = edit_distance(key, k);
    if (dot) { /* also accept a key given without its section */
      int d2 = edit_distance(key, dot + 1);
      if (d2 < d) d = d2;
    }
    if (d < bd) bd = d, best = k;
  }
  return best;
}

const char *trv_suggest(const char *word, const char *const *choices) {
  const char *best = NULL;
  int limit = (int)(strlen(word) + 1) / 2 + 1, bd = limit < 4 ? limit : 4; /* accept d < bd */
  for (size_t i = 0; choices && choices[i]; i++) {
    int d = edit_distance(word, choices[i]);
    if (d < bd) bd = d, best = choices[i];
  }
  return best;
}

bool trv_params_set(TrvParams *p, const char *key, const char *value, GError **error) {
  const TrvParamSpec *s = trv_param_lookup(key);
  if (!s) {
    const char *hint = trv_params_suggest(key);
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "unknown parameter '%s'%s%s%s (see `trivium params`)", key,
                hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
    return false;
  }
  trv_params_complete(p);
  char *f = (char *)p + s->offset;
  if (s->type == TRV_PARAM_TEXT) {
    size_t len = strlen(value);
    if (len >= TRV_PARAM_TEXT_MAX) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "parameter %s: a value of %zu bytes; expected at most %d", key,
                  len, TRV_PARAM_TEXT_MAX - 1);
      return false;
    }
    for (size_t i = 0; i < len; i++)
      if ((unsigned char)value[i] < 0x20 || value[i] == 0x7f) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "parameter %s: control byte \\x%02X at byte %zu; expected text",
                    key, (unsigned char)value[i], i + 1);
        return false;
      }
    memcpy(f, value, len + 1);
    return true;
  }
  if (s->type == TRV_PARAM_ENUM) {
    for (int i = 0; s->choices[i]; i++)
      if (!strcmp(s->choices[i], value)) {
        *(int *)f = i;
        return true;
      }
    char *all = g_strjoinv(", ", (char **)s->choices);
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "parameter %s: '%s' is not one of: %s", key, value, all);
    g_free(all);
    return false;
  }
  char *end;
  errno = 0;
  double v = strtod(value, &end);
  if (end == value || *end || errno || !isfinite(v)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "parameter %s: '%s' is not a number", key, value);
    return false;
  }
  if (s->type == TRV_PARAM_INT && v != floor(v)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "parameter %s: '%s' is not an integer", key, value);
    return false;
  }
  if (v < s->min || v > s->max) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "parameter %s: %s is out of range [%g, %g]", key, value, s->min,
                s->max);
    return false;
  }
  if (s->type == TRV_PARAM_INT)
    *(int *)f = (int)v;
  else
    *(double *)f = v;
  return true;
}

bool trv_params_set_assignment(TrvParams *p, const char *assignment, GError **error) {
  const char *eq = strchr(assignment, '=');
  if (!eq || eq == assignment) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "--set expects key=value, got '%s'", assignment);
    return false;
  }
  char *key = g_strndup(assignment, eq - assignment);
  bool ok = trv_params_set(p, key, eq + 1, error);
  g_free(key);
  return ok;
}

char *trv_format_double(double v) {
  /* the shortest decimal that reads back as the same double: 0.9, not
   * 0.90000000000000002 */
  char buf[G_ASCII_DTOSTR_BUF_SIZE], fmt[8];
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(fmt, sizeof fmt, "%%.%dg", prec);
    g_ascii_formatd(buf, sizeof buf, fmt, v);
    if (g_ascii_strtod(buf, NULL) == v) break;
  }
  /* and 10, not 1e+01 (an integer is printed in full when that is shorter) */
  if (strchr(buf, 'e') && v == floor(v) && fabs(v) < 1e15) {
    char whole[32];
    snprintf(whole, sizeof whole, "%.0f", v);
    if (strlen(whole) < strlen(buf)) return g_strdup(whole);
  }
  return g_strdup(buf);
}

char *trv_params_format(const TrvParams *p, const TrvParamSpec *s) {
  char *scratch, *text = NULL;
  const char *f = value_of(p, s, &scratch);
  switch (s->type) {
    case TRV_PARAM_INT: text = g_strdup_printf("%d", *(const int *)f); break;
    case TRV_PARAM_DOUBLE: text = trv_format_double(*(const double *)f); break;
    case TRV_PARAM_ENUM: text = g_strdup(s->choices[*(const int *)f]); break;
    case TRV_PARAM_TEXT: text = g_strdup(f); break;
  }
  g_free(scratch);
  return text;
}

int trv_params_int(const TrvParams *p, const char *key) {
  const TrvParamSpec *s = trv_param_lookup(key);
  if (!s || (s->type != TRV_PARAM_INT && s->type != TRV_PARAM_ENUM))
    g_error("parameter %s: no such integer parameter in the table", key); /* a bug */
  char *scratch;
  int v = *(const int *)value_of(p, s, &scratch);
  g_free(scratch);
  return v;
}

TrvPosteriorParams trv_params_posterior(const TrvParams *p, double s2) {
  TrvPosteriorParams pp = {.pi0 = p->pi0,
                           .tau2 = p->tau2,
                           .s2 = s2,
                           .kappa_min = p->kappa_min,
                           .hazard = p->hazard,
                           .lambda = p->lambda,
                           .slab = p->slab,
                           .track = p->track,
                           .noise = p->noise,
                           /* with known noise the prior weight plays no part: 0, so that the
                            * model's header and its version-1 snapshots agree */
                           .noise_df = p->noise == TRV_NOISE_ESTIMATED ? p->noise_df : 0.0,
                           .persist = 1.0 - p->redraw};
  return pp;
}

TrvPosteriorParams trv_params_posterior_bernoulli(const TrvParams *p, double theta0) {
  TrvPosteriorParams pp = trv_params_posterior(p, 1.0);
  pp.tau2 = 1.0, pp.kappa_min = 0.0, pp.slab = TRV_SLAB_GAUSSIAN, pp.noise = TRV_NOISE_KNOWN, pp.noise_df = 0.0;
  pp.likelihood = TRV_POSTERIOR_BERNOULLI;
  pp.theta0 = theta0, pp.beta_a = p->beta_a, pp.beta_b = p->beta_b;
  return pp;
}

bool trivium_params_get(const TrvParams *p, const char *key, double *value, GError **error) {
  const TrvParamSpec *s = key ? trv_param_lookup(key) : NULL;
  if (!s) {
    const char *hint = key ? trv_params_suggest(key) : NULL;
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "unknown parameter '%s'%s%s%s", key ? key : "(null)",
                hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
    return false;
  }
  if (s->type == TRV_PARAM_TEXT) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "parameter '%s' is text, not a number", key);
    return false;
  }
  char *scratch;
  const char *f = value_of(p, s, &scratch);
  *value = s->type == TRV_PARAM_DOUBLE ? *(const double *)f : (double)*(const int *)f;
  g_free(scratch);
  return true;
}
