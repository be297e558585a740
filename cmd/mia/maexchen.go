package main

import (
	"context"
	"errors"
	"fmt"
	"net/netip"

	"github.com/mia-game/mia/sshapp/maexchen"
	"github.com/mia-game/mia/store"
)

// maexchenRecords adapts the store to what the Mäxchen gateway reads.
type maexchenRecords struct{ st *store.Store }

// NameTaken reports whether an SSH player goes by name (any case).
func (r maexchenRecords) NameTaken(ctx context.Context, name string) (bool, error) {
	_, err := r.st.PlayerByName(ctx, name)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}

// Tally is a player's finished games and the lives lost in them.
func (r maexchenRecords) Tally(ctx context.Context, fingerprint string) (games, livesLost int, err error) {
	t, err := r.st.Tally(ctx, fingerprint)
	return t.Games, t.LivesLost, err
}

// RecentPlayers lists the players of the table's last finished games.
func (r maexchenRecords) RecentPlayers(ctx context.Context, table string, rounds int) ([]string, error) {
	gs, err := r.st.Games(ctx, store.Query{Table: table, Limit: rounds})
	if err != nil {
		return nil, err
	}
	var fps []string
	for _, g := range gs {
		for _, s := range g.Seats {
			fps = append(fps, s.Fingerprint)
		}
	}
	return fps, nil
}

// Bans lists every ban's target: keys, and the gateway's names and
// addresses.
func (r maexchenRecords) Bans(ctx context.Context) ([]string, error) {
	bs, err := r.st.Bans(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.Fingerprint
	}
	return out, nil
}

// HeldName is the hold of a Mäxchen bot's name.
func (r maexchenRecords) HeldName(ctx context.Context, name string) (maexchen.Hold, bool, error) {
	n, err := r.st.HeldUDPName(ctx, name)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return maexchen.Hold{}, false, nil
	case err != nil:
		return maexchen.Hold{}, false, err
	}
	a, err := netip.ParseAddr(n.Addr)
	if err != nil {
		return maexchen.Hold{}, false, fmt.Errorf("hold of %s: address %q: %w", name, n.Addr, err)
	}
	return maexchen.Hold{Name: n.Name, Addr: a, Heard: n.Heard}, true, nil
}

// HoldNames stores the holds of Mäxchen bots' names.
func (r maexchenRecords) HoldNames(ctx context.Context, holds []maexchen.Hold) error {
	ns := make([]store.UDPName, len(holds))
	for i, h := range holds {
		ns[i] = store.UDPName{Name: h.Name, Addr: h.Addr.String(), Heard: h.Heard}
	}
	return r.st.HoldUDPNames(ctx, ns...)
}
