/* figure-draw.c - the writing and drawing every figure shares
 * (figure-draw.h).  gnuplot runs in the figures directory with no input
 * but the scripts; a missing or failing gnuplot is said once and leaves
 * the scripts, data and captions. */
#include <config.h>

#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "figure-draw.h"
#include "core/out-file.h"

static bool gnuplot_warned;
static TrvFigFormats formats = TRV_FIG_ALL;
static double gnuplot_cpu, gnuplot_wall;

bool trv_fig_formats_parse(const char *text, TrvFigFormats *out, GError **error) {
  static const char *const names[] = {"none", "svg", "png", "all"};
  for (int i = 0; i < 4; i++)
    if (!strcmp(text, names[i])) {
      *out = (TrvFigFormats)i;
      return true;
    }
  char *shown = g_strescape(text, NULL);
  g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "--figures=%s: expected none, svg, png or all", shown);
  g_free(shown);
  return false;
}

void trv_fig_formats_set(TrvFigFormats f) { formats = f; }
double trv_fig_cpu_seconds(void) { return gnuplot_cpu; }
double trv_fig_wall_seconds(void) { return gnuplot_wall; }

double trv_children_cpu_seconds(void) {
  struct rusage ru;
  getrusage(RUSAGE_CHILDREN, &ru);
  return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
         ru.ru_stime.tv_usec * 1e-6;
}

/* Runs `gnuplot NAME.gp ...` in dir, one process for every script of the
 * list (each begins with `reset`, so none inherits another's settings). */
static void draw_all(const char *dir, char **names, int n) {
  if (n == 0 || formats == TRV_FIG_NONE) return;
  char *gnuplot = g_find_program_in_path("gnuplot");
  if (!gnuplot) {
    if (!gnuplot_warned)
      fprintf(stderr,
              "trivium: warning: gnuplot is not installed: the figures' scripts and data are in %s, not drawn "
              "(Debian: apt-get install gnuplot-nox)\n",
              dir);
    gnuplot_warned = true;
    return;
  }
  char **argv = g_new0(char *, n + 2);
  argv[0] = gnuplot;
  for (int i = 0; i < n; i++) argv[i + 1] = g_strconcat(names[i], ".gp", NULL);
  char *err = NULL;
  int status = 0;
  GError *e = NULL;
  double cpu0 = trv_children_cpu_seconds(), wall0 = g_get_monotonic_time() * 1e-6;
  bool ok = g_spawn_sync(dir, argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err, &status, &e) &&
            WIFEXITED(status) && WEXITSTATUS(status) == 0;
  gnuplot_cpu += trv_children_cpu_seconds() - cpu0;
  gnuplot_wall += g_get_monotonic_time() * 1e-6 - wall0;
  if (!ok && !gnuplot_warned) {
    fprintf(stderr, "trivium: warning: gnuplot could not draw %s/%s%s: %s\n", dir, argv[1], n > 1 ? " ..." : "",
            e             ? e->message
            : err && *err ? g_strstrip(err)
                          : "it failed");
    gnuplot_warned = true;
  }
  g_clear_error(&e);
  g_free(err);
  for (int i = 1; i <= n; i++) g_free(argv[i]);
  g_free(argv);
  g_free(gnuplot);
}

static GPtrArray *batch;
void trv_fig_batch_begin(void) { batch = g_ptr_array_new_with_free_func(g_free); }
void trv_fig_batch_end(const char *dir) {
  draw_all(dir, (char **)batch->pdata, (int)batch->len);
  g_ptr_array_free(batch, TRUE);
  batch = NULL;
}

void trv_fig_num(GString *s, double v) {
  if (isfinite(v))
    g_string_append_printf(s, " %.9g", v);
  else
    g_string_append(s, " NaN");
}

/* Twelve distinct line colours (gnuplot's default set has eight, so a
 * ninth controller would repeat the first one's colour); the scripts add a
 * dash pattern and a marker per series, so that lines that coincide, or a
 * print in grey, still tell them apart. */
#define GP_PALETTE                                                                                                     \
  "set linetype 1 lc rgb '#1f77b4'\nset linetype 2 lc rgb '#ff7f0e'\nset linetype 3 lc rgb '#2ca02c'\n"                \
  "set linetype 4 lc rgb '#d62728'\nset linetype 5 lc rgb '#9467bd'\nset linetype 6 lc rgb '#8c564b'\n"                \
  "set linetype 7 lc rgb '#e377c2'\nset linetype 8 lc rgb '#7f7f7f'\nset linetype 9 lc rgb '#bcbd22'\n"                \
  "set linetype 10 lc rgb '#17becf'\nset linetype 11 lc rgb '#000000'\nset linetype 12 lc rgb '#aec7e8'\n"             \
  "set linetype cycle 12\n"

/* The formats a script draws: those asked for, or both when nothing is
 * drawn now (the script is then for later). */
static TrvFigFormats scripted(void) { return formats == TRV_FIG_NONE ? TRV_FIG_ALL : formats; }

void trv_fig_outputs(GString *gp, const char *name, int width, int height, const char *plot) {
  g_string_append(gp, GP_PALETTE);
  if (scripted() & TRV_FIG_SVG)
    g_string_append_printf(gp, "set terminal svg size %d,%d dynamic noenhanced font 'sans,12'\nset output '%s.svg'\n%s",
                           width, height, name, plot);
  if (scripted() & TRV_FIG_PNG)
    g_string_append_printf(gp, "set terminal pngcairo size %d,%d noenhanced font 'sans,10'\nset output '%s.png'\n%s",
                           width, height, name, plot);
}

bool trv_fig_write(const char *dir, const char *name, const GString *dat, const GString *gp, const char *caption,
                   GError **error) {
  char *d = g_strdup_printf("%s/%s.dat", dir, name), *g = g_strdup_printf("%s/%s.gp", dir, name);
  char *t = g_strdup_printf("%s/%s.txt", dir, name);
  /* `reset` after the script's first (comment) line: scripts run one after
   * the other in one gnuplot */
  const char *nl = gp->str[0] == '#' ? strchr(gp->str, '\n') : NULL;
  size_t head = nl ? (size_t)(nl - gp->str) + 1 : 0;
  GString *text = g_string_new_len(gp->str, (gssize)head);
  g_string_append(text, "reset\n");
  g_string_append(text, gp->str + head);
  /* gnuplot writes the drawings itself: never through a planted link */
  char *svg = g_strdup_printf("%s/%s.svg", dir, name), *png = g_strdup_printf("%s/%s.png", dir, name);
  bool ok = trv_write_file_atomic(d, dat->str, (gssize)dat->len, error) &&
            trv_write_file_atomic(g, text->str, (gssize)text->len, error) &&
            trv_write_file_atomic(t, caption, -1, error) &&
            (!(scripted() & TRV_FIG_SVG) || trv_out_writable(svg, error)) &&
            (!(scripted() & TRV_FIG_PNG) || trv_out_writable(png, error));
  g_string_free(text, TRUE);
  g_free(d);
  g_free(g);
  g_free(t);
  g_free(svg);
  g_free(png);
  if (ok && batch)
    g_ptr_array_add(batch, g_strdup(name));
  else if (ok)
    draw_all(dir, (char **)&name, 1);
  return ok;
}

char *trv_fig_dir(const char *out, GError **error) {
  char *dir = g_build_filename(out, "figures", NULL);
  if (trv_out_dir(dir, false, error)) return dir;
  g_free(dir);
  return NULL;
}
