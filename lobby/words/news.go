package words

import (
	"fmt"
	"strings"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby/ident"
)

// The words of the lobby's news (lobby.News): the lines the webhooks post
// and the notices a person's screens show. The names are given as they
// are now (a bot's marked: Label); each is cleaned here.

func nm(s string) string { return Clean(s, ident.MaxNameLen+len(" [bot]")) }

// TableOpened: "alice opened the table den: 4 seats; classic, 6 lives."
func TableOpened(host, table string, seats int, o engine.Options) string {
	return fmt.Sprintf("%s opened the table %s: %d seats; %s.", nm(host), nm(table), seats, RulesSummary(o))
}

// TableWaiting: "den waits for players: 2 of 4 seats taken."
func TableWaiting(table string, taken, seats int) string {
	return fmt.Sprintf("%s waits for players: %d of %d seats taken.", nm(table), taken, seats)
}

// GameStarted: "Game 42 started at den: alice, bob and ada [bot]."
func GameStarted(table, game string, players []string) string {
	names := make([]string, len(players))
	for i, p := range players {
		names[i] = nm(p)
	}
	return fmt.Sprintf("Game %s started at %s: %s.", nm(game), nm(table), andList(names))
}

// GameEnded: "alice won game 42 at den."
func GameEnded(table, game, winner string) string {
	return fmt.Sprintf("%s won game %s at %s.", nm(winner), nm(game), nm(table))
}

// Standing is a place in a game's standings, with who bluffed and who
// was caught by the one bluff rule (engine.Bluffed, engine.Caught):
// "1. alice — bluffed twice, caught once"; "2. bob — no bluff".
func Standing(place int, name string, bluffs, caught int) string {
	var said []string
	if bluffs > 0 {
		said = append(said, "bluffed "+times(bluffs))
	}
	if caught > 0 {
		said = append(said, "caught "+times(caught))
	}
	if len(said) == 0 {
		said = []string{"no bluff"}
	}
	return fmt.Sprintf("%d. %s — %s", place, nm(name), strings.Join(said, ", "))
}

func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

// SeasonEnded: "The season November 2026 ended: alice is its champion,
// at 1412." ("" for champion: nobody played a rated game in it.)
func SeasonEnded(s rating.Season, champion, figure string) string {
	if champion == "" {
		return fmt.Sprintf("The season %s ended, with no rated game.", SeasonWords(s))
	}
	return fmt.Sprintf("The season %s ended: %s is its champion, at %s.", SeasonWords(s), nm(champion), figure)
}

// The notices, said to the person they are for.

// YourGameStarted: "Your game at den has started"; "…, and it is your
// turn" when it is.
func YourGameStarted(table string, yourTurn bool) string {
	if yourTurn {
		return fmt.Sprintf("Your game at %s has started, and it is your turn", nm(table))
	}
	return fmt.Sprintf("Your game at %s has started", nm(table))
}

// YourTurn: "Your turn at den · 42s left" (left rounded up to a second;
// without it when it is not known).
func YourTurn(table string, left time.Duration) string {
	if left <= 0 {
		return fmt.Sprintf("Your turn at %s", nm(table))
	}
	return fmt.Sprintf("Your turn at %s · %ds left", nm(table), int((left+time.Second-1)/time.Second))
}

// EventCalls: "The event cup has begun: you are seated once you are at
// it".
func EventCalls(event string) string {
	return fmt.Sprintf("The event %s has begun: you are seated once you are at it", nm(event))
}

// InvitedYou: "alice invites you to den".
func InvitedYou(by, table string) string {
	return fmt.Sprintf("%s invites you to %s", nm(by), nm(table))
}

// SeatFree: "A seat is free at den: 3 of 4 taken".
func SeatFree(table string, taken, seats int) string {
	return fmt.Sprintf("A seat is free at %s: %d of %d taken", nm(table), taken, seats)
}

// HookPaused: "The webhook of den to chat.example.org failed for an hour
// and is paused". An empty table is the server's own hook.
func HookPaused(table, host string) string {
	if table == "" {
		return fmt.Sprintf("The server's webhook to %s failed for an hour and is paused", Clean(host, 253))
	}
	return fmt.Sprintf("The webhook of %s to %s failed for an hour and is paused", nm(table), Clean(host, 253))
}

// HookTest: "A test delivery from mia, for the table den."
func HookTest(table string) string {
	return fmt.Sprintf("A test delivery from mia, for the table %s.", nm(table))
}

// EventOpened: "alice made the event spring, an arena of 1 hour at
// tables of 4; classic, 6 lives. It starts at 20:00 UTC, 28 Nov 2026."
// (format: EventFormat; a zero start: "It starts when its host starts
// it.")
func EventOpened(host, event, format string, seats int, o engine.Options, startsAt time.Time) string {
	when := "when its host starts it"
	if !startsAt.IsZero() {
		when = "at " + startsAt.UTC().Format("15:04 MST, 2 Jan 2006")
	}
	return fmt.Sprintf("%s made the event %s, %s at tables of %d; %s. It starts %s.",
		nm(host), nm(event), format, seats, RulesSummary(o), when)
}

// EventStarted: "The event spring began, an arena of 1 hour, with 12
// entrants." (format: EventFormat)
func EventStarted(event, format string, entrants int) string {
	return fmt.Sprintf("The event %s began, %s, with %s.", nm(event), format, Plural(entrants, "1 entrant", "entrants"))
}

// EventEnded: "The event spring is over: alice is its champion, with 17
// points, of 12 entrants." ("" for champion: "The event spring is over,
// without a champion.")
func EventEnded(event, champion string, points, entrants int) string {
	if champion == "" {
		return fmt.Sprintf("The event %s is over, without a champion.", nm(event))
	}
	return fmt.Sprintf("The event %s is over: %s is its champion, with %s, of %s.", nm(event), nm(champion),
		Plural(points, "1 point", "points"), Plural(entrants, "1 entrant", "entrants"))
}

// EventRoundCalls: "Round 2 of the event cup has begun without you: you
// are seated in the next once you are at it".
func EventRoundCalls(event string, round int) string {
	return fmt.Sprintf("Round %d of the event %s has begun without you: you are seated in the next once you are at it", round, nm(event))
}
