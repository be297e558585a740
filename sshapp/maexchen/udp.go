package maexchen

import (
	"errors"
	"net"
	"net/netip"
	"sync"
	"time"
)

// What reaches the gateway's actor from the socket is bounded twice: by
// the filter (a move needs a token the actor handed out, to that address;
// registrations are rate-limited per IP) and by the inbox (full: dropped).
const (
	inboxSize  = 256
	outboxSize = 4096
	// readBuffer is the socket's receive buffer asked of the kernel (it
	// may give less: net.core.rmem_max).
	readBuffer = 4 << 20
	// regRate and regBurst limit REGISTER, REGISTER_SPECTATOR, UNREGISTER
	// and HEARTBEAT from one IP: a token bucket of regBurst refilled
	// regRate a second. Bots send them once, or every 2 s.
	regRate  = 20
	regBurst = 40
	// maxLimited is the most IPs with a bucket of their own; past it the
	// buckets start afresh (a flood from spoofed sources costs memory no
	// longer than that).
	maxLimited = 4096
)

// datagram is one message from a bot, parsed, with its sender.
type datagram struct {
	from netip.AddrPort
	msg  message
}

// outgoing is one message to a bot.
type outgoing struct {
	to  netip.AddrPort
	msg string
}

// tokenRef is a token the actor handed out: the command that may answer
// it and the address it was sent to.
type tokenRef struct {
	kind command // cmdJoin, cmdRoll (ROLL or SEE) or cmdAnnounce
	to   netip.AddrPort
}

// filter lets through to the actor only what may change something: moves
// with a live token from the address it was sent to (once each), and
// registrations within the per-IP rate. It is shared by the reader and the
// actor.
type filter struct {
	mu      sync.Mutex
	tokens  map[string]tokenRef
	buckets map[netip.Addr]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newFilter() *filter {
	return &filter{tokens: make(map[string]tokenRef), buckets: make(map[netip.Addr]*bucket)}
}

// add makes a token live.
func (f *filter) add(token string, ref tokenRef) {
	f.mu.Lock()
	f.tokens[token] = ref
	f.mu.Unlock()
}

// drop ends a token.
func (f *filter) drop(token string) {
	if token == "" {
		return
	}
	f.mu.Lock()
	delete(f.tokens, token)
	f.mu.Unlock()
}

// readdress moves the live tokens sent to one address to another (a bot
// that registered again from a new port).
func (f *filter) readdress(from, to netip.AddrPort) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for t, ref := range f.tokens {
		if ref.to == from {
			ref.to = to
			f.tokens[t] = ref
		}
	}
}

// forget ends every token sent to an address.
func (f *filter) forget(addr netip.AddrPort) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for t, ref := range f.tokens {
		if ref.to == addr {
			delete(f.tokens, t)
		}
	}
}

// pass reports whether d goes on to the actor; a move's token is used up.
func (f *filter) pass(d datagram, now time.Time) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch d.msg.cmd {
	case cmdNone:
		return false
	case cmdJoin, cmdRoll, cmdSee, cmdAnnounce:
		kind := d.msg.cmd
		if kind == cmdSee {
			kind = cmdRoll
		}
		ref, ok := f.tokens[d.msg.token]
		if !ok || ref.kind != kind || ref.to != d.from {
			return false
		}
		delete(f.tokens, d.msg.token)
		return true
	}
	ip := d.from.Addr()
	b := f.buckets[ip]
	if b == nil {
		if len(f.buckets) >= maxLimited {
			clear(f.buckets)
		}
		b = &bucket{tokens: regBurst, last: now}
		f.buckets[ip] = b
	}
	b.tokens = min(regBurst, b.tokens+now.Sub(b.last).Seconds()*regRate)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// read reads datagrams until the socket closes. Anything longer than
// MaxDatagram, malformed, or not let through by the filter is dropped
// here, without waking the actor.
func (g *Gateway) read() {
	defer g.wg.Done()
	buf := make([]byte, 2*MaxDatagram)
	for {
		n, from, err := g.conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			g.log.Debug("read", "err", err)
			continue
		}
		g.stats.received.Add(1)
		from = netip.AddrPortFrom(from.Addr().Unmap(), from.Port())
		if g.cfg.via != nil {
			from = g.cfg.via.seen(from)
		}
		d := datagram{from: from, msg: parse(buf[:n])}
		if !g.filter.pass(d, time.Now()) {
			g.stats.ignored.Add(1)
			continue
		}
		select {
		case g.inbox <- d:
		default:
			g.stats.ignored.Add(1)
		}
	}
}

// write sends the outbox until it closes. A message that does not fit the
// outbox is dropped by send: a slow socket never holds up the actor.
func (g *Gateway) write() {
	defer g.wg.Done()
	for o := range g.outbox {
		to := o.to
		if g.cfg.via != nil {
			to = g.cfg.via.socket(to)
		}
		if _, err := g.conn.WriteToUDPAddrPort([]byte(o.msg), to); err != nil {
			g.log.Debug("write", "to", o.to, "err", err)
		}
	}
}

// send queues msg to one address.
func (g *Gateway) send(to netip.AddrPort, msg string) {
	select {
	case g.outbox <- outgoing{to: to, msg: msg}:
		g.stats.sent.Add(1)
	default:
		g.stats.dropped.Add(1)
	}
}
