package ai

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mia-game/mia/engine"
)

// expertGames is the number of games TestExpertWinRates plays a pairing:
// a few by default, under rules that solve in a blink (no passing); with
// -expert-games N (10,000 for lobby/ai/README.md's figures), N under the
// default rules, niced, once:
//
//	nice -n 19 go test -count=1 -timeout 2h -run 'TestExpertWinRates$' -v ./lobby/ai -expert-games=10000
var expertGames = flag.Int("expert-games", 0, "games of each pairing in TestExpertWinRates (0: a few, under no-pass rules)")

// TestExpertWinRates plays the expert against each other level, alone
// against one, two or five bots of that level, its seat rotated, and
// reports its share of the wins with a 95% interval (Wilson). With
// -expert-games it holds the expert to beating each level at each size
// of table (the interval above an equal share).
func TestExpertWinRates(t *testing.T) {
	games, opts := *expertGames, engine.DefaultOptions()
	if games == 0 {
		games, opts.Pass = 30, false
	}
	for _, players := range []int{2, 3, 6} {
		for _, other := range []Level{Hard, Normal, Easy} {
			t.Run(fmt.Sprintf("%d seats, against %s", players, other), func(t *testing.T) {
				w := winRate(t, Expert, other, players, games, []engine.Options{opts}, uint64(7919*players)+uint64(len(other)))
				lo, hi := wilson(w, games)
				fair := 1 / float64(players)
				t.Logf("expert against %d %s: wins %.1f%% of %d games (95%%: %.1f–%.1f%%; an equal player %.1f%%)",
					players-1, other, 100*w, games, 100*lo, 100*hi, 100*fair)
				if *expertGames > 0 && lo <= fair {
					t.Errorf("expert does not beat %s at %d seats: %.1f%% (%.1f–%.1f%%)", other, players, 100*w, 100*lo, 100*hi)
				}
			})
		}
	}
}

// wilson is the 95% Wilson score interval of a share p of n trials.
func wilson(p float64, n int) (lo, hi float64) {
	const z = 1.959963984540054
	nf := float64(n)
	den := 1 + z*z/nf
	mid := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return mid - half, mid + half
}

// TestExpertLegal plays heads-up games of the expert, its strategies
// solved, against each other level and a random player, under rule sets
// that solve in a blink (no passing, every ranking, low claims that lose
// and Mias shown at once among them): every move it makes is legal by
// the view and accepted by the engine, and it never throws a life away
// (challenging nothing, a low claim).
func TestExpertLegal(t *testing.T) {
	var sets []engine.Options
	for i, rk := range engine.Rankings {
		o := engine.DefaultOptions()
		o.Ranking, o.Pass, o.MiaPenalty, o.Lives = rk, false, 1, 3
		o.EqualClaims = i%2 == 1
		if i%2 == 0 {
			o.LowClaim = engine.LowClaimLoses
		}
		if i%3 == 0 {
			o.MiaReveal = engine.MiaRevealAtOnce
		}
		sets = append(sets, o)
	}
	moves := 0
	for i := range 20 * len(sets) {
		o := sets[i%len(sets)]
		r := rand.New(rand.NewPCG(uint64(i), 5))
		other := Level("") // a random player
		if k := i / len(sets) % 4; k < 3 {
			other = Levels[k]
		}
		g, evs, err := engine.New(o, 2, newDice(uint64(i)))
		if err != nil {
			t.Fatal(err)
		}
		var m match
		m.g = g
		m.record(evs)
		for step := 0; !g.Over(); step++ {
			if step > 20_000 {
				t.Fatalf("game %d: no end", i)
			}
			s := g.Turn()
			v := g.View(s)
			var a engine.Action
			switch {
			case s == i%2:
				a = Decide(Expert, v, m.roundFor(s), r)
				moves++
				if !legal(v, a) || a.Seat != s {
					t.Fatalf("game %d (%+v): expert chose %+v, not legal in %+v", i, o, a, v)
				}
				if a.Kind == engine.Challenge && v.Phase == engine.PhaseOpen || a.Kind == engine.Claim && contains(v.LowClaims, a.Value) {
					t.Fatalf("game %d (%+v): expert threw a life away: %+v in %+v", i, o, a, v)
				}
			case other == "":
				a = randomMove(r, g, v)
			default:
				a = Decide(other, v, m.roundFor(s), r)
			}
			evs, err := g.Apply(a)
			if err != nil {
				t.Fatalf("game %d (%+v): %+v refused: %v", i, o, a, err)
			}
			m.record(evs)
		}
	}
	t.Logf("%d games, %d expert moves, all legal", 20*len(sets), moves)
}
