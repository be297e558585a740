package lobby

import (
	"crypto/subtle"
	"slices"
	"time"
)

// Access is what decides who may see a table and its games. It is the one
// rule of private tables: the lobby's list and doors, the tables command,
// the history, the stats and the replays all ask it.
type Access struct {
	Private bool
	Host    string   // the host's person id
	Members []string // person ids a private table admits besides its host
	// Created is when the table was created: a game of its name that
	// started before was an earlier table's.
	Created time.Time
	// Link is the token of the table's web link (`table link`), "" when
	// it has none: whoever holds it sees the table and its games, as the
	// web window shows them.
	Link string
}

// Admits reports whether the person id may see the table: anyone a
// public table, only its host and members a private one.
func (a Access) Admits(id string) bool {
	return !a.Private || (id != "" && (id == a.Host || slices.Contains(a.Members, id)))
}

// Opens reports whether token is the table's web link: a private table
// opens to whoever holds its link, until the host revokes it.
func (a Access) Opens(token string) bool {
	return a.Link != "" && subtle.ConstantTimeCompare([]byte(a.Link), []byte(token)) == 1
}

// Viewer is who asks to see tables and games: a person (ID "" for a key
// that is nobody's yet) and whether their key is a server admin's; or, on
// the web, nobody but the web link they hold.
type Viewer struct {
	ID    string
	Admin bool
	// Link is the token of a table's web link the viewer holds ("" for
	// none): it opens that table and its games (Access.Opens).
	Link string
}

// Sees reports whether v may see the table: a server admin any table,
// anyone else a table that admits them or whose link they hold. (Sitting
// down needs a person the table admits: the link is for watching.)
func (v Viewer) Sees(a Access) bool { return v.Admin || a.Admits(v.ID) || a.Opens(v.Link) }

// GameAccess is what decides who may see a finished game.
type GameAccess struct {
	Started time.Time
	Players []string // the seated players' person ids
	Table   *Access  // the record of the game's table; nil when there is none
}

// SeesGame reports whether v may see a game:
//
//   - a server admin sees every game;
//   - a game of a table is seen by those the table admits now: everyone
//     for a public table, the host and the current members for a private
//     one, so that a member who is removed no longer sees its games; and
//     by whoever holds the table's web link while it lasts;
//   - a game is judged by the record of the table it was played at (the
//     store keeps a closed table's record when a new table takes its
//     name), whose members are frozen once it closed;
//   - a game with no table record, or older than the record (its table's
//     record was replaced before closed ones were kept), is seen only by
//     the players seated in it.
func (v Viewer) SeesGame(g GameAccess) bool {
	switch {
	case v.Admin:
		return true
	case g.Table == nil || g.Started.Before(g.Table.Created):
		return v.ID != "" && slices.Contains(g.Players, v.ID)
	}
	return g.Table.Admits(v.ID) || g.Table.Opens(v.Link)
}
