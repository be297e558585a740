package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
)

// replayCommand is `replay GAME`.
var replayCommand = Command{
	Name:    "replay",
	Args:    "GAME",
	Summary: "every event of a finished game, all dice shown (--json: PROTOCOL.md §3)",
	JSON:    true,
	Run:     runReplay,
}

// GameJSON is the document of `replay GAME --json`: PROTOCOL.md §3, the
// fields in its order. Events are written by engine.Event's MarshalJSON.
type GameJSON struct {
	ID        string         `json:"id"`
	Table     string         `json:"table"`
	Rules     engine.Options `json:"rules"`
	Players   []SeatJSON     `json:"players"`
	Started   time.Time      `json:"started"`
	Ended     time.Time      `json:"ended"`
	Winner    int            `json:"winner"`
	Standings []int          `json:"standings"`
	Events    []engine.Event `json:"events"`
}

func runReplay(ctx context.Context, c *Call) int {
	if len(c.Args) != 1 || strings.HasPrefix(c.Args[0], "-") {
		return c.Usage()
	}
	recs := c.records()
	if recs == nil {
		return ExitRefused
	}
	id := c.Args[0]
	g, evs, err := recs.Game(ctx, id)
	noGame := func() int {
		return c.Refuse("no game %s; list the games with:  %s", lobby.Clean(id, 24), c.Hint("history"))
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		return noGame()
	case err != nil:
		return c.serverError("read the game", err)
	}
	if ok, err := recs.GameShown(ctx, g, c.shows()); err != nil {
		return c.serverError("read the game", err)
	} else if !ok {
		return noGame() // a private table's game is not there for others
	}
	switch {
	case g.Ended.IsZero():
		return c.Refuse("game %s is still being played: its dice stay hidden until it ends; replay it then", g.ID)
	case !g.Finished():
		return c.Refuse("game %s was abandoned before it ended; it has no result to replay", g.ID)
	}
	if c.JSON {
		return c.WriteJSON(GameJSON{ID: g.ID, Table: g.Table, Rules: g.Rules, Players: seatsJSON(g),
			Started: g.Started, Ended: g.Ended, Winner: g.Winner, Standings: g.Standings, Events: evs})
	}
	writeReplay(c.Stdout, g, evs)
	return ExitOK
}

// writeReplay tells a finished game in words, round by round, with every
// die, then each player's lives round by round.
func writeReplay(w io.Writer, g store.Game, evs []engine.Event) {
	name := func(seat int) string { return seatName(g, seat) }
	fmt.Fprintf(w, "Game %s at %s: %s\n", g.ID, lobby.Clean(g.Table, lobby.MaxNameLen), rulesSummary(g.Rules))
	fmt.Fprintf(w, "Started %s, ended %s (UTC). Players: %s\n",
		g.Started.UTC().Format("2006-01-02 15:04:05"), g.Ended.UTC().Format("2006-01-02 15:04:05"), playerList(g))
	lives := make([]int, len(g.Seats))
	for i := range lives {
		lives[i] = g.Rules.Lives
	}
	var perRound [][]int // lives of every seat at the end of each round
	endRound := func() { perRound = append(perRound, append([]int(nil), lives...)) }
	var (
		pending *engine.Event // a roll not told yet
		claim   engine.Value  // the claim standing
	)
	line := func(format string, args ...any) { fmt.Fprintf(w, "  "+format+"\n", args...) }
	rolled := func(r engine.Event) string {
		s := fmt.Sprintf("%s rolled %s", name(r.Seat), r.Dice.Name())
		if !r.Looked {
			s += " without looking"
		}
		return s
	}
	flush := func() {
		if pending != nil {
			line("%s", rolled(*pending))
			pending = nil
		}
	}
	for i := range evs {
		e := evs[i]
		if e.Type != engine.EvClaim {
			flush()
		}
		switch e.Type {
		case engine.EvRound:
			if e.Round > 1 {
				endRound()
			}
			claim = engine.NoValue
			fmt.Fprintf(w, "Round %d: %s opens\n", e.Round, name(e.Opener))
		case engine.EvRoll:
			pending = &evs[i]
		case engine.EvClaim:
			s := fmt.Sprintf("%s announced %s", name(e.Seat), e.Value.Name())
			if pending != nil && pending.Seat == e.Seat {
				s = rolled(*pending) + ", announced " + e.Value.Name()
				if pending.Looked && pending.Dice != e.Value {
					if g.Rules.Ranking.Compare(e.Value, pending.Dice) < 0 {
						s += " (bluff, lower than the dice)"
					} else {
						s += " (bluff)"
					}
				}
				pending = nil
			}
			flush()
			line("%s", s)
			claim = e.Value
		case engine.EvPass:
			if e.Value == claim {
				line("%s passed %s on without rolling", name(e.Seat), e.Value.Name())
			} else {
				line("%s passed on without rolling, raising blind to %s", name(e.Seat), e.Value.Name())
			}
			claim = e.Value
		case engine.EvChallenge:
			why := "the dice beat or equal the claim"
			if e.Loser == e.Claimant {
				why = "caught bluffing"
				if e.Claim == engine.Mia {
					why = "no Mia in the cup"
				}
			} else if e.Claim == engine.Mia {
				why = "it was Mia"
			}
			line("%s called %s a liar: %s — %s loses %s (%s)", name(e.Seat), name(e.Claimant), e.Dice.Name(),
				name(e.Loser), livesWord(e.LivesLost), why)
			lives[e.Loser] -= e.LivesLost
		case engine.EvGiveUp:
			line("%s gave up against Mia — loses %s", name(e.Seat), livesWord(e.LivesLost))
			lives[e.Seat] -= e.LivesLost
		case engine.EvTimeout:
			line("%s ran out of time — loses %s", name(e.Seat), livesWord(e.LivesLost))
			lives[e.Seat] -= e.LivesLost
		case engine.EvLeave:
			line("%s left the game with %s", name(e.Seat), livesWord(e.LivesLost))
			lives[e.Seat] -= e.LivesLost
		case engine.EvOut:
			line("%s is out", name(e.Seat))
		case engine.EvEnd:
			endRound()
			line("%s wins the game", name(e.Winner))
		}
	}
	flush()
	standings := make([]string, len(g.Standings))
	for i, s := range g.Standings {
		standings[i] = fmt.Sprintf("%d. %s", i+1, name(s))
	}
	fmt.Fprintf(w, "\nStandings: %s\n", strings.Join(standings, "  "))
	writeLivesChart(w, g, perRound)
}

// writeLivesChart draws each player's lives: hearts for the lives left at
// the end (♥) and lost (♡), then the lives after each round.
func writeLivesChart(w io.Writer, g store.Game, perRound [][]int) {
	if len(perRound) == 0 {
		return
	}
	width := 0
	for i := range g.Seats {
		width = max(width, len([]rune(seatName(g, i))))
	}
	fmt.Fprintln(w, "Lives after each round:")
	for seat := range g.Seats {
		last := max(perRound[len(perRound)-1][seat], 0)
		hearts := strings.Repeat("♥", last) + strings.Repeat("♡", max(g.Rules.Lives-last, 0))
		nums := make([]string, len(perRound))
		for r, l := range perRound {
			nums[r] = fmt.Sprint(max(l[seat], 0))
		}
		fmt.Fprintf(w, "  %-*s %s → per round: %s\n", width, seatName(g, seat), hearts, strings.Join(nums, " "))
	}
}

// livesWord is "a life" or "N lives".
func livesWord(n int) string {
	if n == 1 {
		return "a life"
	}
	return fmt.Sprintf("%d lives", n)
}
