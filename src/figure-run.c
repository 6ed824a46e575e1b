/* figure-run.c - the figures of one point of a run (figures.h):
 * regret.* (cumulative outcome regret against episodes played, per
 * controller the mean over seeds with its 95% band, the world's
 * change-points marked), presence.* (the final presence probability of
 * every candidate component per controller, with its interval, beside the
 * truth at the last episode) and recovery.* (figures.c).
 *
 * The truth at the last episode is read from the cells' own rows
 * (OUT/cells/<controller>-seed<N>.csv, the last line's truth column; for
 * program's run directories, their episodes.csv: truth_files): the
 * cell summaries keep no graph.  A row that cannot be read, or whose truth
 * is not a string of 0/1 of the candidates' length, leaves that seed out
 * (no seed: the truth column is NaN and the caption says so). */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figure-draw.h"
#include "figures.h"

/* episodes.csv's column of the truth (from 0): seed, controller, episode,
 * phase, posterior_exposure, committed_exposure, truth */
#define TRUTH_COLUMN 6

/* The truth of the last row of cell file path into truth[0..n) (0 or 1);
 * false when it cannot be read. */
static bool last_truth(const char *path, int n, double *truth) {
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  char buf[8192];
  long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  size_t got = 0;
  if (size > 0 && fseek(f, size > (long)sizeof buf - 1 ? size - (long)sizeof buf + 1 : 0, SEEK_SET) == 0)
    got = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[got] = '\0';
  while (got > 0 && buf[got - 1] == '\n') buf[--got] = '\0';
  char *line = strrchr(buf, '\n');
  line = line ? line + 1 : buf;
  char **fields = g_strsplit(line, ",", TRUTH_COLUMN + 2);
  bool ok = g_strv_length(fields) > TRUTH_COLUMN && (int)strlen(fields[TRUTH_COLUMN]) == n &&
            strspn(fields[TRUTH_COLUMN], "01") == (size_t)n;
  for (int j = 0; ok && j < n; j++) truth[j] = fields[TRUTH_COLUMN][j] == '1';
  g_strfreev(fields);
  return ok;
}

/* regret.*: per controller the mean cumulative outcome regret with its
 * 95% t-band over seeds; the change-points as dashed vertical lines. */
static bool regret_figure(const TrvRunResult *r, const char *dir, GError **error) {
  int nc = r->n_controllers, ns = r->n_seeds;
  /* a regret against a per-step oracle's expected payoff is >= 0 by
   * definition; a world's own episode regret (URS) may be negative */
  const TrvRefereeClass *ref = r->world_class ? r->world_class->referee : NULL;
  double lower = ref && ref->oracle && ref->expected_payoff ? 0 : -INFINITY;
  GString *dat = g_string_new("# episodes played, then per controller the cumulative outcome regret: mean over seeds, "
                              "lo, hi (95% t-interval, clipped at the quantity's bound); controllers:");
  for (int c = 0; c < nc; c++) {
    g_string_append_c(dat, ' ');
    trv_gp_quote(dat, r->controllers[c]);
  }
  g_string_append_c(dat, '\n');
  int points = ns > 0 ? r->cells[0].n_curve : 0;
  for (int c = 0; c < nc; c++)
    for (int s = 0; s < ns; s++) points = MIN(points, r->cells[c * ns + s].n_curve);
  double *v = g_new(double, (size_t)MAX(ns, 1));
  for (int i = 0; i < points; i++) {
    g_string_append_printf(dat, "%d", r->cells[0].curve_episode[i]);
    for (int c = 0; c < nc; c++) {
      for (int s = 0; s < ns; s++) v[s] = r->cells[c * ns + s].curve_r_out[i];
      TrvSummary sum = trv_summarize(v, (size_t)ns);
      trv_fig_num(dat, sum.mean);
      trv_fig_num(dat, isfinite(sum.lo) ? MAX(sum.lo, lower) : sum.lo);
      trv_fig_num(dat, sum.hi);
    }
    g_string_append_c(dat, '\n');
  }
  g_free(v);
  int last = points > 0 ? r->cells[0].curve_episode[points - 1] : 0;
  GString *gp = g_string_new(NULL), *plot = g_string_new(NULL);
  g_string_append(gp, "# Cumulative outcome regret of ");
  trv_gp_quote(gp, r->experiment);
  g_string_append_printf(gp, " (mean over %d seeds, 95%% band); data: regret.dat; caption: regret.txt\n", ns);
  g_string_append(gp, "set xlabel 'episodes played (count)'\nset ylabel 'cumulative outcome regret (payoff units)'\n"
                      "set grid\nset style fill transparent solid 0.12 noborder\n");
  if (lower == 0) g_string_append(gp, "set yrange [0:*]\n");
  g_string_append_printf(gp, "set xrange [0:%d]\n", MAX(last, 1));
  /* the truth's changes: where the regret curves should bend */
  int n_cp = trv_run_change_points(r), shown_cp = 0;
  GString *cps = g_string_new(NULL);
  for (int k = 0; k < n_cp; k++) {
    int cp = r->cells[0].change_point[k].change_point;
    if (cp <= 0 || cp >= last) continue;
    g_string_append_printf(gp, "set arrow from %d, graph 0 to %d, graph 1 nohead dt 2 lw 1.5 lc rgb '#444444' back\n",
                           cp, cp);
    g_string_append_printf(cps, "%s%d", shown_cp++ ? ", " : "", cp);
  }
  g_string_append(plot, "set key outside right top\nplot ");
  for (int c = 0; c < nc; c++) /* bands first, under every line */
    g_string_append_printf(plot, "'regret.dat' using 1:%d:%d with filledcurves lt %d notitle, ", 3 + 3 * c, 4 + 3 * c,
                           c + 1);
  int every = MAX(points / 8, 1);
  for (int c = 0; c < nc; c++) {
    /* the line, its markers at episodes staggered between controllers (so
     * that coinciding lines still show), and its legend entry */
    g_string_append_printf(plot,
                           "%s'regret.dat' using 1:%d with lines lt %d dt %d lw 2 notitle, 'regret.dat' every "
                           "%d::%d using 1:%d with points lt %d pt %d ps 0.9 notitle, NaN with linespoints lt %d dt %d "
                           "pt %d ps 0.9 lw 2 title ",
                           c ? ", " : "", 2 + 3 * c, c + 1, c % 5 + 1, every, (c * every) / MAX(nc, 1), 2 + 3 * c,
                           c + 1, c % 13 + 1, c + 1, c % 5 + 1, c % 13 + 1);
    trv_gp_quote(plot, r->controllers[c]);
  }
  if (shown_cp)
    g_string_append(plot, ", NaN with lines dt 2 lw 1.5 lc rgb '#444444' title 'change-point (truth changes)'");
  g_string_append_c(plot, '\n');
  trv_fig_outputs(gp, "regret", 1000, 560, plot->str);
  char *caption = g_strdup_printf(
      "regret: the cumulative outcome regret R_out (%s) against the episodes played, per controller the mean over %d "
      "seeds (line; markers "
      "every %d points, staggered between controllers) and its 95%% t-interval over the seeds (band, mean +- "
      "t(0.975, n-1) sd / sqrt(n)%s).  Dashed vertical lines: the world's change-points, the episodes where the true "
      "graph changes (%s).\n",
      lower == 0 ? "payoff units: the oracle's expected payoff minus the played action's, summed over steps, >= 0"
                 : "the world's own episode regret: its oracle's outcome minus the controller's, which may be negative",
      ns, every, lower == 0 ? ", clipped at 0" : "", shown_cp ? cps->str : "none within the run");
  bool ok = trv_fig_write(dir, "regret", dat, gp, caption, error);
  g_free(caption);
  g_string_free(cps, TRUE);
  g_string_free(dat, TRUE);
  g_string_free(gp, TRUE);
  g_string_free(plot, TRUE);
  return ok;
}

/* presence.*: per component, per controller the final presence
 * probability (mean, 95% interval clipped to [0, 1]), and the truth. */
static bool presence_figure(const TrvRunResult *r, const char *out, const char *dir, GError **error) {
  int nc = r->n_controllers, ns = r->n_seeds;
  const TrvCandidates *cand = r->layout->cand;
  int n = cand->n_components;
  /* the truth at the last episode: the share of seeds where present */
  double *truth = g_new0(double, (size_t)MAX(n, 1)), *one = g_new(double, (size_t)MAX(n, 1));
  int read = 0;
  for (int s = 0; nc > 0 && s < ns; s++) {
    char *name = g_strdup_printf("%s-seed%d.csv", r->controllers[0], r->seeds[s]);
    char *path = r->truth_files ? g_strdup(r->truth_files[s]) : g_build_filename(out, "cells", name, NULL);
    if (last_truth(path, n, one)) {
      for (int j = 0; j < n; j++) truth[j] += one[j];
      read++;
    }
    g_free(path);
    g_free(name);
  }
  GString *dat = g_string_new("# component, then per controller the presence probability after the last episode: "
                              "mean over seeds, lo, hi (95% t-interval clipped to [0, 1]); then the truth at the last "
                              "episode (share of seeds where the component is present); controllers:");
  for (int c = 0; c < nc; c++) {
    g_string_append_c(dat, ' ');
    trv_gp_quote(dat, r->controllers[c]);
  }
  g_string_append_c(dat, '\n');
  double *v = g_new(double, (size_t)MAX(ns, 1));
  for (int j = 0; j < n; j++) {
    g_string_append_printf(dat, "%d", j);
    for (int c = 0; c < nc; c++) {
      for (int s = 0; s < ns; s++) v[s] = r->cells[c * ns + s].final_p[j];
      TrvSummary sum = trv_summarize(v, (size_t)ns);
      trv_fig_num(dat, sum.mean);
      trv_fig_num(dat, isfinite(sum.lo) ? CLAMP(sum.lo, 0, 1) : sum.lo);
      trv_fig_num(dat, isfinite(sum.hi) ? CLAMP(sum.hi, 0, 1) : sum.hi);
    }
    trv_fig_num(dat, read ? truth[j] / read : NAN);
    g_string_append_c(dat, '\n');
  }
  g_free(v);
  GString *gp = g_string_new(NULL), *plot = g_string_new(NULL);
  g_string_append(gp, "# Final presence probabilities of ");
  trv_gp_quote(gp, r->experiment);
  g_string_append_printf(gp,
                         " (mean over %d seeds, 95%% interval) and the truth; data: presence.dat; caption: "
                         "presence.txt\n",
                         ns);
  g_string_append(gp, "set style data histograms\nset style histogram errorbars gap 1 lw 1\n"
                      "set style fill solid 0.8 border -1\nset yrange [0:1.05]\n"
                      "set ylabel 'P(component present) (probability)'\nset xlabel 'candidate component (edge)'\n"
                      "set grid ytics\nset xtics scale 0\n");
  g_string_append(gp, "set xtics (");
  for (int j = 0; j < n; j++) {
    g_string_append(gp, j ? ", " : "");
    trv_gp_quote(gp, cand->components[j].name);
    g_string_append_printf(gp, " %d", j);
  }
  g_string_append(gp, ")\n");
  g_string_append(plot, "set key outside right top\nplot ");
  for (int c = 0; c < nc; c++) {
    g_string_append_printf(plot, "%s'presence.dat' using %d:%d:%d lt %d title ", c ? ", " : "", 2 + 3 * c, 3 + 3 * c,
                           4 + 3 * c, c + 1);
    trv_gp_quote(plot, r->controllers[c]);
  }
  int tc = 2 + 3 * nc;
  g_string_append_printf(plot,
                         "%s'presence.dat' using %d:%d:%d fs pattern 2 lc rgb '#000000' "
                         "title 'truth at the last episode'\n",
                         nc ? ", " : "", tc, tc, tc);
  trv_fig_outputs(gp, "presence", 1000, 520, plot->str);
  char *caption = g_strdup_printf(
      "presence: per candidate component, per controller the posterior probability that it is present after the "
      "last episode, the mean over %d seeds with its 95%% t-interval (clipped to [0, 1]); hatched black: the truth at "
      "the last episode (the share of seeds where the component is present%s).\n",
      ns, read ? "" : "; the cells' rows could not be read, so it is not drawn");
  bool ok = trv_fig_write(dir, "presence", dat, gp, caption, error);
  g_free(caption);
  g_free(truth);
  g_free(one);
  g_string_free(dat, TRUE);
  g_string_free(gp, TRUE);
  g_string_free(plot, TRUE);
  return ok;
}

bool trv_write_figures(const TrvRunResult *r, const char *out, GError **error) {
  char *dir = trv_fig_dir(out, error);
  if (!dir) return false;
  trv_fig_batch_begin();
  bool ok = regret_figure(r, dir, error) && presence_figure(r, out, dir, error) && trv_fig_recovery(r, dir, error);
  trv_fig_batch_end(dir);
  g_free(dir);
  return ok;
}
