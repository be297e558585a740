package command

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/fair"
	"github.com/mia-game/mia/store"
)

// fairGame plays a short game on fair dice (each round: roll, claim Mia,
// challenged) and returns it as the store gives a finished game.
func fairGame(t *testing.T) (store.Game, []engine.Event) {
	t.Helper()
	var seed fair.Seed
	copy(seed[:], "a fixed seed for the verify tests")
	st, err := fair.NewStream(seed, []string{"lucky 7"})
	if err != nil {
		t.Fatal(err)
	}
	joined := []string{"SHA256:alice", "SHA256:bob"}
	seats := make([]store.Seat, 2)
	for seat, i := range st.Seating(joined) {
		seats[seat] = store.Seat{Name: strings.TrimPrefix(joined[i], "SHA256:"), Fingerprint: joined[i]}
	}
	opts := engine.DefaultOptions()
	opts.Lives = 2
	g, evs, err := engine.New(opts, 2, st)
	if err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		a := engine.Action{Kind: engine.Challenge, Seat: g.Turn()}
		switch g.Phase() {
		case engine.PhaseOpen:
			a = engine.Action{Kind: engine.Roll, Seat: g.Turn(), Look: true}
		case engine.PhaseAnnounce:
			a = engine.Action{Kind: engine.Claim, Seat: g.Turn(), Value: engine.Mia}
		}
		more, err := g.Apply(a)
		if err != nil {
			t.Fatalf("%+v: %v", a, err)
		}
		evs = append(evs, more...)
	}
	bobSeat := 0
	if seats[1].Name == "bob" {
		bobSeat = 1
	}
	proof := fair.Proof{Scheme: fair.Scheme, Commitment: seed.Commitment(), ServerSeed: seed.Reveal(),
		PlayerSeeds: []fair.PlayerSeed{{Seat: bobSeat, Seed: "lucky 7"}}}
	return store.Game{ID: "9", Table: "club", Seats: seats, Rules: opts, Winner: g.Winner(), Standings: g.Standings(),
		Fair: &proof}, evs
}

// TestVerifyGame: verify's report of a game that matches, of one with a
// die changed or a seed swapped (a mismatch, exit 1), and of one that
// cannot be checked.
func TestVerifyGame(t *testing.T) {
	tests := []struct {
		name     string
		spoil    func(g *store.Game, evs []engine.Event)
		ok       bool
		mismatch string
		err      error
	}{
		{name: "as played", spoil: func(*store.Game, []engine.Event) {}, ok: true},
		{name: "a die changed", spoil: func(_ *store.Game, evs []engine.Event) {
			for i := range evs {
				if evs[i].Type == engine.EvRoll {
					hi, lo := evs[i].Dice.Dice()
					evs[i].Dice = engine.FromDice(hi%6+1, lo)
					return
				}
			}
		}, mismatch: "roll 1: recorded"},
		{name: "another seed", spoil: func(g *store.Game, _ []engine.Event) {
			g.Fair.ServerSeed = strings.Repeat("ab", 32)
		}, mismatch: "commitment: recorded"},
		{name: "a player's seed changed", spoil: func(g *store.Game, _ []engine.Event) {
			g.Fair.PlayerSeeds[0].Seed = "lucky 8"
		}, mismatch: "recorded"},
		{name: "no seed", spoil: func(g *store.Game, _ []engine.Event) { g.Fair.ServerSeed = "" }, err: fair.ErrNotRevealed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, evs := fairGame(t)
			tc.spoil(&g, evs)
			doc, err := verifyGame(g, evs)
			switch {
			case tc.err != nil:
				if !errors.Is(err, tc.err) {
					t.Fatalf("err %v, want %v", err, tc.err)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			if doc.OK != tc.ok || !strings.Contains(doc.Mismatch, tc.mismatch) || (tc.ok && doc.Rolls == 0) {
				t.Errorf("%+v, want ok %v and a mismatch with %q", doc, tc.ok, tc.mismatch)
			}
		})
	}
	g, _ := fairGame(t)
	var b bytes.Buffer
	writeDice(&b, g)
	for _, want := range []string{"Dice of game 9 (mia-hmac-sha256-v1):", "commitment   " + g.Fair.Commitment,
		"server seed  " + g.Fair.ServerSeed, `seeds given  bob "lucky 7"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the dice text lacks %q:\n%s", want, b.String())
		}
	}
}
