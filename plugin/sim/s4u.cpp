/* s4u.cpp - the only C++ in Trivium: what SimGrid 3.32 offers only in
 * C++ (docs/simgrid-plugin.md, its opening paragraph), wrapped for the C
 * attachment.  Nothing else belongs here.
 *  - turning a link on or off, listing the links of a route;
 *  - the plugin's per-actor state (an agent's index), as an extension of
 *    the actor, the way SimGrid's own plugins attach state.  The
 *    actor-creation signal is no way to find agents: it fires before a
 *    deployment's properties are set, so plugin.c scans the actors at time
 *    0 instead;
 *  - running a function when the platform is created (the plugin's boot)
 *    and when the simulation ends (a run attached by --cfg=plugin:trivium
 *    writes its results);
 *  - an entry in SimGrid's list of plugins (--cfg=plugin:NAME), below;
 *  - the program's command line (simgrid::xbt::cmdline), for its run.json;
 *  - a mailbox's permanent receiver, given up when its host turns off, and
 *    the number of transfers queued on a mailbox;
 *  - the number of threads SimGrid runs actors on and their stack size
 *    (contexts/nthreads, contexts/stack-size);
 *  - tracing: a cell's own trace file name, and Trivium's events as Paje
 *    marks (the C calls for marks are deprecated in SimGrid).
 * The settings as SimGrid configuration flags are the api layer's
 * (plugin/api/flags.cpp): they need every module registered first.
 * (State profiles are no way around a fault actor either: 3.32 refuses them
 * on sealed resources, and its creation callbacks run after sealing.) */
#include <dlfcn.h>
#include <functional>
#include <glib.h>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/Mailbox.hpp>
#include <simgrid/instr.h>
#include <simgrid/version.h>
#include <xbt/virtu.h>
#include <set>
#include <string>
#include <vector>
#include <xbt/config.hpp>

extern "C" {
void trv_sim_link_set_on(sg_link_t link, int on);
size_t trv_sim_route_links(sg_host_t from, sg_host_t to, sg_link_t *out, size_t max);
void trv_sim_actor_ext_init(void);
void trv_sim_actor_set_agent(sg_actor_t actor, int index);
int trv_sim_actor_agent(const_sg_actor_t actor);
void trv_sim_on_platform_created(void (*fn)(void));
void trv_sim_on_simulation_end(void (*fn)(void));
bool trv_sim_simgrid_plugin_add(const char *name, const char *description, void (*init)(void));
char **trv_sim_command_line(void);
void trv_sim_mailbox_receive_eagerly(sg_mailbox_t mb);
size_t trv_sim_mailbox_queued(const_sg_mailbox_t mb);
void trv_sim_context_settings(int *threads, int *stack_kib);
void trv_sim_trace_setup(const char *file, const char *suffix);
void trv_sim_trace_discard(void);
void trv_sim_trace_mark(const char *type, const char *value);
}

void trv_sim_link_set_on(sg_link_t link, int on) {
  if (on)
    link->turn_on();
  else
    link->turn_off();
}

size_t trv_sim_route_links(sg_host_t from, sg_host_t to, sg_link_t *out, size_t max) {
  std::vector<simgrid::s4u::Link *> links;
  from->route_to(to, links, nullptr);
  size_t n = 0;
  for (auto *l : links)
    if (n < max) out[n++] = l;
  return n;
}

namespace {
struct AgentIndex {
  int index;
};
simgrid::xbt::Extension<simgrid::s4u::Actor, AgentIndex> agent_ext;
} // namespace

/* Safe to call twice: the extension is created once. */
void trv_sim_actor_ext_init(void) {
  if (not agent_ext.valid()) agent_ext = simgrid::s4u::Actor::extension_create<AgentIndex>();
}

void trv_sim_actor_set_agent(sg_actor_t actor, int index) { actor->extension_set(agent_ext, new AgentIndex{index}); }

int trv_sim_actor_agent(const_sg_actor_t actor) {
  const AgentIndex *a = agent_ext.valid() ? actor->extension(agent_ext) : nullptr;
  return a ? a->index : -1;
}

char **trv_sim_command_line(void) {
  GStrvBuilder *b = g_strv_builder_new();
  for (auto const &arg : simgrid::xbt::cmdline) g_strv_builder_add(b, arg.c_str());
  char **v = g_strv_builder_end(b);
  g_strv_builder_unref(b);
  return v;
}

void trv_sim_on_platform_created(void (*fn)(void)) {
  simgrid::s4u::Engine::on_platform_created_cb([fn]() { fn(); });
}

void trv_sim_on_simulation_end(void (*fn)(void)) {
  simgrid::s4u::Engine::on_simulation_end_cb([fn]() { fn(); });
}

/* ---- SimGrid's list of plugins ------------------------------------------ */

/* SimGrid 3.31 and 3.32 keep the plugins that --cfg=plugin:NAME attaches
 * in a table their public headers do not declare: the function-local
 * static of the inline surf_plugin_description() (src/surf/
 * surf_interface.hpp), a std::vector of {name, description, init}, which
 * SimGrid's own plugins fill from constructors.  libsimgrid.so exports the
 * table and its guard; an entry of the same layout is appended here once
 * the table exists (its guard set).  On another SimGrid, or when the table
 * is not found, nothing is added and false is returned: the program then
 * calls trivium_plugin_init() itself. */
namespace {
struct SimgridPluginEntry {
  const char *name;
  const char *description;
  std::function<void()> init;
};
} // namespace

bool trv_sim_simgrid_plugin_add(const char *name, const char *description, void (*init)(void)) {
#if SIMGRID_VERSION_MAJOR == 3 && SIMGRID_VERSION_MINOR >= 31 && SIMGRID_VERSION_MINOR <= 32
  const auto *guard = static_cast<const unsigned char *>(
      dlsym(RTLD_DEFAULT, "_ZGVZ23surf_plugin_descriptionvE24plugin_description_table"));
  auto *table = static_cast<std::vector<SimgridPluginEntry> *>(
      dlsym(RTLD_DEFAULT, "_ZZ23surf_plugin_descriptionvE24plugin_description_table"));
  if (guard == nullptr || table == nullptr || *guard == 0) return false;
  for (auto const &e : *table)
    if (e.name != nullptr && std::string(e.name) == name) return true;
  table->push_back(SimgridPluginEntry{name, description, [init]() { init(); }});
  return true;
#else
  (void)name;
  (void)description;
  (void)init;
  return false;
#endif
}

/* ---- permanent receivers ------------------------------------------------ */

/* The mailboxes an actor of this process receives eagerly on, with that
 * actor's host.  SimGrid 3.32 starts a transfer to a permanent receiver
 * without looking whether its host is on (CommImpl::start asserts it is):
 * the mailbox is given up in the host's own turn-off, before any other
 * actor can send to it. */
static std::vector<std::pair<simgrid::s4u::Mailbox *, const simgrid::s4u::Host *>> eager_mailboxes;

void trv_sim_mailbox_receive_eagerly(sg_mailbox_t mb) {
  static bool watching = false;
  if (not watching) {
    simgrid::s4u::Host::on_state_change_cb([](simgrid::s4u::Host const &host) {
      if (host.is_on()) return;
      for (auto const &[m, h] : eager_mailboxes)
        if (h == &host) m->set_receiver(nullptr);
    });
    watching = true;
  }
  const simgrid::s4u::Host *host = simgrid::s4u::Host::current();
  mb->set_receiver(simgrid::s4u::Actor::self());
  for (auto &e : eager_mailboxes)
    if (e.first == mb) {
      e.second = host;
      return;
    }
  eager_mailboxes.emplace_back(mb, host);
}

size_t trv_sim_mailbox_queued(const_sg_mailbox_t mb) { return mb->size(); }

void trv_sim_context_settings(int *threads, int *stack_kib) {
  *threads = simgrid::config::get_value<int>("contexts/nthreads");
  *stack_kib = simgrid::config::get_value<int>("contexts/stack-size");
}

/* ---- tracing ------------------------------------------------------------ */

static bool tracing_on = false;

/* After simgrid_init, before the platform loads: whether tracing is on,
 * and the cell's own file name (file, else tracing/filename with suffix). */
void trv_sim_trace_setup(const char *file, const char *suffix) {
  tracing_on = simgrid::config::get_value<bool>("tracing");
  if (!tracing_on) return;
  if (file && *file) {
    simgrid::config::set_value("tracing/filename", std::string(file));
  } else if (suffix && *suffix) {
    std::string name = simgrid::config::get_value<std::string>("tracing/filename");
    size_t slash = name.rfind('/'), dot = name.rfind('.');
    size_t at = dot != std::string::npos && (slash == std::string::npos || dot > slash) ? dot : name.size();
    simgrid::config::set_value("tracing/filename", name.substr(0, at) + suffix + name.substr(at));
  }
}

/* A run that only checks SimGrid's options writes no trace. */
void trv_sim_trace_discard(void) {
  if (simgrid::config::get_value<bool>("tracing"))
    simgrid::config::set_value("tracing/filename", std::string("/dev/null"));
}

/* A Paje mark of `type` with one of its few fixed values (each declared on
 * first use; the time stamp says when).  Marks need a traced platform
 * (tracing/platform or a categorized trace); otherwise SimGrid ignores
 * them.  A tracing error never stops the run. */
void trv_sim_trace_mark(const char *type, const char *value) {
  if (!tracing_on) return;
  static std::set<std::string, std::less<>> types, values;
  try {
    if (types.insert(type).second) simgrid::instr::declare_mark(type);
    if (values.insert(std::string(type) + '\n' + value).second) simgrid::instr::declare_mark_value(type, value);
    simgrid::instr::mark(type, value);
  } catch (const std::exception &) {}
}
