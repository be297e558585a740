package engine

import (
	"fmt"
	"slices"
)

// Replay rebuilds a game from its events by playing them again through the
// rules: each action event becomes the action that produced it, the
// recorded dice and opener are fed back as the randomness, and the events
// the rules produce must equal the recorded ones (At aside). It is how a
// server recovers a game and how a finished game is re-checked. The
// returned game draws further dice from src (CryptoSource if nil).
func Replay(opts Options, players int, events []Event, src Source) (*Game, error) {
	if len(events) == 0 || events[0].Type != EvRound {
		return nil, fmt.Errorf("%w: a game starts with a round event", ErrBadEvent)
	}
	sc := &scripted{}
	sc.push(events[0].Opener)
	g, first, err := New(opts, players, sc)
	if err != nil {
		return nil, err
	}
	if err := sameEvents(first, events[:1]); err != nil {
		return nil, err
	}
	var got []Event
	for i := 1; i < len(events); {
		e := events[i]
		a, ok := actionOf(e)
		if !ok {
			return nil, fmt.Errorf("%w: seq %d: %s does not follow an action", ErrBadEvent, e.Seq, e.Type)
		}
		if e.Type == EvRoll {
			if !e.Dice.Valid() {
				return nil, fmt.Errorf("%w: seq %d: roll without dice", ErrBadEvent, e.Seq)
			}
			hi, lo := e.Dice.Dice()
			sc.push(hi-1, lo-1)
		}
		got, err = g.AppendApply(got[:0], a)
		if err != nil {
			return nil, fmt.Errorf("%w: seq %d: %w", ErrBadEvent, e.Seq, err)
		}
		if i+len(got) > len(events) {
			return nil, fmt.Errorf("%w: seq %d: the log ends early", ErrBadEvent, e.Seq)
		}
		if err := sameEvents(got, events[i:i+len(got)]); err != nil {
			return nil, err
		}
		i += len(got)
	}
	if src == nil {
		src = CryptoSource{}
	}
	g.src = src
	return g, nil
}

// actionOf is the action that produced e, if e is the first event of one.
func actionOf(e Event) (Action, bool) {
	switch e.Type {
	case EvRoll:
		return Action{Kind: Roll, Seat: e.Seat, Look: e.Looked}, true
	case EvClaim, EvLowClaim:
		return Action{Kind: Claim, Seat: e.Seat, Value: e.Value}, true
	case EvPass:
		return Action{Kind: Pass, Seat: e.Seat, Value: e.Value}, true
	case EvChallenge:
		return Action{Kind: Challenge, Seat: e.Seat}, true
	case EvGiveUp:
		return Action{Kind: GiveUp, Seat: e.Seat}, true
	case EvTimeout:
		return Action{Kind: Timeout, Seat: e.Seat}, true
	case EvLeave:
		return Action{Kind: Leave, Seat: e.Seat}, true
	}
	return Action{}, false
}

// sameEvents checks that the recorded events want are the events got the
// rules gave, At aside.
func sameEvents(got, want []Event) error {
	for i := range got {
		if g, w := &got[i], &want[i]; !sameEvent(g, w) {
			return fmt.Errorf("%w: seq %d: recorded %+v, the rules give %+v", ErrBadEvent, w.Seq, *w, *g)
		}
	}
	return nil
}

// sameEvent compares every field but At, without copying the events.
func sameEvent(a, b *Event) bool {
	return a.Seq == b.Seq && a.Type == b.Type && a.Round == b.Round && a.Opener == b.Opener &&
		a.Seat == b.Seat && a.Dice == b.Dice && a.Looked == b.Looked && a.Value == b.Value &&
		a.Claimant == b.Claimant && a.Claim == b.Claim && a.Loser == b.Loser &&
		a.LivesLost == b.LivesLost && a.Winner == b.Winner && slices.Equal(a.Losses, b.Losses)
}
