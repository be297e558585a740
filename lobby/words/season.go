package words

import (
	"fmt"
	"time"

	"github.com/mia-game/mia/engine/rating"
)

// The words of seasons and ratings (engine/rating), for every door: the
// commands, the screens and the web window say them alike.

// SeasonWords names a season for people: "November 2026", "week 48 of
// 2026 (23–29 Nov)", "all time".
func SeasonWords(s rating.Season) string {
	switch s.Period() {
	case rating.Monthly:
		return s.Start().Format("January 2006")
	case rating.Weekly:
		y, w := s.Start().ISOWeek()
		last := s.End().Add(-time.Nanosecond)
		span := s.Start().Format("2 Jan") + "–" + last.Format("2 Jan")
		if s.Start().Month() == last.Month() {
			span = s.Start().Format("2") + "–" + last.Format("2 Jan")
		}
		return fmt.Sprintf("week %d of %d (%s)", w, y, span)
	}
	return "all time"
}

// SeasonForms says how a season is written, after a season that does not
// parse (rating.ParseSeason): "\"2026-13\" is not a season: " and this.
const SeasonForms = "a month as 2026-11, an ISO week as 2026-W48, or all-time"

// SeasonLeft says how long the season running at now has to go: "ends in
// 12 days", "ends in 5 hours", "ends in 20 minutes"; "ended" once it has,
// "" for all time.
func SeasonLeft(s rating.Season, now time.Time) string {
	if s.IsAllTime() {
		return ""
	}
	left := s.End().Sub(now)
	switch {
	case left <= 0:
		return "ended"
	case left >= 48*time.Hour:
		return fmt.Sprintf("ends in %d days", int(left/(24*time.Hour)))
	case left >= 2*time.Hour:
		return fmt.Sprintf("ends in %d hours", int(left/time.Hour))
	}
	return "ends in " + Plural(max(1, int(left/time.Minute)), "1 minute", "minutes")
}

// Figure is the rating a player shows (rating.Rating.Points), marked
// with "?" while the model is still unsure of them (Provisional): "1412?".
func Figure(r rating.Rating) string {
	if r.Provisional() {
		return fmt.Sprintf("%d?", r.Points())
	}
	return fmt.Sprintf("%d", r.Points())
}

// Move is how far a game moved a figure: "+12", "−8", "±0".
func Move(c rating.Change) string {
	switch d := c.Points(); {
	case d > 0:
		return fmt.Sprintf("+%d", d)
	case d < 0:
		return fmt.Sprintf("−%d", -d)
	}
	return "±0"
}

// TrendWords says how a player's figure moved over their last rated
// games on a board (points, oldest first: each game's change), from
// before the first to after the last: "+129 over the last 2 rated games,
// 1353? → 1482?". "" for none.
func TrendWords(points []rating.Change) string {
	if len(points) == 0 {
		return ""
	}
	first, last := points[0].Before, points[len(points)-1].After
	return fmt.Sprintf("%s over the last %s, %s → %s", Move(rating.Change{Before: first, After: last}),
		Plural(len(points), "rated game", "rated games"), Figure(first), Figure(last))
}

// ProvisionalNote explains the "?" of a figure.
const ProvisionalNote = "? provisional: the model is not sure of them yet (about ten games)"
