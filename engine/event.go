package engine

import (
	"encoding/json"
	"fmt"
	"time"
)

// EventType is the kind of an event; its text is the "type" of
// PROTOCOL.md §3.
type EventType string

// The event kinds of PROTOCOL.md §3.
const (
	EvRound     EventType = "round"
	EvRoll      EventType = "roll"
	EvClaim     EventType = "claim"
	EvPass      EventType = "pass"
	EvChallenge EventType = "challenge"
	EvGiveUp    EventType = "give_up"
	EvTimeout   EventType = "timeout"
	EvLeave     EventType = "leave"
	EvOut       EventType = "out"
	EvEnd       EventType = "end"
	EvReveal    EventType = "reveal"    // a Mia claim revealed at once (mia-reveal at-once)
	EvLowClaim  EventType = "low_claim" // a claim not higher than the last, which loses (low-claim loses)
	EvMiaBack   EventType = "mia_back"  // a Mia passed back to its roller (mia-pass wins)
)

// Loss is one player's share of a loss falling on several players at
// once (the "losses" of PROTOCOL.md §3).
type Loss struct {
	Seat      int `json:"seat"`
	LivesLost int `json:"lives_lost"` // what was actually lost, never more than the lives left
}

// Event is one thing that happened in a game. The engine fills Seq (gap-free
// from 1) and the fields of its Type; At is left for the caller to stamp.
// Only the fields listed for a type are meaningful:
//
//	round:     Round, Opener
//	roll:      Seat, Dice, Looked (a roll of a Mia that came back, under
//	           mia-pass reroll, clears the claim)
//	claim:     Seat, Value
//	pass:      Seat, Value
//	challenge: Seat, Claimant, Claim, Dice, Loser, LivesLost (Claimant -1,
//	           Claim and Dice NoValue when nothing was claimed yet: under
//	           low-claim loses the challenger loses)
//	give_up:   Seat, LivesLost
//	timeout:   Seat, LivesLost
//	leave:     Seat, LivesLost (the lives the leaver had)
//	out:       Seat (after a loss falling on several players, one each, in
//	           seat order)
//	end:       Winner
//	reveal:    Seat (the claimant), Claim (Mia), Dice, Losses; it follows
//	           the claim or pass that announced Mia
//	low_claim: Seat, Value, Claim (the claim it failed to beat), Loser (the
//	           seat), LivesLost; no claim event is written for it
//	mia_back:  Seat (the roller), Losses; it follows the last pass
//
// Values are written as Ranking.Canonical gives them (under pips, a claim
// of 9 pips is 63).
type Event struct {
	Seq       int
	At        time.Time
	Type      EventType
	Round     int
	Opener    int
	Seat      int
	Dice      Value
	Looked    bool
	Value     Value
	Claimant  int
	Claim     Value
	Loser     int
	LivesLost int
	Winner    int
	Losses    []Loss // several players losing at once, in seat order
}

// Redacted returns the event as seat may see it while the game runs: the
// dice of a roll are blanked unless seat rolled them and looked. Challenge
// events show the dice to everyone, as the cup was lifted. A seat of -1 is a
// spectator.
func (e Event) Redacted(seat int) Event {
	if e.Type == EvRoll && !(e.Seat == seat && e.Looked) {
		e.Dice = NoValue
	}
	return e
}

// jsonEvent is the wire shape of an event: pointers so that seat 0 and
// false are written, and absent fields are not. The fields stand in the
// order of PROTOCOL.md §3's examples, which one order fits for every type.
type jsonEvent struct {
	Seq       int        `json:"seq"`
	At        *time.Time `json:"at,omitempty"`
	Type      EventType  `json:"type"`
	Round     *int       `json:"round,omitempty"`
	Opener    *int       `json:"opener,omitempty"`
	Seat      *int       `json:"seat,omitempty"`
	Value     *Value     `json:"value,omitempty"`
	Claimant  *int       `json:"claimant,omitempty"`
	Claim     *Value     `json:"claim,omitempty"`
	Dice      *Value     `json:"dice,omitempty"`
	Looked    *bool      `json:"looked,omitempty"`
	Loser     *int       `json:"loser,omitempty"`
	LivesLost *int       `json:"lives_lost,omitempty"`
	Winner    *int       `json:"winner,omitempty"`
	Losses    *[]Loss    `json:"losses,omitempty"`
}

// jsonNoClaim is the wire shape of a challenge of nothing: the claimant,
// claim and dice are null.
type jsonNoClaim struct {
	Seq       int        `json:"seq"`
	At        *time.Time `json:"at,omitempty"`
	Type      EventType  `json:"type"`
	Seat      int        `json:"seat"`
	Claimant  *int       `json:"claimant"`
	Claim     *Value     `json:"claim"`
	Dice      *Value     `json:"dice"`
	Loser     int        `json:"loser"`
	LivesLost int        `json:"lives_lost"`
}

// MarshalJSON writes the event in the shape of PROTOCOL.md §3, with only the
// fields of its type. A redacted roll is written without "dice".
func (e Event) MarshalJSON() ([]byte, error) {
	j := jsonEvent{Seq: e.Seq, Type: e.Type}
	if !e.At.IsZero() {
		at := e.At.UTC()
		j.At = &at
	}
	losses := e.Losses
	if losses == nil {
		losses = []Loss{}
	}
	switch e.Type {
	case EvRound:
		j.Round, j.Opener = &e.Round, &e.Opener
	case EvRoll:
		j.Seat, j.Looked = &e.Seat, &e.Looked
		if e.Dice != NoValue {
			j.Dice = &e.Dice
		}
	case EvClaim, EvPass:
		j.Seat, j.Value = &e.Seat, &e.Value
	case EvChallenge:
		if e.Claimant < 0 {
			return json.Marshal(jsonNoClaim{Seq: e.Seq, At: j.At, Type: e.Type, Seat: e.Seat, Loser: e.Loser, LivesLost: e.LivesLost})
		}
		j.Seat, j.Claimant, j.Claim, j.Dice, j.Loser, j.LivesLost = &e.Seat, &e.Claimant, &e.Claim, &e.Dice, &e.Loser, &e.LivesLost
	case EvGiveUp, EvTimeout, EvLeave:
		j.Seat, j.LivesLost = &e.Seat, &e.LivesLost
	case EvOut:
		j.Seat = &e.Seat
	case EvEnd:
		j.Winner = &e.Winner
	case EvReveal:
		j.Seat, j.Claim, j.Dice, j.Losses = &e.Seat, &e.Claim, &e.Dice, &losses
	case EvLowClaim:
		j.Seat, j.Value, j.Claim, j.Loser, j.LivesLost = &e.Seat, &e.Value, &e.Claim, &e.Loser, &e.LivesLost
	case EvMiaBack:
		j.Seat, j.Losses = &e.Seat, &losses
	default:
		return nil, fmt.Errorf("%w: type %q", ErrBadEvent, e.Type)
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads the shape MarshalJSON writes.
func (e *Event) UnmarshalJSON(b []byte) error {
	var j jsonEvent
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*e = Event{Seq: j.Seq, Type: j.Type}
	if j.At != nil {
		e.At = *j.At
	}
	setInt := func(dst *int, p *int) {
		if p != nil {
			*dst = *p
		}
	}
	setInt(&e.Round, j.Round)
	setInt(&e.Opener, j.Opener)
	setInt(&e.Seat, j.Seat)
	setInt(&e.Claimant, j.Claimant)
	setInt(&e.Loser, j.Loser)
	setInt(&e.LivesLost, j.LivesLost)
	setInt(&e.Winner, j.Winner)
	if j.Dice != nil {
		e.Dice = *j.Dice
	}
	if j.Value != nil {
		e.Value = *j.Value
	}
	if j.Claim != nil {
		e.Claim = *j.Claim
	}
	if j.Looked != nil {
		e.Looked = *j.Looked
	}
	if j.Losses != nil && len(*j.Losses) > 0 {
		e.Losses = *j.Losses
	}
	switch e.Type {
	case EvChallenge:
		if j.Claimant == nil { // a challenge of nothing
			e.Claimant = -1
		}
		return nil
	case EvRound, EvRoll, EvClaim, EvPass, EvGiveUp, EvTimeout, EvLeave, EvOut, EvEnd, EvReveal, EvLowClaim, EvMiaBack:
		return nil
	}
	return fmt.Errorf("%w: type %q", ErrBadEvent, e.Type)
}
