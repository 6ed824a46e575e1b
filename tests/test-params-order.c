/* The order modules register in changes no default: a child process
 * registers the shipped detectors, controllers, worlds and layer blocks in
 * a shuffled order (every entry of every registry, and the blocks, mixed),
 * and its table must give every key the default the shipped order gives,
 * and the same controllers run by default.  The shuffles must move what
 * an index would get wrong: the table's rows, and the position of
 * loglik-cusum (detector.name's default, named) among the detectors. */
#include <glib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "api/modules.h"
#include "core/controller.h"
#include "core/detector.h"
#include "log/ctl-params.h"
#include "sim/sim-params.h"
#include "worlds.h"

enum { DETECTOR, CONTROLLER, WORLD, BLOCK };
typedef struct {
  int kind;
  const void *what;
} Item;

/* Registers everything shipped: in modules.c's order for seed 0, else in
 * an order shuffled by the seed. */
static void register_all(guint32 seed) {
  if (seed == 0) {
    trv_modules_register_builtin();
    return;
  }
  GArray *items = g_array_new(FALSE, FALSE, sizeof(Item));
  size_t n;
  const TrvModule *d = trv_detectors_builtin(&n);
  for (size_t i = 0; i < n; i++) g_array_append_val(items, ((Item){DETECTOR, &d[i]}));
  const TrvModule *c = trv_controllers_builtin(&n);
  for (size_t i = 0; i < n; i++) g_array_append_val(items, ((Item){CONTROLLER, &c[i]}));
  const TrvWorldClass *const *w = trv_worlds_builtin(&n);
  for (size_t i = 0; i < n; i++) g_array_append_val(items, ((Item){WORLD, w[i]}));
  g_array_append_val(items, ((Item){BLOCK, &trv_ctl_params}));
  g_array_append_val(items, ((Item){BLOCK, &trv_sim_params}));
  GRand *r = g_rand_new_with_seed(seed);
  for (guint i = items->len - 1; i > 0; i--) { /* Fisher-Yates */
    guint j = (guint)g_rand_int_range(r, 0, (gint32)i + 1);
    Item t = g_array_index(items, Item, i);
    g_array_index(items, Item, i) = g_array_index(items, Item, j);
    g_array_index(items, Item, j) = t;
  }
  g_rand_free(r);
  for (guint i = 0; i < items->len; i++) {
    const Item *it = &g_array_index(items, Item, i);
    GError *err = NULL;
    bool ok = it->kind == DETECTOR     ? trv_detector_register(it->what, &err)
              : it->kind == CONTROLLER ? trv_controller_register(it->what, &err)
              : it->kind == WORLD      ? trivium_world_register(it->what, &err)
                                       : trv_params_register(it->what, &err);
    if (!ok) g_error("%s", err->message);
  }
  g_array_free(items, TRUE);
}

static gint by_string(gconstpointer a, gconstpointer b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* What a child with `seed` sees, in two parts: the defaults, which must
 * not depend on the order (every key=value, sorted by key, then the
 * controllers run by default, sorted), and the order itself (the keys in
 * table order, loglik-cusum's index among the detectors). */
static void child(guint32 seed, int fd) {
  register_all(seed);
  TrvParams p;
  trv_params_defaults(&p);
  size_t n;
  const TrvParamSpec *specs = trv_param_specs(&n);
  GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);
  GString *order = g_string_new("order");
  for (size_t i = 0; i < n; i++) {
    char *v = trv_params_format(&p, &specs[i]);
    g_ptr_array_add(lines, g_strdup_printf("%s=%s", specs[i].key, v));
    g_string_append_printf(order, " %s", specs[i].key);
    g_free(v);
  }
  g_ptr_array_sort(lines, by_string);
  GPtrArray *defaults = g_ptr_array_new();
  for (const char *const *c = trv_controller_defaults(); *c; c++) g_ptr_array_add(defaults, (gpointer)*c);
  g_ptr_array_sort(defaults, by_string);
  GString *out = g_string_new(NULL);
  for (guint i = 0; i < lines->len; i++) g_string_append_printf(out, "%s\n", (char *)lines->pdata[i]);
  g_string_append(out, "run by default:");
  for (guint i = 0; i < defaults->len; i++) g_string_append_printf(out, " %s", (char *)defaults->pdata[i]);
  int loglik = -1;
  for (int i = 0; trv_detector_names()[i]; i++)
    if (!strcmp(trv_detector_names()[i], "loglik-cusum")) loglik = i;
  g_string_append_printf(out, "\n--\n%s\nloglik-cusum %d\n", order->str, loglik);
  const char *b = out->str;
  for (size_t left = out->len; left > 0;) {
    ssize_t w = write(fd, b, left);
    if (w <= 0) _exit(3);
    b += w, left -= (size_t)w;
  }
  _exit(0);
}

/* The child's two parts: *order gets the second, the first is returned. */
static char *registered_with(guint32 seed, char **order) {
  int fd[2];
  g_assert_cmpint(pipe(fd), ==, 0);
  fflush(NULL);
  pid_t pid = fork();
  g_assert_cmpint(pid, >=, 0);
  if (pid == 0) {
    close(fd[0]);
    child(seed, fd[1]);
  }
  close(fd[1]);
  GString *s = g_string_new(NULL);
  char buf[4096];
  ssize_t got;
  while ((got = read(fd[0], buf, sizeof buf)) > 0) g_string_append_len(s, buf, got);
  close(fd[0]);
  int status;
  g_assert_cmpint(waitpid(pid, &status, 0), ==, pid);
  g_assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  char *cut = strstr(s->str, "\n--\n");
  g_assert_nonnull(cut);
  *order = g_strdup(cut + 4);
  *cut = '\0';
  return g_string_free(s, FALSE);
}

static void shuffled_registration_changes_no_default(void) {
  char *order0, *shipped = registered_with(0, &order0);
  /* the shipped defaults, by name: a few spot checks of what is compared */
  g_assert_nonnull(strstr(shipped, "\ndetector.name=loglik-cusum\n"));
  g_assert_nonnull(strstr(shipped, "\nctl.fsync=none\n"));
  g_assert_nonnull(strstr(shipped, "\nworld.variant=headline\n"));
  g_assert_true(g_str_has_prefix(shipped, "agents.count=1\n")); /* sorted: agents.count comes first */
  g_assert_nonnull(
      strstr(shipped, "run by default: epistemic-reset reactive rlvr rlvr-memory trivium trivium-ideal-commit"));
  g_assert_null(strstr(shipped, "trivium-parallel"));
  g_assert_null(strstr(shipped, "trivium-oracle")); /* a yardstick: only when named */
  g_assert_null(strstr(shipped, "trivium-grow"));   /* trivium where no component is outside */
  guint rows = 0;
  for (const char *c = shipped; *c; c++) rows += *c == '\n';
  g_assert_cmpuint(rows, ==, 99); /* every row of docs/parameters.md */
  GHashTable *orders = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  GHashTable *loglik = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  for (guint32 seed = 1; seed <= 24; seed++) {
    char *order, *shuffled = registered_with(seed, &order);
    if (strcmp(shuffled, shipped))
      g_error("registered in the order of seed %u, the defaults differ:\n%s\nagainst\n%s", seed, shuffled, shipped);
    g_hash_table_add(orders, g_strndup(order, strcspn(order, "\n")));
    g_hash_table_add(loglik, g_strdup(strstr(order, "loglik-cusum")));
    g_free(order);
    g_free(shuffled);
  }
  /* the shuffles moved the rows, and loglik-cusum to every place: a
   * default kept as an index would have shown */
  g_assert_cmpuint(g_hash_table_size(orders), >, 20);
  g_assert_cmpuint(g_hash_table_size(loglik), ==, 3);
  g_hash_table_destroy(orders);
  g_hash_table_destroy(loglik);
  g_free(order0);
  g_free(shipped);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/params/shuffled_registration_changes_no_default", shuffled_registration_changes_no_default);
  return g_test_run();
}
