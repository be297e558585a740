// Package fair makes a game's dice provably fair: the server commits to a
// secret seed before the game (its SHA-256 is shown to the table), players
// may add seeds of their own, and every roll, the seating and the first
// opener are derived from the server seed and the players' seeds, so that
// anyone can recompute them once the seed is revealed at the game's end.
//
// The scheme ("mia-hmac-sha256-v1"), precisely:
//
//	server seed   32 bytes from crypto/rand, written as 64 lowercase hex digits
//	commitment    hex(SHA-256(server seed bytes))
//	mix           the players' seeds sorted (by bytes), each followed by "\n";
//	              "" when nobody gave one
//	block(L,n,j)  HMAC-SHA256(key = server seed bytes,
//	                          msg = UTF-8 of L + " " + n + " " + j + "\n" + mix)
//	              with n and j written in decimal
//	pick(L,n,m,c) the bytes of block(L,n,0), then block(L,n,1), …, in order;
//	              a byte b < 256 - 256 mod m is kept as b mod m, any other byte
//	              is skipped (no modulo bias); the first c kept numbers
//	roll N        (N from 1: the game's roll events in order) is the two dice
//	              pick("roll", N, 6, 2) + 1; the event writes them higher first
//	draw K        (K from 0) is pick("draw", K, m, 1) for a draw in [0, m);
//	              draw 0 is the first round's opener, m = number of players
//	seating       players sorted by HMAC-SHA256(server seed,
//	              "seat " + fingerprint + "\n" + mix), compared as bytes;
//	              seat 0 has the smallest
//
// Player seeds are cleaned text (no control characters, so no "\n") of at
// most MaxSeedRunes runes. The package is pure: no clocks, no I/O beyond
// crypto/rand for a new seed.
//
// Its room: under engine, the proof beside the rules it plugs into (a
// Stream is an engine.RollSource). It may import engine and the standard
// library only; the lobby deals with it, the store keeps its Proof and a
// table's NextDice, the verify command and the tests check with it.
package fair

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Scheme names the construction above; it is written with every proof.
const Scheme = "mia-hmac-sha256-v1"

// SeedSize is the size of a server seed in bytes.
const SeedSize = 32

// MaxSeedRunes is the longest player seed.
const MaxSeedRunes = 64

// Errors of seeds and proofs.
var (
	ErrBadSeed       = errors.New("a server seed is 64 hex digits")
	ErrBadPlayerSeed = errors.New("a seed is 1 to 64 characters of printable text")
	// ErrSeedTooLong is a player seed longer than MaxSeedRunes: refused,
	// never cut. It matches ErrBadPlayerSeed.
	ErrSeedTooLong = fmt.Errorf("%w: yours is longer", ErrBadPlayerSeed)
	ErrNotRevealed = errors.New("the server seed is not revealed until the game ends")
	ErrBadScheme   = errors.New("unknown fairness scheme")
)

// Seed is a server seed. It prints as "[secret]" so that it cannot leak
// into a log or a message by accident; Reveal gives its hex.
type Seed [SeedSize]byte

// NewSeed draws a fresh server seed from crypto/rand (whose Read never
// fails: it crashes the program rather than return weak randomness).
func NewSeed() Seed {
	var s Seed
	_, _ = rand.Read(s[:])
	return s
}

// ParseSeed reads the 64 hex digits Reveal writes.
func ParseSeed(h string) (Seed, error) {
	var s Seed
	if len(h) != 2*SeedSize {
		return s, ErrBadSeed
	}
	if _, err := hex.Decode(s[:], []byte(h)); err != nil {
		return Seed{}, ErrBadSeed
	}
	return s, nil
}

// Commitment is hex(SHA-256(seed)): shown before the game, it binds the
// server to the seed without telling it.
func (s Seed) Commitment() string {
	sum := sha256.Sum256(s[:])
	return hex.EncodeToString(sum[:])
}

// Reveal is the seed as 64 lowercase hex digits. Call it only for a game
// that has ended.
func (s Seed) Reveal() string { return hex.EncodeToString(s[:]) }

// String hides the seed.
func (Seed) String() string { return "[secret]" }

// GoString hides the seed from %#v too.
func (Seed) GoString() string { return "fair.Seed{[secret]}" }

// CheckPlayerSeed reports whether s may be a player seed: 1 to MaxSeedRunes
// runes of valid UTF-8 without control or format characters (a longer
// one is ErrSeedTooLong). The lobby cleans what players type first; this
// is the rule the derivation needs (no "\n", so the mix is unambiguous).
func CheckPlayerSeed(s string) error {
	if s == "" || !utf8.ValidString(s) {
		return ErrBadPlayerSeed
	}
	if utf8.RuneCountInString(s) > MaxSeedRunes {
		return ErrSeedTooLong
	}
	if strings.IndexFunc(s, func(r rune) bool {
		return unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
	}) >= 0 {
		return ErrBadPlayerSeed
	}
	return nil
}

// PlayerSeed is the seed a seat added before the game.
type PlayerSeed struct {
	Seat int    `json:"seat"`
	Seed string `json:"seed"`
}

// NextDice are a table's dice for its next game, as the table keeps them
// until the game starts: the server seed, drawn as the game before began
// and committed to (its Commitment shown) before anyone gives a seed,
// and the seeds people gave since, by person id. Of those, the seeds of
// the people who play the game count. The lobby holds them for each open
// table; the store keeps them, so that a restart shows the same
// commitment and keeps the seeds.
type NextDice struct {
	Seed  Seed
	Given []GivenSeed
}

// GivenSeed is a seed a person gave for a table's next game, by their
// person id (their name is looked up when shown).
type GivenSeed struct {
	Person string
	Seed   string
}

// Proof is what a game keeps to be checked: the JSON object "fair" of a
// game's record. ServerSeed is empty until the game has ended.
type Proof struct {
	Scheme      string       `json:"scheme"`
	Commitment  string       `json:"commitment"`
	ServerSeed  string       `json:"server_seed,omitempty"`
	PlayerSeeds []PlayerSeed `json:"player_seeds"`
}

// MarshalJSON writes the proof with "player_seeds" always a list ([] when
// nobody gave a seed), so that a checker may iterate it.
func (p Proof) MarshalJSON() ([]byte, error) {
	type plain Proof
	if p.PlayerSeeds == nil {
		p.PlayerSeeds = []PlayerSeed{}
	}
	return json.Marshal(plain(p))
}

// Clone is a copy of p sharing nothing with it; PlayerSeeds is never nil
// (JSON writes [] when nobody gave a seed).
func (p Proof) Clone() Proof {
	p.PlayerSeeds = append(make([]PlayerSeed, 0, len(p.PlayerSeeds)), p.PlayerSeeds...)
	return p
}

// Sealed is the proof as anyone may see it while the game runs: the server
// seed removed.
func (p Proof) Sealed() Proof {
	p = p.Clone()
	p.ServerSeed = ""
	return p
}

// seeds returns the players' seed texts.
func seedTexts(ps []PlayerSeed) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Seed
	}
	return out
}
