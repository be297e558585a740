package ai

import "github.com/mia-game/mia/engine"

// maxRanks is the most ranks a ranking has (21: one per value). The odds
// handle values by rank under the table's ranking: 1 for the lowest rank,
// odds.top for Mia (21, or 15 under pips, whose mixed values of one sum
// share a rank), 0 for "no claim".
const maxRanks = 21

// Parameters of the model of a roller (any player who rolled the dice in
// the cup and looked at them), used to read its announcements:
//
//   - a roller whose roll beats the claim before it announces the truth,
//     except with chance understate, when it announces a lower value that
//     is still true (any of them alike);
//   - a roller whose roll does not beat it must bluff: it picks a legal
//     value, the k-th above the lowest with weight bluffDecay^k (mostly
//     the lowest), mixed with a share bluffFlat spread evenly over all of
//     them, as some players bluff high;
//   - an opener (no claim before) tells the truth when its roll is at
//     least the median (the lowest value a fresh roll reaches at most half
//     the time: 61 under classic), and otherwise with chance openTruth;
//     else it bluffs as above, counting from the median;
//   - a roller that raises when the cup comes back to it (a pass at a
//     higher value) knows its dice: it would rather challenge than raise
//     on dice below the claim (chance slip), raises to the truth when the
//     dice are above it, and bluffs as above when the dice equal it;
//   - any other announcement has chance slip.
//
// The values were tuned by simulation against all three levels (see
// TestWinRates); they read Easy and this package's own bots well: openers
// that mostly tell the truth, bluffs mostly just above the claim.
const (
	understate = 0.15
	bluffDecay = 0.25
	bluffFlat  = 0.1
	slip       = 0.002
	openTruth  = 0.8
)

// odds holds the tables of one ranking and claim rule.
type odds struct {
	ranking engine.Ranking
	equal   bool                       // option equal-claims: a claim may equal the one before
	top     int                        // the number of ranks: Mia's rank
	value   [maxRanks + 1]engine.Value // value[k] is the value naming rank k
	prior   [maxRanks + 1]float64      // chance that a fresh roll has rank k
	atLeast [maxRanks + 2]float64      // chance that a fresh roll has rank ≥ k
	median  int                        // the lowest rank a fresh roll reaches at most half the time
	// believe[c0][k] is the chance that the dice are at least k when one
	// roller announced k after the claim c0 (0: as opener), and nothing
	// else is known.
	believe [maxRanks + 1][maxRanks + 1]float64
}

// oddsTables holds the tables of every ranking, for both claim rules.
var oddsTables = func() map[oddsKey]*odds {
	m := make(map[oddsKey]*odds, 2*len(engine.Rankings))
	for _, r := range engine.Rankings {
		for _, eq := range []bool{false, true} {
			m[oddsKey{r, eq}] = newOdds(r, eq)
		}
	}
	return m
}()

type oddsKey struct {
	r  engine.Ranking
	eq bool
}

// oddsFor returns the tables of the view's rules, or nil when its ranking
// is unknown.
func oddsFor(o engine.Options) *odds {
	if t := oddsTables[oddsKey{o.Ranking, o.EqualClaims}]; t != nil {
		return t
	}
	if !o.Ranking.Valid() {
		return nil
	}
	return newOdds(o.Ranking, o.EqualClaims)
}

func newOdds(r engine.Ranking, equal bool) *odds {
	claims := r.Claims() // one value per rank, highest first
	if len(claims) == 0 || len(claims) > maxRanks {
		return nil
	}
	t := &odds{ranking: r, equal: equal, top: len(claims)}
	for i, v := range claims {
		k := t.top - i
		t.value[k] = v
		t.prior[k] = float64(r.Ways(v)) / 36
	}
	for k := t.top; k >= 1; k-- {
		t.atLeast[k] = t.atLeast[k+1] + t.prior[k]
	}
	t.atLeast[0] = 1
	for k := 1; k <= t.top; k++ {
		if t.atLeast[k] <= 0.5+1e-9 {
			t.median = k
			break
		}
	}
	var post [maxRanks + 1]float64
	for c0 := 0; c0 <= t.top; c0++ {
		for k := t.lowest(c0); k <= t.top; k++ {
			for d := 1; d <= t.top; d++ {
				post[d] = t.prior[d] * t.likelihood(k, d, c0, false)
			}
			t.believe[c0][k] = t.atLeastIn(&post, k)
		}
	}
	return t
}

// rank is the rank of v (0 for NoValue).
func (t *odds) rank(v engine.Value) int { return t.ranking.Rank(v) }

// lowest is the lowest rank a roller may announce after the claim c0.
func (t *odds) lowest(c0 int) int {
	switch {
	case c0 == 0:
		return 1
	case t.equal:
		return c0
	}
	return c0 + 1
}

// beat is the chance that a fresh roll may be announced truthfully after
// the claim c: it ranks above c (or equal, under equal-claims).
func (t *odds) beat(c int) float64 {
	if c > t.top {
		return 0
	}
	return t.atLeast[t.lowest(c)]
}

// likelihood is the chance, in the model above, that a roller with dice of
// rank d announces rank k after the claim c0. returned marks a roller
// raising when the cup came back to it.
func (t *odds) likelihood(k, d, c0 int, returned bool) float64 {
	lo := t.lowest(c0)
	if returned {
		lo = c0 + 1
		if d < c0 {
			return slip
		}
	}
	if k < lo {
		return slip
	}
	if c0 == 0 && !returned {
		if d >= t.median {
			return truthful(k, d, 1) + slip
		}
		return openTruth*truthful(k, d, 1) + (1-openTruth)*t.bluffWeight(k, t.median) + slip
	}
	if d >= lo {
		return truthful(k, d, lo) + slip
	}
	return t.bluffWeight(k, lo) + slip
}

// truthful is the chance that a roller with dice d announces k when it may
// announce anything from lo up and d is among them.
func truthful(k, d, lo int) float64 {
	switch {
	case k == d && d == lo:
		return 1
	case k == d:
		return 1 - understate
	case k >= lo && k < d:
		return understate / float64(d-lo)
	}
	return 0
}

// bluffWeight is the chance that a bluffer who may announce anything from
// lo up announces k.
func (t *odds) bluffWeight(k, lo int) float64 {
	if k < lo || lo > t.top {
		return 0
	}
	n := t.top - lo + 1
	norm := (1 - pow(bluffDecay, n)) / (1 - bluffDecay)
	return (1-bluffFlat)*pow(bluffDecay, k-lo)/norm + bluffFlat/float64(n)
}

func pow(x float64, n int) float64 {
	p := 1.0
	for range n {
		p *= x
	}
	return p
}

// atLeastIn is the share of the weights post (by rank) on ranks ≥ k.
func (t *odds) atLeastIn(post *[maxRanks + 1]float64, k int) float64 {
	var all, hi float64
	for d := 1; d <= t.top; d++ {
		all += post[d]
		if d >= k {
			hi += post[d]
		}
	}
	if all <= 0 {
		return 0
	}
	return hi / all
}

// statement is one announcement by the roller of the dice in the cup.
type statement struct {
	c0, k    int // the claim before it and the rank it announced
	returned bool
}

// cup is what a seat knows of the dice in the cup: their rank when it
// rolled them and looked, or else the announcements of their roller.
type cup struct {
	known  int // rank of the dice when the seat knows them, else 0
	roller int // -1 when no roll this round
	looked bool
	says   []statement
	passes int // passes since the roller's last announcement
}

// readCup reads the round's events (from the last EvRound on) for the seat
// of v. When they do not agree with v (events missing), it falls back on v
// alone: the claim is taken as the roller's announcement after no claim.
func readCup(t *odds, v engine.View, round []engine.Event) cup {
	start := 0
	for i := len(round) - 1; i >= 0; i-- {
		if round[i].Type == engine.EvRound {
			start = i + 1
			break
		}
	}
	c := cup{roller: -1}
	var says [4]statement
	c.says = says[:0]
	claim := 0
	for _, e := range round[start:] {
		switch e.Type {
		case engine.EvRoll:
			c.roller, c.looked, c.says, c.passes = e.Seat, e.Looked, c.says[:0], 0
			if claim == t.top { // a Mia that came back, rolled again: the claim is gone
				claim = 0
			}
		case engine.EvClaim, engine.EvPass:
			k := t.rank(e.Value)
			if c.roller >= 0 && e.Seat == c.roller && k > 0 {
				c.says = append(c.says, statement{c0: claim, k: k, returned: e.Type == engine.EvPass})
				c.passes = 0
			} else if e.Type == engine.EvPass {
				c.passes++
			}
			claim = k
		}
	}
	if v.Roller == v.Seat && v.Dice != engine.NoValue {
		c.known = t.rank(v.Dice)
	}
	if c.roller != v.Roller || claim != t.rank(v.Claim) {
		c = cup{known: c.known, roller: v.Roller, looked: true}
		if k := t.rank(v.Claim); k > 0 {
			c.says = []statement{{c0: 0, k: k}}
		}
	}
	return c
}

// chanceAtLeast is the chance that the dice in the cup rank at least k,
// given what the seat knows: certain when it rolled them and looked, else
// the model's reading of its roller's announcements (the prior when the
// roller did not look).
func (t *odds) chanceAtLeast(c cup, k int) float64 {
	if c.known > 0 {
		if c.known >= k {
			return 1
		}
		return 0
	}
	if !c.looked || len(c.says) == 0 {
		return t.atLeast[min(k, t.top+1)]
	}
	if len(c.says) == 1 && !c.says[0].returned {
		s := c.says[0]
		if k == s.k && k >= t.lowest(s.c0) {
			return t.believe[s.c0][k]
		}
	}
	var post [maxRanks + 1]float64
	for d := 1; d <= t.top; d++ {
		p := t.prior[d]
		for _, s := range c.says {
			p *= t.likelihood(s.k, d, s.c0, s.returned)
		}
		post[d] = p
	}
	return t.atLeastIn(&post, k)
}
