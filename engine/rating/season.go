package rating

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Period is how the boards are cut into seasons: the server's --season.
type Period uint8

// The periods. Seasons are in UTC.
const (
	Monthly Period = iota // seasons are calendar months: 2026-11
	Weekly                // seasons are ISO 8601 weeks, Monday to Sunday: 2026-W48
	Off                   // no seasons: every game counts in one, all time
)

// DefaultPeriod is the period of a server not told otherwise.
const DefaultPeriod = Monthly

var periodNames = [...]string{Monthly: "monthly", Weekly: "weekly", Off: "off"}

// String is the period's name: "monthly", "weekly" or "off".
func (p Period) String() string {
	if int(p) < len(periodNames) {
		return periodNames[p]
	}
	return "Period(" + strconv.Itoa(int(p)) + ")"
}

// ParsePeriod reads a period's name ("monthly", "weekly", "off"; any
// case). Anything else is an error wrapping ErrSeason.
func ParsePeriod(s string) (Period, error) {
	for p, name := range periodNames {
		if strings.EqualFold(s, name) {
			return Period(p), nil
		}
	}
	return 0, fmt.Errorf("%w: %q is not a kind of season (monthly, weekly or off)", ErrSeason, s)
}

// Season is one season of the boards: a calendar month, an ISO week, or
// (the zero Season) all time. Seasons compare with ==.
type Season struct {
	kind kind
	year int
	n    int // the month, 1 to 12, or the ISO week, 1 to 53
}

// kind is a season's kind; its zero is all time, so the zero Season is
// AllTime.
type kind uint8

const (
	allTime kind = iota
	month
	week
)

// AllTime is the season of every game: the zero Season, and the only
// season when the period is Off.
var AllTime = Season{}

// Of is the season a game that ended at t belongs to: the season holding
// t in UTC. A game that began in one season and ended in the next counts
// in the one it ended in. Under Off, every game is AllTime.
func (p Period) Of(t time.Time) Season {
	t = t.UTC()
	switch p {
	case Monthly:
		return Season{kind: month, year: t.Year(), n: int(t.Month())}
	case Weekly:
		y, w := t.ISOWeek()
		return Season{kind: week, year: y, n: w}
	}
	return AllTime
}

// Period is the kind of the season: Monthly, Weekly, or Off for AllTime.
func (s Season) Period() Period {
	switch s.kind {
	case month:
		return Monthly
	case week:
		return Weekly
	}
	return Off
}

// IsAllTime reports whether s is AllTime.
func (s Season) IsAllTime() bool { return s == AllTime }

// String names the season: "2026-11" (November 2026), "2026-W48" (ISO
// week 48 of 2026), "all-time". ParseSeason reads it back.
func (s Season) String() string {
	switch s.kind {
	case month:
		return fmt.Sprintf("%04d-%02d", s.year, s.n)
	case week:
		return fmt.Sprintf("%04d-W%02d", s.year, s.n)
	}
	return "all-time"
}

// Start is the first instant of the season (UTC); the zero time for
// AllTime.
func (s Season) Start() time.Time {
	switch s.kind {
	case month:
		return time.Date(s.year, time.Month(s.n), 1, 0, 0, 0, 0, time.UTC)
	case week:
		return week1(s.year).AddDate(0, 0, 7*(s.n-1))
	}
	return time.Time{}
}

// End is the first instant after the season: the next season's Start. A
// game belongs to s when Start ≤ its end < End. AllTime has no end: the
// zero time.
func (s Season) End() time.Time {
	switch s.kind {
	case month:
		return s.Start().AddDate(0, 1, 0)
	case week:
		return s.Start().AddDate(0, 0, 7)
	}
	return time.Time{}
}

// Contains reports whether a game that ended at t counts in s.
func (s Season) Contains(t time.Time) bool { return s.Period().Of(t) == s }

// Next is the season after s (AllTime's is AllTime).
func (s Season) Next() Season { return s.Period().Of(s.End()) }

// Prev is the season before s (AllTime's is AllTime).
func (s Season) Prev() Season {
	if s.kind == allTime {
		return AllTime
	}
	return s.Period().Of(s.Start().Add(-time.Nanosecond))
}

// week1 is the Monday that begins ISO week 1 of year y: the week holding
// 4 January.
func week1(y int) time.Time {
	jan4 := time.Date(y, time.January, 4, 0, 0, 0, 0, time.UTC)
	return jan4.AddDate(0, 0, -((int(jan4.Weekday()) + 6) % 7))
}

// weeks is the number of ISO weeks in year y (52 or 53): the week of 28
// December.
func weeks(y int) int {
	_, w := time.Date(y, time.December, 28, 0, 0, 0, 0, time.UTC).ISOWeek()
	return w
}

// ParseSeason reads a season's name: "2026-11" (a month; "2026-3" is read
// as "2026-03"), "2026-W48" (an ISO week; the W in either case, "2026-W7"
// as "2026-W07") or "all-time". Anything else, or a month or week that does
// not exist (2026-13; 2027-W53, as 2027 has 52 weeks where 2026 has 53),
// is an error wrapping ErrSeason, saying what was expected.
func ParseSeason(s string) (Season, error) {
	if strings.EqualFold(s, "all-time") {
		return AllTime, nil
	}
	bad := func(why string) (Season, error) {
		return Season{}, fmt.Errorf("%w: %q %s: want a month as 2026-11 or an ISO week as 2026-W48", ErrSeason, s, why)
	}
	ys, rest, ok := strings.Cut(s, "-")
	if !ok || len(ys) != 4 {
		return bad("is not a season")
	}
	year, ok := digits(ys)
	if !ok || year < 1 {
		return bad("has no year")
	}
	k := month
	if len(rest) > 0 && (rest[0] == 'W' || rest[0] == 'w') {
		k, rest = week, rest[1:]
	}
	n, ok := digits(rest)
	if !ok || len(rest) > 2 {
		return bad("is not a season")
	}
	switch {
	case k == month && (n < 1 || n > 12):
		return bad("has no such month")
	case k == week && (n < 1 || n > weeks(year)):
		return bad(fmt.Sprintf("has no such week (%d has %d)", year, weeks(year)))
	}
	return Season{kind: k, year: year, n: n}, nil
}

// digits reads a non-empty string of ASCII digits.
func digits(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = 10*n + int(c-'0')
	}
	return n, true
}
