/* test-scenario-util.h - what the two scenario test programs share: paths,
 * loading from strings and files, and exact-message assertions. */
#ifndef TEST_SCENARIO_UTIL_H
#define TEST_SCENARIO_UTIL_H

#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include "core/controller.h"
#include "scenario/scenario.h"

static inline const char *srcdir(void) {
  const char *d = g_getenv("srcdir");
  return d ? d : ".";
}

static inline char *src_path(const char *rel) {
  char *p = g_build_filename(srcdir(), rel, NULL), *abs = g_canonicalize_filename(p, NULL);
  g_free(p);
  return abs;
}

/* The first lines of most string scenarios: the body starts on line 4. */
#define HEAD                                                                                                           \
  "<trivium-scenario version=\"1\">\n"                                                                                 \
  "  <platform file=\"../../platforms/causalbench.xml\"/>\n"                                                           \
  "  <world name=\"causalbench\"/>\n"
#define TAIL "</trivium-scenario>\n"

static inline TrvScenario *load_string(const char *xml, GError **error) {
  char *dir = src_path("tests/scenarios");
  TrvScenario *s = trv_scenario_load_from_memory(xml, strlen(xml), "mem.xml", dir, error);
  g_free(dir);
  return s;
}

/* The load fails with exactly `want`; @PLATFORM@ in `want` stands for the
 * absolute path of platforms/causalbench.xml. */
static inline void assert_error_message(GError *err, const char *want) {
  g_assert_nonnull(err);
  g_assert_cmpint(err->domain, ==, TRV_ERROR);
  g_assert_cmpint(err->code, ==, TRV_ERROR_INPUT);
  char *platform = src_path("platforms/causalbench.xml");
  GString *w = g_string_new(want);
  g_string_replace(w, "@PLATFORM@", platform, 0);
  g_assert_cmpstr(err->message, ==, w->str);
  g_string_free(w, TRUE);
  g_free(platform);
}

static inline void assert_string_fails(const char *xml, const char *want) {
  GError *err = NULL;
  TrvScenario *s = load_string(xml, &err);
  g_assert_null(s);
  assert_error_message(err, want);
  g_error_free(err);
}

/* Loads tests/scenarios/NAME and checks the message, which starts with the
 * path as given. */
static inline void assert_file_fails(const char *name, const char *want_after_path) {
  char *path = g_build_filename(srcdir(), "tests", "scenarios", name, NULL);
  GError *err = NULL;
  TrvScenario *s = trv_scenario_load(path, &err);
  g_assert_null(s);
  char *want = g_strconcat(path, want_after_path, NULL);
  assert_error_message(err, want);
  g_free(want);
  g_error_free(err);
  g_free(path);
}

static inline TrvScenario *load_shipped(const char *name) {
  char *path = g_build_filename(srcdir(), "scenarios", name, NULL);
  GError *err = NULL;
  TrvScenario *s = trv_scenario_load(path, &err);
  g_assert_no_error(err);
  g_assert_nonnull(s);
  g_free(path);
  return s;
}

#endif
