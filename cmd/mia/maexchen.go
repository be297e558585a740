package main

import (
	"context"
	"errors"
	"net/netip"

	"github.com/mia-game/mia/sshapp/maexchen"
	"github.com/mia-game/mia/store"
)

// maexchenRecords adapts the store to what the Mäxchen gateway reads.
type maexchenRecords struct{ st *store.Store }

// Tally is a player's finished games and the lives lost in them.
func (r maexchenRecords) Tally(ctx context.Context, person string) (games, livesLost int, err error) {
	t, err := r.st.Tally(ctx, person)
	return t.Games, t.LivesLost, err
}

// RecentPlayers lists the players (person ids) of the table's last
// finished games.
func (r maexchenRecords) RecentPlayers(ctx context.Context, table string, rounds int) ([]string, error) {
	gs, err := r.st.Games(ctx, store.Query{Table: table, Limit: rounds})
	if err != nil {
		return nil, err
	}
	var fps []string
	for _, g := range gs {
		for _, s := range g.Seats {
			fps = append(fps, s.Person)
		}
	}
	return fps, nil
}

// Bans lists every ban's target: people (a Mäxchen bot is the person
// maexchen:NAME), keys, and UDP addresses ("udp:…").
func (r maexchenRecords) Bans(ctx context.Context) ([]string, error) {
	bs, err := r.st.Bans(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.Target()
	}
	return out, nil
}

// ClaimName takes a Mäxchen bot's name for its address (store.ClaimUDPName).
func (r maexchenRecords) ClaimName(ctx context.Context, c maexchen.Claim, taken func(maexchen.Claim) bool) (maexchen.Claim, bool, error) {
	n, err := r.st.ClaimUDPName(ctx, udpName(c), func(n store.UDPName) bool { return taken(claim(n)) })
	switch {
	case errors.Is(err, store.ErrNameTaken):
		return maexchen.Claim{}, false, nil
	case err != nil:
		return maexchen.Claim{}, false, err
	}
	return claim(n), true, nil
}

// KeepNames stores the claims of Mäxchen bots' names again.
func (r maexchenRecords) KeepNames(ctx context.Context, cs []maexchen.Claim) error {
	ns := make([]store.UDPName, len(cs))
	for i, c := range cs {
		ns[i] = udpName(c)
	}
	return r.st.KeepUDPNames(ctx, ns...)
}

// SweepNames sweeps the claims of Mäxchen bots' names.
func (r maexchenRecords) SweepNames(ctx context.Context, keep func(maexchen.Claim) (maexchen.Claim, bool)) error {
	return r.st.SweepUDPNames(ctx, func(n store.UDPName) (store.UDPName, bool) {
		c, ok := keep(claim(n))
		return udpName(c), ok
	})
}

// udpName is a claim as the store keeps it.
func udpName(c maexchen.Claim) store.UDPName {
	return store.UDPName{Name: c.Name, Addr: c.Addr.String(), Heard: c.Heard, Held: c.Held, Registered: c.Registered}
}

// claim is a stored name as the gateway reads it; an address that does
// not read back (none is written so) is no address's.
func claim(n store.UDPName) maexchen.Claim {
	a, _ := netip.ParseAddr(n.Addr)
	return maexchen.Claim{Name: n.Name, Addr: a, Heard: n.Heard, Held: n.Held, Registered: n.Registered}
}
