package words

import "github.com/mia-game/mia/lobby/ident"

// ClosedWhileRunning is how a game ended that was abandoned because its
// table closed while it ran, in words, by the name now of who closed it
// ("" when it is not known): "ann closed the table while it ran". The
// replay command, the replay screen and the web's game page say it.
func ClosedWhileRunning(by string) string {
	who := Clean(by, ident.MaxNameLen)
	if who == "" {
		who = "someone"
	}
	return who + " closed the table while it ran"
}

// NoResult is what a game abandoned did not do, in words.
const NoResult = "No one won; no rating moved."
