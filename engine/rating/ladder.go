package rating

import (
	"fmt"
	"iter"
	"maps"
)

// Ladder holds the ratings of many players, keyed by K (a person's id),
// and plays finished games into them one at a time, in order: folding a
// history of games through Play is a rebuild. A player it has not seen is
// a newcomer. A Ladder is not safe for use by several goroutines at once.
type Ladder[K comparable] struct {
	model   Model
	ratings map[K]Rating
}

// NewLadder returns an empty ladder rating by m.
func NewLadder[K comparable](m Model) *Ladder[K] {
	return &Ladder[K]{model: m, ratings: make(map[K]Rating)}
}

// Change is one player's rating before and after a game.
type Change struct {
	Before, After Rating
}

// Points is how much the game moved the figure the player shows.
func (c Change) Points() int { return c.After.Points() - c.Before.Points() }

// Rating is k's rating: a newcomer's if k has played no game here.
func (l *Ladder[K]) Rating(k K) Rating {
	if r, ok := l.ratings[k]; ok {
		return r
	}
	return l.model.Newcomer()
}

// Set puts k's rating, as read back from storage. An invalid rating is an
// error wrapping ErrRating, and nothing changes.
func (l *Ladder[K]) Set(k K, r Rating) error {
	if err := r.check(); err != nil {
		return fmt.Errorf("set rating of %v: %w", k, err)
	}
	l.ratings[k] = r
	return nil
}

// Len is the number of players with a rating here.
func (l *Ladder[K]) Len() int { return len(l.ratings) }

// All yields every rated player and their rating, in no set order.
func (l *Ladder[K]) All() iter.Seq2[K, Rating] { return maps.All(l.ratings) }

// Play rates one finished game: players in any order, places[i] the place
// of players[i] (lower is better; equal is a tie). It returns each
// player's change, in the order given. A player named twice is an error
// wrapping ErrDuplicate (a person in two seats of one game must be counted
// once, by the caller's rule); on any error nothing changes.
func (l *Ladder[K]) Play(players []K, places []int) ([]Change, error) {
	before := make([]Rating, len(players))
	for i, k := range players {
		for _, j := range players[:i] { // a table is small: no map
			if j == k {
				return nil, fmt.Errorf("play: %v: %w", k, ErrDuplicate)
			}
		}
		before[i] = l.Rating(k)
	}
	after, err := l.model.Rate(before, places)
	if err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	out := make([]Change, len(players))
	for i, k := range players {
		l.ratings[k] = after[i]
		out[i] = Change{Before: before[i], After: after[i]}
	}
	return out, nil
}
