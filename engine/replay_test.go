package engine

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// scriptedLog plays a short four-round game with every kind of event and
// returns its events and final state.
func scriptedLog(t *testing.T) (*table, Options) {
	t.Helper()
	o := rules(func(o *Options) { o.Lives = 2 })
	tb := newTable(t, o, 3, script(1, 43, 21, 55, 31))
	tb.do(roll(1))       // 43
	tb.do(claim(1, 52))  //
	tb.do(pass(2))       //
	tb.do(challenge(0))  // 43 < 52: 2 loses; 0 opens
	tb.do(roll(0))       // Mia
	tb.do(claim(0, Mia)) //
	tb.do(challenge(1))  // Mia: 1 loses 2 and is out; 2 opens
	tb.do(rollBlind(2))  // 55
	tb.do(claim(2, 41))  //
	tb.do(roll(0))       // 31
	tb.do(claim(0, 42))  //
	tb.do(timeout(2))    // 2 out: 0 wins
	if !tb.g.Over() || tb.g.Winner() != 0 {
		t.Fatalf("scripted log: over %v winner %d", tb.g.Over(), tb.g.Winner())
	}
	return tb, o
}

func TestReplaySame(t *testing.T) {
	tb, o := scriptedLog(t)
	stamped := slices.Clone(tb.events)
	for i := range stamped {
		stamped[i].At = time.Unix(int64(1e9+i), 0) // At is the caller's and not compared
	}
	g, err := Replay(o, 3, stamped, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !sameGame(g, tb.g) {
		t.Fatalf("replayed %+v, played %+v", g, tb.g)
	}
	for s := Spectator; s < 3; s++ {
		if !sameView(g.View(s), tb.g.View(s)) {
			t.Fatalf("seat %d: %+v vs %+v", s, g.View(s), tb.g.View(s))
		}
	}
}

// TestReplayPrefix replays every prefix of a log that ends between two
// actions, and continues the game from it with new dice.
func TestReplayPrefix(t *testing.T) {
	o := DefaultOptions()
	r := newPCG(5)
	live, evs, _ := New(o, 4, r)
	ends := []int{len(evs)}
	for !live.Over() {
		e, err := live.Apply(randomAction(r, live, 10))
		if err == nil {
			evs = append(evs, e...)
			ends = append(ends, len(evs))
		}
	}
	for _, n := range ends {
		g, err := Replay(o, 4, evs[:n], &diceScript{q: []int{5, 5}})
		if err != nil {
			t.Fatalf("prefix %d: %v", n, err)
		}
		if g.Seq() != n {
			t.Fatalf("prefix %d: seq %d", n, g.Seq())
		}
		if g.Over() {
			continue
		}
		// The replayed game goes on with the Source it was given.
		if g.Phase() == PhaseOpen || (g.Phase() == PhaseRespond && func() bool { v, _ := g.CurrentClaim(); return v != Mia }()) {
			e, err := g.Apply(roll(g.Turn()))
			if err != nil || e[0].Dice != 66 {
				t.Fatalf("prefix %d: roll after replay: %v %v", n, e, err)
			}
		}
	}
	// A prefix ending inside an action's events is refused.
	for i := 1; i < len(evs); i++ {
		if slices.Contains(ends, i) {
			continue
		}
		if _, err := Replay(o, 4, evs[:i], nil); !errors.Is(err, ErrBadEvent) {
			t.Fatalf("prefix %d ends inside an action: %v", i, err)
		}
	}
}

func TestReplayTampered(t *testing.T) {
	tb, o := scriptedLog(t)
	log := tb.events
	find := func(typ EventType, nth int) int {
		for i, e := range log {
			if e.Type == typ {
				if nth == 0 {
					return i
				}
				nth--
			}
		}
		t.Fatalf("no %s #%d", typ, nth)
		return -1
	}
	edit := func(f func(evs []Event) []Event) []Event { return f(slices.Clone(log)) }
	renumber := func(evs []Event) []Event {
		for i := range evs {
			evs[i].Seq = i + 1
		}
		return evs
	}
	tests := []struct {
		name string
		evs  []Event
	}{
		{"empty", nil},
		{"not starting with a round", log[1:]},
		{"first round numbered 2", edit(func(e []Event) []Event { e[0].Round = 2; return e })},
		{"opener out of range", edit(func(e []Event) []Event { e[0].Opener = 3; return e })},
		{"negative opener", edit(func(e []Event) []Event { e[0].Opener = -1; return e })},
		{"changed dice in a roll", edit(func(e []Event) []Event { e[find(EvRoll, 0)].Dice = 55; return e })},
		{"changed dice in a challenge", edit(func(e []Event) []Event { e[find(EvChallenge, 0)].Dice = 55; return e })},
		{"roll without dice", edit(func(e []Event) []Event { e[find(EvRoll, 0)] = e[find(EvRoll, 0)].Redacted(-1); return e })},
		{"roll with invalid dice", edit(func(e []Event) []Event { e[find(EvRoll, 0)].Dice = 12; return e })},
		{"wrong loser", edit(func(e []Event) []Event { e[find(EvChallenge, 0)].Loser = 0; return e })},
		{"wrong lives lost", edit(func(e []Event) []Event { e[find(EvChallenge, 1)].LivesLost = 1; return e })},
		{"wrong claimant", edit(func(e []Event) []Event { e[find(EvChallenge, 0)].Claimant = 1; return e })},
		{"claim changed", edit(func(e []Event) []Event { e[find(EvClaim, 0)].Value = 64; return e })}, // then the pass of 52 is lower
		{"illegal claim", edit(func(e []Event) []Event { e[find(EvClaim, 3)].Value = 31; return e })},
		{"pass by the wrong seat", edit(func(e []Event) []Event { e[find(EvPass, 0)].Seat = 1; return e })},
		{"gap in seq", edit(func(e []Event) []Event { // numbers skip 4; no event is missing
			for i := 3; i < len(e); i++ {
				e[i].Seq = i + 2
			}
			return e
		})},
		{"seq off by one", edit(func(e []Event) []Event {
			for i := 4; i < len(e); i++ {
				e[i].Seq++
			}
			return e
		})},
		{"repeated seq", edit(func(e []Event) []Event { e[5].Seq = e[4].Seq; return e })},
		{"extra event at the end", edit(func(e []Event) []Event {
			return append(e, Event{Seq: len(e) + 1, Type: EvClaim, Seat: 0, Value: 65})
		})},
		{"extra out", edit(func(e []Event) []Event {
			i := find(EvOut, 0)
			return renumber(slices.Insert(e, i+1, e[i]))
		})},
		{"extra round", edit(func(e []Event) []Event {
			return renumber(slices.Insert(e, 3, Event{Type: EvRound, Round: 1, Opener: 2}))
		})},
		{"missing round", edit(func(e []Event) []Event {
			return renumber(slices.Delete(e, find(EvRound, 1), find(EvRound, 1)+1))
		})},
		{"event dropped", edit(func(e []Event) []Event {
			return slices.Delete(e, find(EvPass, 0), find(EvPass, 0)+1)
		})},
		{"missing out", edit(func(e []Event) []Event {
			return renumber(slices.Delete(e, find(EvOut, 0), find(EvOut, 0)+1))
		})},
		{"missing end", edit(func(e []Event) []Event { return e[:len(e)-1] })},
		{"wrong winner", edit(func(e []Event) []Event { e[len(e)-1].Winner = 2; return e })},
		{"unknown type", edit(func(e []Event) []Event { e[2].Type = "dance"; return e })},
		{"events swapped", edit(func(e []Event) []Event { e[2], e[3] = e[3], e[2]; return renumber(e) })},
		{"leave lives lost", edit(func(e []Event) []Event {
			e = e[:find(EvRound, 1)+1]
			return append(e, Event{Seq: len(e) + 1, Type: EvLeave, Seat: 1, LivesLost: 1}, Event{Seq: len(e) + 2, Type: EvOut, Seat: 1})
		})},
	}
	for _, tt := range tests {
		g, err := Replay(o, 3, tt.evs, nil)
		if !errors.Is(err, ErrBadEvent) || g != nil {
			t.Errorf("%s: Replay = %v, %v; want ErrBadEvent", tt.name, g, err)
		}
	}
	// The untouched log still replays (the edits worked on copies).
	if _, err := Replay(o, 3, log, nil); err != nil {
		t.Fatal(err)
	}
	// Wrong rules or seats.
	if _, err := Replay(rules(func(o *Options) { o.Lives = 3 }), 3, log, nil); !errors.Is(err, ErrBadEvent) {
		t.Errorf("other lives: %v", err)
	}
	if _, err := Replay(rules(func(o *Options) { o.Lives = 0 }), 3, log, nil); !errors.Is(err, ErrBadOptions) {
		t.Errorf("bad options: %v", err)
	}
	if _, err := Replay(o, 1, log, nil); !errors.Is(err, ErrBadSeats) {
		t.Errorf("one seat: %v", err)
	}
	if _, err := Replay(o, 4, log, nil); !errors.Is(err, ErrBadEvent) {
		t.Errorf("four seats: %v", err)
	}
}
