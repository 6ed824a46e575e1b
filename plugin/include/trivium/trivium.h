/* trivium.h - Trivium as a SimGrid plugin, for a simulation of your own.
 *
 * Like SimGrid's own plugins (sg_host_load_plugin_init), one call attaches
 * the meta-controller.  The world the agents act in is chosen by name
 * (setting `world`): a built-in one (causalbench, urs, jssp, llm) or one the program
 * declares and registers (trivium/world.h).  Its agents are either
 *  - the program's own actors: those whose deployment gives them the
 *    property trivium.agent, or that are passed to trivium_agent_attach();
 *    each keeps its own dispatch logic and asks for its plans through
 *    trivium/agent.h; or
 *  - when no actor is marked, agents.count agents that Trivium starts on
 *    the hosts of the role agent, for worlds with an agent class.
 * The controller and the log replicas run as actors on the hosts whose
 * property trivium.role is `controller` / `ctl` (or the hosts the settings
 * role.controller / role.ctl name); agents commit their records to the
 * log over the platform's network.
 *
 *   simgrid_init(&argc, argv);                  // --cfg=trivium/KEY:VALUE work here
 *   trivium_plugin_init();
 *   trivium_world_register(&my_world, &err);    // optional: a world of your own
 *   trivium_plugin_set("world", "my-world", &err);
 *   simgrid_load_platform("my-platform.xml");
 *   simgrid_register_function("courier", my_courier); // calls trivium_agent_next_episode()
 *   simgrid_load_deployment("my-deployment.xml");     // <prop id="trivium.agent" value="1"/>
 *   simgrid_run();
 *   if (!trivium_plugin_finished(&err)) ...      // deadlock, bad settings, a failed log
 *   trivium_results_write_csv(stdout, true, &err);
 *
 * Settings are the keys of `trivium params` (the parameter table) and the
 * plugin's own: world, controller, seed, role.controller, role.ctl,
 * role.agent, ctl.file, fault, output.  Each is also the SimGrid flag
 * trivium/KEY (--cfg=trivium/run.episodes:50).  A program linked with
 * libtrivium may also be attached with no call of its own:
 * --cfg=plugin:trivium on its command line (docs/plugin-api.md).  Trivium logs under the XBT category
 * `trivium` (at warning by default; --log=trivium.thres:info shows the
 * changes of the committed graph, alarms, resets, failed commits and
 * faults). */
#ifndef TRIVIUM_H
#define TRIVIUM_H

#include <glib.h>
#include <simgrid/forward.h>
#include <stdbool.h>
#include <stdio.h>

#include <trivium/agent.h>
#include <trivium/error.h>
#include <trivium/export.h>
#include <trivium/report.h>
#include <trivium/results.h>
#include <trivium/world.h>

G_BEGIN_DECLS

/* The interface of these headers: the layout of their structs and the
 * values of their enums (TrvEpisodeRow, TrvWorldClass, TrvMetric, ...).
 * It is the library's libtool CURRENT, raised with every change of a
 * public struct or enum. */
#define TRIVIUM_ABI_VERSION 4

/* Safe to call twice.  Call before simgrid_load_platform(); registers the
 * built-in worlds.  A macro: it hands the library the interface the
 * program was compiled with, and a library of another interface stops
 * the simulation at time 0 with one error naming both (rebuild the
 * program against the installed headers). */
#define trivium_plugin_init() trivium_plugin_init_abi(TRIVIUM_ABI_VERSION)
TRIVIUM_API void trivium_plugin_init_abi(int abi);
/* A setting (see above); false with *error when the key or the value is
 * wrong, or once the simulation runs. */
TRIVIUM_API bool trivium_plugin_set(const char *key, const char *value, GError **error);
/* Adds fault processes, written as `trivium run --fault` takes them
 * (link-flap:GLOB:MTBF:MTTR[:START[:STOP]], host-crash:GLOB:AT:DURATION,
 * partition:GLOBS:AT:DURATION; several separated by ';'), to those of the
 * setting `fault` (--cfg=trivium/fault:SPEC); false with *error for a bad
 * one, or once the simulation runs.  A pattern that matches nothing on
 * the platform stops the simulation when it starts. */
TRIVIUM_API bool trivium_plugin_add_fault(const char *spec, GError **error);
/* Marks an actor as a dispatch agent, from code (before simgrid_run()).
 * Once the simulation runs, an actor restarted by SimGrid takes back the
 * identity of the agent it was (same name, same host); any other actor
 * joins late, in a slot agents.count leaves beyond the actors marked at
 * the start, or is refused with a warning when no slot is open. */
TRIVIUM_API void trivium_agent_attach(sg_actor_t actor);
/* After simgrid_run(): true when the controller finished every episode,
 * or every episode played before all the agents left (the run then ends
 * early, with a warning; trivium_results_n_episodes() gives how many);
 * false with *error on a deadlock, a setting that could not be honoured
 * or a log that could not be written.  Call once; the results
 * (trivium/results.h) are then available. */
TRIVIUM_API bool trivium_plugin_finished(GError **error);

/* "0.1.0": the library's version. */
TRIVIUM_API const char *trivium_version(void);

G_END_DECLS

#endif
