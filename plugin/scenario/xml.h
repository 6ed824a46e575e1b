/* xml.h - a hardened Expat reader for files that are data: the part the
 * scenario loader (scenario.c) and the SimGrid platform reader
 * (platform-names.c) share.  Internal to the scenario layer.
 *
 * A reader holds the whole input in memory and makes one Expat pass over
 * it.  The parser it creates reads UTF-8 whatever the XML declaration says
 * (so that the raw text and Expat agree on every position), never loads an
 * external entity or DTD, and refuses every entity declaration and every
 * reference other than the predefined entities and character references.
 * Each caller embeds a TrvXmlReader as the FIRST member of its own state
 * and passes that state to trv_xml_open(): Expat's user data is then both
 * the caller's state (for its element handlers) and the reader (for the
 * shared entity handlers here), by C's rule that a pointer to a struct
 * points to its first member.
 *
 * Invariants: the first failure wins (error is set at most once; later
 * calls to trv_xml_fail() do nothing) and stops the parser; every message
 * reads "NAME:LINE:COLUMN: message" (1-based, columns in characters like
 * Expat's) and holds no control character. */
#ifndef TRV_SCENARIO_XML_H
#define TRV_SCENARIO_XML_H

#include <expat.h>
#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

/* A place in the input: 1-based line and column (in characters). */
typedef struct {
  int line, col;
} Loc;

typedef struct {
  XML_Parser parser;
  bool parsing;           /* inside XML_Parse, where a failure must stop the parser */
  const char *noun;       /* what the file is, for messages: "scenario", "platform" */
  const char *name, *buf; /* the name messages start with; the whole input */
  size_t len;
  GError *error;        /* the first failure, or NULL */
  XML_Index tag_offset; /* byte offset of the current start tag, -1 before the first */
  Loc tag;              /* its location */
} TrvXmlReader;

/* Sets up X (the first member of the caller's state `owner`) to read the
 * `len` bytes of `buf`, named `name` in messages, and creates its hardened
 * parser with the caller's element handlers and, when not NULL, its
 * character data handler.  Every handler gets `owner` as its user data.
 * Release with trv_xml_close(). */
void trv_xml_open(TrvXmlReader *X, void *owner, const char *noun, const char *name, const char *buf, size_t len,
                  XML_StartElementHandler start, XML_EndElementHandler end, XML_CharacterDataHandler text);
/* Parses the whole buffer, refused first ("NAME: the NOUN is N bytes;
 * ...") when it is longer than `max_bytes`.  Malformed XML fails at its
 * place with "malformed XML (Expat's reason); expected " + `expected`.
 * True when no handler failed either. */
bool trv_xml_parse(TrvXmlReader *X, size_t max_bytes, const char *expected);
/* Frees the parser; X->error stays for the caller to take. */
void trv_xml_close(TrvXmlReader *X);

/* Keeps the first error, "NAME:LINE:COLUMN: " + the message made printable,
 * as a TRV_ERROR_INPUT GError and stops the parser; later calls do nothing. */
void trv_xml_fail(TrvXmlReader *X, Loc at, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

/* Where the parser is (for the handler being called). */
Loc trv_xml_here(const TrvXmlReader *X);
/* Location of attribute `attr` of the current start tag, found in the raw
 * text (Expat does not locate attributes); the tag's own location when it
 * is not there (a DTD default). */
Loc trv_xml_attr_loc(const TrvXmlReader *X, const char *attr);
/* For a start element handler: records where the current start tag is
 * (tag, tag_offset) and checks the entity references of its attribute
 * values.  False when the reader has already failed or fails now. */
bool trv_xml_start_tag(TrvXmlReader *X);

#endif
