/* registry.c - the registries of worlds, controllers and detectors.  See
 * registry.h. */
#include "registry.h"

#include <string.h>

static bool valid_name(const char *name) {
  if (!name || !*name || strlen(name) > 64) return false;
  for (const char *p = name; *p; p++)
    if (!g_ascii_isalnum(*p) && *p != '-' && *p != '_') return false;
  return true;
}

const TrvModule *trv_registry_lookup(const TrvRegistry *r, const char *name) {
  for (int i = 0; name && i < r->n; i++)
    if (!strcmp(r->entries[i].name, name)) return &r->entries[i];
  return NULL;
}

bool trv_registry_add(TrvRegistry *r, const TrvModule *m, GError **error) {
  if (!valid_name(m->name)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s %s: expected a name of letters, digits, '-' and '_'", r->kind,
                m->name ? m->name : "(unnamed)");
    return false;
  }
  const TrvModule *old = trv_registry_lookup(r, m->name);
  if (old) {
    if (old->klass == m->klass && old->variant == m->variant && old->params == m->params) return true;
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s %s: another %s is registered under that name", r->kind, m->name,
                r->kind);
    return false;
  }
  if (r->n == TRV_REGISTRY_MAX) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s %s: at most %d can be registered", r->kind, m->name,
                TRV_REGISTRY_MAX);
    return false;
  }
  if (m->params && !trv_params_register(m->params, error)) {
    g_prefix_error(error, "%s %s: ", r->kind, m->name);
    return false;
  }
  r->entries[r->n] = *m;
  r->names[r->n++] = m->name;
  r->names[r->n] = NULL;
  int d = 0;
  while (r->defaults[d]) d++;
  if (!m->on_request) r->defaults[d++] = m->name, r->defaults[d] = NULL;
  return true;
}
