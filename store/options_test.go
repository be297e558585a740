package store

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
)

// TestOptionEvents stores games that make each event of the rule options
// (a Mia revealed at once, a low claim, a challenge of nothing, a Mia come
// back), reads them back as written, and counts the lives they cost.
func TestOptionEvents(t *testing.T) {
	maexchen, _ := engine.Preset(engine.PresetMaexchen)
	wins := engine.DefaultOptions()
	wins.MiaPass, wins.Lives = engine.MiaPassWins, 2
	pipsOpts := engine.DefaultOptions()
	pipsOpts.Ranking = engine.Pips
	claim := func(s int, v engine.Value) engine.Action { return engine.Action{Kind: engine.Claim, Seat: s, Value: v} }
	roll := func(s int) engine.Action { return engine.Action{Kind: engine.Roll, Seat: s, Look: true} }
	pass := func(s int) engine.Action { return engine.Action{Kind: engine.Pass, Seat: s} }
	tests := []struct {
		name  string
		opts  engine.Options
		dice  []engine.Value
		moves []engine.Action
		typ   engine.EventType
		want  []Tally // seats 0 and 1 (Games and Wins aside)
	}{
		{"a true Mia revealed at once", maexchen, []engine.Value{21}, []engine.Action{roll(0), claim(0, engine.Mia)}, engine.EvReveal,
			[]Tally{{Claims: 1}, {LivesLost: 1}}},
		{"a false Mia revealed at once", maexchen, []engine.Value{43}, []engine.Action{roll(0), claim(0, engine.Mia)}, engine.EvReveal,
			[]Tally{{LivesLost: 1, Claims: 1, Bluffs: 1, BluffsCaught: 1}, {}}},
		{"a low claim", maexchen, []engine.Value{43, 52}, []engine.Action{roll(0), claim(0, 43), roll(1), claim(1, 42)}, engine.EvLowClaim,
			[]Tally{{Claims: 1}, {LivesLost: 1, Claims: 1, Understated: 1}}},
		{"a challenge of nothing", maexchen, nil, []engine.Action{{Kind: engine.Challenge, Seat: 0}}, engine.EvChallenge,
			[]Tally{{LivesLost: 1, Challenges: 1}, {}}},
		{"a Mia come back", wins, []engine.Value{21}, []engine.Action{roll(0), claim(0, engine.Mia), pass(1), pass(2)}, engine.EvMiaBack,
			[]Tally{{Claims: 1}, {LivesLost: 1}}},
		{"pips: a claim of the dice's rank is no bluff", pipsOpts, []engine.Value{54}, []engine.Action{roll(0), claim(0, 54), {Kind: engine.Challenge, Seat: 1}},
			engine.EvChallenge, []Tally{{Claims: 1}, {LivesLost: 1, Challenges: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := openTemp(t)
			ctx := context.Background()
			src := &scriptSource{q: []int{0}}
			for _, v := range tt.dice {
				src.q = append(src.q, dice(v)...)
			}
			g, first, err := engine.New(tt.opts, 3, src)
			if err != nil {
				t.Fatal(err)
			}
			st := seats(3)
			gm, err := s.CreateGame(ctx, Game{Table: "t", Seats: st, Rules: tt.opts})
			if err != nil {
				t.Fatal(err)
			}
			all := first
			if err := s.Append(ctx, gm.ID, first, nil); err != nil {
				t.Fatal(err)
			}
			seen := false
			for _, a := range tt.moves {
				evs, err := g.Apply(a)
				if err != nil {
					t.Fatalf("%+v: %v", a, err)
				}
				for _, e := range evs {
					seen = seen || e.Type == tt.typ
				}
				if err := s.Append(ctx, gm.ID, evs, resultOf(g)); err != nil {
					t.Fatalf("append %v: %v", evs, err)
				}
				all = append(all, evs...)
			}
			if !seen {
				t.Fatalf("no %s in %+v", tt.typ, all)
			}
			got, evs, err := s.Game(ctx, gm.ID)
			if err != nil || !reflect.DeepEqual(stripAt(evs), all) || got.Rules != tt.opts {
				t.Fatalf("read back %+v %+v, %v; stored %+v", got.Rules, evs, err, all)
			}
			// The moves count once the game ends (finished, or its table
			// closed), never while its dice are under the cup.
			for _, ended := range []bool{!got.Ended.IsZero(), true} {
				if ended && got.Ended.IsZero() {
					if err := s.Abandon(ctx, gm.ID, time.Time{}, &Abandonment{Reason: AbandonClosed, By: st[0].Person}); err != nil {
						t.Fatal(err)
					}
				}
				for seat, want := range tt.want {
					if !ended {
						want = Tally{}
					}
					tl, _ := s.Tally(ctx, st[seat].Person)
					pub, _ := s.PublicTally(ctx, st[seat].Person)
					tl.Games, tl.Wins, pub.Games, pub.Wins = 0, 0, 0, 0
					if tl != want || !ended && pub != (Tally{}) {
						t.Errorf("ended %v: seat %d: tally %+v, public %+v, want %+v", ended, seat, tl, pub, want)
					}
				}
			}
		})
	}
}

// TestAppendLossSeats refuses a loss of a seat the game does not have.
func TestAppendLossSeats(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	gm, err := s.CreateGame(ctx, Game{Table: "t", Seats: seats(3), Rules: engine.DefaultOptions()})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []engine.Event{
		{Seq: 1, Type: engine.EvMiaBack, Seat: 0, Losses: []engine.Loss{{Seat: 1, LivesLost: 1}, {Seat: 3, LivesLost: 1}}},
		{Seq: 1, Type: engine.EvReveal, Seat: 0, Claim: engine.Mia, Dice: engine.Mia, Losses: []engine.Loss{{Seat: -1, LivesLost: 1}}},
		{Seq: 1, Type: engine.EvLowClaim, Seat: 0, Value: 31, Claim: 41, Loser: 4, LivesLost: 1},
		{Seq: 1, Type: engine.EvChallenge, Seat: 0, Claimant: -1, Claim: 41, Loser: 0, LivesLost: 1},
		{Seq: 1, Type: engine.EvChallenge, Seat: 0, Claimant: -2, Loser: 0, LivesLost: 1},
	} {
		if err := s.Append(ctx, gm.ID, []engine.Event{e}, nil); err == nil {
			t.Errorf("%+v accepted", e)
		}
	}
}
