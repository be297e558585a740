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
// into the same rules that produced them.
type scripted struct {
	queue []int
	bad   bool
}

func (s *scripted) push(v ...int) { s.queue = append(s.queue, v...) }

func (s *scripted) Intn(n int) int {
	if len(s.queue) == 0 {
		s.bad = true
		return 0
	}
	v := s.queue[0]
	s.queue = s.queue[1:]
	if v < 0 || v >= n {
		s.bad = true
		return 0
	}
	return v
}
