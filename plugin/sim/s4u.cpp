/* sim-s4u.cpp - the only C++ in Trivium: what SimGrid 3.32 offers only in
 * C++ (SPEC 2), wrapped for the C attachment.  Nothing else belongs here.
 *  - turning a link on or off, listing the links of a route;
 *  - the plugin's per-actor state, as an extension of the actor (the way
 *    SimGrid's own plugins attach state).  The actor-creation signal is no
 *    way to find agents: it fires before a deployment's properties are set,
 *    so sim-plugin.c scans the actors at time 0 instead.
 * (State profiles are no way around a fault actor either: 3.32 refuses them
 * on sealed resources, and its creation callbacks run after sealing.) */
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <vector>

extern "C" {
void trv_sim_link_set_on(sg_link_t link, int on);
size_t trv_sim_route_links(sg_host_t from, sg_host_t to, sg_link_t* out, size_t max);
void trv_sim_actor_ext_init(void);
void trv_sim_actor_set_agent(sg_actor_t actor, int index);
int trv_sim_actor_agent(const_sg_actor_t actor);
}

void trv_sim_link_set_on(sg_link_t link, int on)
{
  if (on)
    link->turn_on();
  else
    link->turn_off();
}

size_t trv_sim_route_links(sg_host_t from, sg_host_t to, sg_link_t* out, size_t max)
{
  std::vector<simgrid::s4u::Link*> links;
  from->route_to(to, links, nullptr);
  size_t n = 0;
  for (auto* l : links)
    if (n < max)
      out[n++] = l;
  return n;
}

namespace {
struct AgentIndex {
  int index;
};
simgrid::xbt::Extension<simgrid::s4u::Actor, AgentIndex> agent_ext;
} // namespace

/* Safe to call twice: the extension is created once. */
void trv_sim_actor_ext_init(void)
{
  if (not agent_ext.valid())
    agent_ext = simgrid::s4u::Actor::extension_create<AgentIndex>();
}

void trv_sim_actor_set_agent(sg_actor_t actor, int index)
{
  actor->extension_set(agent_ext, new AgentIndex{index});
}

int trv_sim_actor_agent(const_sg_actor_t actor)
{
  const AgentIndex* a = agent_ext.valid() ? actor->extension(agent_ext) : nullptr;
  return a ? a->index : -1;
}
