package lobby

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mia-game/mia/engine/fair"
)

// verifyStored checks a stored, finished game against its revealed proof
// and returns the number of rolls re-derived.
func verifyStored(t *testing.T, e *env, id string) int {
	t.Helper()
	g, err := e.st.Game(id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Fair == nil {
		t.Fatalf("game %s has no proof", id)
	}
	fps := make([]string, len(g.Players))
	for i, p := range g.Players {
		fps[i] = p.seatKey() // the key each sat down with, as the store keeps it
	}
	rolls, err := fair.Verify(*g.Fair, g.Rules, fps, g.Events)
	if err != nil {
		t.Fatalf("game %s does not verify: %v", id, err)
	}
	return rolls
}

// TestFairDiceAtATable: the next game's commitment is shown before anyone
// gives a seed; seeds are cleaned, refused when too long (never cut),
// taken back, refused during a game and count for one game, and only for
// those who play it; the game plays the committed dice, whose seed is in no snapshot
// while it runs; after it a new commitment is shown.
func TestFairDiceAtATable(t *testing.T) {
	e := newFairEnv(t)
	ctx := ctxT(t)
	ps := []Player{e.player("alice"), e.player("bob"), e.player("carol")}
	tbl, err := e.lobby.CreateTable(ctx, ps[0], TableConfig{Name: "fairtable", Rules: quickRules(), Seats: 4})
	if err != nil {
		t.Fatal(err)
	}
	subs := watchAll(t, tbl, ps)
	before := latest(t, subs[ps[0].ID], tbl)
	if len(before.Table.Fair.Commitment) != 64 || !before.Table.Fair.Next || len(before.Table.Fair.Seeds) != 0 {
		t.Fatalf("before any seed: %+v", before.Table.Fair)
	}
	outsider := e.player("dave")
	for _, p := range ps {
		if err := tbl.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		who  Player
		text string
		want string
		err  error
	}{
		{ps[0], "  lucky\x1b[31m 7 ", "lucky 7", nil},
		{ps[1], strings.Repeat("x", 100*1024), "", fair.ErrSeedTooLong}, // refused, not cut
		{ps[1], strings.Repeat("x", fair.MaxSeedRunes), strings.Repeat("x", fair.MaxSeedRunes), nil},
		{ps[2], "carol's", "carol's", nil},
		{ps[2], "", "", nil},                              // taken back: none given
		{outsider, "watching only", "watching only", nil}, // counts only if dave sits down
	} {
		got, err := tbl.SetSeed(ctx, tc.who, tc.text)
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("%s gives %q: %q, %v; want %q, %v", tc.who.Name(), tc.text, got, err, tc.want, tc.err)
		}
	}
	waiting := latest(t, subs[ps[2].ID], tbl)
	if waiting.Table.Fair.Commitment != before.Table.Fair.Commitment {
		t.Fatal("the commitment changed when seeds were given")
	}
	if s, ok := waiting.Table.Fair.Seed(ps[0].ID); !ok || s != "lucky 7" {
		t.Errorf("alice's seed on screen: %q %v", s, ok)
	}
	if _, ok := waiting.Table.Fair.Seed(ps[2].ID); ok {
		t.Error("carol's seed taken back is still shown")
	}
	if err := tbl.Start(ctx, ps[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := tbl.SetSeed(ctx, ps[2], "too late"); !errors.Is(err, ErrSeedTooLate) {
		t.Errorf("a seed during the game: %v", err)
	}
	playing := latest(t, subs[ps[0].ID], tbl)
	if !playing.Playing || playing.Table.Fair.Commitment != before.Table.Fair.Commitment || playing.Table.Fair.Next {
		t.Fatalf("the game's dice: %+v, want the commitment shown before", playing.Table.Fair)
	}
	if len(playing.Table.Fair.Seeds) != 2 { // carol took hers back, dave did not play
		t.Errorf("the game's seeds: %+v, want alice's and bob's", playing.Table.Fair.Seeds)
	}
	stored, err := e.st.Game(playing.GameID)
	if err != nil || stored.Fair == nil {
		t.Fatalf("stored game: %+v %v", stored.Fair, err)
	}
	secret := stored.Fair.ServerSeed
	if seed, err := fair.ParseSeed(secret); err != nil || seed.Commitment() != before.Table.Fair.Commitment {
		t.Fatalf("the stored seed %v does not match the commitment shown", err)
	}
	for _, p := range append(ps, outsider) {
		sub := mustWatch(t, tbl, p)
		snap := latest(t, sub, tbl)
		if s := fmt.Sprintf("%+v %v", snap, snap.Events()); strings.Contains(s, secret) {
			t.Errorf("%s's snapshot holds the running game's seed", p.Name())
		}
		sub.Close()
	}
	end := playOut(t, tbl, subs, ps, 0)
	if verifyStored(t, e, end.GameID) == 0 {
		t.Error("no rolls re-derived")
	}
	if !end.Table.Fair.Next || end.Table.Fair.Commitment == before.Table.Fair.Commitment || len(end.Table.Fair.Seeds) != 0 {
		t.Errorf("after the game: %+v, want a new commitment and no seeds yet", end.Table.Fair)
	}
}
