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
)

// Event is one thing that happened in a game. The engine fills Seq (gap-free
// from 1) and the fields of its Type; At is left for the caller to stamp.
// Only the fields listed for a type are meaningful:
//
//	round:     Round, Opener
//	roll:      Seat, Dice, Looked
//	claim:     Seat, Value
//	pass:      Seat, Value
//	challenge: Seat, Claimant, Claim, Dice, Loser, LivesLost
//	give_up:   Seat, LivesLost
//	timeout:   Seat, LivesLost
//	leave:     Seat, LivesLost (the lives the leaver had)
//	out:       Seat
//	end:       Winner
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
// false are written, and absent fields are not.
type jsonEvent struct {
	Seq       int        `json:"seq"`
	At        *time.Time `json:"at,omitempty"`
	Type      EventType  `json:"type"`
	Round     *int       `json:"round,omitempty"`
	Opener    *int       `json:"opener,omitempty"`
	Seat      *int       `json:"seat,omitempty"`
	Dice      *Value     `json:"dice,omitempty"`
	Looked    *bool      `json:"looked,omitempty"`
	Value     *Value     `json:"value,omitempty"`
	Claimant  *int       `json:"claimant,omitempty"`
	Claim     *Value     `json:"claim,omitempty"`
	Loser     *int       `json:"loser,omitempty"`
	LivesLost *int       `json:"lives_lost,omitempty"`
	Winner    *int       `json:"winner,omitempty"`
}

// MarshalJSON writes the event in the shape of PROTOCOL.md §3, with only the
// fields of its type. A redacted roll is written without "dice".
func (e Event) MarshalJSON() ([]byte, error) {
	j := jsonEvent{Seq: e.Seq, Type: e.Type}
	if !e.At.IsZero() {
		at := e.At.UTC()
		j.At = &at
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
		j.Seat, j.Claimant, j.Claim, j.Dice, j.Loser, j.LivesLost = &e.Seat, &e.Claimant, &e.Claim, &e.Dice, &e.Loser, &e.LivesLost
	case EvGiveUp, EvTimeout, EvLeave:
		j.Seat, j.LivesLost = &e.Seat, &e.LivesLost
	case EvOut:
		j.Seat = &e.Seat
	case EvEnd:
		j.Winner = &e.Winner
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
	switch e.Type {
	case EvRound, EvRoll, EvClaim, EvPass, EvChallenge, EvGiveUp, EvTimeout, EvLeave, EvOut, EvEnd:
		return nil
	}
	return fmt.Errorf("%w: type %q", ErrBadEvent, e.Type)
}
