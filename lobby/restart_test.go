package lobby

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/mia-game/mia/lobby/ai"
	"github.com/mia-game/mia/lobby/lobbytest"
)

// drive plays until done holds: the person whose subscription s is plays
// their turns, and the clock moves on by a bot table's pause between games
// at a time (longer than a bot's pause before a move): one timer fires
// each time, and no turn clock runs out.
func (e *env) drive(t *testing.T, tbl *Table, s *Subscription, person Player, done func(Snapshot) bool) Snapshot {
	t.Helper()
	r := rand.New(rand.NewPCG(3, 4))
	for step := 0; ; step++ {
		if step > 5000 {
			t.Fatal("drive: the table never got there")
		}
		snap := latest(t, s, tbl)
		if done(snap) {
			return snap
		}
		if snap.Playing && snap.You >= 0 && snap.You == snap.Game.Turn {
			if err := tbl.Act(ctxT(t), person, lobbytest.Move(snap.Game, r)); err != nil {
				t.Fatalf("%s moves: %v", person.Name(), err)
			}
			continue
		}
		e.clock.Advance(3 * e.botDelay)
		next(t, s, snap.Version)
	}
}

// seated lists a table's seats as the lobby shows them: name and bot.
func seated(info TableInfo) []SeatInfo {
	out := make([]SeatInfo, len(info.Players))
	for i, p := range info.Players {
		out[i] = SeatInfo{Name: p.Name, ID: p.ID, Bot: p.Bot}
	}
	return out
}

func gameOver(s Snapshot) bool { return !s.Playing && s.Result != nil }

// A table comes back from a stop, clean or not, as it was: its seats, its
// game, and a table of bots its schedule of games; and it plays on.
func TestRestartKeepsTables(t *testing.T) {
	cases := []struct {
		name   string
		seats  int
		bots   int
		person bool // the host sits down too
		// until brings the table to the state the stop finds it in.
		until func(Snapshot) bool
	}{
		{"waiting with bots seated", 4, 2, false, func(s Snapshot) bool { return !s.Playing && s.Table.Taken == 2 }},
		{"waiting with a person and a bot", 4, 1, true, func(s Snapshot) bool { return !s.Playing && s.Table.Taken == 2 }},
		{"a person between games", 3, 2, true, gameOver},
		{"all bots between games", 3, 3, false, gameOver},
		{"all bots playing", 3, 3, false, func(s Snapshot) bool { return s.Playing && len(s.Events()) > 12 }},
	}
	for _, stop := range []string{"clean", "crash"} {
		for _, c := range cases {
			t.Run(stop+"/"+c.name, func(t *testing.T) {
				e := newEnv(t)
				e.botDelay = time.Second
				e.restart()
				host := e.player("host")
				ctx := ctxT(t)
				rules := quickRules()
				rules.Lives = 1
				tbl, err := e.lobby.CreateTable(ctx, host, TableConfig{Name: "g1", Rules: rules, Seats: c.seats})
				if err != nil {
					t.Fatal(err)
				}
				s := mustWatch(t, tbl, host)
				if c.person {
					if err := tbl.Sit(ctx, host); err != nil {
						t.Fatal(err)
					}
				}
				for range c.bots {
					if _, err := tbl.AddBot(ctx, host, ai.Easy); err != nil {
						t.Fatal(err)
					}
				}
				before := e.drive(t, tbl, s, host, c.until)
				s.Close()

				if stop == "clean" {
					e.restart()
				} else {
					e.crash()
				}

				tbl2, err := e.lobby.Table("g1")
				if err != nil {
					t.Fatalf("the table is gone: %v", err)
				}
				s2 := mustWatch(t, tbl2, host)
				after := latest(t, s2, tbl2)
				if got, want := seated(after.Table), seated(before.Table); !slices.Equal(got, want) {
					t.Fatalf("seats after the stop:\n %+v\nbefore:\n %+v", got, want)
				}
				if after.Playing != before.Playing || (before.Playing && after.GameID != before.GameID) {
					t.Fatalf("after the stop: playing %v game %s; before: playing %v game %s",
						after.Playing, after.GameID, before.Playing, before.GameID)
				}

				// And it plays on: the waiting table fills up, the person
				// plays again, the bots by themselves; a game ends after the
				// one running (or last played) at the stop.
				switch {
				case !after.Playing && after.Table.Taken < c.seats:
					for range c.seats - after.Table.Taken {
						if _, err := tbl2.AddBot(ctx, host, ai.Easy); err != nil {
							t.Fatal(err)
						}
					}
				case c.person && !after.Playing:
					if err := tbl2.Start(ctx, host); err != nil {
						t.Fatalf("play again: %v", err)
					}
				}
				end := e.drive(t, tbl2, s2, host, func(s Snapshot) bool {
					return gameOver(s) && (s.GameID == before.GameID) == before.Playing
				})
				if before.Playing && end.GameID != before.GameID {
					t.Fatalf("the game of the stop, %s, did not finish first (%s did)", before.GameID, end.GameID)
				}
				if g, err := e.st.Game(end.GameID); err != nil || g.Ended.IsZero() || g.Winner < 0 {
					t.Fatalf("game %s: ended %v, winner %d, %v", end.GameID, g.Ended, g.Winner, err)
				}
				if c.bots == c.seats {
					// A bot table goes on to its next game by itself.
					e.drive(t, tbl2, s2, host, func(s Snapshot) bool { return s.Playing && s.GameID != end.GameID })
				}
			})
		}
	}
}

// A player who left a game has no seat after a stop, nor one kicked
// between games; those still seated keep theirs.
func TestRestartForgetsThoseWhoLeft(t *testing.T) {
	e := newEnv(t)
	e.botDelay = time.Second
	e.restart()
	host, bob, carol := e.player("host"), e.player("bob"), e.player("carol")
	ctx := ctxT(t)
	rules := quickRules()
	rules.Lives = 1
	tbl, err := e.lobby.CreateTable(ctx, host, TableConfig{Name: "g1", Rules: rules, Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	s := mustWatch(t, tbl, host)
	for _, p := range []Player{host, bob} {
		if err := tbl.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tbl.AddBot(ctx, host, ai.Easy); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Stand(ctx, bob); err != nil { // leaves the running game
		t.Fatal(err)
	}
	e.drive(t, tbl, s, host, gameOver)
	if err := tbl.SetRules(ctx, host, rules, 4); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Sit(ctx, carol); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Kick(ctx, host, carol.ID); err != nil {
		t.Fatal(err)
	}
	e.crash()
	tbl2, err := e.lobby.Table("g1")
	if err != nil {
		t.Fatal(err)
	}
	info := tbl2.Info()
	if got := info.Players; len(got) != 2 || got[0].Name != "host" || !got[1].Bot || info.State != "waiting" || info.Seats != 4 {
		t.Fatalf("after the stop: %s, %d seats: %+v; want host and the bot waiting at 4 seats", info.State, info.Seats, got)
	}
}
