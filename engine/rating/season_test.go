package rating

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"
)

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestSeasonOf(t *testing.T) {
	cases := []struct {
		period Period
		ended  string
		want   string
	}{
		{Monthly, "2026-11-15T12:00:00Z", "2026-11"},
		{Monthly, "2026-11-01T00:00:00Z", "2026-11"}, // a season begins at its first instant
		{Monthly, "2026-11-30T23:59:59.999999999Z", "2026-11"},
		{Monthly, "2026-12-01T00:00:00Z", "2026-12"},
		{Monthly, "2026-12-01T00:30:00+01:00", "2026-11"}, // UTC: 23:30 on 30 November
		{Monthly, "2026-11-30T20:00:00-05:00", "2026-12"}, // UTC: 01:00 on 1 December
		{Monthly, "2026-12-31T23:59:59Z", "2026-12"},
		{Monthly, "2027-01-01T00:00:00Z", "2027-01"},
		{Weekly, "2026-11-26T12:00:00Z", "2026-W48"},
		{Weekly, "2026-11-23T00:00:00Z", "2026-W48"}, // Monday: the week begins
		{Weekly, "2026-11-22T23:59:59Z", "2026-W47"}, // Sunday: the week before ends
		{Weekly, "2026-12-31T12:00:00Z", "2026-W53"}, // 2026 has 53 ISO weeks
		{Weekly, "2027-01-03T23:59:59Z", "2026-W53"}, // early January in the last year's week
		{Weekly, "2027-01-04T00:00:00Z", "2027-W01"},
		{Weekly, "2024-12-30T00:00:00Z", "2025-W01"}, // late December in the next year's week
		{Off, "2026-11-15T12:00:00Z", "all-time"},
	}
	for _, tc := range cases {
		t.Run(tc.period.String()+" "+tc.ended, func(t *testing.T) {
			s := tc.period.Of(utc(tc.ended))
			if s.String() != tc.want {
				t.Errorf("%v.Of(%s) = %s, want %s", tc.period, tc.ended, s, tc.want)
			}
			if !s.Contains(utc(tc.ended)) {
				t.Errorf("%s does not contain %s", s, tc.ended)
			}
		})
	}
}

// TestSeasonOfAGameCrossingTheBoundary: a game that began in one season and
// ended in the next counts in the one it ended in.
func TestSeasonOfAGameCrossingTheBoundary(t *testing.T) {
	began, ended := utc("2026-11-30T23:58:00Z"), utc("2026-12-01T00:03:00Z")
	for _, tc := range []struct {
		period      Period
		began, then string
	}{
		{Monthly, "2026-11", "2026-12"},
		{Weekly, "2026-W49", "2026-W49"}, // 30 November 2026 is a Monday
	} {
		if got := tc.period.Of(began).String(); got != tc.began {
			t.Errorf("%v: began in %s, want %s", tc.period, got, tc.began)
		}
		if got := tc.period.Of(ended).String(); got != tc.then {
			t.Errorf("%v: counts in %s, want %s", tc.period, got, tc.then)
		}
	}
	sun, mon := utc("2026-11-29T23:50:00Z"), utc("2026-11-30T00:10:00Z")
	if Weekly.Of(sun) == Weekly.Of(mon) || Weekly.Of(mon).String() != "2026-W49" {
		t.Errorf("a game from Sunday night to Monday counts in %s, want 2026-W49", Weekly.Of(mon))
	}
}

func TestSeasonBounds(t *testing.T) {
	cases := []struct {
		season      string
		start, end  string
		prev, next  string
		periodIs    Period
		allTimeIs   bool
		startIsZero bool
	}{
		{"2026-11", "2026-11-01T00:00:00Z", "2026-12-01T00:00:00Z", "2026-10", "2026-12", Monthly, false, false},
		{"2026-12", "2026-12-01T00:00:00Z", "2027-01-01T00:00:00Z", "2026-11", "2027-01", Monthly, false, false},
		{"2027-01", "2027-01-01T00:00:00Z", "2027-02-01T00:00:00Z", "2026-12", "2027-02", Monthly, false, false},
		{"2026-W48", "2026-11-23T00:00:00Z", "2026-11-30T00:00:00Z", "2026-W47", "2026-W49", Weekly, false, false},
		{"2026-W53", "2026-12-28T00:00:00Z", "2027-01-04T00:00:00Z", "2026-W52", "2027-W01", Weekly, false, false},
		{"2027-W01", "2027-01-04T00:00:00Z", "2027-01-11T00:00:00Z", "2026-W53", "2027-W02", Weekly, false, false},
		{"2025-W01", "2024-12-30T00:00:00Z", "2025-01-06T00:00:00Z", "2024-W52", "2025-W02", Weekly, false, false},
		{"all-time", "", "", "all-time", "all-time", Off, true, true},
	}
	for _, tc := range cases {
		t.Run(tc.season, func(t *testing.T) {
			s, err := ParseSeason(tc.season)
			if err != nil {
				t.Fatal(err)
			}
			if tc.startIsZero {
				if !s.Start().IsZero() || !s.End().IsZero() {
					t.Errorf("start %v, end %v, want zero times", s.Start(), s.End())
				}
			} else if !s.Start().Equal(utc(tc.start)) || !s.End().Equal(utc(tc.end)) {
				t.Errorf("from %v to %v, want %s to %s", s.Start(), s.End(), tc.start, tc.end)
			}
			if s.Prev().String() != tc.prev || s.Next().String() != tc.next {
				t.Errorf("prev %s next %s, want %s %s", s.Prev(), s.Next(), tc.prev, tc.next)
			}
			if s.Period() != tc.periodIs || s.IsAllTime() != tc.allTimeIs {
				t.Errorf("period %v, all time %v", s.Period(), s.IsAllTime())
			}
		})
	}
	if (Season{}) != AllTime {
		t.Error("the zero Season is not AllTime")
	}
}

// TestSeasonsTileTime: for random instants, the season holding t starts at
// or before t and ends after it, and next follows on with no gap.
func TestSeasonsTileTime(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	base := utc("1990-01-01T00:00:00Z")
	for range 20000 {
		at := base.Add(time.Duration(rng.Int64N(int64(80 * 365 * 24 * time.Hour))))
		for _, p := range []Period{Monthly, Weekly} {
			s := p.Of(at)
			if at.Before(s.Start()) || !at.Before(s.End()) {
				t.Fatalf("%v.Of(%v) = %s, from %v to %v", p, at, s, s.Start(), s.End())
			}
			if !s.Next().Start().Equal(s.End()) || s.Next().Prev() != s {
				t.Fatalf("%s: next %s starts %v, not at %v", s, s.Next(), s.Next().Start(), s.End())
			}
			back, err := ParseSeason(s.String())
			if err != nil || back != s {
				t.Fatalf("%s reads back as %v, %v", s, back, err)
			}
		}
	}
}

func TestParseSeason(t *testing.T) {
	good := []struct{ in, want string }{
		{"2026-11", "2026-11"},
		{"2026-3", "2026-03"},
		{"2026-01", "2026-01"},
		{"2026-W48", "2026-W48"},
		{"2026-w48", "2026-W48"},
		{"2026-W7", "2026-W07"},
		{"2026-W53", "2026-W53"},
		{"2020-W53", "2020-W53"},
		{"all-time", "all-time"},
		{"ALL-TIME", "all-time"},
	}
	for _, tc := range good {
		s, err := ParseSeason(tc.in)
		if err != nil || s.String() != tc.want {
			t.Errorf("ParseSeason(%q) = %s, %v; want %s", tc.in, s, err, tc.want)
		}
	}
	bad := []string{"", "2026", "2026-", "2026-00", "2026-13", "2026-123", "26-11", "20260-11",
		"2026-W", "2026-W00", "2027-W53", "2026-W54", "2026-W480", "2026-X48", "2026-11-01",
		"2026/11", " 2026-11", "2026-11 ", "0000-01", "2026-+1", "2026-W-1", "monthly", "2026-１１"}
	for _, in := range bad {
		s, err := ParseSeason(in)
		if !errors.Is(err, ErrSeason) {
			t.Errorf("ParseSeason(%q) = %s, %v; want an error wrapping ErrSeason", in, s, err)
		}
	}
}

func TestParsePeriod(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Period
	}{{"monthly", Monthly}, {"weekly", Weekly}, {"off", Off}, {"Monthly", Monthly}, {"OFF", Off}} {
		p, err := ParsePeriod(tc.in)
		if err != nil || p != tc.want {
			t.Errorf("ParsePeriod(%q) = %v, %v; want %v", tc.in, p, err, tc.want)
		}
		if back, _ := ParsePeriod(p.String()); back != p {
			t.Errorf("%v reads back as %v", p, back)
		}
	}
	for _, in := range []string{"", "month", "daily", "yearly", "none"} {
		if p, err := ParsePeriod(in); !errors.Is(err, ErrSeason) {
			t.Errorf("ParsePeriod(%q) = %v, %v; want an error wrapping ErrSeason", in, p, err)
		}
	}
	if DefaultPeriod != Monthly || Period(0) != Monthly {
		t.Errorf("the default period is %v, the zero period %v; want monthly", DefaultPeriod, Period(0))
	}
}
