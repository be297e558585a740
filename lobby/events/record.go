package events

import (
	"fmt"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
)

// Format is how an event seats its entrants and when it ends.
type Format string

// The formats.
const (
	// Arena: while it runs, every free entrant is seated as soon as
	// enough are free; it ends when its time is up.
	Arena Format = "arena"
	// Swiss: rounds at once for everyone, tables by score, no repeated
	// table-mates where that can be avoided.
	Swiss Format = "swiss"
	// Knockout: seeded by rating; the top half of each table goes on, to
	// a final table.
	Knockout Format = "knockout"
)

// Formats lists the formats.
var Formats = []Format{Arena, Swiss, Knockout}

// Who is who may enter an event.
type Who string

// Who may enter.
const (
	Everyone Who = "everyone"
	People   Who = "people" // people at a screen, no bots
	Bots     Who = "bots"   // bots only: built-in ones and the line protocol's
)

// State is where an event is in its life.
type State string

// The states, in order.
const (
	// Scheduled: made, not started (at its start time, or by its host).
	Scheduled State = "scheduled"
	// Running: it seats its entrants.
	Running State = "running"
	// Stopping: it seats nobody more; the games running finish and count.
	Stopping State = "stopping"
	// Over: every game has ended; its standings are final.
	Over State = "over"
	// Closed: its host, an admin or time put it away: it is listed no
	// more, and its record and games stay.
	Closed State = "closed"
)

// Settings are what the host chooses when making an event.
type Settings struct {
	Name   string
	Format Format
	// StartsAt is when it starts by itself; zero: when its host starts it.
	StartsAt time.Time
	// Lasts is how long an arena seats entrants once it runs.
	Lasts time.Duration
	// Rounds is how many rounds a Swiss event plays.
	Rounds int
	// Seats is the most players at one of its tables.
	Seats   int
	Rules   engine.Options
	Who     Who
	Private bool
	// Bots built-in bots of BotLevel are entrants from the start.
	Bots     int
	BotLevel string
	// Night is the competition night preset: bots only, an arena of an
	// hour.
	Night bool
}

// Defaults of Settings.
const (
	DefaultSeats  = 4
	DefaultLasts  = time.Hour
	DefaultRounds = 5
	// MaxLasts is the longest an arena may run; MaxRounds the most rounds
	// of a Swiss event; MaxAhead how far ahead an event may be set to
	// start.
	MaxLasts  = 12 * time.Hour
	MaxRounds = 20
	MaxAhead  = 7 * 24 * time.Hour
)

// NightSettings is the competition night preset on top of s: bots only,
// an arena of 60 minutes, Mäxchen's rules unless s has others.
func NightSettings(s Settings) Settings {
	s.Night, s.Format, s.Who = true, Arena, Bots
	if s.Lasts == 0 {
		s.Lasts = DefaultLasts
	}
	return s
}

// Record is an event as it is stored: who made it and how, its state and
// clock, its entrants in the order they joined, and every table it
// opened with the game played there. Points are never stored: they are
// counted from the games' results (Tally), so that the standings after a
// restart equal a recount from the games.
type Record struct {
	Name     string         `json:"name"`
	Host     string         `json:"host"` // the person id of who made it
	Created  time.Time      `json:"created"`
	Format   Format         `json:"format"`
	Who      Who            `json:"who"`
	Private  bool           `json:"private,omitempty"`
	Members  []string       `json:"members,omitempty"` // person ids a private event admits besides its host
	Link     string         `json:"link,omitempty"`    // the token of its web link, "" for none
	Invites  []Invite       `json:"invites,omitempty"`
	Rules    engine.Options `json:"rules"`
	Seats    int            `json:"seats"`
	Rounds   int            `json:"rounds,omitempty"`
	Lasts    time.Duration  `json:"lasts,omitempty"`
	Night    bool           `json:"night,omitempty"`
	StartsAt time.Time      `json:"starts_at,omitzero"`
	State    State          `json:"state"`
	Started  time.Time      `json:"started,omitzero"`
	Ends     time.Time      `json:"ends,omitzero"` // an arena's end of seating
	Ended    time.Time      `json:"ended,omitzero"`
	Closed   time.Time      `json:"closed,omitzero"`
	// Concluded: it came to its end (Over), closed or not since: its
	// standings have a champion.
	Concluded bool `json:"concluded,omitempty"`
	// Untold: it came to its end and the lobby's news has not told it
	// yet (event.ended, told once its standings are final).
	Untold   bool       `json:"untold,omitempty"`
	Round    int        `json:"round,omitempty"` // Swiss and knockout: the round in play, from 1
	Entrants []Entrant  `json:"entrants"`
	Tables   []TableRec `json:"tables,omitempty"`
	Byes     []Bye      `json:"byes,omitempty"`
	Next     int        `json:"next"` // the number of its next table
	// Door is the table of the Mäxchen gateway while it is the event's
	// door (Registry.DoorGame): its bots are entrants, seated by the
	// gateway, and its games count; "" for none. DoorGames are the games
	// counted there, in the order they ended.
	Door      string   `json:"door,omitempty"`
	DoorGames []string `json:"door_games,omitempty"`
}

// Entrant is one who entered the event.
type Entrant struct {
	ID     string    `json:"id"`            // their person id
	Key    string    `json:"key,omitempty"` // the key they joined with, "" for a key-less player
	Bot    bool      `json:"bot,omitempty"` // they sit as a bot
	Joined time.Time `json:"joined"`
	Left   bool      `json:"left,omitempty"` // they left while it ran: seated no more, their points stay
	// Door: a bot of the event's door (the Mäxchen gateway), which the
	// gateway seats at its own table; the event never seats it.
	Door bool `json:"door,omitempty"`
}

// Player is the entrant as a table seats them.
func (e Entrant) Player() lobby.Player { return lobby.Player{ID: e.ID, Key: e.Key, Bot: e.Bot} }

// builtin reports whether the entrant is a built-in bot, always there.
func (e Entrant) builtin() bool { return lobby.IsBuiltinBot(e.ID) }

// TableRec is a table the event opened, for one game.
type TableRec struct {
	Name    string    `json:"name"`
	Round   int       `json:"round,omitempty"`
	Players []string  `json:"players"` // the entrants dealt to it
	Game    string    `json:"game,omitempty"`
	Made    time.Time `json:"made"`
	// Final: a knockout's final table, whose winner alone goes on: the
	// champion.
	Final bool `json:"final,omitempty"`
	// Done: its game has ended (or it went without one); its players are
	// free again.
	Done bool `json:"done,omitempty"`
}

// Bye is a round an entrant sat out because the count did not fit.
type Bye struct {
	Round int    `json:"round"`
	ID    string `json:"id"`
}

// Invite is a one-time invite code to a private event, as its hash.
type Invite struct {
	Hash    string    `json:"hash"`
	Expires time.Time `json:"expires"`
}

// Access is who may see the event, by the lobby's rule of tables
// (lobby.Viewer.Sees).
func (r *Record) Access() lobby.Access {
	return lobby.Access{Private: r.Private, Host: r.Host, Members: r.Members, Created: r.Created, Link: r.Link}
}

// entrant is the index of the entrant of that id, or -1.
func (r *Record) entrant(id string) int {
	for i, e := range r.Entrants {
		if e.ID == id {
			return i
		}
	}
	return -1
}

// busy reports, by entrant id, who is dealt to a table whose game has not
// ended.
func (r *Record) busy() map[string]string {
	out := map[string]string{}
	for _, t := range r.Tables {
		if !t.Done {
			for _, id := range t.Players {
				out[id] = t.Name
			}
		}
	}
	return out
}

// open reports whether some table of the event has not ended.
func (r *Record) open() bool {
	for _, t := range r.Tables {
		if !t.Done {
			return true
		}
	}
	return false
}

// tableName is the name of the event's n-th table.
func tableName(event string, n int) string { return fmt.Sprintf("%s-%d", event, n) }
