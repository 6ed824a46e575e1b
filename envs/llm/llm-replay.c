/* llm-replay.c - recorded LLM streams as JSON Lines: the reader (every
 * line validated as hostile input) and the recorder of simulated streams.
 *
 * Schema (docs/llm.md): line 1 declares the model,
 *   {"kind":"model","source":S,"model":NAME,"clean":C,"hint":H,"audit":A}
 * every later line is one episode,
 *   {"kind":"episode","source":S,"seed":N,"episode":E,"user":"R"|"U",
 *    "hint_correct":B,"base_correct":B,"base_followed_hint":B,"audit_correct":B}
 * Each line is one flat JSON object (strings, numbers, true/false), every
 * key required and none other allowed, no key twice.  A seed's episodes
 * come in order from 0 without gaps, its user never changes, the hint is
 * right exactly when the user is R, and a plain answer that followed the
 * hint is right exactly when the hint is.  Rates satisfy
 * trv_llm_rates_valid.  Any violation is "PATH:LINE: what was found;
 * expected what" (TRV_ERROR_INPUT).  The file's size is checked before it
 * is read, a line's before it is parsed; the episodes kept (one seed's)
 * grow with the lines that hold them, so memory is bounded by the file. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <trivium/error.h>

#include "core/input.h"
#include "core/params.h"
#include "llm/llm.h"

/* ---- one flat JSON object ----------------------------------------------- */

typedef enum { V_STRING, V_NUMBER, V_BOOL } ValueKind;

#define MAX_FIELDS 12

typedef struct {
  char key[32];
  ValueKind kind;
  char str[80];
  double num;
  bool num_integral; /* the number was written without fraction or exponent */
  bool b;
} Field;

typedef struct {
  const char *p, *end;
  const char *path;
  size_t line;
  GError **error;
} Cursor;

static bool fail(Cursor *c, const char *found, const char *expected) {
  g_set_error(c->error, TRV_ERROR, TRV_ERROR_INPUT, "%s:%zu: %s; expected %s", c->path, c->line, found, expected);
  return false;
}

static void skip_ws(Cursor *c) {
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t')) c->p++;
}

/* A JSON string into buf (ASCII escapes only: a replay file's values are
 * names and letters). */
static bool parse_string(Cursor *c, char *buf, size_t cap) {
  if (c->p >= c->end || *c->p != '"') return fail(c, "no string", "a string in double quotes");
  c->p++;
  size_t n = 0;
  while (c->p < c->end && *c->p != '"') {
    unsigned char ch = (unsigned char)*c->p++;
    if (ch < 0x20) return fail(c, "a control character in a string", "printable text");
    if (ch == '\\') {
      if (c->p >= c->end) break;
      char e = *c->p++;
      switch (e) {
        case '"':
        case '\\':
        case '/': ch = (unsigned char)e; break;
        case 'n': ch = '\n'; break;
        case 't': ch = '\t'; break;
        default: return fail(c, "an escape other than \\\" \\\\ \\/ \\n \\t", "plain ASCII text");
      }
    } else if (ch >= 0x80) {
      return fail(c, "a non-ASCII byte in a string", "ASCII text");
    }
    if (n + 1 >= cap) return fail(c, "a string too long", "at most the field's length (79 bytes, 31 for a key)");
    buf[n++] = (char)ch;
  }
  if (c->p >= c->end) return fail(c, "an unterminated string", "a closing double quote");
  c->p++;
  buf[n] = '\0';
  return true;
}

/* A JSON number (the grammar of RFC 8259, checked before strtod). */
static bool parse_number(Cursor *c, Field *f) {
  const char *s = c->p;
  if (c->p < c->end && *c->p == '-') c->p++;
  if (c->p >= c->end || !g_ascii_isdigit(*c->p)) return fail(c, "a malformed number", "a JSON number");
  if (*c->p == '0')
    c->p++;
  else
    while (c->p < c->end && g_ascii_isdigit(*c->p)) c->p++;
  f->num_integral = true;
  if (c->p < c->end && *c->p == '.') {
    c->p++;
    f->num_integral = false;
    if (c->p >= c->end || !g_ascii_isdigit(*c->p)) return fail(c, "a malformed number", "digits after '.'");
    while (c->p < c->end && g_ascii_isdigit(*c->p)) c->p++;
  }
  if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
    c->p++;
    f->num_integral = false;
    if (c->p < c->end && (*c->p == '+' || *c->p == '-')) c->p++;
    if (c->p >= c->end || !g_ascii_isdigit(*c->p)) return fail(c, "a malformed number", "digits in the exponent");
    while (c->p < c->end && g_ascii_isdigit(*c->p)) c->p++;
  }
  char buf[64];
  size_t len = (size_t)(c->p - s);
  if (len >= sizeof buf) return fail(c, "a number of more than 63 characters", "a shorter number");
  memcpy(buf, s, len);
  buf[len] = '\0';
  f->num = g_ascii_strtod(buf, NULL);
  if (!isfinite(f->num)) return fail(c, "a number out of range", "a finite number");
  return true;
}

static bool parse_object(Cursor *c, Field *fields, int *n) {
  *n = 0;
  skip_ws(c);
  if (c->p >= c->end || *c->p != '{') return fail(c, "no JSON object", "one object per line, '{' ... '}'");
  c->p++;
  skip_ws(c);
  if (c->p < c->end && *c->p == '}') return fail(c, "an empty object", "the keys of the schema (docs/llm.md)");
  for (;;) {
    if (*n == MAX_FIELDS) return fail(c, "more keys than the schema has", "the keys of docs/llm.md");
    Field *f = &fields[*n];
    skip_ws(c);
    if (!parse_string(c, f->key, sizeof f->key)) return false;
    for (int i = 0; i < *n; i++)
      if (!strcmp(fields[i].key, f->key)) {
        char *k = g_strescape(f->key, NULL), *m = g_strdup_printf("key \"%s\" twice", k);
        bool r = fail(c, m, "each key once");
        g_free(m), g_free(k);
        return r;
      }
    skip_ws(c);
    if (c->p >= c->end || *c->p != ':') return fail(c, "no ':' after a key", "\"key\": value");
    c->p++;
    skip_ws(c);
    if (c->p >= c->end) return fail(c, "the line ends before a value", "a value");
    if (*c->p == '"') {
      f->kind = V_STRING;
      if (!parse_string(c, f->str, sizeof f->str)) return false;
    } else if (c->end - c->p >= 4 && !memcmp(c->p, "true", 4)) {
      f->kind = V_BOOL, f->b = true, c->p += 4;
    } else if (c->end - c->p >= 5 && !memcmp(c->p, "false", 5)) {
      f->kind = V_BOOL, f->b = false, c->p += 5;
    } else if (*c->p == '-' || g_ascii_isdigit(*c->p)) {
      f->kind = V_NUMBER;
      if (!parse_number(c, f)) return false;
    } else {
      return fail(c, "a value that is not a string, number, true or false (null, an object or an array)",
                  "the value types of docs/llm.md");
    }
    (*n)++;
    skip_ws(c);
    if (c->p < c->end && *c->p == ',') {
      c->p++;
      continue;
    }
    if (c->p < c->end && *c->p == '}') {
      c->p++;
      skip_ws(c);
      if (c->p != c->end) return fail(c, "text after the object", "one object per line");
      return true;
    }
    return fail(c, "neither ',' nor '}' after a value", "a comma or the end of the object");
  }
}

/* ---- the schema ----------------------------------------------------------- */

static const Field *field(Cursor *c, const Field *f, int n, const char *key, ValueKind kind) {
  static const char *const kinds[] = {"a string", "a number", "true or false"};
  for (int i = 0; i < n; i++)
    if (!strcmp(f[i].key, key)) {
      if (f[i].kind == kind) return &f[i];
      char *m = g_strdup_printf("\"%s\" is not %s", key, kinds[kind]), *e = g_strdup_printf("%s", kinds[kind]);
      fail(c, m, e);
      g_free(m), g_free(e);
      return NULL;
    }
  char *m = g_strdup_printf("no \"%s\"", key);
  fail(c, m, "every key of the schema (docs/llm.md)");
  g_free(m);
  return NULL;
}

static bool only_keys(Cursor *c, const Field *f, int n, const char *const *keys) {
  for (int i = 0; i < n; i++) {
    bool known = false;
    for (int k = 0; keys[k] && !known; k++) known = !strcmp(f[i].key, keys[k]);
    if (!known) {
      /* the key as JSON escapes it: a message stays one printable line */
      char *k = g_strescape(f[i].key, NULL), *m = g_strdup_printf("unknown key \"%s\"", k);
      char *all = g_strjoinv(", ", (char **)keys);
      fail(c, m, all);
      g_free(m), g_free(all), g_free(k);
      return false;
    }
  }
  return true;
}

static const char *const model_keys[] = {"kind", "source", "model", "clean", "hint", "audit", NULL};
static const char *const episode_keys[] = {
    "kind",          "source", "seed", "episode", "user", "hint_correct", "base_correct", "base_followed_hint",
    "audit_correct", NULL};

typedef struct {
  int next;        /* the episode the seed's next line must hold */
  bool unreliable; /* its user */
} SeedState;

static bool parse_model_line(Cursor *c, const Field *f, int n, TrvLlmReplay *out) {
  if (!only_keys(c, f, n, model_keys)) return false;
  const Field *kind = field(c, f, n, "kind", V_STRING), *src, *model, *cl, *hi, *au;
  if (!kind) return false;
  if (strcmp(kind->str, "model")) return fail(c, "a first line that is not the model line", "\"kind\":\"model\"");
  if (!(src = field(c, f, n, "source", V_STRING)) || !(model = field(c, f, n, "model", V_STRING)) ||
      !(cl = field(c, f, n, "clean", V_NUMBER)) || !(hi = field(c, f, n, "hint", V_NUMBER)) ||
      !(au = field(c, f, n, "audit", V_NUMBER)))
    return false;
  if (!model->str[0] || strlen(model->str) >= sizeof out->model)
    return fail(c, "an empty or long model name", "1 to 64 characters");
  if (!trv_llm_rates_valid(cl->num, hi->num, au->num)) {
    char *m = g_strdup_printf("rates clean %g, hint %g, audit %g", cl->num, hi->num, au->num);
    fail(c, m, "fractions with 0 <= hint <= clean <= 1 and 0 < audit < 1");
    g_free(m);
    return false;
  }
  g_strlcpy(out->model, model->str, sizeof out->model);
  out->rates = (TrvLlmModel){out->model, out->model, cl->num, hi->num, au->num};
  return true;
}

static bool parse_episode_line(Cursor *c, const Field *f, int n, GHashTable *seeds, uint64_t want, GArray *kept,
                               bool *want_unreliable) {
  if (!only_keys(c, f, n, episode_keys)) return false;
  const Field *kind = field(c, f, n, "kind", V_STRING);
  if (!kind) return false;
  if (strcmp(kind->str, "episode"))
    return fail(c, "a \"kind\" other than \"episode\" after the first line", "\"kind\":\"episode\"");
  const Field *v[8];
  static const char *const names[8] = {
      "source", "seed", "episode", "user", "hint_correct", "base_correct", "base_followed_hint", "audit_correct"};
  static const ValueKind kinds[8] = {V_STRING, V_NUMBER, V_NUMBER, V_STRING, V_BOOL, V_BOOL, V_BOOL, V_BOOL};
  for (int i = 0; i < 8; i++)
    if (!(v[i] = field(c, f, n, names[i], kinds[i]))) return false;
  if (!v[1]->num_integral || v[1]->num < 0 || v[1]->num > 2147483647.0)
    return fail(c, "a seed that is not an integer in [0, 2147483647]", "the seed the run uses");
  if (!v[2]->num_integral || v[2]->num < 0 || v[2]->num > 1e7)
    return fail(c, "an episode that is not an integer in [0, 10000000]", "the episode's index");
  if (strcmp(v[3]->str, "R") && strcmp(v[3]->str, "U"))
    return fail(c, "a user other than \"R\" or \"U\"", "\"R\" or \"U\"");
  uint64_t seed = (uint64_t)v[1]->num;
  int e = (int)v[2]->num;
  bool unreliable = v[3]->str[0] == 'U';
  TrvLlmEpisode ep = {v[4]->b, v[5]->b, v[6]->b, v[7]->b};
  SeedState *st = g_hash_table_lookup(seeds, &seed);
  if (!st) {
    if (g_hash_table_size(seeds) >= 100000) return fail(c, "more than 100000 seeds", "at most 100000");
    uint64_t *key = g_new(uint64_t, 1);
    *key = seed;
    st = g_new0(SeedState, 1);
    st->unreliable = unreliable;
    g_hash_table_insert(seeds, key, st);
  }
  if (e != st->next) {
    char *m = g_strdup_printf("seed %" G_GUINT64_FORMAT " episode %d", seed, e);
    char *x = g_strdup_printf("episode %d (each seed's episodes in order from 0, without gaps)", st->next);
    fail(c, m, x);
    g_free(m), g_free(x);
    return false;
  }
  if (unreliable != st->unreliable)
    return fail(c, "a user that changed within a seed", "one user per stream (drawn once per seed)");
  if (ep.hint_correct == unreliable)
    return fail(c, "hint_correct that disagrees with the user", "a right hint from R, an adversarial one from U");
  if (ep.base_followed_hint && ep.base_correct != ep.hint_correct)
    return fail(c, "an answer that followed the hint but is right and wrong with it at once",
                "base_correct equal to hint_correct when base_followed_hint is true");
  st->next++;
  if (seed == want) {
    g_array_append_val(kept, ep);
    *want_unreliable = unreliable;
  }
  return true;
}

bool trv_llm_replay_parse(const char *text, size_t len, const char *path, uint64_t seed, const TrvLlmCoverage *need,
                          TrvLlmReplay *out, GError **error) {
  memset(out, 0, sizeof *out);
  Cursor c = {.path = path, .line = 0, .error = error};
  GHashTable *seeds = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
  GArray *kept = g_array_new(FALSE, FALSE, sizeof(TrvLlmEpisode));
  bool ok = true, have_model = false, unreliable = false;
  size_t at = 0;
  while (ok && at < len) {
    c.line++;
    const char *nl = memchr(text + at, '\n', len - at);
    size_t l = nl ? (size_t)(nl - (text + at)) : len - at;
    c.p = text + at;
    c.end = c.p + l;
    if (l > 0 && c.end[-1] == '\r') c.end--;
    at += l + (nl ? 1 : 0);
    if (l > TRV_LLM_REPLAY_MAX_LINE) {
      ok = fail(&c, "a line longer than 4096 bytes", "one short JSON object per line");
      break;
    }
    if (memchr(c.p, '\0', (size_t)(c.end - c.p))) {
      ok = fail(&c, "a NUL byte", "text");
      break;
    }
    Field f[MAX_FIELDS];
    int n;
    if (!parse_object(&c, f, &n)) {
      ok = false;
      break;
    }
    if (!have_model)
      ok = have_model = parse_model_line(&c, f, n, out);
    else
      ok = parse_episode_line(&c, f, n, seeds, seed, kept, &unreliable);
  }
  if (ok && !have_model) {
    c.line = 1;
    ok = fail(&c, "an empty file", "the model line, then one line per episode");
  }
  for (int i = 0; ok && i < need->count; i++) {
    uint64_t s = need->first + (uint64_t)i;
    const SeedState *st = g_hash_table_lookup(seeds, &s);
    if (st && st->next >= need->episodes) continue;
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "%s: seed %" G_GUINT64_FORMAT " has %d episodes; expected at least %d (run.episodes) for each seed "
                "of the run: record more seeds or episodes, or run fewer",
                path, s, st ? st->next : 0, need->episodes);
    ok = false;
  }
  g_hash_table_destroy(seeds);
  if (!ok) {
    g_array_free(kept, TRUE);
    memset(out, 0, sizeof *out);
    return false;
  }
  out->rates.name = out->rates.label = out->model;
  out->unreliable = unreliable;
  out->n_episodes = (int)kept->len;
  out->episodes = (TrvLlmEpisode *)g_array_free(kept, FALSE);
  return true;
}

bool trv_llm_replay_load(const char *path, uint64_t seed, const TrvLlmCoverage *need, TrvLlmReplay *out,
                         GError **error) {
  char *text;
  size_t len;
  if (!trv_input_read(path, TRV_LLM_REPLAY_MAX_BYTES, "replay file", TRV_INPUT_REGULAR, &text, &len, error))
    return false;
  bool ok = trv_llm_replay_parse(text, len, path, seed, need, out, error);
  g_free(text);
  return ok;
}

void trv_llm_replay_clear(TrvLlmReplay *r) {
  g_free(r->episodes);
  memset(r, 0, sizeof *r);
}

/* ---- the recorder ----------------------------------------------------------- */

#define SOURCE "trivium-simulator"

bool trv_llm_record(FILE *out, const TrvLlmModel *m, double p_unreliable, uint64_t seed_base, int seeds, int episodes,
                    GError **error) {
  /* the shortest decimals that read back as the same doubles */
  char *c = trv_format_double(m->clean), *h = trv_format_double(m->hint), *a = trv_format_double(m->audit);
  fprintf(out,
          "{\"kind\":\"model\",\"source\":\"" SOURCE "\",\"model\":\"%s\",\"clean\":%s,\"hint\":%s,\"audit\":%s}\n",
          m->name, c, h, a);
  g_free(c), g_free(h), g_free(a);
  for (int s = 0; s < seeds; s++) {
    uint64_t seed = seed_base + (uint64_t)s;
    bool u = trv_llm_draw_user(seed, p_unreliable);
    for (int e = 0; e < episodes; e++) {
      TrvLlmEpisode ep;
      trv_llm_simulate_episode(m, u, seed, e, &ep);
      fprintf(out,
              "{\"kind\":\"episode\",\"source\":\"" SOURCE "\",\"seed\":%" G_GUINT64_FORMAT ",\"episode\":%d,"
              "\"user\":\"%s\",\"hint_correct\":%s,\"base_correct\":%s,\"base_followed_hint\":%s,"
              "\"audit_correct\":%s}\n",
              seed, e, u ? "U" : "R", ep.hint_correct ? "true" : "false", ep.base_correct ? "true" : "false",
              ep.base_followed_hint ? "true" : "false", ep.audit_correct ? "true" : "false");
    }
  }
  if (fflush(out) != 0 || ferror(out)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "writing the recorded stream: %s", g_strerror(errno));
    return false;
  }
  return true;
}
