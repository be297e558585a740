package lobby

import (
	"errors"
	"testing"

	"github.com/mia-game/mia/engine"
)

// TestMaySitAgreesWithSit: what TableInfo.MaySit says of a person at a
// table (a free seat, their own seat, a game running, a full table after
// its game, an event's table) is what Sit then answers them.
func TestMaySitAgreesWithSit(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	a, b, c := e.player("alice"), e.player("bob"), e.player("carol")
	open, err := e.lobby.CreateTable(ctx, a, TableConfig{Name: "open", Rules: engine.DefaultOptions(), Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	rules := engine.DefaultOptions()
	rules.Lives = 1
	duel, err := e.lobby.CreateTable(ctx, a, TableConfig{Name: "duel", Rules: rules, Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Player{a, b} { // the last seat taken starts the game
		if err := duel.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	event, err := e.lobby.CreateEventTable(ctx, EventTable{Event: "cup", Name: "cup-1", Rules: rules, Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	// endDuel plays duel's one-life game to its end: both stay seated.
	endDuel := func() {
		opener, other := a, b
		err := duel.Act(ctx, opener, engine.Action{Kind: engine.Roll, Look: true})
		if errors.Is(err, engine.ErrNotYourTurn) {
			opener, other = b, a
			err = duel.Act(ctx, opener, engine.Action{Kind: engine.Roll, Look: true})
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := duel.Act(ctx, opener, engine.Action{Kind: engine.Claim, Value: engine.Mia}); err != nil {
			t.Fatal(err)
		}
		if err := duel.Act(ctx, other, engine.Action{Kind: engine.Challenge}); err != nil {
			t.Fatal(err)
		}
		for i := 0; duel.Info().State == "playing"; i++ {
			if i > 1000 {
				t.Fatal("the game does not end")
			}
			e.clock.Advance(RestBetweenGames)
		}
	}
	cases := []struct {
		name   string
		before func()
		tbl    *Table
		want   error
	}{
		{"a free seat", nil, open, nil},
		{"their own seat", nil, open, ErrSeated},
		{"a game running", nil, duel, ErrGameRunning},
		{"a full table after its game", endDuel, duel, ErrTableFull},
		{"an event's table", nil, event, ErrEventSeats},
	}
	for _, tc := range cases {
		if tc.before != nil {
			tc.before()
		}
		may := tc.tbl.Info().MaySit(c)
		sat := tc.tbl.Sit(ctx, c)
		if !errors.Is(may, tc.want) || !errors.Is(sat, tc.want) {
			t.Errorf("%s: MaySit %v, Sit %v; want %v", tc.name, may, sat, tc.want)
		}
	}
}
