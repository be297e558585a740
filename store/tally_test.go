package store

import (
	"context"
	"encoding/binary"
	"slices"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/engine"
)

// TestTallyScripted plays one scripted game of three players (lives 3)
// through the engine, appends every action on its own and reopens the file
// after each roll, so that a claim's bluff is judged from a roll read back
// from disk. The tallies are worked out by hand below.
func TestTallyScripted(t *testing.T) {
	const A, B, C = 0, 1, 2
	opts := engine.DefaultOptions()
	opts.Lives = 3
	src := &scriptSource{q: []int{A}} // A opens
	var script []engine.Action
	roll := func(seat int, v engine.Value, look bool) {
		src.q = append(src.q, dice(v)...)
		script = append(script, engine.Action{Kind: engine.Roll, Seat: seat, Look: look})
	}
	act := func(k engine.ActionKind, seat int, v engine.Value) {
		script = append(script, engine.Action{Kind: k, Seat: seat, Value: v})
	}
	// Round 1: A rolls 43, bluffs 52; B passes it on; C challenges: B, the
	// passer, answers for the claim and is caught.
	roll(A, 43, true)
	act(engine.Claim, A, 52)
	act(engine.Pass, B, 0)
	act(engine.Challenge, C, 0)
	// Round 2 (C opens): C truthfully 65; A rolls 31 and bluffs 66; B
	// challenges and wins.
	roll(C, 65, true)
	act(engine.Claim, C, 65)
	roll(A, 31, true)
	act(engine.Claim, A, 66)
	act(engine.Challenge, B, 0)
	// Round 3 (B opens): B rolls Mia without looking and claims 54 (no
	// bluff: B did not know); C challenges and loses.
	roll(B, 21, false)
	act(engine.Claim, B, 54)
	act(engine.Challenge, C, 0)
	// Round 4 (A opens): A rolls and claims Mia; B gives up.
	roll(A, 21, true)
	act(engine.Claim, A, 21)
	act(engine.GiveUp, B, 0)
	// Round 5 (C opens): C's clock runs out.
	act(engine.Timeout, C, 0)
	// Round 6 (A opens): A claims 55 truthfully; B, to answer, leaves with
	// the 1 life left.
	roll(A, 55, true)
	act(engine.Claim, A, 55)
	act(engine.Leave, B, 0)
	// Round 7 (C opens): C claims 62 truthfully; A challenges and loses.
	roll(C, 62, true)
	act(engine.Claim, C, 62)
	act(engine.Challenge, A, 0)
	// Round 8 (C opens): C claims 11 truthfully; A challenges, loses the
	// last life; C wins.
	roll(C, 11, true)
	act(engine.Claim, C, 11)
	act(engine.Challenge, A, 0)

	want := map[int]Tally{
		A: {Games: 1, Wins: 0, LivesLost: 3, Challenges: 2, ChallengesWon: 0, Claims: 4, Bluffs: 2, BluffsCaught: 1},
		B: {Games: 1, Wins: 0, LivesLost: 3, Challenges: 1, ChallengesWon: 1, Claims: 1, Bluffs: 0, BluffsCaught: 1},
		C: {Games: 1, Wins: 1, LivesLost: 2, Challenges: 2, ChallengesWon: 1, Claims: 3, Bluffs: 0, BluffsCaught: 0},
	}

	s, _ := openTemp(t)
	ctx := context.Background()
	st := seats(3)
	g, first, err := engine.New(opts, 3, src)
	if err != nil {
		t.Fatal(err)
	}
	gm, err := s.CreateGame(ctx, Game{Table: "t", Seats: st, Rules: opts})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, gm.ID, first, nil); err != nil {
		t.Fatal(err)
	}
	for i, a := range script {
		evs, err := g.Apply(a)
		if err != nil {
			t.Fatalf("action %d %+v: %v", i, a, err)
		}
		if err := s.Append(ctx, gm.ID, evs, resultOf(g)); err != nil {
			t.Fatal(err)
		}
		if a.Kind == engine.Roll {
			s = reopen(t, s)
		}
		if i == len(script)-2 {
			if tl, _ := s.Tally(ctx, st[C].Person); tl.Games != 0 || tl.Wins != 0 {
				t.Errorf("before the end: %+v counts a game", tl)
			}
		}
	}
	if !g.Over() || g.Winner() != C {
		t.Fatalf("script did not end with C winning: over %t winner %d", g.Over(), g.Winner())
	}
	if got := g.Standings(); !slices.Equal(got, []int{C, A, B}) {
		t.Errorf("standings %v", got)
	}
	for seat, w := range want {
		got, err := s.Tally(ctx, st[seat].Person)
		if err != nil {
			t.Fatal(err)
		}
		if got != w {
			t.Errorf("seat %d: tally\n got %+v\nwant %+v", seat, got, w)
		}
	}
	// The slow recount agrees.
	gg, evs, err := s.Game(ctx, gm.ID)
	if err != nil {
		t.Fatal(err)
	}
	ref := referenceTally([]Game{gg}, [][]engine.Event{evs})
	for seat, w := range want {
		if ref[st[seat].Person] != w {
			t.Errorf("reference tally of seat %d = %+v", seat, ref[st[seat].Person])
		}
	}
	if tl, err := s.Tally(ctx, "SHA256:nobody"); err != nil || tl != (Tally{}) {
		t.Errorf("Tally(nobody) = %+v, %v; want zero", tl, err)
	}
}

// TestTallyMaexchenLosses plays one round of the preset maexchen for each
// way its losses fall (the Mäxchen gateway's points are Games − LivesLost):
// a challenge of nothing, a claim not higher, a Mia revealed at once, true
// (everyone else loses) and false.
func TestTallyMaexchenLosses(t *testing.T) {
	const A, B, C = 0, 1, 2
	opts, err := engine.Preset(engine.PresetMaexchen)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		dice  []engine.Value
		moves []engine.Action
		lost  []int // lives lost by seat
	}{
		{"see before the first roll", nil, []engine.Action{{Kind: engine.Challenge, Seat: A}}, []int{1, 0, 0}},
		{"announced losing dice", []engine.Value{54, 66}, []engine.Action{
			{Kind: engine.Roll, Seat: A, Look: true}, {Kind: engine.Claim, Seat: A, Value: 54},
			{Kind: engine.Roll, Seat: B, Look: true}, {Kind: engine.Claim, Seat: B, Value: 43}}, []int{0, 1, 0}},
		{"mia", []engine.Value{21}, []engine.Action{
			{Kind: engine.Roll, Seat: A, Look: true}, {Kind: engine.Claim, Seat: A, Value: 21}}, []int{0, 1, 1}},
		{"lied about mia", []engine.Value{32}, []engine.Action{
			{Kind: engine.Roll, Seat: A, Look: true}, {Kind: engine.Claim, Seat: A, Value: 21}}, []int{1, 0, 0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := openTemp(t)
			ctx := context.Background()
			src := &scriptSource{q: []int{A}}
			for _, v := range tc.dice {
				src.q = append(src.q, dice(v)...)
			}
			g, first, err := engine.New(opts, 3, src)
			if err != nil {
				t.Fatal(err)
			}
			st := seats(3)
			gm, err := s.CreateGame(ctx, Game{Table: "maexchen", Seats: st, Rules: opts})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Append(ctx, gm.ID, first, nil); err != nil {
				t.Fatal(err)
			}
			for _, a := range tc.moves {
				evs, err := g.Apply(a)
				if err != nil {
					t.Fatalf("%+v: %v", a, err)
				}
				if err := s.Append(ctx, gm.ID, evs, resultOf(g)); err != nil {
					t.Fatalf("append %+v: %v", evs, err)
				}
			}
			if !g.Over() {
				t.Fatal("one round is the whole game")
			}
			for seat, want := range tc.lost {
				tl, err := s.Tally(ctx, st[seat].Person)
				if err != nil {
					t.Fatal(err)
				}
				if tl.Games != 1 || tl.LivesLost != want {
					t.Errorf("seat %d: games %d lives lost %d, want 1 and %d", seat, tl.Games, tl.LivesLost, want)
				}
			}
		})
	}
}

// TestSchema2TalliesRecounted: a file of schema 2 (tallies of version 1:
// eight counters, understated claims counted as bluffs; no next_dice nor
// chat buckets) migrates on open: every tally is counted again from its
// games, bluffs and understated claims apart and every other counter as
// it was, games in progress included; the buckets are made; Check is
// clean and a reopen changes nothing.
func TestSchema2TalliesRecounted(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	players := seats(4)
	r := newRand(41)
	var (
		games []Game
		logs  [][]engine.Event
	)
	for i := range 24 {
		opts := ruleSets()[i%len(ruleSets())]
		np := 2 + r.IntN(3)
		max := 0
		if i%6 == 0 {
			max = 1 + r.IntN(8) // left in progress
		}
		eg, chunks := playGame(t, r, opts, np, max)
		g, _, err := s.Game(ctx, storeGame(t, s, "t", players[:np], opts, eg, chunks).ID)
		if err != nil {
			t.Fatal(err)
		}
		games, logs = append(games, g), append(logs, flatten(chunks))
	}
	want := referenceTally(games, logs)
	understated := 0
	// Make the file what schema 2 wrote: every tally of version 1.
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketTallies)
		for _, p := range players {
			tl := want[p.Person]
			understated += tl.Understated
			v1 := []byte{1}
			for _, f := range []int{tl.Games, tl.Wins, tl.LivesLost, tl.Challenges, tl.ChallengesWon, tl.Claims,
				tl.Bluffs + tl.Understated, tl.BluffsCaught} {
				v1 = binary.BigEndian.AppendUint64(v1, uint64(f))
			}
			if err := b.Put([]byte(p.Person), v1); err != nil {
				return err
			}
		}
		for _, b := range [][]byte{bucketNextDice, bucketChat} {
			if err := tx.DeleteBucket(b); err != nil {
				return err
			}
		}
		if err := tx.Bucket(bucketMeta).Delete(keyTallies); err != nil { // schema 2 kept none
			return err
		}
		return tx.Bucket(bucketMeta).Put(keySchema, u64(2))
	})
	if err != nil {
		t.Fatal(err)
	}
	if understated == 0 {
		t.Fatal("no understated claim in the games: test too small")
	}
	for range 2 { // the migration, then a reopen that changes nothing
		s = reopen(t, s)
		for _, p := range players {
			got, err := s.Tally(ctx, p.Person)
			if err != nil {
				t.Fatal(err)
			}
			if got != want[p.Person] {
				t.Errorf("tally of %s after the recount\n got %+v\nwant %+v", p.Person, got, want[p.Person])
			}
		}
		if err := s.db.View(func(tx *bolt.Tx) error {
			if v := tx.Bucket(bucketMeta).Get(keySchema); binary.BigEndian.Uint64(v) != SchemaVersion {
				t.Errorf("schema %x after the migration", v)
			}
			for _, b := range [][]byte{bucketNextDice, bucketChat} {
				if tx.Bucket(b) == nil {
					t.Errorf("no bucket %s after the migration", b)
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if err := s.Check(ctx); err != nil {
			t.Error(err)
		}
	}
}

// TestCheckTallies: Check finds a tally of an older version (which Open
// recounts), public or private, and one of a person who does not exist.
func TestCheckTallies(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	p, err := s.SetName(ctx, "SHA256:a", "alice")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketTallies)
		if err := b.Put([]byte(p.ID), Tally{Games: 1}.encode()); err != nil {
			return err
		}
		if err := b.Put([]byte("test:bot"), Tally{Games: 1}.encode()); err != nil {
			return err
		}
		if err := b.Put([]byte("p:99"), Tally{Games: 1}.encode()); err != nil {
			return err
		}
		if err := b.Put(tallyKey(p.ID, false), Tally{Games: 2}.encode()); err != nil {
			return err
		}
		if err := b.Put(tallyKey("p:97", false), append([]byte{1}, make([]byte, 8*8)...)); err != nil {
			return err
		}
		return b.Put([]byte("p:98"), append([]byte{1}, make([]byte, 8*8)...))
	}); err != nil {
		t.Fatal(err)
	}
	err = s.Check(ctx)
	for _, want := range []string{"tally of unknown person p:99", "tally of p:98: bad stored tally (65 bytes, version 1)",
		"tally of p:97 (private games): bad stored tally", "tally of unknown person p:97"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Check does not say %q: %v", want, err)
		}
	}
	if err != nil && (strings.Contains(err.Error(), p.ID+":") || strings.Contains(err.Error(), "test:bot")) {
		t.Errorf("Check finds fault with a good tally: %v", err)
	}
}

// TestTalliesCountTheReplaysVerdicts: the statistics and the replays use
// one bluff rule. Over random games under every rule set, each person's
// bluffs and understated claims are exactly the moves of theirs that
// engine.Judge (by which the replays, the lifted cup and the web's game
// page mark moves) finds Bluffed and Understated; passes of dice their
// passer never saw, found Short, count as no bluff; and a roller's raise
// when the cup comes back is a claim like any other.
func TestTalliesCountTheReplaysVerdicts(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	players := seats(3)
	r := newRand(30)
	marked := map[string]*Tally{}
	for _, p := range players {
		marked[p.Person] = &Tally{}
	}
	kinds := map[string]int{}
	for i := range 24 {
		opts := ruleSets()[i%len(ruleSets())]
		np := 2 + i%2
		eg, chunks := playGame(t, r, opts, np, 0)
		evs := flatten(chunks)
		storeGame(t, s, "t", players[:np], opts, eg, chunks)
		for k, e := range evs {
			who := marked[players[e.Seat].Person]
			v := engine.Judge(opts.Ranking, evs, k)
			switch {
			case v == engine.Bluffed:
				who.Bluffs++
			case v == engine.Understated:
				who.Understated++
			case v == engine.Short:
				kinds["short"]++
			}
			if roll, ok := engine.LastRoll(evs[:k]); e.Type == engine.EvPass && ok && roll.Seat == e.Seat {
				kinds["a roller's raise"]++
			}
		}
	}
	for _, p := range players {
		got, err := s.Tally(ctx, p.Person)
		if err != nil {
			t.Fatal(err)
		}
		if want := marked[p.Person]; got.Bluffs != want.Bluffs || got.Understated != want.Understated {
			t.Errorf("%s: the stats count %d bluffs and %d understated, the replays mark %d and %d",
				p.Person, got.Bluffs, got.Understated, want.Bluffs, want.Understated)
		}
	}
	for _, k := range []string{"short", "a roller's raise"} {
		if kinds[k] == 0 {
			t.Errorf("no %s in the games: the test shows nothing (%v)", k, kinds)
		}
	}
}
