package maexchen

import "github.com/mia-game/mia/engine"

// Stand-ins until the engine's options land (branch variants).
const (
	evReveal   engine.EventType = "reveal"
	evLowClaim engine.EventType = "low_claim"
)

func lossSeats(e engine.Event) []int { return nil }

func presetMaexchen() engine.Options {
	o := engine.DefaultOptions()
	o.Lives = 1
	o.Pass = false
	o.End = engine.FirstOut
	return o
}
