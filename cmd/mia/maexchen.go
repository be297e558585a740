package main

import (
	"context"
	"errors"

	"github.com/mia-game/mia/store"
)

// maexchenRecords adapts the store to what the Mäxchen gateway reads.
type maexchenRecords struct{ st *store.Store }

// NameTaken reports whether an SSH player's name looks like name (the
// store's index of names is by their look: ident.Skeleton).
func (r maexchenRecords) NameTaken(ctx context.Context, name string) (bool, error) {
	_, err := r.st.PersonByName(ctx, name)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}

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
