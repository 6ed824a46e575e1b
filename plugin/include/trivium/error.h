/* trivium/error.h - the one error domain of Trivium.
 *
 * Everything a user can get wrong (a scenario, a platform, a trace, a log
 * file, a setting, a call of the public API out of order) is reported as a
 * GError in the domain TRV_ERROR.  The code says what kind of failure it
 * is, and the command-line program turns it into its exit code: INPUT is
 * exit 2 (bad input, nothing was run or nothing committed was lost), the
 * others exit 1 (a run failure).  Internal invariant violations are not
 * errors: they abort. */
#ifndef TRIVIUM_ERROR_H
#define TRIVIUM_ERROR_H

#include <glib.h>

#include <trivium/export.h>

G_BEGIN_DECLS

TRIVIUM_API GQuark trivium_error_quark(void);
#define TRV_ERROR (trivium_error_quark())

typedef enum {
  TRV_ERROR_INPUT = 1,   /* a user's file, argument or call is wrong: exit 2 */
  TRV_ERROR_CORRUPT = 2, /* stored data fails its checks */
  TRV_ERROR_IO = 3,      /* the system refused a read or write, or a run failed */
} TrvErrorCode;

G_END_DECLS

#endif
