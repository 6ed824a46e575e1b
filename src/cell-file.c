/* cell-file.c - the cell files of a run (cell-file.h). */
#include <config.h>

#include <math.h>
#include <string.h>

#include "cell-file.h"
#include <trivium/error.h>

char *trv_cell_fingerprint(const char *point, const char *controller, uint64_t seed) {
  GChecksum *c = g_checksum_new(G_CHECKSUM_SHA256);
  g_checksum_update(c, (const guchar *)point, (gssize)strlen(point));
  char *tail = g_strdup_printf("\ncontroller %s\nseed %llu\n", controller, (unsigned long long)seed);
  g_checksum_update(c, (const guchar *)tail, (gssize)strlen(tail));
  char *hex = g_strdup(g_checksum_get_string(c));
  g_free(tail);
  g_checksum_free(c);
  return hex;
}

static bool refuse(GError **error, const char *file, const char *what) {
  g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: %s", file, what);
  return false;
}

static bool is_hex64(const char *s) {
  for (int i = 0; i < TRV_SHA256_HEX; i++)
    if (!g_ascii_isxdigit(s[i]) || g_ascii_isupper(s[i])) return false;
  return s[TRV_SHA256_HEX] == 0;
}

bool trv_cell_file_parse(const char *file, const void *data, size_t len, const char *fingerprint, int episodes,
                         int n_components, int n_world_metrics, TrvCellFile *out, GError **error) {
  if (len != sizeof *out || memcmp(data, TRV_CELL_MAGIC, 8) != 0)
    return refuse(error, file, "not a cell file of this build of trivium (expected " G_STRINGIFY(TRV_CELL_MAGIC)
                  " and its size)");
  memcpy(out, data, sizeof *out);
  const TrvCellSummary *s = &out->sum;
  if (out->size != sizeof *out || out->reserved != 0)
    return refuse(error, file, "not a cell file of this build of trivium (its header gives another size)");
  if (!is_hex64(out->fingerprint) || !is_hex64(out->csv_sha256))
    return refuse(error, file, "damaged: its fingerprint or checksum is not 64 lower-case hex digits");
  if (strcmp(out->fingerprint, fingerprint) != 0)
    return refuse(error, file, "written by another configuration of this cell (its fingerprint differs)");
  if (out->csv_bytes > ((uint64_t)1 << 50))
    return refuse(error, file, "damaged: its episodes.csv length is out of range");
  if (s->episodes < 0 || s->episodes > episodes || s->n_components != n_components || s->n_world_metrics != n_world_metrics ||
      s->n_curve < 0 || s->n_curve > TRV_CURVE_POINTS || (s->episodes > 0 && s->n_curve < 1))
    return refuse(error, file, "damaged: its counts (episodes, components, world metrics, curve points) do not fit "
                  "the run's layout");
  for (int i = 0; i < s->n_curve; i++)
    if (s->curve_episode[i] < 1 || s->curve_episode[i] > episodes || (i && s->curve_episode[i] <= s->curve_episode[i - 1]))
      return refuse(error, file, "damaged: its regret curve's episodes are not increasing within the run");
  if (s->n_change_points < 0 || s->n_change_points > TRV_CELL_CHANGE_POINTS)
    return refuse(error, file, "damaged: its number of change-points is out of range");
  for (int i = 0; i < s->n_change_points; i++)
    if (s->change_point[i].change_point < 0 || s->change_point[i].change_point >= episodes ||
        (i && s->change_point[i].change_point <= s->change_point[i - 1].change_point))
      return refuse(error, file, "damaged: its change-points are not increasing within the run");
  if (!isfinite(out->controller_cpu) || out->controller_cpu < 0)
    return refuse(error, file, "damaged: its controller time is not a non-negative number");
  return true;
}
