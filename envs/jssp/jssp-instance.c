/* jssp-instance.c - job-shop instances: the OR-Library parser, random test
 * instances, and the writer of a SimGrid machine-shop platform plus its job
 * description.
 *
 * Invariants of a TrvJsspInstance it returns: n_jobs >= 1, n_machines >= 1,
 * n_ops == n_machines, every machine index in [0, n_machines), every
 * duration >= 0.  Every way a user's file can break these is reported as one
 * "file:line: what was expected" message (TRV_ERROR_INPUT), never an
 * abort.  The parser reads integers with strtol on whitespace-separated
 * tokens, so "3x" or "1.5" is a non-integer token, not a 3 or a 1. */
#include "jssp.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"

/* Parses one token as a non-overflowing int; FALSE if it is not one. */
static gboolean parse_int(const char *tok, int *out) {
  char *end;
  errno = 0;
  long v = strtol(tok, &end, 10);
  if (errno || end == tok || *end || v < INT_MIN || v > INT_MAX) return FALSE;
  *out = (int)v;
  return TRUE;
}

static gboolean is_comment_or_blank(const char *line) {
  const char *p = line;
  while (*p == ' ' || *p == '\t' || *p == '\r') p++;
  return *p == '#' || *p == '\0';
}

/* Splits a line into tokens (g_strfreev). */
static char **tokens_of(const char *line, int *n) {
  char **t = g_strsplit_set(line, " \t\r", -1);
  int k = 0;
  for (int i = 0; t[i]; i++)
    if (*t[i]) t[k++] = t[i];
    else g_free(t[i]);
  t[k] = NULL;
  *n = k;
  return t;
}

TrvJsspInstance *trv_jssp_instance_parse(const char *text, const char *file, GError **error) {
  char **lines = g_strsplit(text, "\n", -1);
  int n_lines = (int)g_strv_length(lines);
  /* A final newline leaves one empty string that is not a line. */
  if (n_lines > 0 && lines[n_lines - 1][0] == '\0') n_lines--;
  TrvJsspInstance *inst = NULL;
  int li = 0, jobs = 0, machines = 0;
  for (; li < n_lines; li++) {
    if (is_comment_or_blank(lines[li])) continue;
    int n;
    char **t = tokens_of(lines[li], &n);
    gboolean header = n == 2 && parse_int(t[0], &jobs) && parse_int(t[1], &machines);
    g_strfreev(t);
    if (header) break;
  }
  if (li == n_lines) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "%s:%d: expected a line `jobs machines` (two integers) before the job lines; none found", file,
                n_lines > 0 ? n_lines : 1);
    goto out;
  }
  if (jobs < 1 || machines < 1 || jobs > 100000 || machines > 100000) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "%s:%d: expected `jobs machines` with both in 1..100000, got %d %d", file, li + 1, jobs, machines);
    goto out;
  }
  inst = g_new0(TrvJsspInstance, 1);
  inst->name = g_path_get_basename(file);
  inst->n_jobs = jobs;
  inst->n_machines = machines;
  inst->n_ops = machines;
  inst->machine = g_new(int, (gsize)jobs * machines);
  inst->duration = g_new(int, (gsize)jobs * machines);
  int job = 0, last = li;
  for (li++; li < n_lines; li++) {
    if (is_comment_or_blank(lines[li])) continue;
    last = li;
    if (job == jobs) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                  "%s:%d: expected end of file after the %d job lines announced by the header, found more", file,
                  li + 1, jobs);
      goto fail;
    }
    int n;
    char **t = tokens_of(lines[li], &n);
    for (int i = 0; i < n; i++) {
      int v;
      if (!parse_int(t[i], &v)) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                    "%s:%d: expected an integer (token %d of job %d), got '%s'", file, li + 1, i + 1, job, t[i]);
        g_strfreev(t);
        goto fail;
      }
      if (i >= 2 * machines) continue;
      int k = job * machines + i / 2;
      if (i % 2 == 0) {
        if (v < 0 || v >= machines) {
          g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                      "%s:%d: machine index %d of job %d operation %d out of range; expected 0..%d", file, li + 1, v,
                      job, i / 2, machines - 1);
          g_strfreev(t);
          goto fail;
        }
        inst->machine[k] = v;
      } else {
        if (v < 0) {
          g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                      "%s:%d: negative duration %d of job %d operation %d; expected an integer >= 0", file, li + 1,
                      v, job, i / 2);
          g_strfreev(t);
          goto fail;
        }
        inst->duration[k] = v;
      }
    }
    g_strfreev(t);
    if (n != 2 * machines) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                  "%s:%d: job %d has %d integers; expected %d (%d `machine duration` pairs)%s", file, li + 1, job, n,
                  2 * machines, machines, n < 2 * machines ? " - truncated line" : "");
      goto fail;
    }
    job++;
  }
  if (job < jobs) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "%s:%d: expected %d job lines after the header, found %d (file ends early)", file, last + 1, jobs,
                job);
    goto fail;
  }
  goto out;
fail:
  trv_jssp_instance_free(inst);
  inst = NULL;
out:
  g_strfreev(lines);
  return inst;
}

TrvJsspInstance *trv_jssp_instance_load(const char *path, GError **error) {
  char *text;
  GError *io = NULL;
  if (!g_file_get_contents(path, &text, NULL, &io)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: cannot read the instance (%s)", path,
                io->message);
    g_error_free(io);
    return NULL;
  }
  TrvJsspInstance *inst = trv_jssp_instance_parse(text, path, error);
  g_free(text);
  return inst;
}

void trv_jssp_instance_free(TrvJsspInstance *inst) {
  if (!inst) return;
  g_free(inst->name);
  g_free(inst->machine);
  g_free(inst->duration);
  g_free(inst);
}

long trv_jssp_instance_work(const TrvJsspInstance *inst) {
  long w = 0;
  for (int i = 0; i < inst->n_jobs * inst->n_ops; i++) w += inst->duration[i];
  return w;
}

TrvJsspInstance *trv_jssp_instance_random(int n_jobs, int n_machines, int max_duration, guint64 seed) {
  g_assert(n_jobs >= 1 && n_machines >= 1 && max_duration >= 0);
  TrvRng rng;
  trv_rng_init(&rng, seed, TRV_STREAM_WORLD);
  TrvJsspInstance *inst = g_new0(TrvJsspInstance, 1);
  inst->name = g_strdup_printf("random-%dx%d-s%" G_GUINT64_FORMAT, n_jobs, n_machines, seed);
  inst->n_jobs = n_jobs;
  inst->n_machines = inst->n_ops = n_machines;
  inst->machine = g_new(int, (gsize)n_jobs * n_machines);
  inst->duration = g_new(int, (gsize)n_jobs * n_machines);
  for (int j = 0; j < n_jobs; j++) {
    int *route = inst->machine + j * n_machines;
    for (int k = 0; k < n_machines; k++) route[k] = k;
    for (int k = n_machines - 1; k > 0; k--) { /* Fisher-Yates */
      int r = (int)trv_rng_below(&rng, (uint64_t)k + 1), tmp = route[k];
      route[k] = route[r];
      route[r] = tmp;
    }
    for (int k = 0; k < n_machines; k++)
      inst->duration[j * n_machines + k] = (int)trv_rng_below(&rng, (uint64_t)max_duration + 1);
  }
  return inst;
}

static gboolean write_file(const char *path, const GString *s, GError **error) {
  GError *io = NULL;
  if (!g_file_set_contents(path, s->str, (gssize)s->len, &io)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot write (%s)", path, io->message);
    g_error_free(io);
    return FALSE;
  }
  return TRUE;
}

gboolean trv_jssp_write_platform(const TrvJsspInstance *inst, const char *dir, GError **error) {
  if (g_mkdir_with_parents(dir, 0755) != 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot create the directory (%s)", dir,
                g_strerror(errno));
    return FALSE;
  }
  GString *x = g_string_new(NULL);
  g_string_append_printf(x,
                         "<?xml version='1.0'?>\n"
                         "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                         "<!-- Job-shop machine shop for instance %s (%d jobs, %d machines), written by\n"
                         "     `trivium jssp platform`.  Host mK is machine K; speed 1 flop/s, so an\n"
                         "     operation of duration d is d flops and takes d simulated seconds.  Links\n"
                         "     have latency 0 and 1 TBps and messages carry 0 bytes: dispatching costs\n"
                         "     no simulated time, so the makespan is the schedule's. -->\n"
                         "<platform version=\"4.1\">\n"
                         "  <zone id=\"jssp-%s\" routing=\"Full\">\n"
                         "    <host id=\"dispatcher\" speed=\"1f\">\n"
                         "      <prop id=\"trivium.role\" value=\"dispatcher\"/>\n"
                         "    </host>\n",
                         inst->name, inst->n_jobs, inst->n_machines, inst->name);
  for (int m = 0; m < inst->n_machines; m++)
    g_string_append_printf(x,
                           "    <host id=\"m%d\" speed=\"1f\">\n"
                           "      <prop id=\"trivium.role\" value=\"machine\"/>\n"
                           "      <prop id=\"trivium.machine\" value=\"%d\"/>\n"
                           "    </host>\n",
                           m, m);
  for (int m = 0; m < inst->n_machines; m++)
    g_string_append_printf(x, "    <link id=\"l%d\" bandwidth=\"1TBps\" latency=\"0\"/>\n", m);
  for (int m = 0; m < inst->n_machines; m++)
    g_string_append_printf(x, "    <route src=\"dispatcher\" dst=\"m%d\"><link_ctn id=\"l%d\"/></route>\n", m, m);
  g_string_append(x, "  </zone>\n</platform>\n");

  GString *j = g_string_new(NULL);
  g_string_append_printf(j,
                         "# trivium jssp job description of instance %s, written by `trivium jssp platform`.\n"
                         "# OR-Library format: `jobs machines`, then one line per job of `machine duration`\n"
                         "# pairs in processing order; machine K runs on host mK of platform.xml.\n"
                         "%d %d\n",
                         inst->name, inst->n_jobs, inst->n_machines);
  for (int jb = 0; jb < inst->n_jobs; jb++) {
    for (int k = 0; k < inst->n_ops; k++)
      g_string_append_printf(j, "%s%d %d", k ? "  " : "", inst->machine[jb * inst->n_ops + k],
                             inst->duration[jb * inst->n_ops + k]);
    g_string_append_c(j, '\n');
  }
  char *px = g_build_filename(dir, "platform.xml", NULL), *pj = g_build_filename(dir, "jobs.txt", NULL);
  gboolean ok = write_file(px, x, error) && write_file(pj, j, error);
  g_free(px);
  g_free(pj);
  g_string_free(x, TRUE);
  g_string_free(j, TRUE);
  return ok;
}
