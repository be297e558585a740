package alerts

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"mime"
	"strings"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/store"
)

// Format is how a hook's deliveries are written (sshapp/PROTOCOL.md §6).
type Format string

// The formats.
const (
	// JSON is mia's own document (Doc), for a program.
	JSON Format = "json"
	// Slack is Slack's incoming-webhook message ({"text": …}), which
	// Mattermost, Rocket.Chat and Discord (at the hook's /slack address)
	// take as well.
	Slack Format = "slack"
	// Ntfy is ntfy's plain-text POST: the body is the message, its title
	// and the link it opens in the Title and Click headers.
	Ntfy Format = "ntfy"
)

// Formats are the formats, as --webhook-format and --format take them.
var Formats = []Format{JSON, Slack, Ntfy}

// ErrBadFormat refuses a format that is none of Formats.
var ErrBadFormat = lobby.NewError(lobby.Refused, "a hook's format is json, slack or ntfy")

// ParseFormat reads a format.
func ParseFormat(s string) (Format, error) {
	f := Format(strings.ToLower(strings.TrimSpace(s)))
	return f, f.check()
}

func (f Format) check() error {
	for _, g := range Formats {
		if f == g {
			return nil
		}
	}
	return ErrBadFormat
}

// Ping is the type of a test delivery (table hook NAME --test).
const Ping lobby.NewsKind = "ping"

// delivery is one POST to one hook: its body, shared by the hooks of a
// format, and its own id.
type delivery struct {
	id          string
	kind        lobby.NewsKind
	contentType string
	body        []byte
	headers     map[string]string
	probe       bool // a paused hook's try: one request, no retry
}

// newID is a delivery's id: a random UUID (version 4), as GitHub's
// X-GitHub-Delivery.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// Doc is the json format's document (sshapp/PROTOCOL.md §6): the news'
// type, when, a line in words, and what it is of.
type Doc struct {
	Type   string     `json:"type"`
	At     time.Time  `json:"at"`
	Text   string     `json:"text"`
	Table  *DocTable  `json:"table,omitempty"`
	Game   *DocGame   `json:"game,omitempty"`
	Season *DocSeason `json:"season,omitempty"`
	Event  *DocEvent  `json:"event,omitempty"`
	// Play is the ssh command line that opens the table (the event's
	// screen, for event.opened and event.started).
	Play string `json:"play,omitempty"`
	// URL is the game's page (the event's wall) on the web window, when
	// it has a public address (--http-url).
	URL string `json:"url,omitempty"`
}

// DocTable is a table in a Doc.
type DocTable struct {
	Name    string `json:"name"`
	Host    string `json:"host"`
	Seats   int    `json:"seats"`
	Taken   int    `json:"taken"`
	Private bool   `json:"private"`
	Rules   string `json:"rules"`
}

// DocGame is a game in a Doc: its players by seat (game.started), or its
// standings, first to last (game.ended).
type DocGame struct {
	ID        string    `json:"id"`
	Players   []DocSeat `json:"players,omitempty"`
	Standings []DocSeat `json:"standings,omitempty"`
	Winner    string    `json:"winner,omitempty"`
}

// DocSeat is a player in a DocGame. Place, Bluffs and Caught are a
// game.ended's only: Bluffs and Caught counted by the one bluff rule
// (engine/bluff.go).
type DocSeat struct {
	Place  int    `json:"place,omitempty"`
	Name   string `json:"name"`
	Bot    bool   `json:"bot"`
	Lives  int    `json:"lives"`
	Bluffs *int   `json:"bluffs,omitempty"`
	Caught *int   `json:"caught,omitempty"`
}

// DocSeason is a season in a Doc: its id ("2026-11"), its name in words
// and its champion, if a rated game was played in it.
type DocSeason struct {
	ID       string       `json:"id"`
	Name     string       `json:"name"`
	Champion *DocChampion `json:"champion,omitempty"`
}

// DocChampion is a season's champion: their name and their rating as
// shown ("1412"); or an event's: their name and points.
type DocChampion struct {
	Name   string `json:"name"`
	Rating string `json:"rating,omitempty"`
	Points *int   `json:"points,omitempty"`
	Bot    bool   `json:"bot,omitempty"`
}

// DocEvent is an event in a Doc (event.opened, event.started,
// event.ended), named as `event NAME --json` names its fields.
type DocEvent struct {
	Name     string       `json:"name"`
	Host     string       `json:"host"`
	Format   string       `json:"format"` // arena, swiss or knockout
	Private  bool         `json:"private"`
	Seats    int          `json:"seats"`
	Rounds   int          `json:"rounds,omitempty"` // swiss
	Lasts    int          `json:"lasts,omitempty"`  // arena: seconds
	Rules    string       `json:"rules"`
	Entrants int          `json:"entrants"`
	StartsAt time.Time    `json:"starts,omitzero"` // absent: when its host starts it
	Ends     time.Time    `json:"ends,omitzero"`   // a running arena's end of seating
	Champion *DocChampion `json:"champion,omitempty"`
}

// doc is n as the json format writes it, names looked up now.
func (a *Alerts) doc(n lobby.News) Doc {
	d := Doc{Type: string(n.Kind), At: n.At.UTC(), Text: a.line(n)}
	if n.Table != "" {
		d.Table = &DocTable{Name: n.Table, Host: a.lob.Name(n.Host), Seats: n.Seats, Taken: n.Taken, Private: n.Access.Private,
			Rules: words.RulesSummary(n.Rules)}
		if a.cfg.Play != "" {
			d.Play = a.cfg.Play + " " + n.Table
		}
	}
	if n.Game != "" {
		g := &DocGame{ID: n.Game}
		seat := func(s lobby.NewsSeat, place int) DocSeat {
			return DocSeat{Place: place, Name: a.lob.Name(s.ID), Bot: s.Bot, Lives: s.Lives}
		}
		if n.Kind == lobby.NewsGameEnded {
			for i, s := range n.Standings {
				d := seat(s, i+1)
				d.Bluffs, d.Caught = &s.Bluffs, &s.Caught
				g.Standings = append(g.Standings, d)
			}
			if n.Winner != "" {
				g.Winner = a.lob.Name(n.Winner)
			}
		} else {
			for _, s := range n.Players {
				g.Players = append(g.Players, seat(s, 0))
			}
		}
		d.Game = g
		if a.cfg.Links != nil && n.Kind == lobby.NewsGameEnded {
			access := n.Access
			d.URL = a.cfg.Links.Game(n.Game, lobby.GameAccess{Started: n.At, Players: ids(n.Players), Table: &access})
		}
	}
	if ev := n.Event; ev != nil {
		d.Event = &DocEvent{Name: ev.Name, Host: a.lob.Name(n.Host), Format: ev.Format, Private: n.Access.Private,
			Seats: n.Seats, Rounds: ev.Rounds, Lasts: int(ev.Lasts / time.Second), Rules: words.RulesSummary(n.Rules),
			Entrants: ev.Entrants, StartsAt: ev.StartsAt.UTC(), Ends: ev.Ends.UTC()}
		if n.Winner != "" {
			d.Event.Champion = &DocChampion{Name: a.lob.Name(n.Winner), Points: &ev.Points, Bot: ev.Bot}
		}
		if a.cfg.Play != "" && n.Kind != lobby.NewsEventEnded {
			d.Play = a.cfg.Play + " --event " + ev.Name
		}
		if a.cfg.Links != nil {
			d.URL = a.cfg.Links.Event(ev.Name, n.Access)
		}
	}
	if n.Kind == lobby.NewsSeasonEnded {
		s := &DocSeason{ID: n.Season.String(), Name: words.SeasonWords(n.Season)}
		if n.Winner != "" {
			s.Champion = &DocChampion{Name: a.lob.Name(n.Winner), Rating: n.Detail}
		}
		d.Season = s
	}
	return d
}

func ids(ss []lobby.NewsSeat) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.ID
	}
	return out
}

// label is a seat's name as the words show it: a bot's marked.
func (a *Alerts) label(s lobby.NewsSeat) string { return words.Label(a.lob.Name(s.ID), s.Bot) }

// line is n in words: the json's text, the Slack message's first line,
// ntfy's title.
func (a *Alerts) line(n lobby.News) string {
	switch n.Kind {
	case lobby.NewsTableOpened:
		return words.TableOpened(a.lob.Name(n.Host), n.Table, n.Seats, n.Rules)
	case lobby.NewsTableWaiting:
		return words.TableWaiting(n.Table, n.Taken, n.Seats)
	case lobby.NewsGameStarted:
		names := make([]string, len(n.Players))
		for i, s := range n.Players {
			names[i] = a.label(s)
		}
		return words.GameStarted(n.Table, n.Game, names)
	case lobby.NewsGameEnded:
		winner := ""
		for _, s := range n.Standings {
			if s.ID == n.Winner {
				winner = a.label(s)
			}
		}
		return words.GameEnded(n.Table, n.Game, winner)
	case lobby.NewsSeasonEnded:
		champion := ""
		if n.Winner != "" {
			champion = a.lob.Name(n.Winner)
		}
		return words.SeasonEnded(n.Season, champion, n.Detail)
	case lobby.NewsEventOpened, lobby.NewsEventStarted, lobby.NewsEventEnded:
		if ev := n.Event; ev != nil {
			format := words.EventFormat(ev.Format, ev.Rounds, ev.Lasts)
			switch n.Kind {
			case lobby.NewsEventOpened:
				return words.EventOpened(a.lob.Name(n.Host), ev.Name, format, n.Seats, n.Rules, ev.StartsAt)
			case lobby.NewsEventStarted:
				return words.EventStarted(ev.Name, format, ev.Entrants)
			}
			champion := ""
			if n.Winner != "" {
				champion = words.Label(a.lob.Name(n.Winner), ev.Bot)
			}
			return words.EventEnded(ev.Name, champion, ev.Points, ev.Entrants)
		}
	case Ping:
		return words.HookTest(n.Table)
	}
	// another room's news (the events'): its type, and its table.
	line := string(n.Kind)
	if n.Table != "" {
		line += " at " + words.Clean(n.Table, lobby.MaxNameLen)
	}
	if n.Detail != "" {
		line += ": " + words.Clean(n.Detail, 200)
	}
	return line
}

// lines are what a message says below its first line: a game's
// standings, with who bluffed and who was caught.
func (a *Alerts) lines(n lobby.News) []string {
	var out []string
	if n.Kind == lobby.NewsGameEnded {
		for i, s := range n.Standings {
			out = append(out, words.Standing(i+1, a.label(s), s.Bluffs, s.Caught))
		}
	}
	return out
}

// render writes n in format f: the body every hook of that format gets.
func (a *Alerts) render(n lobby.News, f Format) delivery {
	d := delivery{kind: n.Kind}
	doc := a.doc(n)
	switch f {
	case Slack:
		text := []string{slackEscape(doc.Text)}
		for _, l := range a.lines(n) {
			text = append(text, slackEscape(l))
		}
		if doc.Play != "" {
			text = append(text, "Play: `"+slackEscape(doc.Play)+"`")
		}
		if doc.URL != "" {
			what := "game " + n.Game
			if n.Event != nil {
				what = "the event " + n.Event.Name
			}
			text = append(text, "<"+doc.URL+"|"+slackEscape(what+" on the web")+">")
		}
		d.contentType = "application/json"
		d.body, _ = json.Marshal(struct {
			Text string `json:"text"`
		}{strings.Join(text, "\n")})
	case Ntfy:
		body := a.lines(n)
		if doc.Play != "" {
			body = append(body, "Play: "+doc.Play)
		}
		if len(body) == 0 {
			body = []string{doc.Text}
		}
		d.contentType = "text/plain; charset=utf-8"
		d.body = []byte(strings.Join(body, "\n"))
		d.headers = map[string]string{"Title": mime.QEncoding.Encode("utf-8", doc.Text), "Tags": "game_die"}
		if doc.URL != "" {
			d.headers["Click"] = doc.URL
		}
	default:
		d.contentType = "application/json"
		d.body, _ = json.Marshal(doc)
	}
	return d
}

// slackEscape escapes what Slack's message text reads as markup (its
// documented three: &, <, >).
func slackEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// figure is a rating as the boards show it.
func figure(r store.Rating) string { return words.Figure(r.Rating) }

// TestAnswer is how a test delivery went.
type TestAnswer struct {
	Status int           // the HTTP status; 0: no answer
	Body   string        // the start of the answer (cleaned)
	Error  string        // what went wrong, "" if nothing did
	Took   time.Duration // from the request to the answer
}

func (r answer) test() TestAnswer {
	return TestAnswer{Status: r.status, Body: r.body, Error: r.said(), Took: r.took}
}

// testNews is the news of a test delivery to a table's hook.
func testNews(table string, now time.Time) lobby.News {
	return lobby.News{Kind: Ping, At: now, Table: table}
}
