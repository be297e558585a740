package maexchen

import (
	"net/netip"
	"time"

	"github.com/mia-game/mia/sshapp/internal/netsource"
)

// Who gets a place at the gateway. Any address takes any free place: a
// dojo's seven bots on one machine play as at the original server. Once
// every place is taken (MaxPlayers), a newcomer takes the place of a bot
// that gives way:
//
//  1. a bot that has not played for GiveWay: it let every round pass, or
//     let its turn time out and has answered no turn since (a squatter
//     that only keeps its registration alive);
//  2. else a bot of the address most over its fair share (the places
//     divided evenly among the addresses that hold one, the newcomer's
//     counted), if the newcomer's address holds less than its share and
//     that address is not exempt (loopback, Config.Exempt).
//
// A newcomer no bot gives way to waits: it hears nothing until a place
// is its (REGISTERED: bots wait for that answer, and the published ones
// quit on a REJECTED) or until it has waited Idle (REJECTED;SERVER_FULL).
// Newcomers get places in the order they came, as places free: when one
// registers or unregisters, and at every heartbeat (a bot that stops
// playing is due to give way GiveWay later).
const (
	// perAddress bounds the spectators, and the newcomers waiting, from
	// one address.
	perAddress = 4
	// maxWaiting bounds the newcomers waiting; past it, or past
	// perAddress from one address, REJECTED;SERVER_FULL at once.
	maxWaiting = 16
)

// waiter is a newcomer waiting for a place.
type waiter struct {
	name  string
	addr  netip.AddrPort
	since time.Time // its last REGISTER
}

// exempt reports whether the bots from a never give way for their
// address's fair share: this machine's (loopback), and the sources the
// host exempts from the SSH side's penalties (--penalty-exempt), the same
// list read by the same rule.
func (g *Gateway) exempt(a netip.Addr) bool {
	return a.Unmap().IsLoopback() || g.exemptList.Contains(a)
}

// room is the bot that gives its place to a newcomer from addr at the
// full gateway, or nil: the one that has gone longest without playing, if
// for GiveWay or more, else one of the address most over its fair share.
func (g *Gateway) room(addr netip.Addr, now time.Time) *player {
	var idlest *player
	for _, p := range g.players {
		if p.idleSince.IsZero() || now.Sub(p.idleSince) < g.cfg.GiveWay {
			continue
		}
		if idlest == nil || p.idleSince.Before(idlest.idleSince) {
			idlest = p
		}
	}
	if idlest != nil {
		return idlest
	}
	return g.overShare(addr)
}

// overShare is the newest bot of the address holding the most places
// over its fair share, not exempt, if addr holds less than its share; or
// nil. The share is MaxPlayers divided among the addresses that hold a
// place and addr's.
func (g *Gateway) overShare(addr netip.Addr) *player {
	src := netsource.Of(addr)
	held := map[netip.Prefix]int{src: 0}
	for _, p := range g.players {
		held[netsource.Of(p.addr.Addr())]++
	}
	share := max(g.cfg.MaxPlayers/len(held), 1)
	if held[src] >= share {
		return nil
	}
	var most *player
	for i := len(g.players) - 1; i >= 0; i-- { // the newest first
		p := g.players[i]
		n := held[netsource.Of(p.addr.Addr())]
		if n > share && !g.exempt(p.addr.Addr()) && (most == nil || n > held[netsource.Of(most.addr.Addr())]) {
			most = p
		}
	}
	return most
}

// giveWay ends p's registration for a newcomer from addr; p is told
// UNREGISTERED, as a bot an admin removes.
func (g *Gateway) giveWay(p *player, newcomer netip.AddrPort) {
	g.log.Info("bot gives its place to a newcomer", "name", p.name, "addr", p.addr, "newcomer", newcomer,
		"idle", !p.idleSince.IsZero())
	g.removePlayer(p)
	g.send(p.addr, msgUnregistered)
}

// wait lets a newcomer wait for a place, or refuses it if too many wait.
// A REGISTER from a socket already waiting renews its wait.
func (g *Gateway) wait(from netip.AddrPort, name string, now time.Time) {
	src := netsource.Of(from.Addr())
	fromSrc := 0
	for _, w := range g.waiting {
		if w.addr == from {
			w.name, w.since = name, now
			return
		}
		if netsource.Of(w.addr.Addr()) == src {
			fromSrc++
		}
	}
	if len(g.waiting) >= maxWaiting || fromSrc >= perAddress {
		g.send(from, msgRejected(rejectFull))
		return
	}
	g.waiting = append(g.waiting, &waiter{name: name, addr: from, since: now})
	g.log.Info("bot waits for a place", "name", name, "addr", from)
}

// unwait ends the wait of the newcomer at addr; it reports whether there
// was one.
func (g *Gateway) unwait(addr netip.AddrPort) bool {
	for i, w := range g.waiting {
		if w.addr == addr {
			g.waiting = append(g.waiting[:i:i], g.waiting[i+1:]...)
			return true
		}
	}
	return false
}

// admitWaiting registers the newcomers waiting that have a place now, in
// the order they came, and refuses those that have waited Idle.
func (g *Gateway) admitWaiting(now time.Time) {
	for _, w := range append([]*waiter(nil), g.waiting...) {
		switch {
		case now.Sub(w.since) >= g.cfg.Idle:
			g.unwait(w.addr)
			g.send(w.addr, msgRejected(rejectFull))
		case len(g.players) < g.cfg.MaxPlayers || g.room(w.addr.Addr(), now) != nil:
			g.unwait(w.addr)
			g.register(w.addr, w.name, now, true)
		}
	}
}

// missed notes that p let a prompt time out: from now on it does not
// play, unless it did not already.
func (p *player) missed(now time.Time) {
	if p.idleSince.IsZero() {
		p.idleSince = now
	}
}

// joinedInTime notes that p joined a round in time: it plays, unless it owes a
// turn.
func (p *player) joinedInTime() {
	if !p.owes {
		p.idleSince = time.Time{}
	}
}

// answered notes that p answered its turn's prompt: it plays.
func (p *player) answered() {
	p.owes, p.idleSince = false, time.Time{}
}
