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
	// time (ErrNotReady): asked again, they count.
	Pending int
}

// Over sums up person's moves in games (their seats of each; a game not
// ended is left out, Shown), read reading a game's events. The
// verdicts are computed on demand and kept (Judge): a person's games are
// a few dozen reads and, once the rule sets are solved, milliseconds
// each; a game not worked out when ctx ends counts in Pending.
func (jd *Judge) Over(ctx context.Context, person string, games []store.Game,
	read func(ctx context.Context, id string) ([]engine.Event, error)) (Career, error) {
	var c Career
	if jd == nil {
		return c, ErrOff
	}
	for _, g := range games {
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
		a, err := jd.Of(ctx, g, evs)
		switch {
		case errors.Is(err, ErrNotReady):
			c.Pending++
			continue
		case err != nil:
			return c, err
		}
		judged := false
		for seat, s := range g.Seats {
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
