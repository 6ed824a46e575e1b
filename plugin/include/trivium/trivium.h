/* trivium.h - Trivium as a SimGrid plugin, for your own simulation.
 *
 * Like SimGrid's own plugins (sg_host_load_plugin_init), one call attaches
 * the meta-controller: every actor whose deployment gives it the property
 * `trivium.agent` (or that you pass to trivium_agent_attach) becomes a
 * dispatch agent.  Your agent actors do whatever they like and, when they
 * are ready to be driven, call trivium_agent_main(), which plays the
 * episodes the controller assigns them and returns when the run is over.
 * The controller and the log run as actors on the hosts whose property
 * `trivium.role` is `controller` / `ctl` (or the hosts named by the
 * `role.controller` / `role.ctl` settings).
 *
 *   simgrid_init(&argc, argv);
 *   trivium_plugin_init();
 *   trivium_plugin_set("run.episodes", "100", &err);
 *   simgrid_load_platform("my-platform.xml");
 *   simgrid_register_function("driver", my_driver);   // calls trivium_agent_main()
 *   simgrid_load_deployment("my-deployment.xml");     // <prop id="trivium.agent" value="1"/>
 *   simgrid_run();
 *   if (!trivium_plugin_finished(&err)) ...            // deadlock, or bad settings
 *
 * The world is CausalBench-Seq (SPEC 7.1); settings are the keys of
 * `trivium params` plus `controller`, `seed`, `role.controller`, `role.ctl`
 * and `ctl.file`. */
#ifndef TRIVIUM_H
#define TRIVIUM_H

#include <glib.h>
#include <simgrid/forward.h>
#include <stdbool.h>
#include <stdio.h>

/* Safe to call twice.  Call before simgrid_load_deployment(). */
void trivium_plugin_init(void);
/* A setting (see above); false with *error when the key or value is wrong.
 * Call before simgrid_run(). */
bool trivium_plugin_set(const char *key, const char *value, GError **error);
/* Marks an actor as a dispatch agent, from code (before simgrid_run()). */
void trivium_agent_attach(sg_actor_t actor);
/* In an agent actor: play the assigned episodes until the run is over. */
void trivium_agent_main(void);
/* After simgrid_run(): true when the controller finished every episode;
 * false with *error on a deadlock or a setting that could not be honoured.
 * Call once. */
bool trivium_plugin_finished(GError **error);
/* After trivium_plugin_finished(): hard posterior exposure and regrets per
 * episode, as `trivium run` writes them (one line per episode, CSV). */
void trivium_plugin_write_episodes(FILE *out);

#endif
