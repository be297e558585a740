// Package rating holds mia's ratings as pure functions: the Weng–Lin
// Bayesian update with the Plackett–Luce model (the model behind OpenSkill,
// free of the TrueSkill patent) for games of two or more players ranked by
// their standings, the one number a player shows, the model's chance to win
// for each seat before a game, an exact encoding of a rating, and seasons.
// Its page, README.md beside this file, is the ratings' documentation.
//
// Room: under engine, beside engine/fair; it imports the standard library
// only (no engine: a rating knows places, not games). No goroutines, clocks
// or I/O: a season is computed from a time given to it.
//
// Determinism: the same games in the same order give the same float64
// results bit for bit, on any machine. Every sum runs in one defined order
// (the players sorted by place, then μ, then σ, whatever order they were
// given in), every product that is added is rounded on its own (an explicit
// float64 conversion, which the Go spec says keeps a compiler from fusing it
// into a multiply-add), and the exponential is this package's own (exp.go)
// rather than math.Exp, which has per-architecture assembly.
package rating

import (
	"cmp"
	"errors"
	"fmt"
	"math"
)

// Rating is what the model knows of a player: μ, its estimate of their
// skill, σ, how unsure it is (a standard deviation), and the number of
// games rated.
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
	Games int     `json:"games"`
}

// Model holds the constants of the update. Ratings are a function of the
// games and the model: a different model is a rebuild from history, never a
// migration (String names a model exactly, so a store can tell).
type Model struct {
	Mu    float64 // μ of a newcomer
	Sigma float64 // σ of a newcomer
	Beta  float64 // β: how much one game's performance varies around skill
	Kappa float64 // κ: the least fraction of σ² a game may leave
	// Tau (τ) is added to σ (as sqrt(σ² + τ²)) before each game, so that σ
	// stops shrinking at a floor and a rating keeps following a player
	// whose skill changes.
	Tau float64
	// LimitSigma keeps a game from leaving σ above what it was before the
	// game (τ could otherwise raise it once σ is at its floor).
	LimitSigma bool
}

// Default is mia's model: OpenSkill's defaults (μ 25, σ 25/3, β 25/6,
// κ 0.0001, τ 25/300), with σ limited so no game raises it.
var Default = Model{
	Mu:         25,
	Sigma:      25.0 / 3,
	Beta:       25.0 / 6,
	Kappa:      0.0001,
	Tau:        25.0 / 300,
	LimitSigma: true,
}

// String names the model by its every constant, exactly (shortest
// round-trip decimals), e.g. "plackett-luce mu=25 sigma=8.333333333333334
// beta=4.166666666666667 kappa=0.0001 tau=0.08333333333333333 limit-sigma".
// Two models with the same string rate every game the same.
func (m Model) String() string {
	s := fmt.Sprintf("plackett-luce mu=%v sigma=%v beta=%v kappa=%v tau=%v",
		m.Mu, m.Sigma, m.Beta, m.Kappa, m.Tau)
	if m.LimitSigma {
		s += " limit-sigma"
	}
	return s
}

// Newcomer is the rating of a player before their first game.
func (m Model) Newcomer() Rating { return Rating{Mu: m.Mu, Sigma: m.Sigma} }

// Newcomer is Default's newcomer: μ 25, σ 25/3, no games.
func Newcomer() Rating { return Default.Newcomer() }

// Errors. Each error this package returns wraps one of them (errors.Is);
// the wrapping adds the detail.
var (
	// ErrPlayers: a rated game needs at least two players.
	ErrPlayers = errors.New("a rated game needs at least two players")
	// ErrPlaces: the places do not match the players one for one.
	ErrPlaces = errors.New("one place is needed for each player")
	// ErrRating: a rating that is not a rating (see Rating.Valid).
	ErrRating = errors.New("not a valid rating")
	// ErrDuplicate: one player twice in one game.
	ErrDuplicate = errors.New("a player is in a game only once")
	// ErrEncoding: bytes that are not an encoded rating.
	ErrEncoding = errors.New("not an encoded rating")
	// ErrSeason: text that names no season or no kind of season.
	ErrSeason = errors.New("not a season")
)

// Valid reports whether r is a rating the model can update: |μ| at most
// MaxValue, σ above 0 and at most MaxValue, games not negative. (Ratings
// stay far inside: a newcomer has μ 25 and σ 25/3, and no game raises σ.)
func (r Rating) Valid() bool {
	return math.Abs(r.Mu) <= MaxValue && r.Sigma > 0 && r.Sigma <= MaxValue && r.Games >= 0
}

// MaxValue bounds μ and σ, so that no sum or square in the update can
// overflow.
const MaxValue = 1e9

func (r Rating) check() error {
	if !r.Valid() {
		return fmt.Errorf("%w: mu %v, sigma %v, games %d", ErrRating, r.Mu, r.Sigma, r.Games)
	}
	return nil
}

// Conservative is μ − 3σ: a skill the player has, by the model, with
// about 99.9% certainty. Boards rank by it, so a few lucky games do not put
// anyone above many steady ones.
func (r Rating) Conservative() float64 { return r.Mu - float64(3*r.Sigma) }

// The scale of the figure a player shows (README.md, "The number shown").
const (
	// Base is the figure of an average player (μ 25) at the moment their
	// rating stops being provisional (σ = ProvisionalSigma).
	Base = 1500
	// PointsPerMu is how many points one unit of μ is worth, chosen so that
	// points mean what Elo points mean: 400 points between two sure players
	// are 10:1 odds in a game of two (whose odds, with σ small, are
	// e^(Δμ/(β√2))). With β = 25/6, 29.48 points.
	PointsPerMu = 400 / (math.Ln10 * math.Sqrt2 * 25.0 / 6)
	// ProvisionalSigma is the σ from which a rating is no longer
	// provisional: 4/5 of a newcomer's, reached after about ten games at
	// tables of two to four (README.md has the figures).
	ProvisionalSigma = 25.0 / 3 * 4 / 5
)

// offset is the conservative estimate that shows as Base: an average
// player (μ 25) whose σ has just fallen to ProvisionalSigma (μ − 3σ = 5).
const offset = 25 - 3*ProvisionalSigma

// Points is the one number a player shows: the conservative estimate
// scaled to read like Elo, rounded to a whole point:
//
//	Base + PointsPerMu·(μ − 3σ − 5)
//
// A newcomer shows 1353 and climbs as the model grows sure of them; an
// average player shows about 1500 when their rating stops being
// provisional, and more as their record lengthens.
func (r Rating) Points() int {
	return int(math.Round(Base + float64(PointsPerMu*(r.Conservative()-offset))))
}

// Provisional reports whether the model is still unsure of the player: σ
// above ProvisionalSigma, so that the figure it shows can be marked.
func (r Rating) Provisional() bool { return r.Sigma > ProvisionalSigma }

// Compare orders ratings best first for a board: the higher conservative
// estimate first, then the higher μ, then more games. It returns a negative
// number when a ranks above b, 0 when the model cannot tell them apart (the
// caller breaks the tie, by name or id).
func Compare(a, b Rating) int {
	return cmp.Or(cmp.Compare(b.Conservative(), a.Conservative()),
		cmp.Compare(b.Mu, a.Mu), cmp.Compare(b.Games, a.Games))
}
