#!/bin/sh
# The URS smoke scenario under single faults (crashes of the controller,
# the log, two agent towers and a tower without agents; cuts of the central
# LAN and two uplinks; at 5 times each): exit 0, a log that verifies, replay equal to the live
# posterior, every lost commit counted in p_f.  The full sweep over every
# host is scripts/urs-fault-sweep.sh.  TAP.
top=$(cd "${srcdir:-..}" && pwd)
TRIVIUM=${TRIVIUM:-./trivium} TRIVIUM_SRC=$top exec sh "$top/scripts/urs-fault-sweep.sh" --short
