/* registry.h - one shape for everything a run selects by name: worlds,
 * controllers and drift detectors.
 *
 * An entry (TrvModule) is a name, a class (the module's table of
 * functions: a TrvWorldClass, TrvControllerClass or TrvDetectorClass) and
 * its parameters (a TrvParamBlock, or NULL).  Adding the entry to its
 * registry adds its parameters to the table (params.h), after those
 * registered before.  A class may serve several names, told apart by
 * `variant` (the trivium controller and its ablations).  Defaults are
 * chosen by name, never by position: detector.name names its default,
 * and the controllers a scenario runs when it names none are the entries
 * not marked `on_request`.  A registry keeps its entries in registration
 * order, in fixed arrays: a name or entry it returns stays valid. */
#ifndef TRV_REGISTRY_H
#define TRV_REGISTRY_H

#include <glib.h>
#include <stdbool.h>

#include "params.h"

/* Most entries of one registry. */
#define TRV_REGISTRY_MAX 64

typedef struct {
  const char *name;            /* letters, digits, '-' and '_' */
  const void *klass;           /* the module's table of functions */
  const TrvParamBlock *params; /* its parameters, or NULL */
  int variant;                 /* the class's own numbering of the names it serves (0 for one name) */
  bool on_request;             /* controllers: run only when named, not among the defaults */
} TrvModule;

typedef struct {
  const char *kind; /* "world", "controller", "detector": for messages */
  int n;
  TrvModule entries[TRV_REGISTRY_MAX];
  const char *names[TRV_REGISTRY_MAX + 1];    /* NULL-terminated, registration order */
  const char *defaults[TRV_REGISTRY_MAX + 1]; /* the names not on_request, NULL-terminated */
} TrvRegistry;

/* Adds a copy of *m (the strings and what the pointers reach must live as
 * long as the process) and registers its parameters.  False with *error
 * for a malformed name, a name another entry holds, a full registry or
 * parameters the table refuses (trv_params_register); nothing is added
 * then.  The same entry twice is a no-op. */
bool trv_registry_add(TrvRegistry *r, const TrvModule *m, GError **error);
/* The entry called `name`, or NULL. */
const TrvModule *trv_registry_lookup(const TrvRegistry *r, const char *name);

#endif
