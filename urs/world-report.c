/* world-report.c - the URS world's report (trivium/report.h): which
 * confounder effects of a run come from the city's data and which are
 * the scenario's settings.
 *
 * Per point: effects.csv and effects.md in the point's directory, and the
 * same table after the run's own in summary.md.  One row per confounder:
 * whether it is informative before and after world.change_at, the effect
 * it has when informative, and where that effect comes from
 * (UrsGrounding): grounded (the table's estimate, its day-block bootstrap
 * interval excluding 0 and, over months, its sign stable: docs/urs.md),
 * from the data but 0 (not identifiable, not robust, below
 * world.effect_floor), or synthetic (world.effect).  For the three
 * data-backed confounders the row carries the table's numbers behind the
 * decision.  The world is built once from the point's parameters to read
 * them, so the report and the runs apply one rule. */
#include <math.h>
#include <string.h>

#include <trivium/report.h>

#include "urs/world-internal.h"

static const char *const source_names[] = {
    [URS_EFFECT_SYNTHETIC] = "synthetic",         [URS_EFFECT_UNGROUNDED] = "synthetic (world.grounded = 0)",
    [URS_EFFECT_GROUNDED] = "grounded",           [URS_EFFECT_NOT_IDENTIFIABLE] = "data: not identifiable",
    [URS_EFFECT_NOT_ROBUST] = "data: not robust", [URS_EFFECT_BELOW_FLOOR] = "data: below world.effect_floor",
};

static const char *const confounder_names[URS_NCONF] = {
    "surge",       "event_proximity",    "weather",    "time_of_day",       "road_closure", "rider_mix",
    "driver_tier", "competitor_pricing", "ev_battery", "traffic_incidents", "airport",      "event_queue"};

/* A double for the tables: NA when not a number. */
static void put(GString *s, const char *fmt, double x) {
  if (isnan(x))
    g_string_append(s, "NA");
  else
    g_string_append_printf(s, fmt, x);
}

static bool effects_point(TrvReport *r, void **state, GError **error) {
  (void)state;
  UrsWorld *w = trv_world_urs.init(trivium_report_params(r), 1, error);
  if (!w) return false;
  const TrvCalTable *t = w->table;
  bool changes = w->p.change_at > 0 && w->p.change_at < w->episodes && w->p.informative != w->p.informative_after;
  GString *csv = g_string_new("confounder,name,informative,informative_after,kappa,source,table_effect,estimate,"
                              "lo,hi,days,months,months_same_sign\n");
  GString *md = g_string_new(NULL);
  g_string_append_printf(md,
                         "Confounder effects (city %s, %s trace %s .. %s; world.effect = %g, world.effect_floor = "
                         "%g): grounded effects are the table's estimates whose %g%% day-block bootstrap interval "
                         "excludes 0 (and, over months, keep their sign in 5/6 of them); synthetic ones are the "
                         "scenario's setting\n\n| j | confounder | informative | after the change | kappa | source "
                         "| table estimate [interval], days, months of its sign |\n|---|---|---|---|---|---|---|\n",
                         t->city, t->source, t->period_start, t->period_end, w->p.effect, w->p.effect_floor,
                         100 * t->estimator.level);
  for (int j = 0; j < URS_NCONF; j++) {
    bool before = w->p.informative >> j & 1, after = changes && (w->p.informative_after >> j & 1);
    UrsGrounding g = w->ground[j];
    double kappa = g == URS_EFFECT_SYNTHETIC || g == URS_EFFECT_UNGROUNDED ? w->p.effect : w->table_kappa[j];
    int k = urs_table_effect(j);
    const TrvEffect *e = k >= 0 ? &t->effects[k] : NULL;
    g_string_append_printf(csv, "%d,%s,%d,%d,%.9g,%s,%s,", j, confounder_names[j], before, after, kappa,
                           source_names[g], e ? trv_effect_names[k] : "");
    put(csv, "%.9g", e ? e->estimate : NAN);
    g_string_append_c(csv, ',');
    put(csv, "%.9g", e ? e->lo : NAN);
    g_string_append_c(csv, ',');
    put(csv, "%.9g", e ? e->hi : NAN);
    g_string_append_printf(csv, ",%d,%d,%d\n", e ? e->days : 0, e ? e->months : 0, e ? e->months_same_sign : 0);
    g_string_append_printf(md, "| %d | %s | %s | %s | %.4g | %s | ", j, confounder_names[j], before ? "yes" : "no",
                           after ? "yes" : "no", kappa, source_names[g]);
    if (!e)
      g_string_append(md, "- |\n");
    else if (!e->estimated)
      g_string_append_printf(md, "%s: not identifiable |\n", trv_effect_names[k]);
    else {
      g_string_append_printf(md, "%s %.4f ", trv_effect_names[k], e->estimate);
      if (isnan(e->lo))
        g_string_append(md, "(no interval)");
      else
        g_string_append_printf(md, "[%.4f, %.4f]", e->lo, e->hi);
      g_string_append_printf(md, ", %d day%s", e->days, e->days == 1 ? "" : "s");
      if (e->months) g_string_append_printf(md, ", %d of %d months", e->months_same_sign, e->months);
      g_string_append(md, " |\n");
    }
  }
  trv_world_urs.free(w);
  bool ok = trivium_report_table(r, "effects", csv->str, md->str, error);
  if (ok) {
    g_string_append_c(md, '\n');
    trivium_report_text(r, md->str);
  }
  g_string_free(csv, TRUE);
  g_string_free(md, TRUE);
  return ok;
}

const TrvReportClass trv_urs_report = {.point = effects_point};
