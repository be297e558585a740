package rating

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// randRating is a rating anyone might hold: μ from 0 to 50, σ from a
// settled 0.5 to a newcomer's, up to 1000 games.
func randRating(rng *rand.Rand) Rating {
	return Rating{Mu: 50 * rng.Float64(), Sigma: 0.5 + (25.0/3-0.5)*rng.Float64(), Games: rng.IntN(1000)}
}

// randTable is a table of 2 to 12 players; with ties, some places shared.
func randTable(rng *rand.Rand, ties bool) ([]Rating, []int) {
	n := 2 + rng.IntN(11)
	rs := make([]Rating, n)
	for i := range rs {
		rs[i] = randRating(rng)
	}
	places := rng.Perm(n)
	if ties {
		for i := range places {
			places[i] /= 1 + rng.IntN(3)
		}
	}
	return rs, places
}

// models are the models the properties hold for: mia's, and the update
// alone (no τ, σ not limited), so that "σ never grows" is the update's own
// property and not only the limit's.
var models = []struct {
	name  string
	model Model
}{{"default", Default}, {"no tau", jsModel}}

func TestWinnerRisesLastFalls(t *testing.T) {
	for _, m := range models {
		t.Run(m.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			for range 5000 {
				before, places := randTable(rng, rng.IntN(2) == 0)
				after, err := m.model.Rate(before, places)
				if err != nil {
					t.Fatal(err)
				}
				best, worst := slices.Min(places), slices.Max(places)
				for i := range before {
					alone := count(places, places[i]) == 1
					if alone && places[i] == best && after[i].Mu < before[i].Mu {
						t.Fatalf("the winner's μ fell: %v → %v (places %v, before %v)", before[i], after[i], places, before)
					}
					if alone && places[i] == worst && after[i].Mu > before[i].Mu {
						t.Fatalf("the last's μ rose: %v → %v (places %v, before %v)", before[i], after[i], places, before)
					}
					// and so the figure shown (σ falls too: the winner's
					// certainly rises; the last's falls in every case here)
					if alone && places[i] == best && after[i].Conservative() < before[i].Conservative() {
						t.Fatalf("the winner's figure fell: %v → %v", before[i], after[i])
					}
					if alone && places[i] == worst && after[i].Conservative() > before[i].Conservative() {
						t.Fatalf("the last's figure rose: %v → %v (places %v, before %v)", before[i], after[i], places, before)
					}
				}
			}
		})
	}
}

func count(xs []int, x int) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}

func TestSigmaNeverGrows(t *testing.T) {
	for _, m := range models {
		t.Run(m.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 4))
			for range 5000 {
				before, places := randTable(rng, rng.IntN(2) == 0)
				after, err := m.model.Rate(before, places)
				if err != nil {
					t.Fatal(err)
				}
				for i := range before {
					if after[i].Sigma > before[i].Sigma {
						t.Fatalf("σ grew: %v → %v (places %v, before %v)", before[i], after[i], places, before)
					}
				}
			}
		})
	}
	// Without the limit, τ raises a σ already below its floor: the limit
	// is what keeps it.
	unlimited := Default
	unlimited.LimitSigma = false
	sure := []Rating{{Mu: 25, Sigma: 0.01}, {Mu: 25, Sigma: 0.01}}
	after, err := unlimited.Rate(sure, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if after[0].Sigma <= 0.01 {
		t.Errorf("unlimited: σ %v, want above 0.01 (τ adds to it)", after[0].Sigma)
	}
	after, err = Default.Rate(sure, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if after[0].Sigma != 0.01 {
		t.Errorf("limited: σ %v, want 0.01", after[0].Sigma)
	}
}

// TestOrderIndependent: the same players given in another order get the
// same ratings, to the bit.
func TestOrderIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 5000 {
		before, places := randTable(rng, rng.IntN(2) == 0)
		if rng.IntN(4) == 0 { // some players identical, tied or not
			before[1] = before[0]
		}
		after, err := Rate(before, places)
		if err != nil {
			t.Fatal(err)
		}
		perm := rng.Perm(len(before))
		b2, p2 := make([]Rating, len(before)), make([]int, len(before))
		for i, j := range perm {
			b2[i], p2[i] = before[j], places[j]
		}
		after2, err := Rate(b2, p2)
		if err != nil {
			t.Fatal(err)
		}
		for i, j := range perm {
			if !sameBits(after2[i], after[j]) {
				t.Fatalf("player %d: %v in one order, %v in another (before %v, places %v)", j, after[j], after2[i], before, places)
			}
		}
		// Places keep only their order: shifting or spreading them changes nothing.
		p3 := make([]int, len(places))
		for i, p := range places {
			p3[i] = 10*p - 7
		}
		after3, err := Rate(before, p3)
		if err != nil {
			t.Fatal(err)
		}
		for i := range after {
			if !sameBits(after3[i], after[i]) {
				t.Fatalf("places %v and %v rate differently", places, p3)
			}
		}
	}
}

func sameBits(a, b Rating) bool {
	return math.Float64bits(a.Mu) == math.Float64bits(b.Mu) &&
		math.Float64bits(a.Sigma) == math.Float64bits(b.Sigma) && a.Games == b.Games
}

func TestRateLeavesInputAlone(t *testing.T) {
	before := []Rating{Newcomer(), {Mu: 30, Sigma: 2, Games: 7}}
	places := []int{1, 0}
	keep, keepPlaces := slices.Clone(before), slices.Clone(places)
	after, err := Rate(before, places)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(before, keep) || !slices.Equal(places, keepPlaces) {
		t.Errorf("Rate changed its input: %v %v", before, places)
	}
	if after[0].Games != 1 || after[1].Games != 8 {
		t.Errorf("games after: %d, %d; want 1, 8", after[0].Games, after[1].Games)
	}
}

func TestRateErrors(t *testing.T) {
	nc := Newcomer()
	cases := []struct {
		name   string
		before []Rating
		places []int
		want   error
	}{
		{"nobody", nil, nil, ErrPlayers},
		{"one player", []Rating{nc}, []int{0}, ErrPlayers},
		{"too few places", []Rating{nc, nc, nc}, []int{0, 1}, ErrPlaces},
		{"too many places", []Rating{nc, nc}, []int{0, 1, 2}, ErrPlaces},
		{"μ NaN", []Rating{nc, {Mu: math.NaN(), Sigma: 1}}, []int{0, 1}, ErrRating},
		{"μ infinite", []Rating{nc, {Mu: math.Inf(-1), Sigma: 1}}, []int{0, 1}, ErrRating},
		{"σ zero", []Rating{nc, {Mu: 25, Sigma: 0}}, []int{0, 1}, ErrRating},
		{"σ negative", []Rating{nc, {Mu: 25, Sigma: -1}}, []int{0, 1}, ErrRating},
		{"σ NaN", []Rating{nc, {Mu: 25, Sigma: math.NaN()}}, []int{0, 1}, ErrRating},
		{"σ infinite", []Rating{nc, {Mu: 25, Sigma: math.Inf(1)}}, []int{0, 1}, ErrRating},
		{"games negative", []Rating{nc, {Mu: 25, Sigma: 1, Games: -1}}, []int{0, 1}, ErrRating},
		{"μ too high", []Rating{nc, {Mu: 2 * MaxValue, Sigma: 1}}, []int{0, 1}, ErrRating},
		{"σ too high", []Rating{nc, {Mu: 25, Sigma: 2 * MaxValue}}, []int{0, 1}, ErrRating},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			after, err := Rate(tc.before, tc.places)
			if !errors.Is(err, tc.want) || after != nil {
				t.Errorf("Rate: %v, %v; want an error wrapping %v", after, err, tc.want)
			}
		})
	}
}

// TestExtremeRatings: ratings far apart, or at the bounds of Valid, still
// give finite numbers and a positive σ: the exponential is taken relative
// to the table's best μ, so it cannot overflow, and a player far behind
// keeps a tiny positive weight, so no chance is 0/0.
func TestExtremeRatings(t *testing.T) {
	cases := [][]Rating{
		{{Mu: 1e6, Sigma: 1}, {Mu: -1e6, Sigma: 1}},
		{{Mu: 5000, Sigma: 1e-3}, {Mu: 0, Sigma: 1e-3}, {Mu: -5000, Sigma: 1e-3}},
		{{Mu: 25, Sigma: 1e-300}, {Mu: 25, Sigma: MaxValue}},
		{{Mu: MaxValue, Sigma: MaxValue}, {Mu: -MaxValue, Sigma: 1e-300}, {Mu: 0, Sigma: 1}},
	}
	for _, before := range cases {
		for _, places := range [][]int{{0, 1, 2}, {2, 1, 0}, {0, 0, 0}} {
			places = places[:len(before)]
			for _, m := range models {
				after, err := m.model.Rate(before, places)
				if err != nil {
					t.Fatal(err)
				}
				for i, a := range after {
					if math.IsNaN(a.Mu) || math.IsInf(a.Mu, 0) || !(a.Sigma > 0) || math.IsInf(a.Sigma, 0) {
						t.Errorf("%s: %v at places %v: player %d gets %v", m.name, before, places, i, a)
					}
				}
			}
			chances, err := WinChances(before)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range chances {
				if math.IsNaN(c) || c < 0 || c > 1 {
					t.Errorf("%v: chances %v", before, chances)
				}
			}
		}
	}
}

func TestWinChances(t *testing.T) {
	t.Run("equal ratings share evenly", func(t *testing.T) {
		for n := 1; n <= 12; n++ {
			ch, err := WinChances(newcomers(n))
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range ch {
				if math.Abs(c-1/float64(n)) > 1e-15 {
					t.Errorf("%d newcomers: %v", n, ch)
				}
			}
		}
	})
	t.Run("two players: the logistic of Δμ/c", func(t *testing.T) {
		a, b := Rating{Mu: 30, Sigma: 2}, Rating{Mu: 22, Sigma: 5}
		ch, err := WinChances([]Rating{a, b})
		if err != nil {
			t.Fatal(err)
		}
		tau2, beta2 := Default.Tau*Default.Tau, Default.Beta*Default.Beta
		c := math.Sqrt(a.Sigma*a.Sigma + b.Sigma*b.Sigma + 2*tau2 + 2*beta2)
		want := 1 / (1 + math.Exp(-(a.Mu-b.Mu)/c))
		if math.Abs(ch[0]-want) > 1e-14 || math.Abs(ch[1]-(1-want)) > 1e-14 {
			t.Errorf("chances %v, want %v and %v", ch, want, 1-want)
		}
	})
	t.Run("sum to one, follow μ, any order", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(7, 8))
		for range 2000 {
			rs, _ := randTable(rng, false)
			ch, err := WinChances(rs)
			if err != nil {
				t.Fatal(err)
			}
			sum := 0.0
			for i, c := range ch {
				sum += c
				for j := range ch {
					if rs[i].Mu > rs[j].Mu && ch[i] <= ch[j] {
						t.Fatalf("μ %v has chance %v, μ %v has %v", rs[i].Mu, ch[i], rs[j].Mu, ch[j])
					}
				}
			}
			if math.Abs(sum-1) > 1e-14 {
				t.Fatalf("chances %v add up to %v", ch, sum)
			}
			perm := rng.Perm(len(rs))
			rs2 := make([]Rating, len(rs))
			for i, j := range perm {
				rs2[i] = rs[j]
			}
			ch2, _ := WinChances(rs2)
			for i, j := range perm {
				if math.Float64bits(ch2[i]) != math.Float64bits(ch[j]) {
					t.Fatalf("chance of player %d: %v in one order, %v in another", j, ch[j], ch2[i])
				}
			}
		}
	})
	// The chance is the model's own: a winner gains Ω = σ²/c·(1 − p), p
	// their chance to win, σ with τ added (Weng and Lin, Algorithm 4).
	t.Run("the update's chance", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(9, 10))
		for range 1000 {
			rs, places := randTable(rng, false)
			ch, err := WinChances(rs)
			if err != nil {
				t.Fatal(err)
			}
			after, err := Rate(rs, places)
			if err != nil {
				t.Fatal(err)
			}
			w := slices.Index(places, 0)
			s2 := rs[w].Sigma*rs[w].Sigma + Default.Tau*Default.Tau
			c2 := 0.0
			for _, r := range rs {
				c2 += r.Sigma*r.Sigma + Default.Tau*Default.Tau + Default.Beta*Default.Beta
			}
			want := s2 / math.Sqrt(c2) * (1 - ch[w])
			if got := after[w].Mu - rs[w].Mu; math.Abs(got-want) > 1e-12 {
				t.Fatalf("the winner gained %v, want σ²/c·(1−p) = %v", got, want)
			}
		}
	})
	t.Run("errors", func(t *testing.T) {
		if ch, err := WinChances(nil); err != nil || ch != nil {
			t.Errorf("no players: %v, %v", ch, err)
		}
		if ch, err := WinChances([]Rating{Newcomer()}); err != nil || len(ch) != 1 || ch[0] != 1 {
			t.Errorf("one player: %v, %v", ch, err)
		}
		if _, err := WinChances([]Rating{Newcomer(), {Mu: 1, Sigma: 0}}); !errors.Is(err, ErrRating) {
			t.Errorf("σ 0: %v, want ErrRating", err)
		}
	})
}

func TestExp(t *testing.T) {
	if exp(0) != 1 || exp(math.Copysign(0, -1)) != 1 {
		t.Errorf("exp(0) = %v", exp(0))
	}
	if exp(-708.5) != 0 || exp(math.Inf(-1)) != 0 {
		t.Errorf("exp below -708 = %v, want 0", exp(-708.5))
	}
	if !math.IsNaN(exp(math.NaN())) || !math.IsNaN(exp(1)) {
		t.Errorf("exp out of its domain is not NaN")
	}
	// Within one ulp of e^x computed to 256 bits, as fdlibm promises; the
	// fixed points first, then random ones, half where the update's
	// arguments mostly are.
	xs := []float64{-1e-300, -1e-9, -0.5, -1, -math.Ln2, -10, -100, -700, -708}
	rng := rand.New(rand.NewPCG(11, 12))
	for range 20000 {
		if rng.IntN(2) == 0 {
			xs = append(xs, -708*rng.Float64())
		} else {
			xs = append(xs, -2*rng.Float64())
		}
	}
	for _, x := range xs {
		got := exp(x)
		truth := bigExp(x)
		lo, hi := math.Nextafter(truth, 0), math.Nextafter(truth, 2)
		if got < lo || got > hi {
			t.Fatalf("exp(%v) = %v, e^x is %v", x, got, truth)
		}
	}
}

// bigExp is e^x rounded to the nearest float64, computed with 256-bit
// floats: e^x = (e^(x/2¹⁶))^(2¹⁶), the inner power by its Taylor series.
func bigExp(x float64) float64 {
	const prec, halvings = 256, 16
	y := new(big.Float).SetPrec(prec).SetFloat64(x)
	y.SetMantExp(y, -halvings)
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	for n := int64(1); n < 40; n++ {
		term.Mul(term, y)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(n))
		sum.Add(sum, term)
	}
	for range halvings {
		sum.Mul(sum, sum)
	}
	f, _ := sum.Float64()
	return f
}
