package command

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/lobby/words"
)

// EventHead is an event as `events --json` lists it, and the head of
// `event NAME --json`.
type EventHead struct {
	Name     string         `json:"name"`
	Host     string         `json:"host"` // the host's name now
	Format   string         `json:"format"`
	Who      string         `json:"who"`
	State    string         `json:"state"` // scheduled, running, stopping, over, closed
	Private  bool           `json:"private"`
	Night    bool           `json:"night,omitempty"`
	Seats    int            `json:"seats"`
	Rounds   int            `json:"rounds,omitempty"` // swiss
	Round    int            `json:"round,omitempty"`  // swiss, knockout: the round in play
	Lasts    int            `json:"lasts,omitempty"`  // arena: seconds
	Rules    engine.Options `json:"rules"`
	Entrants int            `json:"entrants"`
	Created  time.Time      `json:"created"`
	StartsAt time.Time      `json:"starts,omitzero"` // absent: when its host starts it
	Started  time.Time      `json:"started,omitzero"`
	Ends     time.Time      `json:"ends,omitzero"`
	Ended    time.Time      `json:"ended,omitzero"`
	// Door is the Mäxchen gateway's table while it is the event's door;
	// DoorGames how many games there count (listed in its history, not in
	// games).
	Door      string `json:"door,omitempty"`
	DoorGames int    `json:"door_games,omitempty"`
}

// EventJSON is the document of `event NAME --json` (and of the other
// event subcommands).
type EventJSON struct {
	Event     EventHead       `json:"event"`
	Standings []StandingJSON  `json:"standings"`
	Tables    []EventTableDoc `json:"tables"`
	Games     []EventGameJSON `json:"games"`
	Final     bool            `json:"final"`
	Champion  *StandingJSON   `json:"champion"`
	URL       string          `json:"url,omitempty"` // its wall on the web
}

// StandingJSON is one line of the standings.
type StandingJSON struct {
	Place   int    `json:"place"`
	Person  string `json:"person"`
	Name    string `json:"name"`
	Bot     bool   `json:"bot"`
	Points  int    `json:"points"`
	Games   int    `json:"games"`
	Wins    int    `json:"wins"`
	Streak  int    `json:"streak"`
	Fire    bool   `json:"fire"`
	Byes    int    `json:"byes,omitempty"`
	Reached int    `json:"reached,omitempty"` // knockout: the last round played
	Out     bool   `json:"out,omitempty"`     // knockout: put out
	Where   string `json:"where"`             // playing, waiting, away, left, out, door
	Table   string `json:"table,omitempty"`
	Rating  *int   `json:"rating"` // the figure shown, overall; null until read
	// Maexchen: the Mäxchen server's points of its games at the event's
	// door (+1 a game, -1 a game lost); absent in an event without one.
	Maexchen *int `json:"maexchen,omitempty"`
	// Provisional: the rating is still unsure (shown with "?").
	Provisional bool      `json:"provisional"`
	Joined      time.Time `json:"joined"`
}

// EventTableDoc is one of the event's tables open now.
type EventTableDoc struct {
	Name    string   `json:"name"`
	Round   int      `json:"round,omitempty"`
	Game    string   `json:"game,omitempty"`
	Players []string `json:"players"`
	Playing bool     `json:"playing"`
}

// EventGameJSON is one game the event dealt.
type EventGameJSON struct {
	ID        string    `json:"id"`
	Table     string    `json:"table"`
	Round     int       `json:"round,omitempty"`
	Players   []string  `json:"players"` // person ids, by seat once read
	Started   time.Time `json:"started,omitzero"`
	Ended     time.Time `json:"ended,omitzero"` // absent while it runs
	Standings []int     `json:"standings"`      // seats, winner first; null without a result
	Abandoned bool      `json:"abandoned,omitempty"`
}

func headOf(info events.Info) EventHead {
	return EventHead{
		Name: info.Name, Host: words.Clean(info.Host, lobby.MaxNameLen), Format: string(info.Format), Who: string(info.Who),
		State: string(info.State), Private: info.Private, Night: info.Night, Seats: info.Seats, Rounds: info.Rounds,
		Round: info.Round, Lasts: int(info.Lasts / time.Second), Rules: info.Rules, Entrants: info.Entrants,
		Created: info.Created, StartsAt: info.StartsAt, Started: info.Started, Ends: info.Ends, Ended: info.Ended,
		Door: info.Door, DoorGames: info.DoorGames,
	}
}

func standingOf(s events.Standing) StandingJSON {
	out := StandingJSON{Place: s.Place, Person: s.ID, Name: words.Clean(s.Name, lobby.MaxNameLen), Bot: s.Bot, Points: s.Points,
		Games: s.Games, Wins: s.Wins, Streak: s.Streak, Fire: s.Fire, Byes: s.Byes, Reached: s.Reached, Out: s.Out,
		Where: s.Where, Table: s.Table, Joined: s.Joined}
	if s.Rated {
		r := s.Rating.Points()
		out.Rating, out.Provisional = &r, s.Rating.Provisional()
	}
	return out
}

// eventDoc is the event as `event NAME --json` writes it.
func (c *Call) eventDoc(info events.Info) EventJSON {
	doc := EventJSON{Event: headOf(info), Standings: []StandingJSON{}, Tables: []EventTableDoc{}, Games: []EventGameJSON{}, Final: info.Final}
	for _, s := range info.Standings {
		sj := standingOf(s)
		if info.Door != "" {
			sj.Maexchen = &s.Maexchen
		}
		doc.Standings = append(doc.Standings, sj)
	}
	for _, t := range info.Tables {
		doc.Tables = append(doc.Tables, EventTableDoc{Name: t.Name, Round: t.Round, Game: t.Game, Players: t.Players, Playing: t.Playing})
	}
	for _, g := range info.Games {
		gj := EventGameJSON{ID: g.ID, Table: g.Table, Round: g.Round, Players: g.Players}
		if r := g.Result; r != nil {
			gj.Players, gj.Started, gj.Ended, gj.Standings = r.Players, r.Started, r.Ended, r.Standings
			gj.Abandoned = r.Over() && !r.Scored()
		}
		doc.Games = append(doc.Games, gj)
	}
	if info.Champion != nil {
		ch := standingOf(*info.Champion)
		doc.Champion = &ch
	}
	doc.URL = c.eventURL(info)
	return doc
}

// eventURL is the address of the event's wall: a private one's with
// its link's token for its host (and admins), who may hand it on; "" for
// anyone else, and without a web window.
func (c *Call) eventURL(info events.Info) string {
	if c.cfg.Web == nil {
		return ""
	}
	a := info.Access()
	if info.HostID != c.Person.ID && !c.Admin {
		a.Link = ""
	}
	return c.cfg.Web.Event(info.Name, a)
}

// writeEvent writes the event as `event NAME` shows it: its head, the
// standings, its tables now, and its champion once over.
func (c *Call) writeEvent(info events.Info) {
	now := c.cfg.Now()
	kind := ""
	if info.Private {
		kind = ", private"
	}
	fmt.Fprintf(c.Stdout, "%s: %s, hosted by %s%s\n", info.Name, words.EventFormat(string(info.Format), info.Rounds, info.Lasts),
		words.Clean(info.Host, lobby.MaxNameLen), kind)
	state := words.EventState(string(info.State), info.StartsAt, info.Ends, now)
	if info.Round > 0 {
		state += ", round " + strconv.Itoa(info.Round)
	}
	fmt.Fprintf(c.Stdout, "%s; %s; tables of %d; %s.\n", strings.ToUpper(state[:1])+state[1:],
		words.Plural(info.Entrants, "1 entrant", "entrants"), info.Seats, words.RulesSummary(info.Rules))
	if info.Champion != nil {
		fmt.Fprintf(c.Stdout, "Champion: %s, %s.\n", botLabel(info.Champion.Name, info.Champion.ID, info.Champion.Bot),
			words.Plural(info.Champion.Points, "1 point", "points"))
	}
	if len(info.Standings) > 0 {
		fmt.Fprintln(c.Stdout)
		rows := make([][]string, len(info.Standings))
		for i, s := range info.Standings {
			pts := strconv.Itoa(s.Points)
			if s.Fire {
				pts += " 🔥"
			}
			rt := "-"
			if s.Rated {
				rt = words.Figure(s.Rating)
			}
			rows[i] = []string{strconv.Itoa(s.Place), botLabel(s.Name, s.ID, s.Bot), pts, strconv.Itoa(s.Games), strconv.Itoa(s.Wins),
				rt, words.EventWhere(s.Where, s.Table)}
			if info.Door != "" {
				rows[i] = slices.Insert(rows[i], 3, strconv.Itoa(s.Maexchen))
			}
		}
		head := []string{"#", "PLAYER", "POINTS", "GAMES", "WINS", "RATING", "NOW"}
		if info.Door != "" {
			head = slices.Insert(head, 3, "MÄXCHEN")
		}
		writeTable(c.Stdout, head, rows, "  ")
	}
	if len(info.Tables) > 0 {
		fmt.Fprintln(c.Stdout, "\nTables now:")
		for _, t := range info.Tables {
			state := "playing"
			if !t.Playing {
				state = "over"
			}
			writeWrapped(c.Stdout, "  ", "    ", fmt.Sprintf("%s (%s): %s", t.Name, state, strings.Join(cleanNames(t.Players), ", ")))
		}
	}
	if url := c.eventURL(info); url != "" {
		fmt.Fprintf(c.Stdout, "\nOn the web:  %s\n", url)
	}
}

func cleanNames(ns []string) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = words.Clean(n, lobby.MaxNameLen)
	}
	return out
}
