package fair

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"slices"
	"strconv"
)

// Stream is the randomness of one game derived from a server seed and the
// players' seeds (see the package doc). It is an engine.RollSource: roll N
// is a pure function of N, so a game recovered from its events resumes the
// same stream. Intn counts its draws; use a Stream for one game only, from
// one goroutine.
type Stream struct {
	seed  Seed
	mix   []byte
	draws int
}

// NewStream returns the stream of seed mixed with the players' seeds, which
// must pass CheckPlayerSeed.
func NewStream(seed Seed, playerSeeds []string) (*Stream, error) {
	sorted := slices.Clone(playerSeeds)
	slices.Sort(sorted)
	var mix []byte
	for _, s := range sorted {
		if err := CheckPlayerSeed(s); err != nil {
			return nil, err
		}
		mix = append(append(mix, s...), '\n')
	}
	return &Stream{seed: seed, mix: mix}, nil
}

// block is HMAC-SHA256(seed, label + " " + n + " " + j + "\n" + mix).
func (s *Stream) block(label, n string, j int, dst []byte) []byte {
	m := hmac.New(sha256.New, s.seed[:])
	msg := make([]byte, 0, 32+len(s.mix))
	msg = append(msg, label...)
	msg = append(msg, ' ')
	msg = append(msg, n...)
	if j >= 0 {
		msg = append(msg, ' ')
		msg = strconv.AppendInt(msg, int64(j), 10)
	}
	msg = append(msg, '\n')
	msg = append(msg, s.mix...)
	m.Write(msg)
	return m.Sum(dst)
}

// pick returns count numbers in [0, bound) from the blocks of (label, n),
// skipping the bytes that would bias them.
func (s *Stream) pick(label string, n, bound, count int) []int {
	if bound < 1 || bound > 256 {
		panic("fair: pick bound out of range")
	}
	limit := 256 - 256%bound
	out := make([]int, 0, count)
	ns := strconv.Itoa(n)
	var buf [sha256.Size]byte
	for j := 0; len(out) < count; j++ {
		for _, b := range s.block(label, ns, j, buf[:0]) {
			if int(b) < limit && len(out) < count {
				out = append(out, int(b)%bound)
			}
		}
	}
	return out
}

// Roll returns the two dice of roll n (from 1), in the order drawn.
func (s *Stream) Roll(n int) (d1, d2 int) {
	p := s.pick("roll", n, 6, 2)
	return p[0] + 1, p[1] + 1
}

// Intn returns the next draw in [0, n): draw 0, then 1, and so on.
func (s *Stream) Intn(n int) int {
	if n <= 0 {
		panic("fair: Intn of a non-positive number")
	}
	v := s.Draw(s.draws, n)
	s.draws++
	return v
}

// Draw is draw k in [0, n), whatever Intn has drawn.
func (s *Stream) Draw(k, n int) int { return s.pick("draw", k, n, 1)[0] }

// Seating returns the order in which the players with these ids (their
// fingerprints) sit: seat i is ids[order[i]].
func (s *Stream) Seating(ids []string) []int {
	keys := make([][]byte, len(ids))
	order := make([]int, len(ids))
	for i, id := range ids {
		keys[i] = s.block("seat", id, -1, nil)
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return bytes.Compare(keys[a], keys[b]) })
	return order
}
