package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/engine"
)

// GameFilter decides whether a game may be shown; t is the record of its
// table, nil when the store has none. Who may see what is not the store's
// to say: the lobby's rule (lobby.Viewer.SeesGame) is, wired by
// store/lobbystore.Shows. A nil GameFilter shows every game.
type GameFilter func(g Game, t *TableRecord) bool

// GameShown reports whether keep shows game g, reading the record of the
// table it was played at (RecordAt).
func (s *Store) GameShown(ctx context.Context, g Game, keep GameFilter) (bool, error) {
	if err := ctxErr(ctx, "game shown"); err != nil {
		return false, err
	}
	if keep == nil {
		return true, nil
	}
	ts, err := s.TableRecords(ctx, g.Table)
	if err != nil {
		return false, fmt.Errorf("game %s shown: %w", g.ID, err)
	}
	return keep(g, RecordAt(ts, g.Started)), nil
}

// historyChunk is the most games History reads at a time while it skips
// games the viewer may not see.
const historyChunk = 200

// History is Games limited to the games keep shows: newest first,
// q.Limit of them (DefaultLimit if 0) even when hidden games lie in
// between, and q.Before pages on as with Games (pass the last ID of a
// page). A nil keep is Games.
func (s *Store) History(ctx context.Context, q Query, keep GameFilter) ([]Game, error) {
	if keep == nil {
		return s.Games(ctx, q)
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	records := map[string][]TableRecord{} // by folded name
	table := func(name string) ([]TableRecord, error) {
		key := fold(name)
		if ts, ok := records[key]; ok {
			return ts, nil
		}
		ts, err := s.TableRecords(ctx, name)
		if err != nil {
			return nil, err
		}
		records[key] = ts
		return ts, nil
	}
	var out []Game
	page := q
	page.Limit = limit // most often every game is visible: read no more
	for len(out) < limit {
		gs, err := s.Games(ctx, page)
		if err != nil {
			return nil, fmt.Errorf("history: %w", err)
		}
		for _, g := range gs {
			ts, err := table(g.Table)
			if err != nil {
				return nil, fmt.Errorf("history: %w", err)
			}
			if keep(g, RecordAt(ts, g.Started)) {
				out = append(out, g)
				if len(out) == limit {
					break
				}
			}
		}
		if len(gs) < page.Limit {
			break
		}
		page.Before = gs[len(gs)-1].ID
		page.Limit = max(page.Limit, min(2*page.Limit, historyChunk))
	}
	return out, nil
}

// Rounds returns the number of rounds of each game (the number of its
// last round event; 0 for an unknown game or one without events). It
// reads each game's log backwards from its end, so it costs a few events
// per game, not the whole log.
func (s *Store) Rounds(ctx context.Context, ids []string) ([]int, error) {
	if err := ctxErr(ctx, "rounds"); err != nil {
		return nil, err
	}
	out := make([]int, len(ids))
	err := s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketEvents).Cursor()
		for i, sid := range ids {
			id, err := parseID(sid)
			if err != nil {
				continue
			}
			k, _ := c.Seek(eventKey(id+1, 0))
			var v []byte
			if k == nil {
				k, v = c.Last()
			} else {
				k, v = c.Prev()
			}
			for ; k != nil && binary.BigEndian.Uint64(k) == id; k, v = c.Prev() {
				if !bytes.Contains(v, []byte(`"round"`)) {
					continue
				}
				var e engine.Event
				if err := e.UnmarshalJSON(v); err != nil {
					return fmt.Errorf("game %s: %w", sid, err)
				}
				if e.Type == engine.EvRound {
					out[i] = e.Round
					break
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("rounds: %w", err)
	}
	return out, nil
}
