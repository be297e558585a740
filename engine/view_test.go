package engine

import (
	"reflect"
	"slices"
	"testing"
)

func TestViewDice(t *testing.T) {
	tb := newTable(t, DefaultOptions(), 3, script(0, 52, 43, 65, 66))
	seen := func(want ...Value) {
		t.Helper()
		for s := Spectator; s < 3; s++ {
			w := NoValue
			if s >= 0 {
				w = want[s]
			}
			if got := tb.g.View(s).Dice; got != w {
				t.Fatalf("seat %d sees %v, want %v", s, got, w)
			}
		}
	}
	seen(0, 0, 0)
	tb.do(roll(0))
	seen(52, 0, 0)
	tb.do(claim(0, 64))
	seen(52, 0, 0)
	tb.do(rollBlind(1)) // not looking: nobody knows the dice
	seen(0, 0, 0)
	tb.do(claim(1, 65))
	tb.do(roll(2))
	seen(0, 0, 65)
	tb.do(claim(2, 66))
	tb.do(pass(0))
	seen(0, 0, 65)
	tb.do(challenge(1)) // the cup is lifted; a new round starts with an empty cup
	seen(0, 0, 0)
	if v := tb.g.View(1); v.Roller != -1 || v.Claim != NoValue || v.Claimant != -1 {
		t.Fatalf("new round view %+v", v)
	}
	tb.do(roll(tb.g.Turn()))
	if v := tb.g.View(tb.g.Turn()); v.Dice != 66 || v.Roller != tb.g.Turn() {
		t.Fatalf("%+v", v)
	}
}

func TestViewFields(t *testing.T) {
	tb := newTable(t, rules(func(o *Options) { o.Lives = 1 }), 2, script(0, 52))
	v := tb.g.View(0)
	if !v.MyTurn() || v.Seat != 0 || v.Options != tb.g.Options() || v.Round != 1 || v.Winner != -1 || v.Standings != nil {
		t.Fatalf("%+v", v)
	}
	if !reflect.DeepEqual(v.Legal, []ActionKind{Roll, Timeout, Leave}) || v.Claims != nil || v.Passes != nil {
		t.Fatalf("at the open: legal %v claims %v passes %v", v.Legal, v.Claims, v.Passes)
	}
	if v := tb.g.View(1); v.MyTurn() || !reflect.DeepEqual(v.Legal, []ActionKind{Leave}) || v.Can(Roll) || !v.Can(Leave) {
		t.Fatalf("waiting seat: %+v", v)
	}
	if v := tb.g.View(Spectator); v.MyTurn() || v.Legal != nil {
		t.Fatalf("spectator: %+v", v)
	}
	if v := tb.g.View(7); v.Legal != nil || v.Dice != NoValue {
		t.Fatalf("no such seat: %+v", v)
	}
	v.Lives[1] = 99
	if tb.g.Lives(1) != 1 {
		t.Fatal("a view shares its lives with the game")
	}
	tb.do(roll(0))
	v = tb.g.View(0)
	if !reflect.DeepEqual(v.Legal, []ActionKind{Timeout, Leave, Claim}) || len(v.Claims) != 21 || v.Passes != nil {
		t.Fatalf("after rolling: legal %v claims %v", v.Legal, v.Claims)
	}
	tb.do(claim(0, 52))
	v = tb.g.View(1)
	if !reflect.DeepEqual(v.Legal, []ActionKind{Roll, Challenge, Timeout, Leave, Pass}) || v.Claims != nil ||
		!slices.Equal(v.Passes, append([]Value{52}, Classic.Above(52)...)) || v.Claim != 52 || v.Claimant != 0 || v.Roller != 0 {
		t.Fatalf("facing 52: %+v", v)
	}
	tb.do(challenge(1))
	v = tb.g.View(0)
	if v.Phase != PhaseOver || v.MyTurn() || v.Legal != nil || v.Winner != 0 || !reflect.DeepEqual(v.Standings, []int{0, 1}) {
		t.Fatalf("over: %+v", v)
	}
}

// TestViewLegalExact plays random games and checks at every step, for every
// seat and a spectator, that the actions a View lists are exactly those the
// game accepts.
func TestViewLegalExact(t *testing.T) {
	for i := range 300 {
		r := newPCG(uint64(i) + 1000)
		o := randomOptions(r)
		o.Lives = 1 + r.Intn(2)
		n := 2 + r.Intn(5)
		g, _, err := New(o, n, r)
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; !g.Over() && step < 400; step++ {
			for s := Spectator; s <= n; s++ {
				checkViewExact(t, g, s)
			}
			if t.Failed() {
				return
			}
			g.Apply(randomAction(r, g, 10))
		}
	}
}

func checkViewExact(t *testing.T, g *Game, seat int) {
	t.Helper()
	v := g.View(seat)
	claimNow, _ := g.CurrentClaim()
	rk := g.Options().Ranking
	legal := func(a Action) bool {
		w := rk.Canonical(a.Value) // under pips, 54 is a claim of 63's rank
		switch a.Kind {
		case Claim:
			return v.Can(Claim) && w != NoValue && (slices.Contains(v.Claims, w) || slices.Contains(v.LowClaims, w))
		case Pass:
			if a.Value == NoValue {
				return len(v.Passes) > 0 && v.Passes[0] == claimNow
			}
			return w != NoValue && slices.Contains(v.Passes, w)
		}
		return v.Can(a.Kind)
	}
	if v.Can(Claim) != (len(v.Claims) > 0) || v.Can(Pass) != (len(v.Passes) > 0) {
		t.Fatalf("seat %d: legal %v but claims %v passes %v", seat, v.Legal, v.Claims, v.Passes)
	}
	raise := false
	for _, x := range allValues {
		raise = raise || rk.Compare(x, claimNow) > 0 && legal(Action{Kind: Pass, Seat: seat, Value: x})
	}
	if v.CanRaise() != raise || v.CanPassOn() != legal(Action{Kind: Pass, Seat: seat}) {
		t.Fatalf("seat %d claim %v: CanRaise %v, CanPassOn %v; passes %v", seat, claimNow, v.CanRaise(), v.CanPassOn(), v.Passes)
	}
	if v.ChallengeCosts() {
		evs, err := g.Clone().Apply(Action{Kind: Challenge, Seat: seat})
		if err != nil || evs[0].Claimant != -1 || evs[0].Loser != seat || evs[0].LivesLost == 0 {
			t.Fatalf("seat %d: ChallengeCosts, yet the challenge gives %+v, %v", seat, evs, err)
		}
	}
	var cands []Action
	for k := ActionKind(0); k <= Leave+1; k++ {
		switch k {
		case Claim, Pass:
			for _, x := range []Value{NoValue, 12, 70} {
				cands = append(cands, Action{Kind: k, Seat: seat, Value: x})
			}
			for _, x := range allValues {
				cands = append(cands, Action{Kind: k, Seat: seat, Value: x})
			}
		case Roll:
			cands = append(cands, Action{Kind: k, Seat: seat}, Action{Kind: k, Seat: seat, Look: true})
		default:
			cands = append(cands, Action{Kind: k, Seat: seat})
		}
	}
	for _, a := range cands {
		c := g.Clone()
		_, err := c.Apply(a)
		if want := legal(a); (err == nil) != want {
			t.Fatalf("seat %d phase %v turn %d claim %v: %v value %v: error %v, but the view says legal=%v (legal %v claims %v passes %v)",
				seat, g.Phase(), g.Turn(), claimNow, a.Kind, a.Value, err, want, v.Legal, v.Claims, v.Passes)
		}
		if err != nil && !sameGame(c, g) {
			t.Fatalf("refused %+v changed the clone", a)
		}
	}
}

func TestRedacted(t *testing.T) {
	rollSeen := Event{Seq: 2, Type: EvRoll, Seat: 1, Dice: 64, Looked: true}
	rollBlind := Event{Seq: 2, Type: EvRoll, Seat: 1, Dice: 64}
	ch := Event{Seq: 5, Type: EvChallenge, Seat: 2, Claimant: 1, Claim: 65, Dice: 64, Loser: 1, LivesLost: 1}
	hidden := rollSeen
	hidden.Dice = NoValue
	hiddenBlind := rollBlind
	hiddenBlind.Dice = NoValue
	tests := []struct {
		e    Event
		seat int
		want Event
	}{
		{rollSeen, 1, rollSeen},
		{rollSeen, 0, hidden},
		{rollSeen, 2, hidden},
		{rollSeen, Spectator, hidden},
		{rollBlind, 1, hiddenBlind},
		{rollBlind, Spectator, hiddenBlind},
		{ch, 0, ch},
		{ch, Spectator, ch},
		{Event{Type: EvClaim, Seat: 1, Value: 65}, 0, Event{Type: EvClaim, Seat: 1, Value: 65}},
		{Event{Type: EvRound, Round: 2, Opener: 1}, Spectator, Event{Type: EvRound, Round: 2, Opener: 1}},
	}
	for _, tt := range tests {
		if got := tt.e.Redacted(tt.seat); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%+v.Redacted(%d) = %+v, want %+v", tt.e, tt.seat, got, tt.want)
		}
	}
	if rollSeen.Dice != 64 {
		t.Error("Redacted changed its receiver")
	}
}
