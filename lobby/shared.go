package lobby

import (
	"sync"

	"github.com/mia-game/mia/lobby/words"
)

// maxShared bounds what one snapshot keeps for its viewers (one entry per
// window size and clock second they draw, in practice a handful).
const maxShared = 32

// shared is what the viewers of one published snapshot share. A table
// publishes one Snapshot to all viewers who see it from the same seat, so
// whatever they derive from it alike (the log in words, a spectator's
// whole frame) need be made once, by whichever viewer asks first, instead
// of once per viewer.
type shared struct {
	mu   sync.Mutex
	logs map[[2]int][]string
	memo map[any]string
}

// CleanLogLines is LogLines(n) with each line cleaned for a terminal
// (words.Clean(line, maxRunes): the names in it were typed by people). The
// lines are made once for everyone who received this snapshot and are
// shared: do not modify them.
func (s Snapshot) CleanLogLines(n, maxRunes int) []string {
	build := func() []string {
		lines := s.LogLines(n)
		for i, l := range lines {
			lines[i] = words.Clean(l, maxRunes)
		}
		return lines
	}
	if s.shared == nil {
		return build()
	}
	return remember(&s.shared.mu, &s.shared.logs, [2]int{n, maxRunes}, build)
}

// Shared returns what draw makes of this snapshot for key, made once for
// every viewer who received this snapshot and asks with an equal key. The
// key must hold everything besides the snapshot that draw depends on.
func (s Snapshot) Shared(key any, draw func() string) string {
	if s.shared == nil {
		return draw()
	}
	return remember(&s.shared.mu, &s.shared.memo, key, draw)
}

// remember returns (*m)[k], made by build and kept if missing (the map
// emptied first if it holds maxShared). build runs outside the lock: two
// viewers may both build; the first kept wins.
func remember[K comparable, V any](mu *sync.Mutex, m *map[K]V, k K, build func() V) V {
	mu.Lock()
	v, ok := (*m)[k]
	mu.Unlock()
	if ok {
		return v
	}
	v = build()
	mu.Lock()
	defer mu.Unlock()
	if prev, ok := (*m)[k]; ok {
		return prev
	}
	if len(*m) >= maxShared {
		clear(*m)
	}
	if *m == nil {
		*m = make(map[K]V)
	}
	(*m)[k] = v
	return v
}
