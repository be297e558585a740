package verdict

import (
	"context"
	"errors"
	"fmt"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/solver"
	"github.com/mia-game/mia/store"
)

// Summary is one player's moves summed up (engine/solver).
type Summary = solver.Summary

// Career is a person's moves over their games summed up.
type Career struct {
	Summary
	Games int // the games judged
	// Pending counts the games whose verdicts were not worked out in
	// time (ErrNotReady) or whose rule set the budget did not let be
	// solved: asked again later, they count.
	Pending int
	// Refused is the budget's refusal, when it refused some (the door
	// says it).
	Refused error
}

// CareerGames is how many of a person's last games a career sums up, at
// every door (the stats command, the stats screen, the web's player
// page): the games the viewer may see.
const CareerGames = 29

// Over sums up person's moves in games (their seats of each; a game not
// ended is left out, Shown; at most the first CareerGames), read
// reading a game's events, asked from source (Of). The
// verdicts are computed on demand and kept (Judge): a person's games are
// a few dozen reads and, once the rule sets are solved, milliseconds
// each; a game not worked out when ctx ends counts in Pending.
func (jd *Judge) Over(ctx context.Context, source, person string, games []store.Game,
	read func(ctx context.Context, id string) ([]engine.Event, error)) (Career, error) {
	var c Career
	if jd == nil {
		return c, ErrOff
	}
	// Every game's job begins before any is waited for: games whose rule
	// set waits for a solve wait together, and a reader who asks again
	// finds all of them worked out.
	type started struct {
		g   store.Game
		j   *job
		err error
	}
	var all []started
	for _, g := range games[:min(len(games), CareerGames)] {
		if !Shown(g) {
			continue
		}
		if ctx.Err() != nil {
			c.Pending++
			continue
		}
		evs, err := read(ctx, g.ID)
		if err != nil {
			return c, fmt.Errorf("read game %s: %w", g.ID, err)
		}
		j, err := jd.start(source, g, evs)
		all = append(all, started{g: g, j: j, err: err})
	}
	for _, st := range all {
		var a Analysis
		err := st.err
		if err == nil {
			a, err = st.j.wait(ctx, st.g)
		}
		switch {
		case errors.Is(err, ErrNotReady):
			c.Pending++
			continue
		case errors.Is(err, ErrUnsolved):
			c.Pending++
			if c.Refused == nil {
				c.Refused = err
			}
			continue
		case err != nil:
			return c, err
		}
		judged := false
		for seat, s := range st.g.Seats {
			if s.Person == person && seat < len(a.Players) && a.Players[seat].Decisions > 0 {
				c.Add(a.Players[seat])
				judged = true
			}
		}
		if judged {
			c.Games++
		}
	}
	return c, nil
}
