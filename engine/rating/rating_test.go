package rating

import (
	"slices"
	"testing"
)

func TestPointsAndProvisional(t *testing.T) {
	cases := []struct {
		r           Rating
		points      int
		provisional bool
	}{
		{Newcomer(), 1353, true},
		{Rating{Mu: 25, Sigma: ProvisionalSigma}, 1500, false}, // the anchor: no longer provisional
		{Rating{Mu: 25, Sigma: 6.7}, 1497, true},
		{Rating{Mu: 25, Sigma: 2.5}, 1869, false},
		{Rating{Mu: 25 + 400/PointsPerMu, Sigma: 2.5}, 2269, false}, // 400 points: μ up by 13.57
		{Rating{Mu: 5, Sigma: 8}, 792, true},                        // 1500 + 29.48·(5 − 24 − 5)
	}
	for _, tc := range cases {
		if got := tc.r.Points(); got != tc.points {
			t.Errorf("%+v shows %d, want %d", tc.r, got, tc.points)
		}
		if got := tc.r.Provisional(); got != tc.provisional {
			t.Errorf("%+v provisional %v, want %v", tc.r, got, tc.provisional)
		}
	}
}

func TestCompare(t *testing.T) {
	board := []Rating{
		{Mu: 20, Sigma: 8, Games: 1},   // conservative −4
		{Mu: 30, Sigma: 2, Games: 100}, // 24
		{Mu: 27, Sigma: 1, Games: 300}, // 24, lower μ
		{Mu: 30, Sigma: 2, Games: 120}, // 24, same μ, more games
		{Mu: 25, Sigma: 3, Games: 50},  // 16
	}
	slices.SortStableFunc(board, Compare)
	want := []Rating{{30, 2, 120}, {30, 2, 100}, {27, 1, 300}, {25, 3, 50}, {20, 8, 1}}
	if !slices.Equal(board, want) {
		t.Errorf("board %v, want %v", board, want)
	}
	if Compare(Rating{Mu: 1, Sigma: 1, Games: 2}, Rating{Mu: 1, Sigma: 1, Games: 2}) != 0 {
		t.Error("equal ratings compare unequal")
	}
}

func TestModelString(t *testing.T) {
	want := "plackett-luce mu=25 sigma=8.333333333333334 beta=4.166666666666667 kappa=0.0001 tau=0.08333333333333333 limit-sigma"
	if got := Default.String(); got != want {
		t.Errorf("Default is %q, want %q", got, want)
	}
	other := Default
	other.Tau = 0.1
	if other.String() == Default.String() {
		t.Error("two models with different τ have one name")
	}
	other = Default
	other.LimitSigma = false
	if other.String() == Default.String() {
		t.Error("limiting σ or not: one name")
	}
}
