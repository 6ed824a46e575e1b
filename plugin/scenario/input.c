/* input.c - what the two XML readers of this layer (the scenario loader,
 * the platform reader) share besides the Expat reader itself (xml.c):
 * reading a file a user hands us (core/input.h: bounded, regular files
 * only, checked on the opened descriptor), and the text helpers of their
 * messages.  What a file gives as a relative path starts from the file's
 * directory, which is read with it (TrvScnInput) so that both readers keep
 * that rule.
 *
 * Messages go through trv_scn_printable() so that a control character in a
 * value (&#10;, an escape sequence) or a path can never split the one-line
 * message or reach a terminal raw, and a byte that is not UTF-8 is shown
 * escaped. */
#include <string.h>

#include "core/input.h"
#include "scenario-internal.h"

bool trv_scn_input_read(const char *path, size_t max_bytes, const char *what, TrvScnInput *in, GError **error) {
  char *data;
  size_t len;
  GError *err = NULL;
  if (!trv_input_read(path, max_bytes, what, TRV_INPUT_REGULAR, &data, &len, &err)) {
    char *printable = trv_scn_printable(err->message);
    g_set_error_literal(error, TRV_ERROR, err->code, printable);
    g_free(printable);
    g_error_free(err);
    return false;
  }
  *in = (TrvScnInput){data, len, g_path_get_dirname(path)};
  return true;
}

void trv_scn_input_free(TrvScnInput *in) {
  g_free(in->text);
  g_free(in->dir);
}

/* ---- messages ---- */

char *trv_scn_printable(const char *msg) {
  GString *s = g_string_sized_new(strlen(msg));
  for (const char *p = msg; *p;) {
    unsigned char c = (unsigned char)*p;
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7f)
        g_string_append_printf(s, "\\x%02x", c);
      else
        g_string_append_c(s, (char)c);
      p++;
      continue;
    }
    /* a byte that does not start a valid UTF-8 sequence (a raw name the
     * reader quotes before Expat has checked the encoding) is escaped too:
     * the message is always valid UTF-8 */
    gunichar u = g_utf8_get_char_validated(p, -1); /* (gunichar)-1 or -2 when invalid */
    if (u >= 0x80 && u < 0xa0) {                   /* a C1 control (U+0080..U+009F: CSI among them) */
      g_string_append_printf(s, "\\u%04x", (unsigned)u);
      p = g_utf8_next_char(p);
    } else if (u < 0x110000) {
      const char *next = g_utf8_next_char(p);
      g_string_append_len(s, p, next - p);
      p = next;
    } else {
      g_string_append_printf(s, "\\x%02x", c);
      p++;
    }
  }
  return g_string_free(s, FALSE);
}

char *trv_scn_shorten(const char *s, size_t max) {
  size_t len = strlen(s);
  if (len <= max) return g_strdup(s);
  const char *cut = s + max;
  while (cut > s && ((unsigned char)*cut & 0xC0) == 0x80) cut--; /* not inside a UTF-8 sequence */
  return g_strdup_printf("%.*s...", (int)(cut - s), s);
}
