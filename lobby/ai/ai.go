// Package ai holds the brains of the built-in AI players. It is pure: a bot
// decides from what its seat may know (the seat's engine.View and the
// current round's events as the seat may see them) and the randomness it is
// given. It starts no goroutines and reads no clocks.
//
// Three levels play:
//
//   - Easy is naive: it always rolls and looks, announces the truth when
//     it beats the claim and otherwise the lowest legal value, challenges
//     a claim that a fresh roll beats less than a third of the time with
//     a coin flip (Mia too: challenge or give up, half and half), and never
//     passes.
//   - Normal plays the odds. From the ranking and what it saw this round it
//     estimates the chance that the dice in the cup are at least the claim
//     (Bayes: the roller announced the truth when the roll beat the claim
//     before it, and otherwise had to bluff, mostly just above it; a pass
//     does not change the dice). It then takes the move that costs it the
//     fewest lives on average (a life another player loses counting for
//     half a life shared among them): challenge, roll (then it may have to
//     bluff and be caught), or pass (and answer for the claim). Against
//     Mia it weighs the Mia penalty against the one life of giving up.
//     When the cup comes back to it, it knows its dice: it challenges a
//     claim above them, raises to them when they are higher, else rolls.
//     It announces the truth when it beats the claim (an opener always),
//     else the lowest legal value.
//   - Hard reads the claims as Normal does, counts only its own lives,
//     and keeps its claims low: a good roll is mostly announced as the
//     lowest value above the claim (still true), an opening claim is at
//     most the 12th value from the bottom (63 under classic), when the cup
//     comes back with dice it knows are above the claim it raises by one
//     value only, and its bluffs are often one value above the minimum.
//     With passing off it only varies its bluffs. Its settings were tuned
//     by simulation (TestWinRates).
//
// Every level plays every option of RULES.md. The odds are taken by rank
// (engine.Ranking.Claims), so that under pips a rank's chance is that of
// all its members (9 pips: 63 and 54, 4 in 36) and claims name ranks. A
// rolled Mia is always announced when it costs the others at once or when
// it comes back (mia-reveal at-once, mia-pass wins). A Mia that may be
// passed on (mia-pass) is weighed as a third answer by Normal and Hard:
// passed, the seat answers for it; the roller of the dice, next, knows
// them; under wins a Mia that comes back costs every passer a life
// (engine.View.MiaComesBack tells whether it can). Its own Mia come back
// (mia-pass reroll) a bot rolls again, or, knowing it bluffed, challenges
// the last passer. No level announces a value that loses at once or
// challenges before anything is claimed (low-claim loses).
package ai

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/mia-game/mia/engine"
)

// Level is how well a built-in bot plays.
type Level string

// The levels, weakest first.
const (
	Easy   Level = "easy"
	Normal Level = "normal"
	Hard   Level = "hard"
	// Expert plays the solved strategy of engine/solver.
	Expert Level = "expert"
)

// Levels lists every level, weakest first.
var Levels = []Level{Easy, Normal, Hard, Expert}

// ErrUnknownLevel is ParseLevel's refusal of a name that is no level.
var ErrUnknownLevel = errors.New("ai: unknown level")

// LevelNames are the names of Levels, weakest first, joined by sep.
func LevelNames(sep string) string {
	names := make([]string, len(Levels))
	for i, l := range Levels {
		names[i] = string(l)
	}
	return strings.Join(names, sep)
}

// ParseLevel reads a level's name (any case, white space around ignored);
// a name that is no level is refused (ErrUnknownLevel), naming them all.
func ParseLevel(s string) (Level, error) {
	l := Level(strings.ToLower(strings.TrimSpace(s)))
	if slices.Contains(Levels, l) {
		return l, nil
	}
	return "", fmt.Errorf("%w %q (one of %s)", ErrUnknownLevel, s, LevelNames(", "))
}

// Decide picks the move of the seat v belongs to. v is g.View(seat), and it
// must be that seat's turn (v.MyTurn()). round holds the events of the
// current round as the seat may see them (engine.Event.Redacted(seat));
// events before the round's EvRound are ignored, and missing events only
// make the bot less informed. r is the bot's randomness; when nil, the bot
// draws from a source seeded from the view, so it still decides.
//
// The action is always legal for v: its Kind is in v.Legal, a Claim's
// value is in v.Claims, a Pass's value in v.Passes, and it is never a
// Timeout or a Leave; its Seat is v.Seat. When v has nothing legal to do
// (not its turn, the game over), Decide returns the zero Action.
func Decide(level Level, v engine.View, round []engine.Event, r *rand.Rand) engine.Action {
	if !v.MyTurn() || len(v.Legal) == 0 {
		return engine.Action{}
	}
	if r == nil {
		r = seeded(v)
	}
	var a engine.Action
	switch level {
	case Easy:
		a = easy(v, r)
	case Expert:
		a = expert(v, round, r, true)
	default:
		kn, ok := levelKnobs[level]
		if !ok {
			kn = levelKnobs[Normal]
		}
		a = smart(v, round, r, kn(v.Options))
	}
	return legalize(v, a)
}

// seeded is a bot's randomness when it is given none: seeded from the
// view, so that it still decides.
func seeded(v engine.View) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(v.Seat)<<32|uint64(v.Round), uint64(v.Claim)<<8|uint64(v.Phase)))
}

// legalize returns a when it is legal for v, and otherwise the safest legal
// move: roll and look, claim the lowest value, challenge, or give up.
func legalize(v engine.View, a engine.Action) engine.Action {
	a.Seat = v.Seat
	if legal(v, a) {
		return a
	}
	for _, b := range []engine.Action{
		{Kind: engine.Roll, Look: true},
		{Kind: engine.Claim, Value: first(v.Claims)},
		{Kind: engine.Challenge},
		{Kind: engine.GiveUp},
		{Kind: engine.Pass, Value: first(v.Passes)},
	} {
		b.Seat = v.Seat
		if legal(v, b) {
			return b
		}
	}
	return engine.Action{}
}

func first(vs []engine.Value) engine.Value {
	if len(vs) == 0 {
		return engine.NoValue
	}
	return vs[0]
}

// legal reports whether a is a legal move for v by the view's own lists.
func legal(v engine.View, a engine.Action) bool {
	if a.Kind == engine.Timeout || a.Kind == engine.Leave || !v.Can(a.Kind) {
		return false
	}
	switch a.Kind {
	case engine.Claim:
		return contains(v.Claims, a.Value)
	case engine.Pass:
		return contains(v.Passes, a.Value)
	}
	return true
}

func contains(vs []engine.Value, x engine.Value) bool {
	for _, v := range vs {
		if v == x {
			return true
		}
	}
	return false
}
