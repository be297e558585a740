package lobby

import (
	"testing"
	"time"
)

// TestFullTableStartsAfterARest: after a game, a table whose seats are all
// taken deals the next game by itself after RestBetweenGames, as the first
// game starts when the last seat fills; one with a free seat, or with a
// seated person gone from the table, waits for "play again".
func TestFullTableStartsAfterARest(t *testing.T) {
	cases := []struct {
		name   string
		seats  int
		during func(t *testing.T, tbl *Table, alice, bob Player, bobSub *Subscription)
		starts bool
	}{
		{name: "full, everyone there", seats: 2, starts: true},
		{name: "a free seat", seats: 3},
		{name: "a player went away", seats: 2, during: func(t *testing.T, _ *Table, _, _ Player, bobSub *Subscription) {
			bobSub.Close()
		}},
		{name: "a player stood up", seats: 2, during: func(t *testing.T, tbl *Table, _, bob Player, _ *Subscription) {
			if err := tbl.Stand(ctxT(t), bob); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "a player away came back", seats: 2, starts: true, during: func(t *testing.T, tbl *Table, _, bob Player, bobSub *Subscription) {
			bobSub.Close()
			mustWatch(t, tbl, bob)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			ctx := ctxT(t)
			rules := quickRules()
			rules.Lives = 1
			alice, bob := e.player("alice"), e.player("bob")
			tbl, err := e.lobby.CreateTable(ctx, alice, TableConfig{Name: "rest", Rules: rules, Seats: c.seats})
			if err != nil {
				t.Fatal(err)
			}
			subs := map[string]*Subscription{alice.ID: mustWatch(t, tbl, alice), bob.ID: mustWatch(t, tbl, bob)}
			for _, p := range []Player{alice, bob} {
				if err := tbl.Sit(ctx, p); err != nil {
					t.Fatal(err)
				}
			}
			if c.seats > 2 {
				if err := tbl.Start(ctx, alice); err != nil {
					t.Fatal(err)
				}
			}
			until(t, subs[alice.ID], "the first game", func(s Snapshot) bool { return s.Playing })
			playOut(t, tbl, subs, []Player{alice, bob}, 0)
			if c.during != nil {
				c.during(t, tbl, alice, bob, subs[bob.ID])
			}
			advance(e, tbl, RestBetweenGames-time.Second)
			if n := gamesOf(e, "rest"); n != 1 {
				t.Fatalf("%d games before the rest is over", n)
			}
			if got := tbl.Info().StartsByItself; got != c.starts {
				t.Errorf("the doors are told StartsByItself %v, want %v", got, c.starts)
			}
			advance(e, tbl, time.Second)
			advance(e, tbl, 0)
			want := 1
			if c.starts {
				want = 2
			}
			if n := gamesOf(e, "rest"); n != want {
				t.Fatalf("%d games after the rest, want %d (%+v)", n, want, tbl.Info())
			}
		})
	}
}
