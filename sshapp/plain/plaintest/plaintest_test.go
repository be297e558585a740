package plaintest

import (
	"strings"
	"testing"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby/words"
)

// TestForbidden: each kind of drawing is found, plain words pass.
func TestForbidden(t *testing.T) {
	for _, c := range []struct {
		text string
		bad  bool
	}{
		{"Your turn: bob announced 9 pips to you — Mia!\r\n", false},
		{"bob's 65, 50% · café\ttab\n", false},
		{"\x1b[2D\x1b[K", true},      // erase
		{"\x1b[?1049h", true},        // the alternate screen
		{"\x1b[31mred\x1b[0m", true}, // colour
		{"┌───┐", true},
		{"♥♥♡", true},
		{"⚂⚁", true},
		{"▁▂█", true},
		{"⣿", true},
		{"🎲", true},
		{"a notice's bell\a", false}, // BEL moves nothing
	} {
		if got := Forbidden([]byte(c.text)) != ""; got != c.bad {
			t.Errorf("Forbidden(%q) found something: %v, want %v", c.text, got, c.bad)
		}
	}
}

// TestToldOnce: the events in order pass; one missing, told twice or
// out of order does not.
func TestToldOnce(t *testing.T) {
	nar := words.Narrator{Names: []string{"ann", "bob"}, You: 0, Ranking: engine.Classic, Turn: -1}
	evs := []engine.Event{
		{Type: engine.EvRound, Round: 1, Opener: 1},
		{Type: engine.EvRoll, Seat: 1, Dice: 54, Looked: true},
		{Type: engine.EvClaim, Seat: 1, Value: 54},
		{Type: engine.EvChallenge, Seat: 0, Claimant: 1, Claim: 54, Dice: 54, Loser: 0, LivesLost: 1},
	}
	good := "Game 1 starts.\nRound 1: bob opens.\nbob rolled.\nYour turn: bob announced 54 to you. Choose: 1 roll.\nliar\n" +
		"You called bob a liar: 54, you lose a life.\n"
	if err := ToldOnce(good, evs, nar); err != nil {
		t.Fatalf("in order: %v", err)
	}
	for name, text := range map[string]string{
		"one missing":  strings.Replace(good, "bob rolled.\n", "", 1),
		"told twice":   good + "bob rolled.\n",
		"out of order": strings.Replace(good, "Round 1: bob opens.\nbob rolled.", "bob rolled.\nRound 1: bob opens.", 1),
	} {
		if ToldOnce(text, evs, nar) == nil {
			t.Errorf("%s: passed", name)
		}
	}
}
