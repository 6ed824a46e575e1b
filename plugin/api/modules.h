/* modules.h - the modules shipped with Trivium, registered in one call. */
#ifndef TRV_MODULES_H
#define TRV_MODULES_H

/* Registers the shipped modules, in the order `trivium params` lists
 * their parameters (after the core's own: run.* .. lrcp.*): the drift
 * detectors (detector.name and theirs), the controllers, the worlds
 * (world.*), the log (ctl.*) and the SimGrid layer (agents.count, sim.*).
 * Call it at start-up, before any TrvParams is filled: the command line,
 * trivium_plugin_init() and the tests do.  Safe to call more than once.
 * A program's own modules register after it (their rows come last). */
void trv_modules_register_builtin(void);

#endif
