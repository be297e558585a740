package plain

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
)

// Attendance is the person there at an event they are in, while the door
// follows it (Config.Attend): the event seats them meanwhile, as the
// event's screen does.
type Attendance interface {
	// Ready is signalled when where they are dealt has changed; then
	// Seat says it.
	Ready() <-chan struct{}
	// Seat is the table they are dealt to now ("" between games) and,
	// once the event is over, its end for them in a sentence (over).
	Seat() (table, over string, ok bool)
	// Done is closed when the event stops.
	Done() <-chan struct{}
	// Close says they have gone: they are seated no more.
	Close()
}

// eventRoom is the event the door follows: the person is there (att),
// taken to their table when seated and back to the standings after.
type eventRoom struct {
	name  string
	att   Attendance
	table string // the table they are dealt to now
}

// eventHead is what the door reads of an event (PROTOCOL.md §1, event
// --json and events --json).
type eventHead struct {
	Name     string    `json:"name"`
	Host     string    `json:"host"`
	Format   string    `json:"format"`
	State    string    `json:"state"`
	Private  bool      `json:"private"`
	Rounds   int       `json:"rounds"`
	Round    int       `json:"round"`
	Lasts    int       `json:"lasts"`
	Entrants int       `json:"entrants"`
	StartsAt time.Time `json:"starts"`
	Ends     time.Time `json:"ends"`
}

type eventDoc struct {
	Event     eventHead  `json:"event"`
	Standings []standing `json:"standings"`
	Final     bool       `json:"final"`
	Champion  *standing  `json:"champion"`
}

type standing struct {
	Place  int    `json:"place"`
	Person string `json:"person"`
	Name   string `json:"name"`
	Bot    bool   `json:"bot"`
	Points int    `json:"points"`
	Games  int    `json:"games"`
	Wins   int    `json:"wins"`
	Fire   bool   `json:"fire"`
	Where  string `json:"where"`
	Table  string `json:"table"`
}

// eventWords takes the events' words, anywhere: events (the list,
// numbered), event NAME (its standings; for an entrant, being there),
// event join NAME [CODE], event leave NAME, and leave event (stop
// following it). They are the server's commands, run as they are.
func (d *door) eventWords(said, text string) bool {
	args := strings.Fields(text)
	switch {
	case said == "events":
		d.sayEvents()
	case said == "leave event" || said == "stop event":
		if d.ev == nil {
			d.say("You follow no event now.")
			return true
		}
		name := d.ev.name
		d.unattend()
		d.say("You left the event " + name + "'s side: it seats you no more until you say event " + name + " again.")
	case strings.HasPrefix(said, "event ") || said == "event":
		args = args[1:]
		switch {
		case len(args) == 0:
			d.say("Say event and its name for its standings, or events for the list.")
		case len(args) <= 3 && (strings.EqualFold(args[0], "join") || strings.EqualFold(args[0], "leave")) && len(args) >= 2:
			d.eventAct(append([]string{"event", strings.ToLower(args[0])}, args[1:]...))
		case len(args) == 1:
			d.sayEvent(args[0], true)
		default:
			d.say("Say event and a name, event join and a name, or event leave and a name.")
		}
	default:
		return false
	}
	return true
}

// eventDesc is an event in a few words: "an arena of 60 minutes, running,
// ends in 12 minutes, 14 entrants".
func eventDesc(h eventHead, now time.Time) string {
	desc := words.EventFormat(h.Format, h.Rounds, time.Duration(h.Lasts)*time.Second) + ", " +
		words.EventState(h.State, h.StartsAt, h.Ends, now)
	if h.Round > 0 {
		desc += ", round " + strconv.Itoa(h.Round)
	}
	if h.Private {
		desc += ", private"
	}
	return desc + ", " + words.Plural(h.Entrants, "1 entrant", "entrants")
}

// sayEvents lists the events the person may see, numbered: a number says
// one.
func (d *door) sayEvents() {
	out, errOut, code, ok := d.runCommand([]string{"events", "--json"})
	if !ok {
		return
	}
	var doc struct {
		Events []eventHead `json:"events"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil {
		d.sayRefusal(errOut, "list the events")
		return
	}
	if len(doc.Events) == 0 {
		d.say("No events now. A host makes one with the event create command; help event tells how.")
		return
	}
	now := d.cfg.Clock.Now()
	choices := make([]choice, len(doc.Events))
	for i, h := range doc.Events {
		name := h.Name
		choices[i] = choice{
			label: words.Clean(name, lobby.MaxNameLen) + ", " + eventDesc(h, now),
			do:    func(d *door) { d.sayEvent(name, true) },
		}
	}
	d.listMenu(capital(words.Plural(len(doc.Events), "1 event", "events"))+": say a number for its standings.", choices, "", nil)
}

// sayEvent says an event and its standings, a page at a time; an entrant
// who follows it (follow) is there from now on: seated while the door
// follows it.
func (d *door) sayEvent(name string, follow bool) {
	out, errOut, code, ok := d.runCommand([]string{"event", name, "--json"})
	if !ok {
		return
	}
	var doc eventDoc
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil {
		d.sayRefusal(errOut, "read the event")
		return
	}
	h := doc.Event
	head := fmt.Sprintf("Event %s, hosted by %s: %s.", words.Clean(h.Name, lobby.MaxNameLen), words.Clean(h.Host, lobby.MaxNameLen),
		eventDesc(h, d.cfg.Clock.Now()))
	if c := doc.Champion; c != nil {
		head += fmt.Sprintf(" Champion: %s, %s.", words.Label(words.Clean(c.Name, lobby.MaxNameLen), c.Bot), words.Plural(c.Points, "1 point", "points"))
	}
	items := make([]string, len(doc.Standings))
	mine := false
	for i, s := range doc.Standings {
		line := fmt.Sprintf("%d. %s, %s, %s, %s", s.Place, words.Label(words.Clean(s.Name, lobby.MaxNameLen), s.Bot),
			words.Plural(s.Points, "1 point", "points"), words.Plural(s.Games, "1 game", "games"), words.Plural(s.Wins, "1 win", "wins"))
		if s.Fire {
			line += ", on a streak: wins count double"
		}
		if w := words.EventWhere(s.Where, s.Table); w != "" {
			line += ", " + w
		}
		items[i] = line + "."
		if s.Person == d.me.ID && !s.Bot && s.Where != "left" {
			mine = true
		}
	}
	tail := ""
	switch {
	case doc.Final || h.State == "over" || h.State == "closed":
	case mine && follow:
		tail = d.attend(h.Name)
	case mine:
	default:
		tail = "Say event join " + h.Name + " to enter it."
	}
	if len(items) == 0 {
		items = []string{"Nobody has entered yet."}
	}
	d.list(head, items, tail)
}

// sayRefusal says why a command refused, or that it could not run.
func (d *door) sayRefusal(errOut, what string) {
	lines := sayable(errOut)
	if len(lines) == 0 {
		d.cfg.Log.Error("plain: could not "+what, "person", d.me.ID, "key", d.me.Key)
		d.say("Something went wrong; please try again later.")
		return
	}
	for _, l := range lines {
		d.say(capital(words.Sentence(strings.TrimPrefix(l, "mia: "))))
	}
}

// eventAct runs event join or event leave, and says what happened; a
// person who joined follows the event from then on.
func (d *door) eventAct(args []string) {
	out, errOut, code, ok := d.runCommand(append(args, "--json"))
	if !ok {
		return
	}
	if code != 0 {
		d.sayRefusal(errOut, strings.Join(args[:2], " "))
		return
	}
	var doc eventDoc
	if json.Unmarshal([]byte(out), &doc) != nil {
		d.sayRefusal("", strings.Join(args[:2], " "))
		return
	}
	name := doc.Event.Name
	if args[1] == "leave" {
		if d.ev != nil && strings.EqualFold(d.ev.name, name) {
			d.unattend()
		}
		d.say("You left " + name + ": it seats you no more; your points stay in its standings.")
		return
	}
	d.say("You are in " + name + ".")
	d.sayEvent(name, true)
}

// attend makes the person there at the event, unless the door follows it
// already, and says what that means.
func (d *door) attend(name string) string {
	if d.ev != nil && strings.EqualFold(d.ev.name, name) {
		return "You are there: you are taken to your table when you are seated, and back here after each game. Say leave event to stop."
	}
	if d.cfg.Attend == nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(d.ctx, callTimeout)
	att, err := d.cfg.Attend(ctx, name)
	cancel()
	if err != nil {
		return "You could not be seated: " + words.Sentence(d.said("be at the event", err))
	}
	d.unattend()
	d.ev = &eventRoom{name: name, att: att}
	return "You are there: you are taken to your table when you are seated, and back here after each game. Say leave event to stop."
}

// unattend stops following the event.
func (d *door) unattend() {
	if d.ev != nil {
		d.ev.att.Close()
		d.ev = nil
	}
}

// seated follows where the event deals the person: to their table when
// seated, back to the standings when its game is over, and the end.
func (r *eventRoom) seated(d *door) {
	table, over, ok := r.att.Seat()
	if !ok {
		return
	}
	if over != "" {
		name := r.name
		r.leaveTable(d, r.table)
		d.unattend()
		d.say("The event " + words.Sentence(over))
		d.sayEvent(name, false)
		return
	}
	was := r.table
	r.table = table
	switch {
	case table != "" && table != was:
		d.say("The event " + r.name + " seats you at " + words.Clean(table, lobby.MaxNameLen) + ".")
		d.open(table)
	case table == "" && was != "":
		r.leaveTable(d, was)
		d.sayEvent(r.name, false)
		d.say("You are seated again as soon as enough are free.")
	}
}

// leaveTable leaves the event's table the door is at, if it is, for the
// lobby's words between games (its list is not said).
func (r *eventRoom) leaveTable(d *door, table string) {
	if table == "" || d.at == nil || !strings.EqualFold(d.at.t.Name(), table) {
		return
	}
	d.at.close()
	d.at = nil
	if d.lob == nil {
		d.lob = newLobbyRoom(d)
	}
}

// ended is the event stopping under the door (the server shuts down).
func (r *eventRoom) ended(d *door) {
	d.ev = nil
	r.att.Close()
}
