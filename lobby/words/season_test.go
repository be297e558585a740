package words

import (
	"testing"
	"time"

	"github.com/mia-game/mia/engine/rating"
)

// TestRatingWords: how every door writes a figure, a move, a trend and a
// season.
func TestRatingWords(t *testing.T) {
	newcomer := rating.Newcomer()
	sure := rating.Rating{Mu: 30, Sigma: 3, Games: 40}
	weaker := rating.Rating{Mu: 27, Sigma: 3, Games: 41}
	if got := Figure(newcomer); got != "1353?" {
		t.Errorf("a newcomer's figure: %q", got)
	}
	// 1500 + 29.48·(μ − 3σ − 5): engine/rating's Points.
	if got, want := Figure(sure), "1972"; got != want || sure.Provisional() {
		t.Errorf("a sure figure: %q, want %q", got, want)
	}
	for _, c := range []struct {
		change rating.Change
		want   string
	}{
		{rating.Change{Before: weaker, After: sure}, "+89"},
		{rating.Change{Before: sure, After: weaker}, "−89"},
		{rating.Change{Before: sure, After: sure}, "±0"},
	} {
		if got := Move(c.change); got != c.want {
			t.Errorf("Move %+v = %q, want %q", c.change, got, c.want)
		}
	}
	for _, c := range []struct {
		points []rating.Change
		want   string
	}{
		{nil, ""},
		{[]rating.Change{{Before: newcomer, After: weaker}}, "+530 over the last rated game, 1353? → 1883"},
		{[]rating.Change{{Before: newcomer, After: weaker}, {Before: weaker, After: sure}}, "+619 over the last 2 rated games, 1353? → 1972"},
	} {
		if got := TrendWords(c.points); got != c.want {
			t.Errorf("TrendWords(%d points) = %q, want %q", len(c.points), got, c.want)
		}
	}
	nov := rating.Monthly.Of(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC))
	w48 := rating.Weekly.Of(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	for _, c := range []struct {
		s          rating.Season
		now        time.Time
		words, say string
	}{
		{nov, time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC), "November 2026", "ends in 9 days"},
		{nov, time.Date(2026, 11, 30, 21, 0, 0, 0, time.UTC), "November 2026", "ends in 3 hours"},
		{nov, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), "November 2026", "ended"},
		{w48, time.Date(2026, 11, 29, 23, 50, 0, 0, time.UTC), "week 48 of 2026 (23–29 Nov)", "ends in 10 minutes"},
		{rating.AllTime, time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC), "all time", ""},
	} {
		if got := SeasonWords(c.s); got != c.words {
			t.Errorf("SeasonWords(%s) = %q, want %q", c.s, got, c.words)
		}
		if got := SeasonLeft(c.s, c.now); got != c.say {
			t.Errorf("SeasonLeft(%s, %s) = %q, want %q", c.s, c.now, got, c.say)
		}
	}
}
