package words

import (
	"fmt"
	"time"
)

// Stalled is why a table paused on a write its storage did not answer
// in time (a disk's failure says its own reason: store.DiskError).
const Stalled = "the server's storage is not answering"

// The lines a table's chat shows as it pauses on a write not saved and
// resumes, and as a table of bots nobody watches rests and wakes.
const (
	PausedStalledLine = "the table is paused: " + Stalled + ", and moves wait until it does"
	ResumedLine       = "the server's storage answers again: play on"
	WokenLine         = "someone opened the table: its bots play on"
)

// PausedLine is the chat line of a table paused because of why (Stalled,
// or a disk's reason: "the server's disk is full").
func PausedLine(why string) string {
	if why == Stalled {
		return PausedStalledLine
	}
	return "the table is paused: " + why + ", and moves wait until it saves again"
}

// Paused says, at every door, why a paused table waits and that its
// moves do: "the server's disk is full: moves wait" (why "" is Stalled).
func Paused(why string) string {
	if why == "" {
		why = Stalled
	}
	return why + ": moves wait"
}

// RestingLine is the chat line of a table of bots that nobody had open
// for idle: it rests.
func RestingLine(idle time.Duration) string {
	span := idle.Round(time.Second).String()
	switch {
	case idle >= time.Hour && idle%time.Hour == 0:
		span = Plural(int(idle/time.Hour), "an hour", "hours")
	case idle >= time.Minute && idle%time.Minute == 0:
		span = Plural(int(idle/time.Minute), "a minute", "minutes")
	}
	return fmt.Sprintf("nobody has had this table of bots open for %s: it rests after this game, until someone opens it", span)
}

// NextGameByItself says, after a game at a table whose seats are all
// taken by people there, that the next starts by itself after rest. It
// stands as drawn, so it says when from the last game's end, not a
// countdown.
func NextGameByItself(rest time.Duration) string {
	return fmt.Sprintf("Every seat is taken: the next game starts by itself %d seconds after the last", int(rest/time.Second))
}

// TableState is a table's state as a list of tables shows it: "paused"
// while it waits for the server's storage, "resting" for a table of bots
// nobody had open, else its state ("waiting", "playing").
func TableState(state string, paused, resting bool) string {
	switch {
	case paused:
		return "paused"
	case resting:
		return "resting"
	}
	return state
}
