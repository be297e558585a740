package main

import "runtime/debug"

// gcPercent is the garbage collector's target unless the host sets GOGC:
// the heap may grow by 40 % of its live size (and of the goroutines'
// stacks) between collections, not by all of it (Go's default, 100). A
// server holding thousands of sessions keeps what its heap once reached:
// at 50 a spectator of busy tables cost 110–114 KiB (1.14–1.18× the
// floor's), at 40 108–109 (1.08–1.15×), for some 2 % of a core more
// (medians 30.1 % against 28.4 %, on a shared machine; cmd/mia-loadtest's
// page).
const gcPercent = 40

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
