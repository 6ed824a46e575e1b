/* test-gp-quote.c - trv_gp_quote against every byte, checked by gnuplot
 * itself: a script prints, for every byte 1-255 and for texts built to
 * break out of a literal (a newline then `system`, backquotes, macros, a
 * trailing backslash), the literal trv_gp_quote made of it, once in a
 * `print` and once after a comment.  gnuplot must print exactly the text
 * (control bytes as '?', a quote as U+2019, invalid UTF-8 as U+FFFD) and no command may run:
 * every attack would create a canary file in the script's directory.
 * Skipped (exit 77) without gnuplot. */
#include <config.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "src/gp-quote.h"

/* What gnuplot should print for text. */
static char *expected(const char *text) {
  char *valid = g_utf8_make_valid(text, -1);
  GString *e = g_string_new(NULL);
  for (char *p = valid; *p; p++) {
    if (*p == '\'')
      g_string_append(e, "\u2019");
    else
      g_string_append_c(e, (unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p);
  }
  g_free(valid);
  return g_string_free(e, FALSE);
}

int main(void) {
  char *gnuplot = g_find_program_in_path("gnuplot");
  if (!gnuplot) {
    printf("1..0 # SKIP gnuplot is not installed\n");
    return 0;
  }
  GPtrArray *texts = g_ptr_array_new_with_free_func(g_free);
  for (int b = 1; b < 256; b++) g_ptr_array_add(texts, g_strdup_printf("a%cb", b));
  static const char *const attacks[] = {"x\nsystem \"touch CANARY1\"\nprint \"",
                                        "x'\nsystem 'touch CANARY2'\nprint '",
                                        "`touch CANARY3`",
                                        "x\rsystem 'touch CANARY4'",
                                        "x\\",
                                        "x\\\nsystem 'touch CANARY5'",
                                        "@m",
                                        "x'; system('touch CANARY6'); print '",
                                        "'''",
                                        "'x",
                                        "x'",
                                        "'",
                                        "''",
                                        "a\xff\xfe\x80z",
                                        "\xc3\xa9t\xc3\xa9 \xe2\x82\xac",
                                        "x\x1b[2Jy",
                                        "$(touch CANARY7)",
                                        "x\" . system(\"touch CANARY8\") . \""};
  for (size_t i = 0; i < G_N_ELEMENTS(attacks); i++) g_ptr_array_add(texts, g_strdup(attacks[i]));
  /* the script: a macro m that would run a command if expanded, then per
   * text a comment and a print, each followed by a marker line */
  GString *gp = g_string_new("m = \"system('touch CANARY9')\"\n"), *want = g_string_new(NULL);
  for (guint i = 0; i < texts->len; i++) {
    g_string_append(gp, "# ");
    trv_gp_quote(gp, texts->pdata[i]);
    g_string_append(gp, "\nprint ");
    trv_gp_quote(gp, texts->pdata[i]);
    g_string_append_printf(gp, "\nprint 'end %u'\n", i);
    char *e = expected(texts->pdata[i]);
    g_string_append_printf(want, "%s\nend %u\n", e, i);
    g_free(e);
  }
  char *dir = g_dir_make_tmp("trv-gp-quote-XXXXXX", NULL);
  g_assert_nonnull(dir);
  char *script = g_build_filename(dir, "t.gp", NULL);
  g_assert_true(g_file_set_contents(script, gp->str, (gssize)gp->len, NULL));
  char *argv[] = {gnuplot, "t.gp", NULL}, *out = NULL, *err = NULL;
  int status = 0;
  /* gnuplot prints to stderr */
  g_assert_true(g_spawn_sync(dir, argv, NULL, 0, NULL, NULL, &out, &err, &status, NULL));
  int failed = 0, n = 0;
  printf("1..3\n");
  n++;
  if (g_spawn_check_wait_status(status, NULL))
    printf("ok %d - gnuplot reads every quoted text without an error\n", n);
  else
    printf("not ok %d - gnuplot failed:\n# %s\n", n, err), failed++;
  n++;
  if (!strcmp(err, want->str)) {
    printf("ok %d - every byte 1-255 and every attack prints back as its text (%u texts)\n", n, texts->len);
  } else {
    failed++;
    printf("not ok %d - gnuplot printed other text\n", n);
    char **got = g_strsplit(err, "\n", -1), **exp = g_strsplit(want->str, "\n", -1);
    for (int i = 0; got[i] && exp[i]; i++)
      if (strcmp(got[i], exp[i])) {
        printf("# line %d: got '%s', expected '%s'\n", i + 1, got[i], exp[i]);
        break;
      }
    g_strfreev(got), g_strfreev(exp);
  }
  n++;
  GDir *d = g_dir_open(dir, 0, NULL);
  const char *name;
  int others = 0;
  while ((name = g_dir_read_name(d))) {
    if (strcmp(name, "t.gp")) {
      printf("# %s appeared: a command ran\n", name);
      others++;
    }
    char *p = g_build_filename(dir, name, NULL);
    g_unlink(p);
    g_free(p);
  }
  g_dir_close(d);
  g_rmdir(dir);
  if (others == 0)
    printf("ok %d - no command ran (no canary file)\n", n);
  else
    printf("not ok %d - %d files appeared\n", n, others), failed++;
  g_free(out), g_free(err), g_free(script), g_free(dir), g_free(gnuplot);
  g_string_free(gp, TRUE), g_string_free(want, TRUE);
  g_ptr_array_free(texts, TRUE);
  return failed ? 1 : 0;
}
