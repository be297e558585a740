package rating

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"slices"
	"testing"
)

// goldenHistory is the SHA-256 of the ratings after the 2,000 games of
// randHistory(PCG(19, 20)), encoded in order of player. It holds on every
// machine: the update defines the order of its floating-point operations
// and uses its own exp. If it changes, the model changed: every stored
// rating must be rebuilt from history (README.md, "Determinism").
const goldenHistory = "220eb9fc64b3be7f738d9fecc51034e3b2fea4692ebf21afbee265f40b434d36"

func TestGoldenHistory(t *testing.T) {
	history := randHistory(rand.New(rand.NewPCG(19, 20)), 2000, 100)
	l := NewLadder[uint64](Default)
	for _, g := range history {
		if _, err := l.Play(g.players, g.places); err != nil {
			t.Fatal(err)
		}
	}
	var ids []uint64
	for id := range l.All() {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	h := sha256.New()
	for _, id := range ids {
		b, err := l.Rating(id).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		h.Write(b)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != goldenHistory {
		t.Errorf("the ratings after 2,000 games hash to %s, want %s: the model's results changed", got, goldenHistory)
	}
}
