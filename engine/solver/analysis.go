package solver

import (
	"fmt"

	"github.com/mia-game/mia/engine"
)

// Decision is one move of a game and its verdict.
type Decision struct {
	Seq  int // the seq of the move's event
	Seat int
	Judgement
}

// Summary is one player's moves over a game (or several: Add).
type Summary struct {
	Decisions int     // moves judged
	Lost      float64 // lives given away, summed over them
	Score     float64 // the moves' accuracy points, summed (see Accuracy)
	Marks     [4]int  // by Mark: how many moves had each
}

// Add counts another summary in.
func (s *Summary) Add(o Summary) {
	s.Decisions += o.Decisions
	s.Lost += o.Lost
	s.Score += o.Score
	for i := range s.Marks {
		s.Marks[i] += o.Marks[i]
	}
}

func (s *Summary) count(j Judgement) {
	s.Decisions++
	s.Lost += j.Loss
	s.Score += accuracyOf(j.Loss)
	s.Marks[j.Mark]++
}

// PerDecision is the lives given away per move judged.
func (s Summary) PerDecision() float64 {
	if s.Decisions == 0 {
		return 0
	}
	return s.Lost / float64(s.Decisions)
}

// Accuracy is the average, over the moves judged, of each move's
// accuracy: 100% for a move that gives nothing away, falling in
// proportion to what it gives away, to 0 at a blunder's threshold
// (Blundered) and beyond. 0 when no move was judged.
func (s Summary) Accuracy() float64 {
	if s.Decisions == 0 {
		return 0
	}
	return s.Score / float64(s.Decisions)
}

func accuracyOf(loss float64) float64 { return 100 * max(0, 1-loss/Blundered) }

// Analysis is the verdict on every move of a game.
type Analysis struct {
	Decisions []Decision // in the game's order; moves without a verdict left out
	Players   []Summary  // by seat
	// Exact reports that every verdict is exact (see Situation.Exact).
	Exact bool
}

// Of returns the verdict on the move of the event with seq, if any.
func (a Analysis) Of(seq int) (Decision, bool) {
	lo, hi := 0, len(a.Decisions)
	for lo < hi {
		m := (lo + hi) / 2
		if a.Decisions[m].Seq < seq {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(a.Decisions) && a.Decisions[lo].Seq == seq {
		return a.Decisions[lo], true
	}
	return Decision{}, false
}

// Analyse gives the verdict on every move of a game: each decision as
// its player knew it then (their view of the round, never dice they did
// not see), against the solved strategy of the game's rules. The events
// must be a game the rules allow (engine.Replay checks them). A timeout
// or a leave is no move; a move the model has not got (README.md) has no
// verdict. Strategies not solved yet are solved (For), which takes
// seconds the first time.
func Analyse(opts engine.Options, players int, events []engine.Event) (Analysis, error) {
	return analyse(opts, players, events, false)
}

// AnalyseByWinChance is Analyse with every decision at a last-standing
// table of three or more alive judged by the player's chance of winning
// the game (Situation.ByWinChance, table.go). The verdicts shown are
// Analyse's: README.md says what this one was measured to say.
func AnalyseByWinChance(opts engine.Options, players int, events []engine.Event) (Analysis, error) {
	return analyse(opts, players, events, true)
}

func analyse(opts engine.Options, players int, events []engine.Event, byWin bool) (Analysis, error) {
	if _, err := engine.Replay(opts, players, events, nil); err != nil {
		return Analysis{}, fmt.Errorf("analyse: %w", err)
	}
	opts = filled(opts)
	lives := make([]int, players)
	for s := range lives {
		lives[s] = opts.Lives
	}
	out := Analysis{Players: make([]Summary, players), Exact: true}
	var round []engine.Event
	seen := make([]engine.Event, 0, 64)
	for _, e := range events {
		if a, seat, ok := actionOf(e); ok && len(round) > 0 {
			seen = seen[:0]
			for _, r := range round {
				seen = append(seen, r.Redacted(seat))
			}
			sit, err := Read(opts, lives, seen, seat)
			if byWin {
				sit = sit.ByWinChance()
			}
			if err == nil {
				var s *Strategy
				if s, err = For(sit.Rules); err != nil {
					return Analysis{}, fmt.Errorf("analyse: %w", err)
				}
				if j, err := s.Judge(sit, a); err == nil && j.Judged() {
					out.Decisions = append(out.Decisions, Decision{Seq: e.Seq, Seat: seat, Judgement: j})
					out.Players[seat].count(j)
					out.Exact = out.Exact && j.Exact
				}
			}
		}
		switch e.Type {
		case engine.EvRound:
			round = append(round[:0], e)
		case engine.EvRoll, engine.EvClaim, engine.EvPass:
			round = append(round, e)
		}
		for _, l := range lost(e) {
			lives[l.Seat] -= l.LivesLost
		}
	}
	return out, nil
}

// filled is opts with the options rule sets older than them lack at
// their defaults.
func filled(o engine.Options) engine.Options {
	if o.MiaPass == "" {
		o.MiaPass = engine.MiaPassOff
	}
	if o.MiaReveal == "" {
		o.MiaReveal = engine.MiaRevealChallenge
	}
	if o.LowClaim == "" {
		o.LowClaim = engine.LowClaimRefused
	}
	return o
}

// actionOf is the move an event records, and who made it.
func actionOf(e engine.Event) (engine.Action, int, bool) {
	a := engine.Action{Seat: e.Seat}
	switch e.Type {
	case engine.EvRoll:
		a.Kind, a.Look = engine.Roll, e.Looked
	case engine.EvClaim, engine.EvLowClaim:
		a.Kind, a.Value = engine.Claim, e.Value
	case engine.EvPass:
		a.Kind, a.Value = engine.Pass, e.Value
	case engine.EvChallenge:
		a.Kind = engine.Challenge
	case engine.EvGiveUp:
		a.Kind = engine.GiveUp
	default:
		return engine.Action{}, 0, false
	}
	return a, e.Seat, true
}

// lost lists the lives an event cost.
func lost(e engine.Event) []engine.Loss {
	switch e.Type {
	case engine.EvChallenge, engine.EvLowClaim:
		return []engine.Loss{{Seat: e.Loser, LivesLost: e.LivesLost}}
	case engine.EvGiveUp, engine.EvTimeout, engine.EvLeave:
		return []engine.Loss{{Seat: e.Seat, LivesLost: e.LivesLost}}
	case engine.EvReveal, engine.EvMiaBack:
		return e.Losses
	}
	return nil
}
