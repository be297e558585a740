package sshapp

import (
	"sync"
	"time"
)

// What a connection that ends before it authenticates costs its source
// (OpenSSH's PerSourcePenalties grace-exceeded and noauth).
const (
	penaltyTimedOut = 10 * time.Second
	penaltyNoAuth   = time.Second
)

// maxPenalised bounds the sources penalties keeps; past it, new sources
// go untracked (OpenSSH's "overflow permissive") rather than lock out
// everyone.
const maxPenalised = 65536

// penalties is a leaky bucket of penalty time per source: each
// connection that fails adds to it, time drains it, and a source whose
// bucket reaches min is refused until the bucket is empty again.
type penalties struct {
	min, max time.Duration // min <= 0: off

	mu    sync.Mutex
	bySrc map[string]*penalty
}

type penalty struct {
	total time.Duration // the bucket as of at
	at    time.Time
	until time.Time // refused until then
}

func newPenalties(min, max time.Duration) *penalties {
	return &penalties{min: min, max: max, bySrc: make(map[string]*penalty)}
}

// left is the bucket of e at now.
func (e *penalty) left(now time.Time) time.Duration {
	return max(e.total-now.Sub(e.at), 0)
}

// add charges src with d at now; it returns how long src is refused from
// now on (0: not refused).
func (p *penalties) add(src string, d time.Duration, now time.Time) time.Duration {
	if p.min <= 0 {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	e := p.bySrc[src]
	if e == nil {
		if len(p.bySrc) >= maxPenalised {
			p.sweepLocked(now)
		}
		if len(p.bySrc) >= maxPenalised {
			return 0
		}
		e = &penalty{}
		p.bySrc[src] = e
	}
	e.total = min(e.left(now)+d, p.max)
	e.at = now
	if e.total < p.min {
		return 0
	}
	e.until = now.Add(e.total)
	return e.total
}

// refused reports whether src is refused at now.
func (p *penalties) refused(src string, now time.Time) bool {
	if p.min <= 0 {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	e := p.bySrc[src]
	return e != nil && now.Before(e.until)
}

// sweepLocked forgets the sources whose bucket is empty and whose
// refusal is over.
func (p *penalties) sweepLocked(now time.Time) {
	for src, e := range p.bySrc {
		if e.left(now) == 0 && !now.Before(e.until) {
			delete(p.bySrc, src)
		}
	}
}
