package solver

import (
	"container/list"
	"sync"
)

// Cached is how many solved rule sets For keeps (6 to 11 MiB each under
// classic); the one used longest ago goes first.
const Cached = 12

// cache holds the solved rule sets, each solved once however many ask at
// once.
var cache = struct {
	sync.Mutex
	m   map[Rules]*list.Element
	lru list.List // of *entry, the last used first
	// solving lets one solve run at a time: a solve takes a core for
	// seconds, and asks for many rule sets at once wait their turn.
	solving sync.Mutex
}{m: map[Rules]*list.Element{}}

type entry struct {
	rules Rules
	once  sync.Once
	s     *Strategy
	err   error
}

// For is the strategy of r, solved on its first use and kept (see
// Cached): the same as Solve(r), bit for bit.
func For(r Rules) (*Strategy, error) {
	cache.Lock()
	el, ok := cache.m[r]
	if ok {
		cache.lru.MoveToFront(el)
	} else {
		el = cache.lru.PushFront(&entry{rules: r})
		cache.m[r] = el
		for cache.lru.Len() > Cached {
			old := cache.lru.Back()
			cache.lru.Remove(old)
			delete(cache.m, old.Value.(*entry).rules)
		}
	}
	e := el.Value.(*entry)
	cache.Unlock()
	e.once.Do(func() {
		cache.solving.Lock()
		defer cache.solving.Unlock()
		s, err := Solve(r)
		cache.Lock()
		e.s, e.err = s, err
		cache.Unlock()
	})
	return e.s, e.err
}

// Ready reports whether For(r) would answer at once.
func Ready(r Rules) bool {
	cache.Lock()
	defer cache.Unlock()
	el, ok := cache.m[r]
	if !ok {
		return false
	}
	e := el.Value.(*entry)
	return e.s != nil || e.err != nil
}
