package fair

import (
	"fmt"
	"strconv"

	"github.com/mia-game/mia/engine"
)

// Mismatch is the first thing in a game's record that its proof does not
// give.
type Mismatch struct {
	Seq      int    // the event's seq, 0 for the proof and the seating
	What     string // "commitment", "seating", "opener", "roll 3"
	Recorded string
	Derived  string
}

// Error says what differs.
func (m *Mismatch) Error() string {
	where := m.What
	if m.Seq > 0 {
		where = "event " + strconv.Itoa(m.Seq) + ": " + m.What
	}
	return fmt.Sprintf("%s: recorded %s, derived %s", where, m.Recorded, m.Derived)
}

// Verify re-derives a finished game from its proof: the commitment from
// the revealed seed, the seating of the players (by their fingerprints, in
// seat order), the first opener and the dice of every roll event; then it
// replays the events through the rules. It returns the number of rolls
// checked, and a *Mismatch for the first difference, or another error
// (ErrNotRevealed, ErrBadSeed, a rules error) when the record cannot be
// checked.
func Verify(p Proof, opts engine.Options, fingerprints []string, events []engine.Event) (int, error) {
	s, err := p.stream(len(fingerprints))
	if err != nil {
		return 0, err
	}
	for i, j := range s.Seating(fingerprints) {
		if i != j {
			return 0, &Mismatch{What: "seating", Recorded: fmt.Sprintf("%s at seat %d", fingerprints[i], i),
				Derived: fmt.Sprintf("%s at seat %d", fingerprints[j], i)}
		}
	}
	if len(events) == 0 || events[0].Type != engine.EvRound {
		return 0, fmt.Errorf("%w: a game starts with a round event", engine.ErrBadEvent)
	}
	if want := s.Draw(0, len(fingerprints)); events[0].Opener != want {
		return 0, &Mismatch{Seq: events[0].Seq, What: "opener",
			Recorded: "seat " + strconv.Itoa(events[0].Opener), Derived: "seat " + strconv.Itoa(want)}
	}
	rolls := 0
	for _, e := range events {
		if e.Type != engine.EvRoll {
			continue
		}
		rolls++
		if want := engine.FromDice(s.Roll(rolls)); e.Dice != want {
			return rolls - 1, &Mismatch{Seq: e.Seq, What: "roll " + strconv.Itoa(rolls),
				Recorded: e.Dice.String(), Derived: want.String()}
		}
	}
	if _, err := engine.Replay(opts, len(fingerprints), events, s); err != nil {
		return rolls, fmt.Errorf("the events do not follow the rules: %w", err)
	}
	return rolls, nil
}

// Check reports whether the proof can be checked for a game of players
// seats: a known scheme, a seed that matches the commitment, the players'
// seeds on distinct seats.
func (p Proof) Check(players int) error {
	_, err := p.stream(players)
	return err
}

// stream checks the proof itself (scheme, revealed seed against the
// commitment, the players' seeds) and returns its stream.
func (p Proof) stream(players int) (*Stream, error) {
	if p.Scheme != Scheme {
		return nil, fmt.Errorf("%w %q (this server knows %s)", ErrBadScheme, p.Scheme, Scheme)
	}
	if p.ServerSeed == "" {
		return nil, ErrNotRevealed
	}
	seed, err := ParseSeed(p.ServerSeed)
	if err != nil {
		return nil, err
	}
	if c := seed.Commitment(); c != p.Commitment {
		return nil, &Mismatch{What: "commitment", Recorded: p.Commitment, Derived: c + " (SHA-256 of the seed)"}
	}
	seen := make(map[int]bool, len(p.PlayerSeeds))
	for _, ps := range p.PlayerSeeds {
		if ps.Seat < 0 || ps.Seat >= players || seen[ps.Seat] {
			return nil, fmt.Errorf("%w: seat %d", ErrBadPlayerSeed, ps.Seat)
		}
		seen[ps.Seat] = true
	}
	return NewStream(seed, seedTexts(p.PlayerSeeds))
}
