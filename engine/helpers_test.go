package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// diceScript is a Source that hands out a fixed list of draws: the first
// opener, then two dice per roll. It panics when it runs dry, so a scripted
// game that rolls more often than its script says fails loudly.
type diceScript struct{ q []int }

// script returns a Source that opens the first round with seat opener and
// then rolls the given values in order (a value v gives the dice v/10 and
// v%10).
func script(opener int, rolls ...Value) *diceScript {
	s := &diceScript{q: []int{opener}}
	for _, v := range rolls {
		hi, lo := v.Dice()
		s.q = append(s.q, hi-1, lo-1)
	}
	return s
}

func (s *diceScript) Intn(n int) int {
	if len(s.q) == 0 {
		panic("diceScript: out of draws")
	}
	v := s.q[0]
	s.q = s.q[1:]
	if v < 0 || v >= n {
		panic(fmt.Sprintf("diceScript: draw %d out of [0,%d)", v, n))
	}
	return v
}

// pcg is a fast deterministic Source for random games: math/rand/v2's PCG
// without the Rand wrapper (the modulo bias of a 64-bit draw is far below
// anything a test could notice).
type pcg struct{ p *rand.PCG }

func newPCG(seed uint64) pcg { return pcg{rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)} }

func (p pcg) Intn(n int) int { return int(p.p.Uint64() % uint64(n)) }

// chance reports true with probability num/den.
func (p pcg) chance(num, den int) bool { return p.Intn(den) < num }

// Action constructors keep the scripted games readable.
func roll(s int) Action            { return Action{Kind: Roll, Seat: s, Look: true} }
func rollBlind(s int) Action       { return Action{Kind: Roll, Seat: s} }
func claim(s int, v Value) Action  { return Action{Kind: Claim, Seat: s, Value: v} }
func pass(s int) Action            { return Action{Kind: Pass, Seat: s} }
func passAs(s int, v Value) Action { return Action{Kind: Pass, Seat: s, Value: v} }
func challenge(s int) Action       { return Action{Kind: Challenge, Seat: s} }
func giveUp(s int) Action          { return Action{Kind: GiveUp, Seat: s} }
func timeout(s int) Action         { return Action{Kind: Timeout, Seat: s} }
func leave(s int) Action           { return Action{Kind: Leave, Seat: s} }

// rules returns the default options changed by mod.
func rules(mod func(*Options)) Options {
	o := DefaultOptions()
	if mod != nil {
		mod(&o)
	}
	return o
}

// table is a game under test with the events it produced so far.
type table struct {
	t      *testing.T
	g      *Game
	events []Event
}

func newTable(t *testing.T, o Options, players int, src Source) *table {
	t.Helper()
	g, evs, err := New(o, players, src)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return &table{t: t, g: g, events: evs}
}

// do applies a, which must be legal, and returns its events.
func (tb *table) do(a Action) []Event {
	tb.t.Helper()
	evs, err := tb.g.Apply(a)
	if err != nil {
		tb.t.Fatalf("%s by seat %d (value %v): %v", a.Kind, a.Seat, a.Value, err)
	}
	tb.events = append(tb.events, evs...)
	return evs
}

// refuse applies a, which must be refused with rule, and checks that the
// game did not change.
func (tb *table) refuse(a Action, rule error) {
	tb.t.Helper()
	before := tb.g.Clone()
	var views []View
	for s := Spectator; s < tb.g.Players(); s++ {
		views = append(views, tb.g.View(s))
	}
	evs, err := tb.g.Apply(a)
	var re *RuleError
	switch {
	case err == nil:
		tb.t.Fatalf("%s by seat %d (value %v) was accepted (%v), want %v", a.Kind, a.Seat, a.Value, evs, rule)
	case !errors.As(err, &re):
		tb.t.Fatalf("%s by seat %d: error %T %v is not a *RuleError", a.Kind, a.Seat, err, err)
	case !errors.Is(err, rule):
		tb.t.Fatalf("%s by seat %d (value %v): got %v, want %v", a.Kind, a.Seat, a.Value, err, rule)
	case re.Action != a:
		tb.t.Fatalf("RuleError.Action = %+v, want %+v", re.Action, a)
	case evs != nil:
		tb.t.Fatalf("refused action returned events %v", evs)
	}
	if !reflect.DeepEqual(before, tb.g) {
		tb.t.Fatalf("refused %s changed the game:\nbefore %+v\nafter  %+v", a.Kind, before, tb.g)
	}
	for i, s := 0, Spectator; s < tb.g.Players(); i, s = i+1, s+1 {
		if v := tb.g.View(s); !reflect.DeepEqual(v, views[i]) {
			tb.t.Fatalf("refused %s changed seat %d's view:\nbefore %+v\nafter  %+v", a.Kind, s, views[i], v)
		}
	}
}

// lives checks every seat's lives.
func (tb *table) lives(want ...int) {
	tb.t.Helper()
	var got []int
	for s := range tb.g.Players() {
		got = append(got, tb.g.Lives(s))
	}
	if !reflect.DeepEqual(got, want) {
		tb.t.Fatalf("lives = %v, want %v", got, want)
	}
}

// lost checks that evs contain exactly one life-losing event, by loser,
// losing n lives.
func lost(t *testing.T, evs []Event, loser, n int) {
	t.Helper()
	found := 0
	for _, e := range evs {
		switch e.Type {
		case EvChallenge, EvLowClaim:
			found++
			if e.Loser != loser || e.LivesLost != n {
				t.Fatalf("%s: loser %d lost %d, want seat %d losing %d (%+v)", e.Type, e.Loser, e.LivesLost, loser, n, e)
			}
		case EvGiveUp, EvTimeout, EvLeave:
			found++
			if e.Seat != loser || e.LivesLost != n {
				t.Fatalf("%s: seat %d lost %d, want seat %d losing %d", e.Type, e.Seat, e.LivesLost, loser, n)
			}
		case EvReveal, EvMiaBack:
			found++
			if !reflect.DeepEqual(e.Losses, []Loss{{Seat: loser, LivesLost: n}}) {
				t.Fatalf("%s: losses %v, want seat %d losing %d", e.Type, e.Losses, loser, n)
			}
		}
	}
	if found != 1 {
		t.Fatalf("%d life-losing events in %v, want 1", found, evs)
	}
}

// opened checks that evs end with a new round opened by seat.
func opened(t *testing.T, evs []Event, seat int) {
	t.Helper()
	if len(evs) == 0 || evs[len(evs)-1].Type != EvRound || evs[len(evs)-1].Opener != seat {
		t.Fatalf("events %v do not end with a round opened by seat %d", evs, seat)
	}
}

// types lists the types of evs, for compact comparisons.
func types(evs []Event) string {
	var b strings.Builder
	for i, e := range evs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(string(e.Type))
	}
	return b.String()
}

// sameGame reports whether two games hold the same state (the Source
// aside).
func sameGame(a, b *Game) bool {
	if a.opts != b.opts || a.round != b.round || a.turn != b.turn || a.phase != b.phase ||
		a.claim != b.claim || a.claimant != b.claimant || a.dice != b.dice || a.roller != b.roller ||
		a.looked != b.looked || a.winner != b.winner || a.seq != b.seq ||
		len(a.lives) != len(b.lives) || len(a.outOrder) != len(b.outOrder) {
		return false
	}
	for i := range a.lives {
		if a.lives[i] != b.lives[i] {
			return false
		}
	}
	for i := range a.outOrder {
		if a.outOrder[i] != b.outOrder[i] {
			return false
		}
	}
	return true
}
