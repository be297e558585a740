package lobby

import (
	"context"
	"fmt"
	"slices"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/fair"
	"github.com/mia-game/mia/lobby/words"
)

// Errors of players' seeds.
var (
	ErrSeedTooLate  = NewError(Refused, "a game is running: seeds are given before a game starts, for the next one")
	ErrTooManySeeds = NewError(Refused, "as many people not seated as there are seats gave a seed: sit down to give yours")
	ErrScriptedDice = NewError(Refused, "this server deals scripted dice (a test): there is no commitment to add a seed to")
)

// SeedInfo is a seed a person gave for a game as everyone at the table
// may see it (FairInfo): by their name now, and whether it counts.
type SeedInfo struct {
	Name string // the person's name now
	ID   string // the person's id
	Seed string
	// Seated: the person is seated for the game, so the seed counts.
	Seated bool
}

// FairInfo is what everyone at a table may know of its dice: the server's
// commitment (SHA-256 of its secret seed) and the players' seeds, for the
// running game, or for the next one while none runs (Next): those seated
// for it (which count) and those given by people not seated yet.
type FairInfo struct {
	Commitment string
	Next       bool
	Seeds      []SeedInfo
}

// Seed returns the seed the person id gave, if any.
func (f FairInfo) Seed(id string) (string, bool) {
	s, ok := f.Yours(id)
	return s.Seed, ok
}

// Yours returns the seed the person id gave, if any, with whether it
// counts (Seated).
func (f FairInfo) Yours(id string) (SeedInfo, bool) {
	for _, s := range f.Seeds {
		if s.ID == id {
			return s, true
		}
	}
	return SeedInfo{}, false
}

// nextDice are a table's dice for its next game (fair.NextDice). They are
// drawn again as every game starts, and seeds count for one game: a seed
// the server knew before it drew its own could be played against.
// Storage keeps them (Storage.SaveNextDice), so that a restart shows the
// same commitment and keeps the seeds.
type nextDice fair.NextDice

func newNextDice() nextDice { return nextDice{Seed: fair.NewSeed()} }

// kept is n as storage keeps it, sharing nothing with n.
func (n nextDice) kept() fair.NextDice {
	return fair.NextDice{Seed: n.Seed, Given: slices.Clone(n.Given)}
}

// CleanSeed is a seed as a player typed it, cleaned like any text a
// player types, checked by the rule of player seeds (fair.CheckPlayerSeed:
// a seed longer than fair.MaxSeedRunes is refused, not cut); empty stays
// empty (no seed). Every door that takes a seed goes through it.
func CleanSeed(text string) (string, error) {
	text = words.Clean(text, fair.MaxSeedRunes+1) // one more: too long is refused, not cut
	if text == "" {
		return "", nil
	}
	if err := fair.CheckPlayerSeed(text); err != nil {
		return "", err
	}
	return text, nil
}

// SetSeed records p's seed for the next game at the table (CleanSeed); an
// empty text takes p's seed back (none given is allowed). It returns the
// seed as recorded. Seeds are given while no game runs; only the seeds of
// those who play the next game count (deal). A seated player's seed is
// always taken; of the people not seated (who may sit down yet), at most
// as many as the table has seats give one, so that strangers cannot crowd
// the players out. The seed is stored before SetSeed returns.
func (t *Table) SetSeed(ctx context.Context, p Player, text string) (string, error) {
	text, err := CleanSeed(text)
	if err != nil {
		return "", err
	}
	err = t.do(ctx, func(actx context.Context) error {
		if !t.mayEnter(p) {
			return ErrNoTable
		}
		if t.running() {
			return ErrSeedTooLate
		}
		if t.lobby.scripted {
			return ErrScriptedDice
		}
		given := slices.Clone(t.next.Given)
		i := slices.IndexFunc(given, func(g fair.GivenSeed) bool { return g.Person == p.ID })
		switch {
		case text == "" && i >= 0:
			given = slices.Delete(given, i, i+1)
		case text == "":
			return nil
		case i < 0 && t.seatOf(p.ID) < 0 && t.standingSeeds() >= t.rec.Seats:
			return ErrTooManySeeds
		case i >= 0:
			given[i].Seed = text
		default:
			given = append(given, fair.GivenSeed{Person: p.ID, Seed: text})
		}
		return t.keepGiven(actx, given, t.shown)
	})
	if err != nil {
		return "", err
	}
	return text, nil
}

// keepGiven stores given as the seeds given for the next game, then keeps
// them and runs then, as save does.
func (t *Table) keepGiven(actx context.Context, given []fair.GivenSeed, then func(actx context.Context) error) error {
	next := nextDice{Seed: t.next.Seed, Given: given}
	return t.save(actx, func(wctx context.Context) error {
		if err := t.lobby.cfg.Store.SaveNextDice(wctx, t.rec.Name, next.kept()); err != nil {
			return fmt.Errorf("save the seeds of %s: %w", t.name, err)
		}
		return nil
	}, func(actx context.Context) error {
		t.next = next
		return then(actx)
	})
}

// standingSeeds is the number of seeds given by people not seated now.
func (t *Table) standingSeeds() int {
	n := 0
	for _, g := range t.next.Given {
		if t.seatOf(g.Person) < 0 {
			n++
		}
	}
	return n
}

// deal seats the sitters and returns the game's dice and its proof (with
// the secret seed, for the store): the table's committed stream, or the
// lobby's scripted dice (tests), which shuffle the seats and carry no proof.
func (t *Table) deal() ([]Player, engine.Source, *fair.Proof, error) {
	if t.lobby.scripted {
		dice := t.lobby.cfg.Dice
		players := slices.Clone(t.sitters)
		for i := len(players) - 1; i > 0; i-- {
			j := dice.Intn(i + 1)
			players[i], players[j] = players[j], players[i]
		}
		return players, dice, nil, nil
	}
	players, st, proof, err := t.next.deal(t.sitters)
	return players, st, &proof, err
}

// deal seats players and derives the game's dice from the table's next
// seed and the seeds they gave: it returns the players in seat order, the
// game's Source and its proof (with the secret seed, for the store). It
// changes nothing; the caller draws the next seed once the game is saved.
func (n nextDice) deal(players []Player) ([]Player, *fair.Stream, fair.Proof, error) {
	var texts []string
	fps := make([]string, len(players))
	for i, p := range players {
		fps[i] = p.seatKey()
		for _, g := range n.Given {
			if g.Person == p.ID {
				texts = append(texts, g.Seed)
			}
		}
	}
	st, err := fair.NewStream(n.Seed, texts)
	if err != nil {
		return nil, nil, fair.Proof{}, err
	}
	seated := make([]Player, len(players))
	proof := fair.Proof{Scheme: fair.Scheme, Commitment: n.Seed.Commitment(), ServerSeed: n.Seed.Reveal(),
		PlayerSeeds: []fair.PlayerSeed{}}
	for seat, i := range st.Seating(fps) {
		seated[seat] = players[i]
		for _, g := range n.Given {
			if g.Person == players[i].ID {
				proof.PlayerSeeds = append(proof.PlayerSeeds, fair.PlayerSeed{Seat: seat, Seed: g.Seed})
			}
		}
	}
	return seated, st, proof, nil
}

// resumeDice is the Source of a recovered game: its stream again when it
// has a proof, else the lobby's dice (a game stored before fair dice).
func (t *Table) resumeDice(proof *fair.Proof) (engine.Source, error) {
	if proof == nil {
		return t.lobby.cfg.Dice, nil
	}
	seed, err := fair.ParseSeed(proof.ServerSeed)
	if err != nil {
		return nil, err
	}
	var texts []string
	for _, p := range proof.PlayerSeeds {
		texts = append(texts, p.Seed)
	}
	return fair.NewStream(seed, texts)
}

// sealed is p without its server seed (nil for nil).
func sealed(p *fair.Proof) *fair.Proof {
	if p == nil {
		return nil
	}
	s := p.Sealed()
	return &s
}

// fairInfo is the table's FairInfo for its snapshots.
func (t *Table) fairInfo() FairInfo {
	if t.running() && t.game.proof != nil {
		p := t.game.proof
		info := FairInfo{Commitment: p.Commitment}
		for _, s := range p.PlayerSeeds {
			pl := t.game.players[s.Seat]
			info.Seeds = append(info.Seeds, SeedInfo{Name: t.lobby.Name(pl.ID), ID: pl.ID, Seed: s.Seed, Seated: true})
		}
		return info
	}
	if t.running() || t.lobby.scripted {
		return FairInfo{} // a game dealt before fair dice, or scripted
	}
	seeds := make([]SeedInfo, len(t.next.Given))
	for i, g := range t.next.Given {
		seeds[i] = SeedInfo{Name: t.lobby.Name(g.Person), ID: g.Person, Seed: g.Seed, Seated: t.seatOf(g.Person) >= 0}
	}
	return FairInfo{Commitment: t.next.Seed.Commitment(), Next: true, Seeds: seeds}
}
