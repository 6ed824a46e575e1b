/* error.c - the TRV_ERROR domain (trivium/error.h). */
#include <trivium/error.h>

G_DEFINE_QUARK(trv - error - quark, trivium_error)
