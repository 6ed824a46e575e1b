/* simgrid-options.c - the allow-list of SimGrid options a file may give
 * (simgrid-options.h).
 *
 * The list names what is allowed, never what is refused: a SimGrid version
 * that adds an option adds nothing here.  Each key is matched exactly (an
 * alias or a prefix of a key is refused), each value checked against the
 * kind the key takes.  Kept out on purpose: tracing/filename,
 * tracing/comment-file and every smpi/ key (files written or read), path
 * (where platform includes are read from), plugin, model-check/, cmonkey/,
 * debug/ (code loaded, hosts killed, signals raised), trivium/ (the
 * plugin's own settings, among them a log file), and log appenders other
 * than stdout and stderr (file:, rollfile:, splitfile: write a file).
 * A --log format is limited to SimGrid's conversions without a width or
 * precision: the layout grows its buffer to any width asked and aborts on
 * an unknown conversion. */
#include <config.h>

#include <math.h>
#include <string.h>
#include <trivium/error.h>

#include "simgrid-options.h"

typedef enum { NUMBER, INTEGER, SWITCH, CHOICE } ValueKind;

typedef struct {
  const char *key;
  ValueKind kind;
  const char *const *choices; /* CHOICE */
} CfgKey;

static const char *const switches[] = {"yes", "no", "on", "off", "true", "false", "1", "0", NULL};
static const char *const network_models[] = {"LV08", "CM02", "Constant", "SMPI", "IB", NULL};
static const char *const cpu_models[] = {"Cas01", NULL};
static const char *const host_models[] = {"default", "compound", "ptask_L07", NULL};
static const char *const disk_models[] = {"default", NULL};
static const char *const optims[] = {"Lazy", "TI", "Full", NULL};
static const char *const solvers[] = {"maxmin", "fairbottleneck", "bmf", NULL};
static const char *const factories[] = {"raw", "ucontext", "boost", "thread", NULL};
static const char *const synchros[] = {"futex", "posix", "busy_wait", NULL};

static const CfgKey cfg_keys[] = {
    {"network/model", CHOICE, network_models},
    {"cpu/model", CHOICE, cpu_models},
    {"host/model", CHOICE, host_models},
    {"disk/model", CHOICE, disk_models},
    {"network/optim", CHOICE, optims},
    {"cpu/optim", CHOICE, optims},
    {"network/solver", CHOICE, solvers},
    {"cpu/solver", CHOICE, solvers},
    {"host/solver", CHOICE, solvers},
    {"disk/solver", CHOICE, solvers},
    {"network/TCP-gamma", NUMBER, NULL},
    {"network/bandwidth-factor", NUMBER, NULL},
    {"network/latency-factor", NUMBER, NULL},
    {"network/weight-S", NUMBER, NULL},
    {"network/loopback-bw", NUMBER, NULL},
    {"network/loopback-lat", NUMBER, NULL},
    {"network/crosstraffic", SWITCH, switches},
    {"network/maxmin-selective-update", SWITCH, switches},
    {"cpu/maxmin-selective-update", SWITCH, switches},
    {"maxmin/precision", NUMBER, NULL},
    {"maxmin/concurrency-limit", INTEGER, NULL},
    {"surf/precision", NUMBER, NULL},
    {"bmf/precision", NUMBER, NULL},
    {"bmf/max-iterations", INTEGER, NULL},
    {"contexts/factory", CHOICE, factories},
    {"contexts/stack-size", INTEGER, NULL},
    {"contexts/guard-size", INTEGER, NULL},
    {"contexts/nthreads", INTEGER, NULL}, /* a cell refuses more than 1 itself, saying why */
    {"contexts/synchro", CHOICE, synchros},
    {"tracing", SWITCH, switches}, /* the trace goes to SimGrid's default name: a file may not give another */
    {"tracing/platform", SWITCH, switches},
    {"tracing/platform/topology", SWITCH, switches},
    {"tracing/categorized", SWITCH, switches},
    {"tracing/uncategorized", SWITCH, switches},
    {"tracing/actor", SWITCH, switches},
    {"tracing/vm", SWITCH, switches},
    {"tracing/basic", SWITCH, switches},
    {"tracing/disable_link", SWITCH, switches},
    {"tracing/disable_power", SWITCH, switches},
    {"tracing/disable-destroy", SWITCH, switches},
    {"tracing/precision", INTEGER, NULL},
};

static const char *const log_levels[] = {"trace", "debug", "verbose", "info", "warning", "error", "critical", NULL};
static const char *const log_appenders[] = {"stdout", "stderr", NULL};
/* SimGrid's layout conversions: %% %n %e %m %c %p %h %t %P %i %F %l %L %M %d %r */
static const char log_conversions[] = "%nemcphtPiFlLMdr";

static bool one_of(const char *v, const char *const *choices, bool any_case) {
  for (int i = 0; choices[i]; i++)
    if (any_case ? !g_ascii_strcasecmp(v, choices[i]) : !strcmp(v, choices[i])) return true;
  return false;
}

static bool is_number(const char *v, bool integer) {
  size_t n = strspn(v, integer ? "-0123456789" : "-+.0123456789eE");
  if (!*v || v[n] || n > 32) return false;
  char *end;
  double x = g_ascii_strtod(v, &end);
  return !*end && isfinite(x) && (!integer || (x == floor(x) && fabs(x) < 1e9));
}

static bool log_format_ok(const char *v) {
  for (const char *p = v; *p; p++)
    if (*p == '%' && (!*++p || !strchr(log_conversions, *p))) return false;
  return *v != '\0';
}

/* Why a --cfg= setting is refused, or NULL. */
static char *cfg_refusal(const char *setting) {
  const char *colon = strchr(setting, ':');
  if (!colon) return g_strdup("not KEY:VALUE");
  const CfgKey *k = NULL;
  for (size_t i = 0; i < G_N_ELEMENTS(cfg_keys) && !k; i++)
    if (strlen(cfg_keys[i].key) == (size_t)(colon - setting) && !strncmp(setting, cfg_keys[i].key, colon - setting))
      k = &cfg_keys[i];
  if (!k) return g_strdup_printf("%.*s is not on the list", (int)(colon - setting), setting);
  const char *v = colon + 1;
  if (k->kind == NUMBER && !is_number(v, false)) return g_strdup_printf("%s takes a number", k->key);
  if (k->kind == INTEGER && !is_number(v, true)) return g_strdup_printf("%s takes an integer", k->key);
  if ((k->kind == SWITCH || k->kind == CHOICE) && !one_of(v, k->choices, false)) {
    char *all = g_strjoinv(", ", (char **)k->choices), *why = g_strdup_printf("%s takes one of %s", k->key, all);
    g_free(all);
    return why;
  }
  return NULL;
}

/* Why a --log= setting is refused, or NULL. */
static char *log_refusal(const char *setting) {
  size_t name = strspn(setting, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
  const char *colon = strchr(setting, ':');
  if (name == 0 || setting[name] != '.' || !colon) return g_strdup("not CATEGORY.SETTING:VALUE");
  const char *what = setting + name + 1, *v = colon + 1;
  size_t n = (size_t)(colon - what);
#define IS(word) (strlen(word) == n && !strncmp(what, word, n))
  if (IS("thres") || IS("threshold"))
    return one_of(v, log_levels, true) ? NULL
                                       : g_strdup("a threshold is one of trace, debug, verbose, info, "
                                                  "warning, error, critical");
  if (IS("app") || IS("appender"))
    return one_of(v, log_appenders, false) ? NULL : g_strdup("an appender other than stdout or stderr writes a file");
  if (IS("add") || IS("additivity")) return one_of(v, switches, false) ? NULL : g_strdup("additivity is yes or no");
  if (IS("fmt"))
    return log_format_ok(v) ? NULL
                            : g_strdup("a format holds text and SimGrid's %-conversions without width or "
                                       "precision");
#undef IS
  return g_strdup_printf("the setting %.*s is not thres, fmt, app or add", (int)n, what);
}

bool trv_simgrid_file_option_check(const char *file, const char *option, GError **error) {
  char *why = NULL;
  size_t len = strlen(option);
  if (len > TRV_SIMGRID_FILE_MAX_OPTION_BYTES)
    why = g_strdup_printf("%zu bytes, more than %d", len, TRV_SIMGRID_FILE_MAX_OPTION_BYTES);
  for (size_t i = 0; !why && i < len; i++)
    if ((unsigned char)option[i] <= 0x20 || (unsigned char)option[i] >= 0x7f || strchr("'\"\\", option[i]))
      why = g_strdup("a space, quote, backslash or byte outside printable ASCII, where SimGrid would split it");
  if (!why && g_str_has_prefix(option, "--cfg="))
    why = cfg_refusal(option + strlen("--cfg="));
  else if (!why && g_str_has_prefix(option, "--log="))
    why = log_refusal(option + strlen("--log="));
  else if (!why)
    why = g_strdup("neither --cfg= nor --log=");
  if (!why) return true;
  char *head = g_strndup(option, TRV_SIMGRID_FILE_MAX_OPTION_BYTES), *shown = g_strescape(head, NULL);
  g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
              "%s: SimGrid option '%s' cannot come from a file (%s); a file may give only the SimGrid options "
              "listed in docs/outputs.md, which name no file and load no code: give others on the command line",
              file, shown, why);
  g_free(shown);
  g_free(head);
  g_free(why);
  return false;
}

bool trv_simgrid_tracing(const char *const *args, size_t n, bool *filename_given) {
  static const char *const truths[] = {"yes", "on", "true", "1", NULL};
  bool on = false;
  *filename_given = false;
  for (size_t i = 0; i < n; i++) {
    if (!g_str_has_prefix(args[i], "--cfg=")) continue;
    char **settings = g_strsplit_set(args[i] + strlen("--cfg="), " \t", -1);
    for (int k = 0; settings[k]; k++) {
      if (g_str_has_prefix(settings[k], "tracing:")) on = one_of(settings[k] + strlen("tracing:"), truths, true);
      if (g_str_has_prefix(settings[k], "tracing/filename:")) *filename_given = true;
    }
    g_strfreev(settings);
  }
  return on;
}
