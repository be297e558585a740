package main

import (
	"context"
	"errors"

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
