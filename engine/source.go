package engine

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
)

// Source draws the randomness of a game: the dice and the first opener.
// Intn returns a number in [0, n).
type Source interface {
	Intn(n int) int
}

// RollSource is a Source that derives each roll of a game from its number
// instead of drawing two dice with Intn: the game asks it for roll n (from
// 1, counting the game's roll events in order, a recovered game included).
// Intn still draws everything else (the first opener). engine/fair's Stream
// is one.
type RollSource interface {
	Source
	Roll(n int) (d1, d2 int)
}

// rollDice draws the dice of the game's next roll from its Source.
func (g *Game) rollDice() Value {
	if rs, ok := g.src.(RollSource); ok {
		return FromDice(rs.Roll(g.rolls + 1))
	}
	return FromDice(g.src.Intn(6)+1, g.src.Intn(6)+1)
}

// CryptoSource draws from crypto/rand. It is the default for real games.
type CryptoSource struct{}

// Intn returns a uniform number in [0, n) without modulo bias.
func (CryptoSource) Intn(n int) int {
	if n <= 0 {
		panic("engine: Intn of a non-positive number")
	}
	limit := ^uint64(0) - ^uint64(0)%uint64(n)
	var b [8]byte
	for {
		if _, err := rand.Read(b[:]); err != nil {
			panic(fmt.Sprintf("engine: crypto/rand failed: %v", err))
		}
		if x := binary.LittleEndian.Uint64(b[:]); x < limit {
			return int(x % uint64(n))
		}
	}
}

// scripted replays recorded draws; it is how Replay feeds recorded dice back
// into the same rules that produced them. Its queue is reused once drained,
// so a long replay does not keep allocating.
type scripted struct {
	queue []int
	head  int
}

func (s *scripted) push(v ...int) {
	if s.head == len(s.queue) {
		s.queue, s.head = s.queue[:0], 0
	}
	s.queue = append(s.queue, v...)
}

// Intn returns the next recorded draw, or 0 when there is none or it is out
// of range; Replay then finds that the events differ.
func (s *scripted) Intn(n int) int {
	if s.head == len(s.queue) {
		return 0
	}
	v := s.queue[s.head]
	s.head++
	if v < 0 || v >= n {
		return 0
	}
	return v
}
