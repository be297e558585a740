package maexchen

import (
	"strings"
	"testing"
)

// TestEveryEnding plays one full round over UDP for each way a round of
// the Mäxchen server ends, and checks every message each bot hears.
func TestEveryEnding(t *testing.T) {
	cases := []struct {
		name  string
		bots  int
		dice  [][2]int // the rolls, in order (each die as drawn)
		moves func(p play)
		lost  string // the PLAYER LOST line, names as "0,1" for order[0] and order[1]
		loser []int  // seats of order that lost
	}{
		{"caught bluffing", 2, [][2]int{{1, 3}}, func(p play) {
			first, second := p.order[0], p.order[1]
			first.send("ROLL;" + first.expect("YOUR TURN")[0])
			allOf(p, "PLAYER ROLLS;"+first.name)
			rolled := first.expect("ROLLED")
			if rolled[0] != "3,1" {
				t.Fatalf("ROLLED %q: the higher die first", rolled[0])
			}
			first.send("ANNOUNCE;6,6;" + rolled[1])
			allOf(p, "ANNOUNCED;"+first.name+";6,6")
			second.send("SEE;" + second.expect("YOUR TURN")[0])
			allOf(p, "PLAYER WANTS TO SEE;"+second.name, "ACTUAL DICE;3,1")
		}, "CAUGHT_BLUFFING", []int{0}},
		{"see failed, announced with the lower die first", 2, [][2]int{{4, 5}}, func(p play) {
			first, second := p.order[0], p.order[1]
			first.send("ROLL;" + first.expect("YOUR TURN")[0])
			allOf(p, "PLAYER ROLLS;"+first.name)
			first.send("ANNOUNCE;4,5;" + first.expect("ROLLED")[1])
			allOf(p, "ANNOUNCED;"+first.name+";5,4")
			second.send("SEE;" + second.expect("YOUR TURN")[0])
			allOf(p, "PLAYER WANTS TO SEE;"+second.name, "ACTUAL DICE;5,4")
		}, "SEE_FAILED", []int{1}},
		{"mia", 3, [][2]int{{1, 2}}, func(p play) {
			first := p.order[0]
			first.send("ROLL;" + first.expect("YOUR TURN")[0])
			allOf(p, "PLAYER ROLLS;"+first.name)
			first.send("ANNOUNCE;2,1;" + first.expect("ROLLED")[1])
			allOf(p, "ANNOUNCED;"+first.name+";2,1", "ACTUAL DICE;2,1")
		}, "MIA", []int{1, 2}},
		{"lied about mia", 2, [][2]int{{3, 2}}, func(p play) {
			first := p.order[0]
			first.send("ROLL;" + first.expect("YOUR TURN")[0])
			allOf(p, "PLAYER ROLLS;"+first.name)
			first.send("ANNOUNCE;1,2;" + first.expect("ROLLED")[1])
			allOf(p, "ANNOUNCED;"+first.name+";2,1", "ACTUAL DICE;3,2")
		}, "LIED_ABOUT_MIA", []int{0}},
		{"announced losing dice", 2, [][2]int{{5, 4}, {6, 6}}, func(p play) {
			first, second := p.order[0], p.order[1]
			first.send("ROLL;" + first.expect("YOUR TURN")[0])
			allOf(p, "PLAYER ROLLS;"+first.name)
			first.send("ANNOUNCE;5,4;" + first.expect("ROLLED")[1])
			allOf(p, "ANNOUNCED;"+first.name+";5,4")
			second.send("ROLL;" + second.expect("YOUR TURN")[0])
			allOf(p, "PLAYER ROLLS;"+second.name)
			second.send("ANNOUNCE;4,3;" + second.expect("ROLLED")[1])
			allOf(p, "ANNOUNCED;"+second.name+";4,3")
		}, "ANNOUNCED_LOSING_DICE", []int{1}},
		{"see before the first roll", 2, nil, func(p play) {
			first := p.order[0]
			first.send("SEE;" + first.expect("YOUR TURN")[0])
			allOf(p, "PLAYER WANTS TO SEE;"+first.name)
		}, "SEE_BEFORE_FIRST_ROLL", []int{0}},
		{"did not take turn", 2, nil, func(p play) {
			p.order[0].expect("YOUR TURN")
			p.e.clock.Advance(p.e.gw.cfg.Timeout)
		}, "DID_NOT_TAKE_TURN", []int{0}},
		{"did not announce", 2, [][2]int{{6, 1}}, func(p play) {
			first := p.order[0]
			first.send("ROLL;" + first.expect("YOUR TURN")[0])
			allOf(p, "PLAYER ROLLS;"+first.name)
			first.expect("ROLLED")
			p.e.clock.Advance(p.e.gw.cfg.Timeout)
		}, "DID_NOT_ANNOUNCE", []int{0}},
	}
	names := []string{"rational-python-bot", "simple-java-bot", "luegender-python-bot"}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			bots, tokens := e.table(names[:tc.bots]...)
			// The seating's draws, the opener (the first listed), the dice.
			for i := tc.bots - 1; i > 0; i-- {
				e.dice.push(0)
			}
			e.dice.push(0)
			for _, d := range tc.dice {
				e.dice.roll(d[0], d[1])
			}
			order := e.join(bots, tokens)
			tc.moves(play{e, order})
			var losers []string
			for _, s := range tc.loser {
				losers = append(losers, order[s].name)
			}
			lost := "PLAYER LOST;" + strings.Join(losers, ",") + ";" + tc.lost
			for _, b := range order {
				if got := b.next(); got != lost {
					t.Fatalf("%s got %q, want %q", b.name, got, lost)
				}
				score := b.expect("SCORE")
				if len(score) != 1 || len(strings.Split(score[0], ",")) != tc.bots {
					t.Fatalf("%s got SCORE %q, want every player", b.name, score)
				}
				for _, entry := range strings.Split(score[0], ",") {
					name, pts, _ := strings.Cut(entry, ":")
					want := "1"
					for _, l := range losers {
						if l == name {
							want = "0"
						}
					}
					if pts != want {
						t.Fatalf("SCORE %q: %s has %s points, want %s", score[0], name, pts, want)
					}
				}
				b.expect("ROUND STARTING") // the next round, at once
			}
			// The round is a finished game in history, its players bots
			// under their Mäxchen names.
			gs := e.games()
			if len(gs) != 1 {
				t.Fatalf("%d games in history, want 1", len(gs))
			}
			for i, s := range gs[0].Seats {
				if !s.Bot || s.Person != IDPrefix+s.Name || s.Fingerprint != s.Person || s.Name != order[i].name {
					t.Fatalf("seat %d stored as %+v, want bot %s", i, s, order[i].name)
				}
			}
		})
	}
}

// play is a round in play: the bots in the order of ROUND STARTED.
type play struct {
	e     *env
	order []*client
}

// allOf expects the same messages, in order, at every bot of the round.
func allOf(p play, msgs ...string) {
	for _, m := range msgs {
		all(m, p.order...)
	}
}
