package solver

import (
	"errors"
	"fmt"
	"slices"

	"github.com/mia-game/mia/engine"
)

// ErrNoDecision is Read's refusal of a moment that is no decision of
// the seat: not its turn, the round's events missing or out of order.
var ErrNoDecision = errors.New("solver: no decision of that seat")

// Situation is a decision as its player knew it, in the model's terms:
// what they faced, and the dice if they rolled them and looked. It holds
// nothing they could not see.
type Situation struct {
	Rules Rules // the round's rules, the caps by the two players' lives
	st    state
	dice  int // the rank of the dice the mover saw, 0 if none
	// Exact reports that the model is the game here: two players, and
	// the claim passed back at most once since the roll (README.md).
	Exact bool
	// At a last-standing table of three or more alive: the lives by
	// seat, the seat deciding, its opponent in the model, and the next
	// living seat after it, who faces what it hands on (table.go).
	table             []int
	seat, other, next int
	byWin             bool // its moves valued by the win chance (ByWinChance)
}

// Read places the decision of seat, whose turn it is, in the model.
// round holds the round's events from its EvRound on, as the seat saw
// them (engine.Event.Redacted), lives the players' lives in the round,
// and opts the table's rules.
//
// With two players the model is the round itself. At a table of three
// or more, the decision is judged as the heads-up decision between the
// seat and the player whose claim it faces (before any claim, the next
// player), placed by who knows the dice: the seat if it rolled them, the
// claimant if they did, and if neither did (the claim was passed on by
// a player who never saw them), as if the player who rolled them had
// announced the claim. Such a situation is never Exact; its moves are
// worth lives as heads-up (ByWinChance: by the seat's chance of winning
// the game instead).
func Read(opts engine.Options, lives []int, round []engine.Event, seat int) (Situation, error) {
	if len(round) == 0 || round[0].Type != engine.EvRound {
		return Situation{}, fmt.Errorf("%w: the round's events start with its round event", ErrNoDecision)
	}
	if seat < 0 || seat >= len(lives) || lives[seat] <= 0 {
		return Situation{}, fmt.Errorf("%w: seat %d", ErrNoDecision, seat)
	}
	rk := opts.Ranking
	living := 0
	for _, l := range lives {
		if l > 0 {
			living++
		}
	}
	opener := round[0].Opener
	type link struct {
		rank, seat int
		claim      bool // an announcement after a roll (not a pass)
	}
	var (
		chain          []link // the claims since the last roll
		faced          int    // the claim the roller faced (0: none)
		claim, claimer = 0, -1
		roller         = -1
		looked         bool
		dice           int
		rolled         bool // the last event is a roll: an announce is due
	)
	for _, e := range round[1:] {
		switch e.Type {
		case engine.EvRoll:
			if claim == rk.Rank(engine.Mia) {
				claim, claimer = 0, -1 // a Mia come back, rolled again
			}
			faced, chain, roller, looked, rolled = claim, chain[:0], e.Seat, e.Looked, true
			dice = 0
			if e.Seat == seat && e.Looked && e.Dice.Valid() {
				dice = rk.Rank(e.Dice)
			}
		case engine.EvClaim, engine.EvPass:
			claim, claimer, rolled = rk.Rank(e.Value), e.Seat, false
			chain = append(chain, link{rank: claim, seat: e.Seat, claim: e.Type == engine.EvClaim})
		default:
			return Situation{}, fmt.Errorf("%w: the round goes on after %s", ErrNoDecision, e.Type)
		}
	}
	other := -1 // the seat's opponent in the heads-up model
	switch {
	case claimer >= 0 && !rolled:
		other = claimer
	default:
		for i := 1; i < len(lives); i++ {
			if s := (seat + i) % len(lives); lives[s] > 0 {
				other = s
				break
			}
		}
	}
	if other < 0 || other == seat {
		return Situation{}, fmt.Errorf("%w: no one to play against", ErrNoDecision)
	}
	me := uint8(1)
	if seat == opener {
		me = 0
	}
	var caps [2]int
	caps[me], caps[1-me] = lives[seat], lives[other]
	r, err := Of(opts, caps[0], caps[1])
	if err != nil {
		return Situation{}, err
	}
	sit := Situation{Rules: r, Exact: living == 2}
	if living > 2 && opts.End != engine.FirstOut {
		sit.table, sit.seat, sit.other, sit.next = slices.Clone(lives), seat, other, other
		for i := 1; i < len(lives); i++ {
			if s := (seat + i) % len(lives); lives[s] > 0 {
				sit.next = s
				break
			}
		}
	}
	st := state{mover: me, look: looked}
	switch {
	case roller < 0 && claimer < 0:
		st = state{kind: kOpen} // the opener's (player 0's) decision
	case rolled:
		if roller != seat {
			return Situation{}, fmt.Errorf("%w: seat %d must announce, not %d", ErrNoDecision, roller, seat)
		}
		st.kind, st.b = kAnnounce, uint8(faced)
		sit.dice = dice
	case roller == seat:
		// The claim came back to the roller: their own last claim, and
		// the one before it.
		st.kind, st.c = kPassed, uint8(claim)
		own := -1
		for i := len(chain) - 1; i >= 0; i-- {
			if chain[i].seat == seat {
				own = i
				break
			}
		}
		if own < 0 {
			return Situation{}, fmt.Errorf("%w: the roller made no claim", ErrNoDecision)
		}
		st.b = uint8(chain[own].rank)
		if looked {
			if own == 0 {
				st.a = uint8(faced)
			} else {
				st.a = uint8(chain[own-1].rank)
				sit.Exact = false // a second pass back: beyond the model
			}
		}
		sit.dice = dice
	case claimer == roller && chain[len(chain)-1].claim:
		st.kind, st.c, st.b = kFresh, uint8(claim), uint8(faced)
	case claimer == roller:
		// The roller raised over a pass.
		n := len(chain)
		st.kind, st.c, st.b = kRaised, uint8(claim), uint8(chain[n-2].rank)
		if looked {
			st.a = uint8(chain[n-3].rank)
			if n >= 4 {
				st.z = uint8(chain[n-4].rank)
			} else {
				st.z = uint8(faced)
			}
			if n > 3 {
				sit.Exact = false
			}
		}
	default:
		// Neither rolled the dice: as if their roller had announced
		// the claim.
		st.kind, st.c, st.b = kFresh, uint8(claim), uint8(faced)
		sit.Exact = false
	}
	sit.st = st
	return sit, nil
}

// ByWinChance is the situation with its moves valued by the change they
// make to the player's chance of winning the game (table.go), at a
// last-standing table of three or more alive; any other situation as it
// is (heads-up, or first-out: lives).
func (s Situation) ByWinChance() Situation {
	s.byWin = s.table != nil
	return s
}

// Dice is the rank's value of the dice the player saw, NoValue if none.
func (s Situation) Dice(r engine.Ranking) engine.Value {
	if s.dice == 0 {
		return engine.NoValue
	}
	c := r.Claims()
	return c[len(c)-s.dice]
}

// Facing is the claim the player faced (NoValue before any), as the
// ranking names it.
func (s Situation) Facing() engine.Value {
	if s.st.kind == kOpen || s.st.kind == kAnnounce {
		return engine.NoValue
	}
	c := s.Rules.Ranking.Claims()
	return c[len(c)-int(s.st.c)]
}
