/* platform-fuzz.c - libFuzzer harness for the platform reader and the role
 * mapping.
 *
 * Each input is a platform.  It goes to trv_platform_names_read_from_memory()
 * and, written to a file p.xml in a private temporary directory, to
 * trv_platform_file_check(); then two fixed scenarios map roles and fault
 * patterns onto it (one through the hosts' trivium.role properties, one
 * through <role> globs, host-crash and link-flap patterns), which runs the
 * loader's pattern checks and suggestions against the fuzzed names.
 * Beyond memory safety (ASan, UBSan, leaks) it aborts when a promise
 * breaks:
 *   - the file check and the reader from memory agree, to the message
 *     (which differs only by the name it starts with);
 *   - a refusal is one TRV_ERROR_INPUT message, valid UTF-8, on one line;
 *   - names read keep the bounds of scenario.h: at most
 *     TRV_PLATFORM_MAX_HOSTS unique hosts and TRV_PLATFORM_MAX_LINKS links,
 *     each name at most TRV_PLATFORM_MAX_NAME bytes, one role per host.
 * Built and run by fuzz/run.sh (fuzz/platform.sources, fuzz/platform.options
 * with the XML dictionary fuzz/platform.dict). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "scenario/scenario.h"
#include "fuzz-registries.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NAME "fuzz-platform.xml"
#define CHECK(cond)                                                                                                    \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      fprintf(stderr, "platform-fuzz: broken promise: %s (line %d)\n", #cond, __LINE__);                               \
      abort();                                                                                                         \
    }                                                                                                                  \
  } while (0)

static char *dir, *file; /* the private directory and its p.xml */

static const char *const scenarios[] = {
    "<trivium-scenario version=\"1\"><platform file=\"p.xml\"/><world name=\"causalbench\"/></trivium-scenario>",
    "<trivium-scenario version=\"1\"><platform file=\"p.xml\"><role name=\"controller\" hosts=\"*\"/>"
    "<role name=\"ctl\" hosts=\"c*,[0-9]*\"/><role name=\"agent\" hosts=\"agent-?,node-*\"/></platform>"
    "<world name=\"causalbench\"/><faults><link-flap links=\"*link*\" mtbf=\"1\" mttr=\"1\"/>"
    "<host-crash host=\"agent-0\" at=\"1\" duration=\"1\"/><partition hosts=\"*-1*\" at=\"2\" duration=\"1\"/>"
    "</faults></trivium-scenario>",
};

static void remove_dir(void) {
  g_unlink(file);
  g_rmdir(dir);
}

static void check_refusal(const GError *err, const char *name) {
  CHECK(err && err->domain == TRV_ERROR && err->code == TRV_ERROR_INPUT);
  CHECK(g_str_has_prefix(err->message, name));
  CHECK(!strchr(err->message, '\n') && !strchr(err->message, '\r'));
  CHECK(g_utf8_validate(err->message, -1, NULL));
}

static void check_names(const TrvPlatformNames *pn) {
  CHECK(pn->hosts->len == pn->roles->len);
  CHECK(pn->hosts->len <= TRV_PLATFORM_MAX_HOSTS && pn->links->len <= TRV_PLATFORM_MAX_LINKS);
  GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
  for (guint i = 0; i < pn->hosts->len; i++) {
    const char *h = pn->hosts->pdata[i];
    CHECK(strlen(h) <= TRV_PLATFORM_MAX_NAME);
    CHECK(g_hash_table_add(seen, (gpointer)h)); /* unique */
  }
  for (guint i = 0; i < pn->links->len; i++) CHECK(strlen(pn->links->pdata[i]) <= TRV_PLATFORM_MAX_NAME);
  g_hash_table_destroy(seen);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!dir) {
    dir = g_dir_make_tmp("trivium-platform-fuzz-XXXXXX", NULL);
    CHECK(dir);
    file = g_build_filename(dir, "p.xml", NULL);
    atexit(remove_dir);
  }
  /* the file first, so that a profile attribute naming p.xml finds it both ways */
  CHECK(g_file_set_contents(file, (const char *)data, (gssize)size, NULL));
  GError *err = NULL;
  TrvPlatformNames *pn = trv_platform_names_read_from_memory((const char *)data, size, NAME, dir, &err);
  char *mem_msg = NULL;
  if (pn) {
    check_names(pn);
  } else {
    check_refusal(err, NAME ":");
    mem_msg = g_strdup(err->message + strlen(NAME));
    g_clear_error(&err);
  }
  bool ok = trv_platform_file_check(file, &err);
  CHECK(ok == (pn != NULL));
  if (!ok) {
    check_refusal(err, file);
    CHECK(!strcmp(err->message + strlen(file), mem_msg)); /* the same reader, the same message */
    g_clear_error(&err);
  }
  g_free(mem_msg);
  trv_platform_names_free(pn);
  for (size_t i = 0; ok && i < G_N_ELEMENTS(scenarios); i++) {
    TrvScenario *s = trv_scenario_load_from_memory(scenarios[i], strlen(scenarios[i]), "s.xml", dir, &err);
    if (s) {
      trv_scenario_free(s);
    } else {
      check_refusal(err, "s.xml:");
      g_clear_error(&err);
    }
  }
  g_unlink(file);
  return 0;
}
