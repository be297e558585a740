package guard

import (
	"net/netip"
	"time"
)

// Limits are the guard's protections. A zero field takes its default; a
// negative one turns that protection off.
type Limits struct {
	// HandshakeTimeout bounds the time from accepting a TCP connection to
	// a successful authentication (default 20 s).
	HandshakeTimeout time.Duration
	// VersionTimeout bounds the time from accepting a TCP connection to
	// the client's SSH version line, which real clients send at once
	// (default 5 s).
	VersionTimeout time.Duration
	// NoSessionTimeout closes an authenticated connection that has no
	// open session for this long (default 1 min).
	NoSessionTimeout time.Duration
	// MaxUnauthenticated caps connections still in their handshake
	// (default 64). When they are all taken, or the early drop picks a
	// newcomer, a connection is closed to make room rather than the
	// newcomer refused (victimLocked): one that has sent nothing but
	// perhaps its version line, from a source with as many unfinished
	// connections to its name as the newcomer's or more; failing that,
	// one whose handshake has run EarlyDropAfter; failing that, one from a
	// source with more unfinished connections than the newcomer's. A
	// newcomer is refused only when there is none.
	MaxUnauthenticated int
	// EarlyDrop is the number of stalled connections (in their
	// handshake for EarlyDropAfter or longer) from which a new one is
	// dropped at random, as OpenSSH's MaxStartups does: with EarlyDropRate
	// percent chance at EarlyDrop, rising linearly to 100 % at
	// MaxUnauthenticated (default 16; negative: off).
	EarlyDrop int
	// EarlyDropAfter is how long a handshake waits on its client (the
	// server spoke last, and nothing from the client waits unread) before
	// it counts as stalled for EarlyDrop, or five times as long whoever it
	// waits on (default 1 s; negative: every handshake counts, as in
	// OpenSSH). Real clients answer within milliseconds, so a crowd
	// connecting at once is let in, and a server short of CPU does not
	// count its own slowness against its clients.
	EarlyDropAfter time.Duration
	// EarlyDropRate is the chance in percent of an early drop at
	// EarlyDrop connections (default 30).
	EarlyDropRate int
	// PenaltyMin turns on per-source penalties, as OpenSSH's
	// PerSourcePenalties: a connection that ends before it authenticates
	// costs its source (penalties.go), the cost leaks away at one second a
	// second, and a source whose cost reaches PenaltyMin is refused at the
	// door until it has leaked away (default 15 s; negative: off).
	PenaltyMin time.Duration
	// PenaltyMax caps a source's cost, so the longest refusal (default
	// 10 min).
	PenaltyMax time.Duration
	// PenaltyExempt is the addresses never penalised, as OpenSSH's
	// PerSourcePenaltyExemptList: a host whose users share one address (a
	// NAT) keeps one bad client there from locking out the rest. Empty:
	// none.
	PenaltyExempt []netip.Prefix
	// MaxPerSource caps connections from one source, an IPv4 address or
	// IPv6 /64 (default 16). A newcomer from a source at the cap takes the
	// place of that source's own silent connection if it has one.
	MaxPerSource int
	// MaxSessions caps sessions (channels) on one connection (default 4).
	MaxSessions int
	// MaxSessionsPerPerson caps the sessions one person holds open at
	// once, of every kind and over all their connections and keys (a key
	// that is nobody's yet counts as a person of its own); a session past
	// it is refused at its start, with the limit named (default 8;
	// negative: no cap). Sessions on a server admin's key are exempt.
	MaxSessionsPerPerson int
	// KeepaliveInterval is how often the server sends keepalive@openssh.com
	// to a connection; a connection that does not answer within another
	// interval is closed (default 30 s).
	KeepaliveInterval time.Duration
	// SendBuffer caps the kernel's send buffer of each connection, so
	// that what a client that stops reading holds in the kernel is bounded
	// too, not grown by autotuning up to megabytes (default 256 KiB, which
	// Linux doubles; negative: the system's default).
	SendBuffer int
}

// defaultEarlyDropAfter is when a handshake counts as stalled.
const defaultEarlyDropAfter = time.Second

// DefaultMaxSessionsPerPerson is Limits.MaxSessionsPerPerson's default.
const DefaultMaxSessionsPerPerson = 8

// WithDefaults is l with every zero field at its default.
func (l Limits) WithDefaults() Limits {
	dur := func(v *time.Duration, d time.Duration) {
		if *v == 0 {
			*v = d
		}
	}
	num := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	dur(&l.HandshakeTimeout, 20*time.Second)
	dur(&l.VersionTimeout, 5*time.Second)
	dur(&l.NoSessionTimeout, time.Minute)
	num(&l.MaxUnauthenticated, 64)
	num(&l.EarlyDrop, 16)
	num(&l.EarlyDropRate, 30)
	dur(&l.EarlyDropAfter, defaultEarlyDropAfter)
	l.EarlyDropRate = min(max(l.EarlyDropRate, 0), 100)
	dur(&l.PenaltyMin, 15*time.Second)
	dur(&l.PenaltyMax, 10*time.Minute)
	num(&l.MaxPerSource, 16)
	num(&l.MaxSessions, 4)
	num(&l.MaxSessionsPerPerson, DefaultMaxSessionsPerPerson)
	dur(&l.KeepaliveInterval, 30*time.Second)
	num(&l.SendBuffer, 256<<10)
	return l
}

// dropChance is the chance in percent that a new connection is refused
// while unauth connections are in their handshake, stalled of them for
// EarlyDropAfter or longer: 100 at MaxUnauthenticated; below that none
// while fewer than EarlyDrop are stalled, EarlyDropRate at EarlyDrop,
// rising linearly to 100 at MaxUnauthenticated.
func (l Limits) dropChance(unauth, stalled int) int {
	full := l.MaxUnauthenticated
	switch {
	case full <= 0:
		return 0
	case unauth >= full:
		return 100
	case l.EarlyDrop <= 0 || l.EarlyDrop >= full || stalled < l.EarlyDrop:
		return 0
	}
	return min(100, l.EarlyDropRate+(100-l.EarlyDropRate)*(stalled-l.EarlyDrop)/(full-l.EarlyDrop))
}
