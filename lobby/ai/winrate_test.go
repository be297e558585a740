package ai

import (
	"fmt"
	"testing"

	"github.com/mia-game/mia/engine"
)

// simSet is a named rule set for the simulated games.
type simSet struct {
	name string
	opts engine.Options
}

// simSets are the rule sets TestWinRates plays: the default and others
// that change every option the bots look at.
func simSets() []simSet {
	d := engine.DefaultOptions()
	numeric := d
	numeric.Ranking, numeric.Pass, numeric.EqualClaims = engine.Numeric, false, true
	little := d
	little.Ranking, little.MiaPenaltyBoth, little.NextOpener = engine.LittleMia, true, engine.Loser
	asc := d
	asc.Ranking, asc.Pass, asc.MiaPenalty, asc.End = engine.AscendingDoubles, false, 1, engine.FirstOut
	pips := d
	pips.Ranking, pips.MiaPass, pips.NextOpener = engine.Pips, engine.MiaPassWins, engine.BeforeLoser
	reroll := d
	reroll.MiaPass, reroll.LowClaim, reroll.MiaPenaltyBoth = engine.MiaPassReroll, engine.LowClaimLoses, true
	maex, _ := engine.Preset(engine.PresetMaexchen)
	maex.Lives, maex.End = 6, engine.LastStanding // one round a game says little of a bot
	return []simSet{
		{"classic (default)", d},
		{"numeric, equal-claims, no pass", numeric},
		{"little-mia, mia-penalty-both, loser opens", little},
		{"ascending-doubles, no pass, mia-penalty 1, first-out", asc},
		{"pips, mia-pass wins, before-loser", pips},
		{"mia-pass reroll, low-claim loses, mia-penalty-both", reroll},
		{"maexchen's rules with 6 lives to the last", maex},
	}
}

// gamesPerSet is the number of three-player games per rule set and pairing.
const gamesPerSet = 1000

// TestWinRates plays three-player games of one bot against two of another
// level, the lone bot's seat rotated and the first opener drawn at random,
// gamesPerSet games under each rule set of simSets (4,000 games a
// pairing), and holds the lone bot to a share of the wins. A third is what
// an equal player wins.
func TestWinRates(t *testing.T) {
	tests := []struct {
		one, two Level
		min      float64 // the least share of all the games
		minSet   float64 // the least share under each rule set
	}{
		{Hard, Easy, 0.40, 0.40},
		{Normal, Easy, 0.40, 0.36},
		{Hard, Normal, 0.40, 0.30},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s vs 2 %s", tc.one, tc.two), func(t *testing.T) {
			t.Parallel()
			total := 0.0
			for i, s := range simSets() {
				w := winRate(t, tc.one, tc.two, 3, gamesPerSet, []engine.Options{s.opts}, uint64(1000*i+1))
				t.Logf("%-52s %s wins %.1f%% of %d games against 2 %s", s.name, tc.one, 100*w, gamesPerSet, tc.two)
				if w < tc.minSet {
					t.Errorf("%s: %s won %.1f%% against %s, want at least %.0f%%", s.name, tc.one, 100*w, tc.two, 100*tc.minSet)
				}
				total += w
			}
			total /= float64(len(simSets()))
			t.Logf("all %d games: %s wins %.1f%% against 2 %s", gamesPerSet*len(simSets()), tc.one, 100*total, tc.two)
			if total < tc.min {
				t.Errorf("%s won %.1f%% against %s, want at least %.0f%%", tc.one, 100*total, tc.two, 100*tc.min)
			}
		})
	}
}
