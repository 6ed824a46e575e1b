/* trivium/export.h - the mark of libtrivium's public calls.
 *
 * The library is compiled with hidden visibility (configure checks that
 * the compiler takes -fvisibility=hidden): its internal functions, the
 * layers' trv_* calls, are not part of the shared library's interface.
 * Each function a public header declares carries TRIVIUM_API, which gives
 * it default visibility, so that libtrivium.so exports these functions
 * and nothing else (tests/exports.sh checks the built library against the
 * headers).  The public headers declare no data.  A program including the
 * headers sees TRIVIUM_API as the same attribute, which changes nothing
 * for a caller. */
#ifndef TRIVIUM_EXPORT_H
#define TRIVIUM_EXPORT_H

#if defined(__GNUC__) && __GNUC__ >= 4
#define TRIVIUM_API __attribute__((visibility("default")))
#else
#define TRIVIUM_API
#endif

#endif
