package lobbystore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/store"
)

// Events is a *store.Store as events.Storage: an event's record kept
// whole, in JSON, and its games' results read from their records.
type Events struct{ st *store.Store }

var _ events.Storage = Events{}

// NewEvents adapts st to the events.
func NewEvents(st *store.Store) Events { return Events{st: st} }

func eventRecord(rec events.Record) (store.EventRecord, error) {
	data, err := json.Marshal(rec)
	if err != nil {
		return store.EventRecord{}, fmt.Errorf("event %s: %w", rec.Name, err)
	}
	return store.EventRecord{Name: rec.Name, Created: rec.Created, Closed: rec.State == events.Closed, Data: data}, nil
}

func fromEventRecord(r store.EventRecord) (events.Record, error) {
	var rec events.Record
	if err := json.Unmarshal(r.Data, &rec); err != nil {
		return events.Record{}, fmt.Errorf("event %s: %w", r.Name, err)
	}
	return rec, nil
}

// CreateEvent stores a new event; store.ErrExists is
// events.ErrEventExists.
func (s Events) CreateEvent(ctx context.Context, rec events.Record) error {
	r, err := eventRecord(rec)
	if err != nil {
		return err
	}
	err = s.st.CreateEvent(ctx, r)
	if errors.Is(err, store.ErrExists) {
		return fmt.Errorf("%w: %w", events.ErrEventExists, err)
	}
	return err
}

// SaveEvent replaces an event's record.
func (s Events) SaveEvent(ctx context.Context, rec events.Record) error {
	r, err := eventRecord(rec)
	if err != nil {
		return err
	}
	return s.st.SaveEvent(ctx, r)
}

// OpenEvents lists the events not closed.
func (s Events) OpenEvents(ctx context.Context) ([]events.Record, error) {
	rs, err := s.st.OpenEvents(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]events.Record, 0, len(rs))
	for _, r := range rs {
		rec, err := fromEventRecord(r)
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}

// Event reads the newest event of a name; store.ErrNotFound is
// events.ErrNoEvent.
func (s Events) Event(ctx context.Context, name string) (events.Record, error) {
	r, err := s.st.Event(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return events.Record{}, fmt.Errorf("%w: %w", events.ErrNoEvent, err)
	}
	if err != nil {
		return events.Record{}, err
	}
	return fromEventRecord(r)
}

// Result reads how a game ended, from its record (store.Store.GameHead).
func (s Events) Result(ctx context.Context, game string) (events.Result, error) {
	g, err := s.st.GameHead(ctx, game)
	if err != nil {
		return events.Result{}, err
	}
	r := events.Result{Game: g.ID, Started: g.Started, Ended: g.Ended, Players: make([]string, len(g.Seats))}
	for i, seat := range g.Seats {
		r.Players[i] = seat.Person
	}
	if g.Finished() {
		r.Standings = append([]int(nil), g.Standings...)
	}
	return r, nil
}

// Rating reads a person's overall rating, all time.
func (s Events) Rating(ctx context.Context, person string) (rating.Rating, error) {
	r, err := s.st.Rating(ctx, person, store.Board{Season: rating.AllTime})
	if err != nil {
		return rating.Rating{}, err
	}
	return r.Rating, nil
}
