package lobby

import (
	"fmt"
	"time"

	"github.com/mia-game/mia/engine"
)

// TableInfo is a table as the lobby lists it.
type TableInfo struct {
	Name            string
	Host            string // the host's display name
	HostFingerprint string
	Seats           int    // seats at the table
	Taken           int    // seats taken
	State           string // "waiting" or "playing"
	Rules           engine.Options
	Private         bool
	Watching        int // people with the table open
	Players         []SeatInfo

	members []string
}

func (i TableInfo) visibleTo(fp string) bool {
	if !i.Private || fp == i.HostFingerprint {
		return true
	}
	for _, m := range i.members {
		if m == fp {
			return true
		}
	}
	return false
}

// SeatInfo is one seat as everyone may see it.
type SeatInfo struct {
	Name        string
	Fingerprint string
	Bot         bool
	Lives       int
	Connected   bool
}

// Snapshot is a table as one viewer may see it at one moment. It never
// holds dice the viewer may not see.
type Snapshot struct {
	Version  uint64
	Table    TableInfo
	You      int  // your seat in Game, -1 for a spectator
	Seated   bool // you have a seat for the next game (or this one)
	Playing  bool // a game is running
	GameID   string
	Game     *engine.View // the running or last game, from your seat; nil before the first
	Deadline time.Time    // when the current turn times out
	Chat     []ChatLine
	Result   *Result  // how the last game ended, until the next starts
	Fair     FairInfo // the dice's commitment and the players' seeds

	names  []string
	events []engine.Event // this viewer's redacted copy of the game's events
}

// Events returns the game's events as the viewer may see them: the dice of
// other players' rolls are blank until a challenge lifts the cup.
func (s Snapshot) Events() []engine.Event { return s.events }

// Name is the display name of a game seat.
func (s Snapshot) Name(seat int) string {
	if seat >= 0 && seat < len(s.names) {
		return s.names[seat]
	}
	return "?"
}

// snapshot builds the view from seat (-1 for a spectator).
func (t *Table) snapshot(seat int) Snapshot {
	snap := Snapshot{Version: t.ver, Table: *t.info.Load(), You: seat, Deadline: t.deadline, Chat: t.chat.recent(), Result: t.result,
		Fair: t.fairInfo()}
	if t.game != nil {
		v := t.game.g.View(seat)
		snap.Game = &v
		snap.GameID = t.game.id
		snap.Playing = !t.game.g.Over()
		snap.names = make([]string, len(t.game.players))
		for i, p := range t.game.players {
			snap.names[i] = p.Name
		}
		snap.events = t.game.log(seat)
	}
	return snap
}

// LogLines describes the last n events of the game in words, from the
// viewer's seat: "bob passed 65 to you", "carol called alice a liar: 43,
// alice loses a life".
func (s Snapshot) LogLines(n int) []string {
	evs := s.events
	start := max(0, len(evs)-n)
	var out []string
	for i := start; i < len(evs); i++ {
		if line := s.describe(evs, i); line != "" {
			out = append(out, line)
		}
	}
	return out
}

func (s Snapshot) who(seat int) string {
	if seat == s.You {
		return "you"
	}
	return s.Name(seat)
}

// Who is the name of seat, or "you" for the viewer's own.
func (s Snapshot) Who(seat int) string { return s.who(seat) }

// receiver is who took the cup after the claim or pass at i.
func (s Snapshot) receiver(evs []engine.Event, i int) int {
	for j := i + 1; j < len(evs); j++ {
		switch evs[j].Type {
		case engine.EvRoll, engine.EvClaim, engine.EvPass, engine.EvChallenge, engine.EvGiveUp, engine.EvTimeout:
			return evs[j].Seat
		case engine.EvRound, engine.EvEnd:
			return -1
		}
	}
	if s.Game != nil && s.Game.Phase != engine.PhaseOver {
		return s.Game.Turn
	}
	return -1
}

func lives(n int) string {
	if n == 1 {
		return "a life"
	}
	return fmt.Sprintf("%d lives", n)
}

func (s Snapshot) describe(evs []engine.Event, i int) string {
	e := evs[i]
	switch e.Type {
	case engine.EvRound:
		return fmt.Sprintf("— round %d: %s open%s —", e.Round, s.who(e.Opener), verbS(e.Opener == s.You))
	case engine.EvRoll:
		switch {
		case e.Dice != engine.NoValue && e.Looked:
			return fmt.Sprintf("%s rolled %s", s.who(e.Seat), e.Dice.Name())
		case !e.Looked:
			return fmt.Sprintf("%s rolled without looking", s.who(e.Seat))
		}
		return fmt.Sprintf("%s rolled", s.who(e.Seat))
	case engine.EvClaim, engine.EvPass:
		verb := "announced"
		if e.Type == engine.EvPass {
			verb = "passed"
		}
		line := fmt.Sprintf("%s %s %s", s.who(e.Seat), verb, e.Value.Name())
		if r := s.receiver(evs, i); r >= 0 {
			line += " to " + s.who(r)
		}
		return line
	case engine.EvChallenge:
		return fmt.Sprintf("%s called %s a liar: %s, %s lose%s %s", s.who(e.Seat), s.who(e.Claimant),
			e.Dice.Name(), s.who(e.Loser), verbS(e.Loser == s.You), lives(e.LivesLost))
	case engine.EvGiveUp:
		return fmt.Sprintf("%s gave up against Mia and lose%s %s", s.who(e.Seat), verbS(e.Seat == s.You), lives(e.LivesLost))
	case engine.EvTimeout:
		return fmt.Sprintf("%s ran out of time and lose%s %s", s.who(e.Seat), verbS(e.Seat == s.You), lives(e.LivesLost))
	case engine.EvLeave:
		return fmt.Sprintf("%s left the game", s.who(e.Seat))
	case engine.EvOut:
		if e.Seat == s.You {
			return "you are out"
		}
		return fmt.Sprintf("%s is out", s.Name(e.Seat))
	case engine.EvEnd:
		if e.Winner == s.You {
			return "you win the game!"
		}
		return fmt.Sprintf("%s wins the game", s.Name(e.Winner))
	}
	return ""
}

// verbS is the "s" of a third-person verb, empty for "you".
func verbS(you bool) string {
	if you {
		return ""
	}
	return "s"
}
