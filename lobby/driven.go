package lobby

import (
	"context"

	"github.com/mia-game/mia/engine"
)

// Errors of driven tables.
var (
	ErrDriven    = NewError(Refused, "this table's games are dealt by its host's program; sit down and wait for the next")
	ErrNotDriven = NewError(Refused, "the table is not driven: start its games with Start")
	// ErrDrivenClose refuses to close a driven table: its host's program
	// would stop with it.
	ErrDrivenClose = NewError(Refused, "this table is run by the server's program that deals its games (the Mäxchen gateway); it closes only when the server runs without that program")
)

// Drive hands a table's games to its host's program (on), or gives them
// back (off). A driven table is how the Mäxchen gateway runs its rounds:
// games start only by Deal, never by Start nor by a full table, nor again
// by themselves; people may sit down while a game runs, for the next deal;
// and a person whose turn clock runs out stands up. Host only. Not stored:
// the program drives the table again when it starts.
func (t *Table) Drive(ctx context.Context, host Player, on bool) error {
	return t.do(ctx, func(context.Context) error {
		if host.ID != t.rec.Host {
			return ErrNotHost
		}
		if t.driven == on {
			return nil
		}
		t.driven = on
		if !on {
			t.dismissGuests()
		}
		t.changed(false)
		return nil
	})
}

// Deal starts the next game of a driven table (host only) and returns its
// players, in seat order. They are the sitters who have the table open
// (built-in bots always do; anyone else who left the table's screen is
// stood up), then guests, who sit for this game only and stand when it
// ends, as many as there are free seats, in the order given. With fewer
// than two players it starts nothing and returns ErrTooFewPlayers with
// those it would have seated.
func (t *Table) Deal(ctx context.Context, host Player, guests []Player) ([]Player, error) {
	var players []Player
	err := t.do(ctx, func(actx context.Context) error {
		if host.ID != t.rec.Host {
			return ErrNotHost
		}
		if !t.driven {
			return ErrNotDriven
		}
		if t.running() {
			return ErrGameRunning
		}
		kept := t.sitters[:0:0]
		for _, p := range t.sitters {
			if isBuiltin(p) || t.watchers[p.ID] > 0 {
				kept = append(kept, p)
			}
		}
		stood := len(kept) != len(t.sitters)
		deal := func(actx context.Context) error {
			seated := append([]Player(nil), kept...)
			added := make(map[string]bool, len(guests))
			for _, g := range guests {
				if len(seated) >= t.rec.Seats {
					break
				}
				if added[g.ID] || t.seatOf(g.ID) >= 0 {
					continue
				}
				added[g.ID] = true
				seated = append(seated, g)
			}
			players = seated
			if len(seated) < engine.MinSeats {
				if stood {
					t.changed(false)
				}
				return ErrTooFewPlayers
			}
			t.sitters = seated // start deals them
			err := t.start(actx, func(context.Context) error {
				t.sitters, t.guests = seated, added
				players = append([]Player(nil), t.game.players...)
				t.changed(true)
				return nil
			})
			if err != nil {
				// Not begun (or not yet: a write that paused the table
				// seats them as it is saved).
				t.sitters = kept
				t.changed(false)
			}
			return err
		}
		if !stood {
			return deal(actx)
		}
		return t.seatSitters(actx, kept, deal)
	})
	return players, err
}

// dismissGuests stands up the players Deal seated for the last game only.
func (t *Table) dismissGuests() {
	if len(t.guests) == 0 {
		return
	}
	kept := t.sitters[:0]
	for _, p := range t.sitters {
		if !t.guests[p.ID] {
			kept = append(kept, p)
		}
	}
	t.sitters, t.guests = kept, nil
}
