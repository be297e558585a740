package main

import "runtime/debug"

// gcPercent is the garbage collector's target unless the host sets GOGC:
// the heap may grow by half its live size between collections, not by
// all of it (Go's default, 100). A server holding thousands of sessions
// keeps what its heap once reached; at 50 a session cost 113–121 KiB
// instead of 135–139 on the name prompt and in the lobby, and 164 instead
// of 191 watching busy tables, for no CPU we could measure (README,
// Measurements). At 40 a spectator of busy tables costs about 5 KiB less
// (108–110 against 113) for 2 to 4 % of a core more: the collector's goal
// counts the goroutines' stacks too, and it scans them at every cycle.
const gcPercent = 50

// tuneGC sets gcPercent unless GOGC is set in env; it returns the target
// in force.
func tuneGC(env func(string) string) int {
	if env("GOGC") != "" {
		p := debug.SetGCPercent(-1) // read the host's setting back
		debug.SetGCPercent(p)
		return p
	}
	debug.SetGCPercent(gcPercent)
	return gcPercent
}
