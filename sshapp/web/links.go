package web

import (
	"net/url"
	"strings"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// linkParam is the query parameter that carries a table's web link token.
const linkParam = "link"

// The leaderboard's query parameters: the table, the season
// (rating.ParseSeason) and the kind of players (store.ParseBoardKind).
const (
	tableParam  = "table"
	seasonParam = "season"
	kindParam   = "kind"
)

// Links writes the web window's addresses: the home of their form. The
// screens and commands print them (sshapp.Config.Web); the pages link
// with them.
type Links struct {
	// Base is the address the web window is reached at, without a
	// trailing slash: "https://mia.example.org" (--http-url), or
	// "http://" and the listening address.
	Base string
	// Public is set when Base was given (--http-url): then the screens and
	// commands print each game's address beside it (Game); without it,
	// only table link prints one.
	Public bool
}

// NewLinks is the Links of a base address: a trailing slash is dropped.
func NewLinks(base string, public bool) Links {
	return Links{Base: strings.TrimRight(base, "/"), Public: public}
}

// Table is the address that opens a table on the web: the plain address
// of a table anyone may watch, the address with its link's token for a
// private table that has a link, "" for one that has none.
func (l Links) Table(name string, a lobby.Access) string {
	return withLink(l.Base+tablePath(name), a.Link, (lobby.Viewer{}).Sees(a), (lobby.Viewer{Link: a.Link}).Sees(a))
}

// Event is the address of an event's wall on the web, as Table is of a
// table's page: plain for an event anyone may see, with its link's token
// for a private event that has one (a.Link), "" otherwise.
func (l Links) Event(name string, a lobby.Access) string {
	return withLink(l.Base+eventPath(name), a.Link, (lobby.Viewer{}).Sees(a), (lobby.Viewer{Link: a.Link}).Sees(a))
}

// Game is the address of a finished game's page printed beside the game
// (in history, replay and on the table screen): "" unless the base is
// public, and "" for a game the web shows to nobody (lobby.Viewer.SeesGame
// of a viewer who holds only the table's link, if any).
func (l Links) Game(id string, g lobby.GameAccess) string {
	if !l.Public {
		return ""
	}
	token := ""
	if g.Table != nil {
		token = g.Table.Link
	}
	return withLink(l.Base+gamePath(id), token, (lobby.Viewer{}).SeesGame(g), (lobby.Viewer{Link: token}).SeesGame(g))
}

// withLink is the address u as the web shows it: as it is when it is
// open to anyone, with the link's token when that opens it, else "".
func withLink(u, token string, open, byLink bool) string {
	switch {
	case open:
		return u
	case byLink && token != "":
		return u + "?" + linkParam + "=" + url.QueryEscape(token)
	}
	return ""
}

// tablePath and gamePath are the paths of a table's and a game's pages.
func tablePath(name string) string { return "/tables/" + url.PathEscape(name) }
func gamePath(id string) string    { return "/games/" + url.PathEscape(id) }
func eventPath(name string) string { return "/events/" + url.PathEscape(name) }

// boardPath is the path of a leaderboard: overall (table "") or a
// table's, with a link's token (token "" none), in a season (season ""
// the season running) and of a kind of players (store.Everyone: no
// parameter).
func boardPath(table, token, season string, kind store.BoardKind) string {
	q := url.Values{}
	if table != "" {
		q.Set(tableParam, table)
	}
	if token != "" {
		q.Set(linkParam, token)
	}
	if season != "" {
		q.Set(seasonParam, season)
	}
	if kind != store.Everyone {
		q.Set(kindParam, kind.String())
	}
	if len(q) == 0 {
		return "/leaderboard"
	}
	return "/leaderboard?" + q.Encode()
}

// boardToken is the token the addresses of table record t's board carry
// for a viewer who sees it (lobbystore.Visible): its link, when nobody
// sees the table without one; else "".
func boardToken(t store.TableRecord) string {
	if a := lobbystore.Access(t); !(lobby.Viewer{}).Sees(a) {
		return a.Link
	}
	return ""
}
