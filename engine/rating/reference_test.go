package rating

import (
	"math"
	"testing"
)

// The update against the reference implementations' values.
//
// Sources, at the commits read:
//
//	js-model   philihp/openskill.js 0bf4361, src/models/__tests__/plackett-luce.test.ts
//	           (the model alone: no τ, no limit)
//	js-rate    philihp/openskill.js 0bf4361, src/__tests__/rate.test.ts
//	           (rate(): τ = 25/300 unless the test sets it, σ not limited unless set)
//	py-8       no published test has more than five one-player teams (neither
//	           openskill.js's nor openskill.py 6.2.0's), so the 8-player values
//	           are openskill.py 6.2.0's own output (vivekjoshy/openskill.py
//	           65a675d, openskill/models/weng_lin/plackett_luce.py), printed by
//	           testdata/reference.py, which also prints every js value above:
//	           openskill.py gives each to the last digit, so it is the same
//	           reference.
//
// Tolerance: each μ and σ within 1e-14 of the reference, relative to the
// value (at least 1): about 50 ulps. The update sums in its own canonical
// order and subtracts the table's highest μ before the exponential (so
// e^(μ/c) cannot overflow), so its last bits may differ from the
// reference's; the largest difference in these cases is 3e-16 (2 ulps).
const refTol = 1e-14

var (
	jsModel = Model{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Kappa: 0.0001}
	jsRate  = Model{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Kappa: 0.0001, Tau: 25.0 / 300}
)

func r(mu, sigma float64) Rating { return Rating{Mu: mu, Sigma: sigma} }

func newcomers(n int) []Rating {
	rs := make([]Rating, n)
	for i := range rs {
		rs[i] = Newcomer()
	}
	return rs
}

func TestReference(t *testing.T) {
	tau01 := jsRate
	tau01.Tau = 0.01
	tau01Limit := tau01
	tau01Limit.LimitSigma = true
	cases := []struct {
		name   string
		source string
		model  Model
		before []Rating
		places []int
		want   []Rating
	}{
		{"2p FFA", "js-model '2p FFA'", jsModel, newcomers(2), []int{0, 1},
			[]Rating{r(27.63523138347365, 8.065506316323548), r(22.36476861652635, 8.065506316323548)}},
		{"3p FFA", "js-model '3p FFA'", jsModel, newcomers(3), []int{0, 1, 2},
			[]Rating{r(27.868876552746237, 8.204837030780652), r(25.717219138186557, 8.057829747583874),
				r(21.413904309067206, 8.057829747583874)}},
		{"4p FFA", "js-model '4p FFA'", jsModel, newcomers(4), []int{0, 1, 2, 3},
			[]Rating{r(27.795084971874736, 8.263160757613477), r(26.552824984374855, 8.179213704945203),
				r(24.68943500312503, 8.083731307186588), r(20.96265504062538, 8.083731307186588)}},
		{"5p FFA", "js-model '5p FFA'", jsModel, newcomers(5), []int{0, 1, 2, 3, 4},
			[]Rating{r(27.666666666666668, 8.290556877154474), r(26.833333333333332, 8.240145629781066),
				r(25.72222222222222, 8.179996679645559), r(24.055555555555557, 8.111796013701358),
				r(20.72222222222222, 8.111796013701358)}},
		{"2p, loser first", "js-rate 'reverses rank'", jsRate, newcomers(2), []int{2, 1},
			[]Rating{r(22.364610506859503, 8.06590141354368), r(27.635389493140497, 8.06590141354368)}},
		{"4p, unequal ratings", "js-rate 'rate accepts and runs a placket-luce model by default'", jsRate,
			[]Rating{r(29.182, 4.782), r(27.174, 4.922), r(16.672, 6.217), Newcomer()}, []int{0, 1, 2, 3},
			[]Rating{r(30.210227447000438, 4.765617924939384), r(27.644725221915632, 4.883479590134575),
				r(17.4036218889969, 6.101259408259549), r(19.21460876538932, 7.854669920480409)}},
		{"4p, τ 0.01", "js-rate 'rate accepts and runs a placket-luce model with tau'", tau01,
			[]Rating{r(29.182, 4.782), r(27.174, 4.922), r(16.672, 6.217), Newcomer()}, []int{0, 1, 2, 3},
			[]Rating{r(30.20997558824299, 4.764909330988368), r(27.64461002009721, 4.882799245921361),
				r(17.403587237635527, 6.100731158882956), r(19.21478808745494, 7.854267281042293)}},
		{"2p, τ 0.01, σ limited", "js-rate 'rate accepts and runs a placket-luce model with tau and limitSigma'",
			tau01Limit, []Rating{r(6.672, 0.0001), r(29.182, 4.782)}, []int{0, 1},
			[]Rating{r(6.672012533190158, 0.0001), r(26.316243774876106, 4.7540633621019)}},
		{"4p, places out of order", "js-rate 'accepts a misordered rank ordering'", jsRate, newcomers(4),
			[]int{2, 1, 4, 3},
			[]Rating{r(26.55291815138952, 8.17961798837266), r(27.795252672501135, 8.263571791259416),
				r(20.962412806387245, 8.084127880168786), r(24.689416369722096, 8.084127880168786)}},
		{"4p, unequal, out of order", "js-rate 'accepts a rate ordering'", jsRate,
			[]Rating{r(15, 25.0/3), r(20, 25.0/3), r(25, 25.0/3), r(30, 25.0/3)}, []int{1, 3, 4, 2},
			[]Rating{r(18.131120980297805, 8.283536573151807), r(20.405169039419135, 8.107860440531121),
				r(20.65583040714804, 8.082574596348321), r(30.80787957313502, 8.155100416275928)}},
		{"3p, a tie for second", "js-rate 'allows ties'", jsRate,
			[]Rating{r(10, 8), r(5, 10), r(0, 12)}, []int{1, 2, 2},
			[]Rating{r(11.942996666741225, 7.926888197620324), r(2.9381178546315034, 9.653804487570165),
				r(-1.4024317012198733, 11.323641575516767)}},
		{"4p, all tied", "js-rate 'four-way-tie with newbies'", jsRate, newcomers(4), []int{1, 1, 1, 1},
			[]Rating{r(25, 8.263571791259416), r(25, 8.263571791259416), r(25, 8.263571791259416),
				r(25, 8.263571791259416)}},
		{"2p, a draw", "js-rate 'treats equal zero ranks as a draw (1v1)'", jsRate, newcomers(2), []int{0, 0},
			[]Rating{r(25, 8.06590141354368), r(25, 8.06590141354368)}},
		{"8p FFA", "py-8 'newcomers'", jsModel, newcomers(8), []int{0, 1, 2, 3, 4, 5, 6, 7},
			[]Rating{r(27.305827460539444, 8.31890942876358), r(26.929365834328923, 8.302731654244443),
				r(26.49016060374998, 8.284343624575587), r(25.96311432705525, 8.263109893108224),
				r(25.30430648118684, 8.23815696633144), r(24.425896020028954, 8.208484902231403),
				r(23.108280328292132, 8.174975097939884), r(20.47304894481848, 8.174975097939884)}},
		{"8p, unequal, out of order", "py-8 'mixed'", jsRate,
			[]Rating{r(31.5, 2.5), r(18.25, 6.0), r(25.0, 25.0/3), r(40.125, 1.25), r(12.0, 4.75),
				r(27.75, 3.5), r(22.5, 7.25), r(35.0, 5.0)},
			[]int{3, 8, 1, 2, 7, 5, 6, 4},
			[]Rating{r(31.652798698414145, 2.5001629858256913), r(15.339101253263085, 5.906641369337493),
				r(28.256190455352538, 8.301184567479499), r(40.16692990378227, 1.25270932033017),
				r(11.86678755924831, 4.720241196458709), r(27.731223943756156, 3.4925523867980797),
				r(21.94263514187615, 7.07316143103678), r(35.021452182227804, 4.968027873421389)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.model.Rate(tc.before, tc.places)
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range tc.want {
				g := got[i]
				if !near(g.Mu, w.Mu) || !near(g.Sigma, w.Sigma) {
					t.Errorf("player %d: got μ %v σ %v, want μ %v σ %v (%s)", i, g.Mu, g.Sigma, w.Mu, w.Sigma, tc.source)
				}
				if g.Games != tc.before[i].Games+1 {
					t.Errorf("player %d: %d games, want %d", i, g.Games, tc.before[i].Games+1)
				}
			}
		})
	}
}

// TestReferenceSeries chains three games, as openskill.js's series test:
// src/models/__tests__/plackett-luce-series.test.ts at 0bf4361, whose
// values (from the R package rank 1.02, per its comment) are asserted there
// with toBeCloseTo, to 2 decimals: the tolerance here is 0.005. Scores are
// turned into places (a higher score is a better place; equal scores tie).
func TestReferenceSeries(t *testing.T) {
	p := newcomers(5)
	play := func(who []int, places []int) {
		t.Helper()
		before := make([]Rating, len(who))
		for i, w := range who {
			before[i] = p[w]
		}
		after, err := jsRate.Rate(before, places)
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range who {
			p[w] = after[i]
		}
	}
	play([]int{0, 1, 2, 3, 4}, []int{0, 1, 1, 2, 2}) // scores 9, 7, 7, 5, 5
	play([]int{4, 2, 1}, []int{0, 1, 1})             // 9, 5, 5
	play([]int{3, 1, 2, 0}, []int{0, 0, 1, 1})       // 9, 9, 7, 7
	want := []Rating{r(26.353761103, 8.11102706), r(24.618479789, 7.90533551), r(23.065819512, 7.822005595),
		r(24.476332403, 8.106111471), r(26.385499685, 8.054090809)}
	for i, w := range want {
		if math.Abs(p[i].Mu-w.Mu) > 0.005 || math.Abs(p[i].Sigma-w.Sigma) > 0.005 {
			t.Errorf("p%d: got μ %v σ %v, want μ %v σ %v", i, p[i].Mu, p[i].Sigma, w.Mu, w.Sigma)
		}
	}
}

func near(got, want float64) bool {
	return math.Abs(got-want) <= refTol*max(1, math.Abs(want))
}
