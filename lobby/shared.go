package lobby

import "sync"

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
// (Clean(line, maxRunes): the names in it were typed by people). The
// lines are made once for everyone who received this snapshot and are
// shared: do not modify them.
func (s Snapshot) CleanLogLines(n, maxRunes int) []string {
	build := func() []string {
		lines := s.LogLines(n)
		for i, l := range lines {
			lines[i] = Clean(l, maxRunes)
		}
		return lines
	}
	sh := s.shared
	if sh == nil {
		return build()
	}
	k := [2]int{n, maxRunes}
	sh.mu.Lock()
	lines, ok := sh.logs[k]
	sh.mu.Unlock()
	if ok {
		return lines
	}
	lines = build()
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.logs == nil {
		sh.logs = map[[2]int][]string{}
	}
	if prev, ok := sh.logs[k]; ok { // another viewer was first
		return prev
	}
	sh.logs[k] = lines
	return lines
}

// Shared returns what draw makes of this snapshot for key, made once for
// every viewer who received this snapshot and asks with an equal key. The
// key must hold everything besides the snapshot that draw depends on.
func (s Snapshot) Shared(key any, draw func() string) string {
	sh := s.shared
	if sh == nil {
		return draw()
	}
	sh.mu.Lock()
	v, ok := sh.memo[key]
	sh.mu.Unlock()
	if ok {
		return v
	}
	v = draw()
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if len(sh.memo) >= maxShared {
		clear(sh.memo)
	}
	if sh.memo == nil {
		sh.memo = make(map[any]string)
	}
	sh.memo[key] = v
	return v
}
