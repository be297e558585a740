package solver

import (
	"flag"
	"fmt"
	"math"
	"testing"

	"github.com/mia-game/mia/engine"
)

// solveAll makes TestExploitability solve every rule set (All, 240, and
// the lives-left variants of the default): about an hour of one core. By
// default it solves cheap ones, one a ranking. CI's long runs (.ci/run)
// run it in full:
//
//	go test -count=1 -timeout 3h ./engine/solver -run 'TestExploitability$' -solve-all
var solveAll = flag.Bool("solve-all", false, "solve every rule set in TestExploitability")

// sets is what TestExploitability and the known answers solve.
func sets() []Rules {
	if *solveAll {
		out := All()
		d := engine.DefaultOptions()
		for _, l := range [][2]int{{1, 6}, {6, 1}, {1, 1}} {
			r, _ := Of(d, l[0], l[1])
			out = append(out, r)
		}
		return out
	}
	var out []Rules
	for _, rk := range engine.Rankings {
		o := engine.DefaultOptions()
		o.Ranking, o.Pass = rk, false
		if rk == engine.Numeric {
			o.EqualClaims = true
		}
		if rk == engine.Pips {
			o.MiaReveal, o.LowClaim = engine.MiaRevealAtOnce, engine.LowClaimLoses
		}
		r, err := Of(o, 0, 0)
		if err != nil {
			panic(err)
		}
		out = append(out, r)
	}
	r, _ := Of(engine.Options{Ranking: engine.LittleMia, Lives: 2, MiaPenalty: 2, NextOpener: engine.AfterLoser,
		End: engine.LastStanding, TurnSeconds: 60, MiaPenaltyBoth: true}, 1, 2) // pass off, a cap of 1
	return append(out, r)
}

// TestExploitability solves rule sets and measures each strategy again,
// as kept, by best responses: below Target lives per round; then the
// known answers hold under it (knownAnswers).
func TestExploitability(t *testing.T) {
	for _, r := range sets() {
		t.Run(r.String(), func(t *testing.T) {
			s, err := Solve(r)
			if err != nil {
				t.Fatal(err)
			}
			v, gain := s.Measure()
			e := (gain[0] + gain[1]) / 2
			if e >= Target || gain[0] < -1e-6 || gain[1] < -1e-6 {
				t.Errorf("exploitability %.6f (gains %.6f, %.6f), want below %g", e, gain[0], gain[1], Target)
			}
			if math.Abs(v-s.Report().Value) > 1e-4 {
				t.Errorf("the kept strategy is worth %.6f, the solve said %.6f", v, s.Report().Value)
			}
			knownAnswers(t, s)
		})
	}
}

// TestSameStrategy solves a rule set twice: the same strategy, bit for
// bit, and For keeps the one Solve makes.
func TestSameStrategy(t *testing.T) {
	r := sets()[0]
	a, err := Solve(r)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Solve(r)
	if err != nil {
		t.Fatal(err)
	}
	c, err := For(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []*Strategy{b, c} {
		if len(o.avg) != len(a.avg) || o.report != a.report {
			t.Fatalf("two solves differ: %+v, %+v", a.report, o.report)
		}
		for i := range a.avg {
			if math.Float32bits(a.avg[i]) != math.Float32bits(o.avg[i]) {
				t.Fatalf("two solves differ at slot %d: %v, %v", i, a.avg[i], o.avg[i])
			}
		}
	}
}

// round writes a round's events: the opener, then moves as pairs of a
// type and a value (a roll's dice; the seats alternate from the opener's
// on every claim or pass, as heads-up).
func round(opener int, moves ...any) []engine.Event {
	evs := []engine.Event{{Type: engine.EvRound, Round: 1, Opener: opener}}
	seat := opener
	for i := 0; i < len(moves); i += 2 {
		e := engine.Event{Type: moves[i].(engine.EventType), Seat: seat}
		switch e.Type {
		case engine.EvRoll:
			e.Dice, e.Looked = moves[i+1].(engine.Value), true
		case engine.EvClaim, engine.EvPass:
			e.Value = moves[i+1].(engine.Value)
			seat = 1 - seat
		}
		evs = append(evs, e)
	}
	return evs
}

// knownAnswers checks what is known of any rule set's strategy:
// challenging the lowest claim there is always loses and is a blunder;
// announcing a Mia one holds is never marked (but under mia-pass reroll,
// where a true Mia is passed back and must be rolled again: there a
// claim below it can be worth more); Pick never throws a life away
// (challenging nothing, a low claim).
func knownAnswers(t *testing.T, s *Strategy) {
	t.Helper()
	r := s.Rules()
	o := r.Options()
	lives := []int{r.Caps[0], r.Caps[1]}
	claims := r.Ranking.Claims()
	lowest := claims[len(claims)-1]
	for _, look := range []bool{true, false} {
		evs := round(0, engine.EvRoll, engine.Value(43), engine.EvClaim, lowest)
		evs[1].Looked = look
		sit, err := Read(o, lives, redact(evs, 1), 1)
		if err != nil {
			t.Fatal(err)
		}
		j, err := s.Judge(sit, engine.Action{Kind: engine.Challenge, Seat: 1})
		if err != nil {
			t.Fatal(err)
		}
		if ch := j.Choices[j.Chosen]; ch.Value != -1 || j.Mark != Blunder {
			t.Errorf("challenging %s (looked %v): worth %.3f, marked %q, want -1 and a blunder", lowest, look, ch.Value, j.Mark)
		}
	}
	for _, faced := range []engine.Value{engine.NoValue, claims[len(claims)/2]} {
		if r.MiaPass == engine.MiaPassReroll {
			break
		}
		evs := round(0, engine.EvRoll, engine.Mia)
		if faced != engine.NoValue {
			evs = round(0, engine.EvRoll, engine.Value(31), engine.EvClaim, faced, engine.EvRoll, engine.Mia)
		}
		seat := evs[len(evs)-1].Seat
		sit, err := Read(o, lives, redact(evs, seat), seat)
		if err != nil {
			t.Fatal(err)
		}
		j, err := s.Judge(sit, engine.Action{Kind: engine.Claim, Seat: seat, Value: engine.Mia})
		if err != nil {
			t.Fatal(err)
		}
		if j.Mark != Good {
			t.Errorf("announcing a Mia held, facing %s: gives away %.4f, marked %q", faced, j.Loss, j.Mark)
		}
	}
	opening, err := Read(o, lives, round(0), 0)
	if err != nil {
		t.Fatal(err)
	}
	sits := []Situation{opening}
	for _, d := range []engine.Value{31, 54, engine.Mia} {
		evs := round(0, engine.EvRoll, engine.Value(43), engine.EvClaim, claims[len(claims)/2], engine.EvRoll, d)
		sit, err := Read(o, lives, redact(evs, 1), 1)
		if err != nil {
			t.Fatal(err)
		}
		sits = append(sits, sit)
	}
	us := []float64{math.Nextafter(1, 0)} // the last move's share, however small
	for u := 0.0; u < 1; u += 1.0 / 4096 {
		us = append(us, u)
	}
	for _, sit := range sits {
		for _, u := range us {
			mv, err := s.Pick(sit, u)
			if err != nil {
				t.Fatal(err)
			}
			if mv.Kind == MoveLowClaim || mv.Kind == MoveChallenge && sit.Facing() == engine.NoValue {
				t.Fatalf("Pick at %+v, u %v: %+v throws a life away", sit, u, mv)
			}
		}
	}
}

func redact(evs []engine.Event, seat int) []engine.Event {
	out := make([]engine.Event, len(evs))
	for i, e := range evs {
		out[i] = e.Redacted(seat)
	}
	return out
}

// TestOnlyWhatTheyKnew: the verdict on a move does not change with dice
// its player never saw.
func TestOnlyWhatTheyKnew(t *testing.T) {
	r := sets()[0]
	o := r.Options()
	var want string
	for _, dice := range []engine.Value{41, 43, 31} {
		game := append(round(0, engine.EvRoll, dice, engine.EvClaim, engine.Value(54)),
			engine.Event{Type: engine.EvChallenge, Seat: 1, Claimant: 0, Claim: 54, Dice: dice, Loser: 0, LivesLost: 1},
			engine.Event{Type: engine.EvRound, Round: 2, Opener: 1})
		for i := range game {
			game[i].Seq = i + 1
		}
		a, err := Analyse(o, 2, game)
		if err != nil {
			t.Fatal(err)
		}
		d, ok := a.Of(4)
		if !ok {
			t.Fatalf("the challenge has no verdict: %+v", a.Decisions)
		}
		got := fmt.Sprintf("%.9f %q %.9f", d.Loss, d.Mark, d.Choices[d.Chosen].Value)
		t.Logf("dice %s: the challenge gives away %s", dice, got)
		if dice == 41 {
			want = got
		} else if got != want {
			t.Errorf("with dice %s the verdict is %s, with 41 it was %s", dice, got, want)
		}
	}
}
