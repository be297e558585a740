package guard

import (
	"sync"
	"time"
)

// What a connection that ends before it authenticates costs its source
// at first (OpenSSH's PerSourcePenalties grace-exceeded and noauth).
const (
	penaltyTimedOut = 10 * time.Second
	penaltyNoAuth   = time.Second
)

// A source's unfinished connections are its strikes, and it is forgiven
// one every strikeForgiven. While it holds fewer than freeStrikes, an
// unfinished connection costs the charges above; each one past them costs
// twice the one before, up to PenaltyMax. So a source that churns,
// opening handshakes and closing them before a second is up (one second
// of charge drains as fast as it churns), is refused after six or so
// however it spaces them; one that comes back the moment its refusal
// ends is refused for longer each time, and settles at about one
// connection a minute; and a person whose client fails now and then, up
// to once a minute, pays the plain charge each time.
const (
	freeStrikes    = 2
	strikeForgiven = time.Minute
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
	total   time.Duration // the bucket as of at
	strikes time.Duration // the strikes as of at, strikeForgiven each, drained as the bucket is
	at      time.Time
	until   time.Time // refused until then
}

func newPenalties(min, max time.Duration) *penalties {
	return &penalties{min: min, max: max, bySrc: make(map[string]*penalty)}
}

// left is the bucket of e at now.
func (e *penalty) left(now time.Time) time.Duration {
	return max(e.total-now.Sub(e.at), 0)
}

// strikesAt is e's strikes at now, those forgiven since taken off.
func (e *penalty) strikesAt(now time.Time) int {
	left := e.strikes - now.Sub(e.at)
	if left <= 0 {
		return 0
	}
	return int((left + strikeForgiven - 1) / strikeForgiven)
}

// charge is what the next unfinished connection of a source with strikes
// costs, of base cost base.
func (p *penalties) charge(base time.Duration, strikes int) time.Duration {
	shift := min(max(strikes-freeStrikes+1, 0), 30)
	return min(base<<shift, p.max)
}

// add charges src for a connection of base cost base that ended
// unfinished at now; it returns how long src is refused from now on (0:
// not refused).
func (p *penalties) add(src string, base time.Duration, now time.Time) time.Duration {
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
	s := e.strikesAt(now)
	e.total = min(e.left(now)+p.charge(base, s), p.max)
	e.strikes = max(e.strikes-now.Sub(e.at), 0) + strikeForgiven
	e.at = now
	if e.total < p.min {
		return 0
	}
	e.until = now.Add(e.total)
	return e.total
}

// refused reports whether src is refused at now.
func (p *penalties) refused(src string, now time.Time) bool {
	d, _ := p.state(src, now)
	return d > 0
}

// state is how long src is refused for from now (0: not) and its
// strikes.
func (p *penalties) state(src string, now time.Time) (time.Duration, int) {
	if p.min <= 0 {
		return 0, 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	e := p.bySrc[src]
	if e == nil {
		return 0, 0
	}
	return max(e.until.Sub(now), 0), e.strikesAt(now)
}

// strikes is src's strikes at now.
func (p *penalties) strikes(src string, now time.Time) int {
	_, s := p.state(src, now)
	return s
}

// sweepLocked forgets the sources whose bucket is empty, whose refusal
// is over and whose strikes are all forgiven.
func (p *penalties) sweepLocked(now time.Time) {
	for src, e := range p.bySrc {
		if e.left(now) == 0 && !now.Before(e.until) && e.strikesAt(now) == 0 {
			delete(p.bySrc, src)
		}
	}
}
