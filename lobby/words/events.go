package words

import (
	"fmt"
	"time"
)

// The words of events (lobby/events): their formats, their clocks and
// states, where an entrant is, and the end of one; every door says them
// by calling these.

// EventFormat is an event's format in words: "an arena of 60 minutes",
// "a swiss event of 5 rounds", "a knockout".
func EventFormat(format string, rounds int, lasts time.Duration) string {
	switch format {
	case "arena":
		return "an arena of " + Duration(lasts)
	case "swiss":
		return "a swiss event of " + Plural(rounds, "1 round", "rounds")
	case "knockout":
		return "a knockout"
	}
	return format
}

// Duration is a span in words, to the minute: "45 minutes", "1 hour",
// "1 hour 30 minutes".
func Duration(d time.Duration) string {
	h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case h == 0:
		return Plural(m, "1 minute", "minutes")
	case m == 0:
		return Plural(h, "1 hour", "hours")
	}
	return Plural(h, "1 hour", "hours") + " " + Plural(m, "1 minute", "minutes")
}

// Countdown is the time to something, as a clock counts it down: "4:07"
// under an hour, "2 h 05 min" under two days, then "3 days"; "0:00" for
// none left.
func Countdown(d time.Duration) string {
	switch {
	case d <= 0:
		return "0:00"
	case d < time.Hour:
		s := int((d + time.Second - 1) / time.Second)
		return fmt.Sprintf("%d:%02d", s/60, s%60)
	case d < 48*time.Hour:
		m := int(d / time.Minute)
		return fmt.Sprintf("%d h %02d min", m/60, m%60)
	}
	return fmt.Sprintf("%d days", int(d/(24*time.Hour)))
}

// EventState is where an event is, with its countdown: "starts in 4:07",
// "starts when its host starts it", "running, 45:10 left", "running",
// "finishing its last games", "over", "closed".
func EventState(state string, startsAt, ends time.Time, now time.Time) string {
	switch state {
	case "scheduled":
		if startsAt.IsZero() {
			return "starts when its host starts it"
		}
		return "starts in " + Countdown(startsAt.Sub(now))
	case "running":
		if !ends.IsZero() {
			return "running, " + Countdown(ends.Sub(now)) + " left"
		}
		return "running"
	case "stopping":
		return "finishing its last games"
	}
	return state
}

// EventWhere is what an entrant does now, in words: "playing at
// spring-3", "waiting for a table", "away: seated once back", "left",
// "out".
func EventWhere(where, table string) string {
	switch where {
	case "playing":
		return "playing at " + table
	case "waiting":
		return "waiting for a table"
	case "away":
		return "away: seated once back"
	case "door":
		return "at the Mäxchen gateway's " + table
	case "entered":
		return "in: seated once it starts"
	}
	return where
}

// EventOver is the end of an event for one entrant: "spring is over: you
// finished 2nd of 12, with 17 points".
func EventOver(event string, place, of, points int) string {
	return fmt.Sprintf("%s is over: you finished %s of %d, with %s", event, Ordinal(place), of, Plural(points, "1 point", "points"))
}

// Ordinal is a place in words: "1st", "2nd", "3rd", "11th", "22nd".
func Ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// StreakMark is the mark of an entrant on a streak where an emoji may not
// be drawn (a browser without an emoji font, a projector's): a text that
// every font has.
const StreakMark = "×2"

// Streak is what a streak means, beside its mark: "on a streak: wins
// count double".
func Streak() string { return "on a streak: wins count double" }

// EventFinal is what a live page of an event over says instead of
// following it: nothing more changes.
func EventFinal() string { return "The event is over: its standings are final." }
