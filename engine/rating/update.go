package rating

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Rate returns the players' ratings after one game: before holds their
// ratings going in, places their places in the standings (lower is better:
// 0 for the winner, 1 for the second…; only the order counts, and equal
// places are a tie). The result is in the order of before, each with one
// more game. before is not changed.
//
// The update is Weng and Lin's Algorithm 4 ("A Bayesian Approximation
// Method for Online Ranking", JMLR 12, 2011) with the Plackett–Luce model,
// one player per team, as OpenSkill computes it (openskill.js
// src/models/plackett-luce.ts and src/rate.ts; openskill.py
// openskill/models/weng_lin/plackett_luce.py), with σ raised by τ before
// the game and, under LimitSigma, never left above its value before it.
// Ties are handled as the paper and both do: each tied group counted with
// its size.
//
// The result depends only on the multiset of (rating, place) pairs: the
// same players given in another order get the same numbers, bit for bit.
func (m Model) Rate(before []Rating, places []int) ([]Rating, error) {
	n := len(before)
	if n < 2 {
		return nil, fmt.Errorf("rate %d player(s): %w", n, ErrPlayers)
	}
	if len(places) != n {
		return nil, fmt.Errorf("rate %d players with %d places: %w", n, len(places), ErrPlaces)
	}
	for i, r := range before {
		if err := r.check(); err != nil {
			return nil, fmt.Errorf("rate player %d: %w", i, err)
		}
	}
	w := newWork(m, before, places)

	after := make([]Rating, n)
	for k, i := range w.order {
		omega, delta := w.sums(k)
		s2 := w.sigma2[k]
		omega = float64(omega * (s2 / w.c))
		delta = float64(delta * (s2 / float64(w.c*w.c)))
		delta = float64(delta * (math.Sqrt(s2) / w.c)) // γ = σ/c, the paper's choice

		r := before[i]
		sigma := float64(w.sigma[k] * math.Sqrt(math.Max(1-delta, m.Kappa)))
		if m.LimitSigma && sigma > r.Sigma {
			sigma = r.Sigma
		}
		after[i] = Rating{Mu: r.Mu + omega, Sigma: sigma, Games: r.Games + 1}
	}
	return after, nil
}

// Rate is Default.Rate.
func Rate(before []Rating, places []int) ([]Rating, error) { return Default.Rate(before, places) }

// WinChances returns, for each player of a table about to play, the model's
// chance that they finish first: the Plackett–Luce probability
// e^(μᵢ/c) / Σⱼ e^(μⱼ/c), where c² = Σⱼ (σⱼ² + τ² + β²) is the table's
// combined uncertainty, as the update uses it. The chances are in the order
// of rs and add up to 1 (to rounding); a table of one gets 1; an invalid
// rating gets an error.
func (m Model) WinChances(rs []Rating) ([]float64, error) {
	for i, r := range rs {
		if err := r.check(); err != nil {
			return nil, fmt.Errorf("win chances, player %d: %w", i, err)
		}
	}
	n := len(rs)
	if n == 0 {
		return nil, nil
	}
	places := make([]int, n) // all equal: only the sum over the whole table is used
	w := newWork(m, rs, places)
	total := w.sumQ[0]
	out := make([]float64, n)
	for k, i := range w.order {
		out[i] = w.e[k] / total
	}
	return out, nil
}

// WinChances is Default.WinChances.
func WinChances(rs []Rating) ([]float64, error) { return Default.WinChances(rs) }

// work holds one game's intermediate values, the players in canonical
// order: by place, then μ, then σ. Players equal in all three have equal
// values, so any order among them gives the same sums.
type work struct {
	order  []int     // order[k] is the index (in the caller's slices) of the k-th player
	place  []int     // places, canonical order
	sigma  []float64 // σ with τ: sqrt(σ² + τ²), canonical order
	sigma2 []float64 // its square
	e      []float64 // e^((μ − max μ)/c)
	sumQ   []float64 // sumQ[k]: Σ e over the players placed at or below player k
	count  []float64 // count[k]: the players sharing player k's place (Aq)
	c      float64   // sqrt(Σ (σ² + τ² + β²))
}

// minExp is the lowest exponent the update takes: a player more than 700c
// below the table's best μ counts as 700c below (e^-700 is 1e-304), so
// every weight stays a positive normal number. No rating is that far off.
const minExp = -700

func newWork(m Model, rs []Rating, places []int) *work {
	n := len(rs)
	ints := make([]int, 2*n)
	fs := make([]float64, 5*n)
	w := &work{order: ints[:n:n], place: ints[n:],
		sigma: fs[:n:n], sigma2: fs[n : 2*n : 2*n], e: fs[2*n : 3*n : 3*n],
		sumQ: fs[3*n : 4*n : 4*n], count: fs[4*n:]}
	for i := range w.order {
		w.order[i] = i
	}
	slices.SortFunc(w.order, func(a, b int) int {
		return cmp.Or(cmp.Compare(places[a], places[b]),
			cmp.Compare(rs[a].Mu, rs[b].Mu), cmp.Compare(rs[a].Sigma, rs[b].Sigma))
	})

	tau2 := float64(m.Tau * m.Tau)
	beta2 := float64(m.Beta * m.Beta)
	maxMu := rs[0].Mu
	csum := 0.0
	for k, i := range w.order {
		w.place[k] = places[i]
		w.sigma[k] = rs[i].Sigma
		if tau2 != 0 {
			w.sigma[k] = math.Sqrt(float64(rs[i].Sigma*rs[i].Sigma) + tau2)
		}
		w.sigma2[k] = float64(w.sigma[k] * w.sigma[k])
		csum += w.sigma2[k] + beta2
		maxMu = max(maxMu, rs[i].Mu)
	}
	w.c = math.Sqrt(csum)
	for k, i := range w.order {
		w.e[k] = exp(max((rs[i].Mu-maxMu)/w.c, minExp))
	}
	// sumQ and count, from the last place up: a place's sum holds every
	// player at or below it, added from the bottom.
	sum := 0.0
	for k := n - 1; k >= 0; {
		j := k
		for ; j >= 0 && w.place[j] == w.place[k]; j-- {
			sum += w.e[j]
		}
		for g := j + 1; g <= k; g++ {
			w.sumQ[g], w.count[g] = sum, float64(k-j)
		}
		k = j
	}
	return w
}

// sums returns the k-th player's Ω and Δ before scaling: over every player
// q placed at or above them, (1 − p or −p)/Aq and p(1 − p)/Aq, where p =
// eₖ/sumQ[q] is the model's chance that k finishes best of the players
// from q's place down. The term of k itself is added first among the
// players of k's place, so a player's sums do not depend on where among
// identical players the sort put them.
func (w *work) sums(k int) (omega, delta float64) {
	for q := range w.place {
		if w.place[q] > w.place[k] {
			break // canonical order: every later player is placed lower
		}
		p := w.e[k] / w.sumQ[q]
		a := w.count[q]
		if w.place[q] == w.place[k] && (q == 0 || w.place[q-1] != w.place[q]) {
			omega += (1 - p) / a // k's own term, first of its place
		}
		if q != k {
			omega -= p / a
		}
		delta += float64(p*(1-p)) / a
	}
	return omega, delta
}
