package solver

import "github.com/mia-game/mia/engine"

// AnalyseInLives is Analyse with every decision at three or more judged
// in lives as a heads-up one, as before the continuation model.
func AnalyseInLives(opts engine.Options, players int, events []engine.Event) (Analysis, error) {
	return analyse(opts, players, events, false)
}
