/* params-dtd.h - the scenario DTD, written from the loader, the parameter
 * table and the registries (params-dtd.c; `trivium params --dtd`). */
#ifndef TRV_PARAMS_DTD_H
#define TRV_PARAMS_DTD_H

#include <glib.h>

/* The text of scenarios/trivium-scenario.dtd; caller frees.  Worlds are
 * those registered when it is called. */
char *trv_params_dtd(void);

#endif
