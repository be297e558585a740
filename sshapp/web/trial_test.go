package web

import (
	"strings"
	"testing"

	"github.com/mia-game/mia/lobby"
)

// TestDiceLineSaysWhichSeedsCount: the live table's line of the dice names
// who gave a seed for the next game, and says of one not seated that it
// counts only if they play, as the table screen and the seed command do.
func TestDiceLineSaysWhichSeedsCount(t *testing.T) {
	f := lobby.FairInfo{Commitment: strings.Repeat("ab", 32), Next: true, Seeds: []lobby.SeedInfo{
		{Name: "alice", ID: "p:1", Seed: "a", Seated: true}, {Name: "carol", ID: "p:3", Seed: "c"}}}
	_, _, seeds := diceLine(f)
	if !strings.Contains(seeds, "alice, carol (not seated yet: it counts if they play)") {
		t.Errorf("the seeds: %q", seeds)
	}
}
