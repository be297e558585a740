package events

import (
	"slices"
	"strconv"
	"time"
)

// Result is how one of the event's games ended, as storage keeps it (the
// standings of PROTOCOL.md §3).
type Result struct {
	Game    string
	Players []string // person ids, by seat
	// Standings are seats, winner first; nil for a game without a result
	// (abandoned: its table was closed while it ran).
	Standings []int
	Started   time.Time
	Ended     time.Time // zero while the game runs
}

// Over reports whether the game has ended, with a result or without.
func (r Result) Over() bool { return !r.Ended.IsZero() }

// Scored reports whether the game ended with a result.
func (r Result) Scored() bool { return r.Over() && len(r.Standings) > 0 }

// Score is one entrant's count, from the games' results (Tally).
type Score struct {
	ID     string
	Points int
	Games  int // games with a result
	Wins   int
	// Streak is the games won in a row, up to now; from the third in a
	// row on, an arena counts a win double (Fire), until a game not won.
	Streak int
	Fire   bool
	Byes   int
	// Reached is the last round a knockout entrant played or had a bye
	// in; Out: a knockout has put them out (they finished in a table's
	// bottom half).
	Reached int
	Out     bool
	Joined  time.Time
	// Entry is their place in the order of joining, from 0: it never
	// changes, whatever the standings (the wall colours them by it).
	Entry int
	Left  bool
	// Maexchen is the Mäxchen server's points of the games played at the
	// event's door: +1 a game, -1 a game lost (the last place).
	Maexchen int
	// Trail is the entrant's points after each of their games, in the
	// order the games ended: the wall's chart.
	Trail []Point
}

// Point is an entrant's points at a moment.
type Point struct {
	At     time.Time
	Points int
}

// ByePoints is what a bye counts: a win at a table of two.
const ByePoints = 1

// placePoints is what a place counts at a game of n players: the number
// of players who finished below it.
func placePoints(place, n int) int { return n - 1 - place }

// advancing is how many of a knockout table of n players go on: the top
// half, at least the winner.
func advancing(n int) int { return max(1, n/2) }

// Tally counts every entrant's points from the results of the event's
// games (by game id), in the order they ended: a game's points are the
// number of players who finished below each (the standings of its
// replay), in an arena a win after two wins in a row counts double until
// a game not won, a bye counts ByePoints, and a game without a result
// counts nothing. The scores are ranked (Rank).
func Tally(rec *Record, results map[string]Result) []Score {
	scores := make([]Score, len(rec.Entrants))
	at := make(map[string]int, len(rec.Entrants))
	for i, e := range rec.Entrants {
		scores[i] = Score{ID: e.ID, Joined: e.Joined, Left: e.Left, Entry: i}
		at[e.ID] = i
	}
	games := make([]Result, 0, len(rec.Tables))
	round := make(map[string]int, len(rec.Tables))
	final := make(map[string]bool)
	for _, t := range rec.Tables {
		if r, ok := results[t.Game]; ok && t.Game != "" && r.Over() {
			games = append(games, r)
			round[t.Game], final[t.Game] = t.Round, t.Final
		}
	}
	door := make(map[string]bool, len(rec.DoorGames))
	for _, id := range rec.DoorGames {
		if r, ok := results[id]; ok && r.Over() && !door[id] {
			games = append(games, r)
			door[id] = true
		}
	}
	slices.SortFunc(games, func(a, b Result) int {
		if c := a.Ended.Compare(b.Ended); c != 0 {
			return c
		}
		return compareIDs(a.Game, b.Game)
	})
	for _, g := range games {
		r := round[g.Game]
		if !g.Scored() {
			if rec.Format == Knockout { // a game without a result puts no one out
				for _, id := range g.Players {
					if i, ok := at[id]; ok {
						scores[i].Reached = max(scores[i].Reached, r)
					}
				}
			}
			continue
		}
		n := len(g.Standings)
		for place, seat := range g.Standings {
			if seat < 0 || seat >= len(g.Players) {
				continue
			}
			i, ok := at[g.Players[seat]]
			if !ok {
				continue
			}
			s := &scores[i]
			pts := placePoints(place, n)
			if door[g.Game] {
				s.Maexchen++
				if place == n-1 {
					s.Maexchen--
				}
			}
			s.Games++
			if place == 0 {
				s.Wins++
				if rec.Format == Arena && s.Streak >= 2 {
					pts *= 2
				}
				s.Streak++
			} else {
				s.Streak = 0
			}
			s.Fire = rec.Format == Arena && s.Streak >= 2
			s.Points += pts
			s.Trail = append(s.Trail, Point{At: g.Ended, Points: s.Points})
			if rec.Format == Knockout {
				s.Reached = max(s.Reached, r)
				if place >= advancing(n) || final[g.Game] && place > 0 {
					s.Out = true
				}
			}
		}
	}
	for _, b := range rec.Byes {
		if i, ok := at[b.ID]; ok {
			scores[i].Byes++
			scores[i].Reached = max(scores[i].Reached, b.Round)
			if rec.Format == Swiss {
				scores[i].Points += ByePoints
			}
		}
	}
	if rec.Format == Knockout && rec.Round > 0 {
		for i := range scores {
			if s := &scores[i]; !s.Out && s.Reached < rec.Round-1 {
				s.Out = true // not in the round before this one: away when it was dealt
			}
		}
	}
	Rank(rec.Format, scores)
	return scores
}

// Rank orders scores best first: more points, then more games won, then
// fewer games played, then the earlier join; in a knockout, first those
// still in and the farther they came.
func Rank(f Format, scores []Score) {
	slices.SortStableFunc(scores, func(a, b Score) int {
		if f == Knockout {
			if a.Out != b.Out {
				if a.Out {
					return 1
				}
				return -1
			}
			if a.Reached != b.Reached {
				return b.Reached - a.Reached
			}
		}
		switch {
		case a.Points != b.Points:
			return b.Points - a.Points
		case a.Wins != b.Wins:
			return b.Wins - a.Wins
		case a.Games != b.Games:
			return a.Games - b.Games
		}
		return a.Joined.Compare(b.Joined)
	})
}

// compareIDs orders game ids, decimal numbers, by their value.
func compareIDs(a, b string) int {
	x, errA := strconv.ParseUint(a, 10, 64)
	y, errB := strconv.ParseUint(b, 10, 64)
	if errA != nil || errB != nil {
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	}
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// Advancing is who goes on from a knockout's round in play: the top half
// of each of its tables (advancing), at the final its winner alone (final
// reports that the round was the final: its winner is the champion); all
// the players of a table whose game has no result (closed while it ran:
// they play the round again, the final too); and the round's bye.
func Advancing(rec *Record, results map[string]Result) (ids []string, final bool) {
	for _, t := range rec.Tables {
		if t.Round != rec.Round {
			continue
		}
		r, ok := results[t.Game]
		if t.Game == "" || !ok || !r.Scored() {
			ids = append(ids, t.Players...)
			continue
		}
		k := advancing(len(r.Standings))
		if t.Final {
			k, final = 1, true
		}
		for _, seat := range r.Standings[:min(k, len(r.Standings))] {
			if seat >= 0 && seat < len(r.Players) {
				ids = append(ids, r.Players[seat])
			}
		}
	}
	for _, b := range rec.Byes {
		if b.Round == rec.Round {
			ids = append(ids, b.ID)
		}
	}
	return ids, final
}
