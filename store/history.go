package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/engine"
)

// Viewer is who asks to see games: a key, and whether it is a server
// admin's.
type Viewer struct {
	Fingerprint string
	Admin       bool
}

// Admits reports whether fp may see the table and its games: anyone for a
// public table, the host and the members for a private one.
func (t Table) Admits(fp string) bool {
	return !t.Private || (fp != "" && (fp == t.Host || slices.Contains(t.Members, fp)))
}

// Seated reports whether fp sat in the game.
func (g Game) Seated(fp string) bool {
	for _, s := range g.Seats {
		if fp != "" && s.Fingerprint == fp {
			return true
		}
	}
	return false
}

// VisibleTo reports whether v may see game g, whose table's record is t
// (RecordAt of the table's records; nil if there is none). The rules:
//
//   - a server admin sees every game;
//   - a game of a table is seen by those the table admits (Table.Admits):
//     everyone for a public table, the host and the current members for a
//     private one, so a member who is removed no longer sees its games;
//   - a closed table's games are also seen by the players seated in them
//     (its members can no longer change);
//   - a game without a record of its table (or older than it) is seen
//     only by the players seated in it.
func VisibleTo(g Game, t *Table, v Viewer) bool {
	switch {
	case v.Admin:
		return true
	case t == nil || g.Started.Before(t.Created):
		return g.Seated(v.Fingerprint)
	case !t.IsOpen() && g.Seated(v.Fingerprint):
		return true
	}
	return t.Admits(v.Fingerprint)
}

// GameVisible reports whether v may see game g (see VisibleTo), reading
// the record of the table it was played at.
func (s *Store) GameVisible(ctx context.Context, g Game, v Viewer) (bool, error) {
	if v.Admin {
		return true, nil
	}
	ts, err := s.TableRecords(ctx, g.Table)
	if err != nil {
		return false, fmt.Errorf("game %s visible: %w", g.ID, err)
	}
	return VisibleTo(g, RecordAt(ts, g.Started), v), nil
}

// TableKnown reports whether v may know of a table of that name: a server
// admin if there ever was one, anyone else if one of the tables of that
// name (TableRecords) admits them. A private table is thus unknown to
// those it does not admit, as is a name never used.
func (s *Store) TableKnown(ctx context.Context, name string, v Viewer) (bool, error) {
	ts, err := s.TableRecords(ctx, name)
	if err != nil {
		return false, err
	}
	return admitsAny(ts, v), nil
}

func admitsAny(ts []Table, v Viewer) bool {
	for _, t := range ts {
		if v.Admin || t.Admits(v.Fingerprint) {
			return true
		}
	}
	return false
}

// historyChunk is the most games History reads at a time while it skips
// games the viewer may not see.
const historyChunk = 200

// History is Games limited to the games v may see (VisibleTo): newest
// first, q.Limit of them (DefaultLimit if 0) even when hidden games lie in
// between, and q.Before pages on as with Games (pass the last ID of a
// page).
func (s *Store) History(ctx context.Context, q Query, v Viewer) ([]Game, error) {
	if v.Admin {
		return s.Games(ctx, q)
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	records := map[string][]Table{} // by folded name
	table := func(name string) ([]Table, error) {
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
	if q.Table != "" && q.Player == "" {
		// At a name no table of which admits the viewer, only games where
		// they sat can show: walk their own games.
		if ts, err := table(q.Table); err != nil {
			return nil, fmt.Errorf("history: %w", err)
		} else if !admitsAny(ts, v) {
			q.Player = v.Fingerprint
		}
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
			if VisibleTo(g, RecordAt(ts, g.Started), v) {
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
