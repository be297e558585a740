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
	logs map[[2]int]*made[[]string]
	memo map[any]*made[string]
}

// made is one thing made of a snapshot, once: the viewers who ask while
// it is being made wait for it rather than make it again (a table's
// spectators all get its snapshot at the same moment).
type made[V any] struct {
	once sync.Once
	v    V
	ok   bool // made: the build returned
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

// remember returns what build makes for k, made once (the map emptied
// first if it holds maxShared). build runs outside the map's lock; whoever
// asks for k while it runs waits for it. If it panicked, each asker builds
// for themselves.
func remember[K comparable, V any](mu *sync.Mutex, m *map[K]*made[V], k K, build func() V) V {
	mu.Lock()
	e := (*m)[k]
	if e == nil {
		if len(*m) >= maxShared {
			clear(*m)
		}
		if *m == nil {
			*m = make(map[K]*made[V])
		}
		e = &made[V]{}
		(*m)[k] = e
	}
	mu.Unlock()
	e.once.Do(func() { e.v, e.ok = build(), true })
	if !e.ok {
		return build()
	}
	return e.v
}
