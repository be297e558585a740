package plain

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
)

// callTimeout bounds every call from the door into the lobby or a
// command.
const callTimeout = 10 * time.Second

// page is how many items of a list are said at once; more says the next.
const page = 8

// door is one plain session. Its loop (run) owns every field.
type door struct {
	ctx context.Context
	cfg Config
	in  *input
	me  lobby.Player

	held     []string    // lines said while a line was half typed
	holding  func() bool // stops the hold's alarm; nil when none
	released alarm       // the hold is over
	ticked   alarm       // the turn clock is at a threshold

	more  []string // the rest of the last list, for more
	menu  menu     // the numbered choices said last
	muted bool     // chat lines are not said
	quit  bool

	// coached brings the coach's verdicts, worked out off the loop (a
	// rule set's first solve takes seconds to minutes); coaching counts
	// those under way.
	coached  chan coachSaid
	coaching int

	notices *lobby.Queue[lobby.News] // the person's notices (notice.go)
	went    *lobby.News              // the last notice said: go goes there

	naming bool        // a key that is nobody's yet: asked for a name
	lob    *lobbyRoom  // in the lobby
	at     *tableRoom  // at a table
	form   *createForm // creating a table
	rp     *replayRoom // reading a replay
	ev     *eventRoom  // following an event, as an entrant who is there
}

func newDoor(ctx context.Context, cfg Config, in *input) *door {
	return &door{ctx: ctx, cfg: cfg, in: in, me: cfg.Player, released: newAlarm(), ticked: newAlarm(),
		coached: make(chan coachSaid, maxCoaching)}
}

// alarm is a token from a timer of the clock to the door's loop: set
// from the timer's goroutine, never blocking, taken by the loop.
type alarm chan struct{}

func newAlarm() alarm { return make(alarm, 1) }

// after rings a in d on the clock; the returned func stops it. A ring
// that comes after all is checked by whoever takes it.
func (a alarm) after(c lobby.Clock, d time.Duration) func() bool {
	return c.AfterFunc(d, func() {
		select {
		case a <- struct{}{}:
		default:
		}
	})
}

// menu is the numbered choices said last: a number chooses one while the
// state they were said for lasts (still).
type menu struct {
	choices []choice
	still   func() bool
}

// choice is one numbered choice.
type choice struct {
	label string
	do    func(d *door)
}

// run is the door's loop.
func (d *door) run() {
	d.say("Mia, the dice bluffing game, in plain lines. Say help at any time for what you may say here.")
	// Follow the notices before the first words: a notice sent once the
	// lobby is said must be heard.
	d.follow()
	defer d.unfollow()
	switch {
	case d.me.ID == "":
		d.naming = true
		d.say("Welcome! Choose a name: " + lobby.NameHint() + ". Type it and press enter.")
	case d.cfg.Lobby == nil:
		d.say("This server has no tables to play at. Its lists work: say help.")
	default:
		d.first()
	}
	for !d.quit {
		var subReady, subDone, lobbyReady, evReady, evDone, noticed <-chan struct{}
		if d.notices != nil {
			noticed = d.notices.Ready()
		}
		if d.ev != nil {
			evReady, evDone = d.ev.att.Ready(), d.ev.att.Done()
		}
		if d.at != nil {
			subReady, subDone = d.at.sub.Ready(), d.at.sub.Done()
		}
		if d.lob != nil && d.lob.box != nil {
			lobbyReady = d.lob.box.Ready()
		}
		select {
		case <-d.ctx.Done():
			return
		case <-d.cfg.Bye:
			d.flush()
			if d.cfg.Goodbye != nil {
				d.say(words.Sentence(d.cfg.Goodbye()) + " Goodbye.")
			}
			d.leaveRooms()
			return
		case l := <-d.in.lines:
			d.flush()
			d.line(l)
		case <-subReady:
			d.at.take(d)
		case <-subDone:
			d.at.gone(d)
		case <-lobbyReady:
			d.lob.changed(d)
		case <-evReady:
			d.ev.seated(d)
		case <-evDone:
			d.ev.ended(d)
		case <-noticed:
			d.heard()
		case c := <-d.coached:
			d.coaching--
			if c.line != "" && d.at != nil && d.at.game == c.game {
				d.say(c.line)
			}
		case <-d.ticked:
			if d.at != nil {
				d.at.tick(d)
			}
		case <-d.released:
			d.flush()
		case <-d.in.cleared: // nil without a terminal
			d.flush()
		}
	}
	d.leaveRooms()
}

// first is where a person with a name goes: straight to a table when one
// was named or their game runs at one, else the lobby.
func (d *door) first() {
	if d.cfg.Table != "" {
		d.open(d.cfg.Table)
		return
	}
	if d.cfg.Event != "" {
		d.lob = newLobbyRoom(d)
		d.sayEvent(d.cfg.Event, true)
		return
	}
	for _, info := range d.cfg.Lobby.SeatedAt(d.me.ID) {
		if info.State == "playing" {
			d.open(info.Name)
			return
		}
	}
	d.toLobby()
}

// leaveRooms closes what the door watches.
func (d *door) leaveRooms() {
	d.unattend()
	if d.at != nil {
		d.at.close()
		d.at = nil
	}
	if d.lob != nil {
		d.lob.close(d)
		d.lob = nil
	}
}

// say says lines: at once, or after the line being typed.
func (d *door) say(lines ...string) {
	if d.in.Typing() {
		d.held = append(d.held, lines...)
		if d.holding == nil {
			d.holding = d.released.after(d.cfg.Clock, holdFor)
		}
		return
	}
	d.flush()
	d.in.say(lines)
}

// flush says the lines held.
func (d *door) flush() {
	if len(d.held) > 0 {
		d.in.say(d.held)
		d.held = nil
	}
	if d.holding != nil {
		d.holding()
		d.holding = nil
	}
}

// list says a list, page items at a time: head, the first page, and how
// many more there are (more says them); tail after the last page.
func (d *door) list(head string, items []string, tail string) {
	if head != "" {
		d.say(head)
	}
	d.more = nil
	if len(items) > page {
		d.more = append(items[page:page:page], items[page:]...)
		if tail != "" {
			d.more = append(d.more, tail)
		}
		items = items[:page]
		tail = words.Plural(len(d.more), "1 more line", "more lines") + ": say more."
	}
	d.say(items...)
	if tail != "" {
		d.say(tail)
	}
}

// setMenu says choices, numbered, after head, and keeps them for a
// number while still holds.
func (d *door) setMenu(head string, choices []choice, still func() bool) {
	d.menu = menu{choices: choices, still: still}
	parts := make([]string, len(choices))
	for i, c := range choices {
		parts[i] = fmt.Sprintf("%d %s", i+1, c.label)
	}
	d.say(head + "Choose: " + strings.Join(parts, ", ") + ".")
}

// listMenu says choices as a numbered list, one to a line, a page at a
// time, then tail, and keeps them for a number while still holds.
func (d *door) listMenu(head string, choices []choice, tail string, still func() bool) {
	d.menu = menu{choices: choices, still: still}
	items := make([]string, len(choices))
	for i, c := range choices {
		items[i] = fmt.Sprintf("%d: %s.", i+1, c.label)
	}
	d.list(head, items, tail)
}

// line takes one line typed.
func (d *door) line(l line) {
	switch {
	case l.end:
		d.quit = true
		return
	case l.tooLong > 0:
		long := fmt.Sprintf("%d characters long", l.tooLong)
		if l.atLeast {
			long = fmt.Sprintf("at least %d characters long", l.tooLong)
		}
		d.say(fmt.Sprintf("That line is %s; the most this takes is %d. Nothing was done.", long, MaxLine))
		return
	}
	text := strings.TrimSpace(l.text)
	said := strings.ToLower(strings.Join(strings.Fields(text), " "))
	if d.form != nil {
		d.form.answer(d, text, said) // enter alone takes the default
		return
	}
	if text == "" {
		return
	}
	if d.naming {
		d.name(text, said)
		return
	}
	if d.global(said, text) || d.eventWords(said, text) {
		return
	}
	switch {
	case d.rp != nil:
		if d.rp.word(d, said) {
			return
		}
	case d.at != nil:
		if d.at.word(d, said, text) {
			return
		}
	case d.lob != nil:
		if d.lob.word(d, said, text) {
			return
		}
	}
	if d.records(said, text) {
		return
	}
	d.unknown(text)
}

// global takes the words that work everywhere but the name prompt and
// the create questions.
func (d *door) global(said, text string) bool {
	if n, err := strconv.Atoi(said); err == nil {
		d.choose(n)
		return true
	}
	switch said {
	case "help", "?":
		d.help()
	case "quit", "exit", "bye":
		d.say("Goodbye." + d.keptSeat())
		d.quit = true
	case "go":
		d.goThere()
	case "more":
		if len(d.more) == 0 {
			d.say("There is no more to say.")
			return true
		}
		rest := d.more
		d.list("", rest, "")
	case "mute chat", "mute":
		d.muted = true
		d.say("Chat muted: notices from the server are still said. Say unmute chat to hear it again.")
	case "unmute chat", "unmute":
		d.muted = false
		if d.lob != nil {
			// Lines said while muted may reach the door only now: they
			// stay unsaid.
			d.lob.chat.news(d.cfg.Lobby.Chat())
		}
		d.say("Chat unmuted.")
	default:
		return false
	}
	return true
}

// keptSeat is what quitting leaves: a seat in a running game, said.
func (d *door) keptSeat() string {
	if d.at != nil && d.at.inGame() {
		return " Your seat stays, shown away: the clock runs on your turns until you come back, with any of your keys."
	}
	return ""
}

// choose takes a number.
func (d *door) choose(n int) {
	m := d.menu
	switch {
	case len(m.choices) == 0:
		d.say("There is no numbered list to choose from now.")
	case m.still != nil && !m.still():
		d.say("That list is out of date: the game moved on. Nothing was done; say status.")
	case n < 1 || n > len(m.choices):
		d.say(fmt.Sprintf("There is no %d: choose 1 to %d.", n, len(m.choices)))
	default:
		m.choices[n-1].do(d)
	}
}

// unknown answers a line that is no word here, with what would work;
// nothing else happens.
func (d *door) unknown(text string) {
	var now string
	switch {
	case d.rp != nil:
		now = "next, back, stop"
	case d.at != nil:
		now = d.at.wordsNow()
	case d.lob != nil:
		now = "tables, open and a number, create, status, events, history, stats, chat and your text"
	}
	switch n := len(d.menu.choices); {
	case n == 0 || d.menu.still != nil && !d.menu.still():
	case n == 1:
		now = "1, " + now
	default:
		now = fmt.Sprintf("a number from 1 to %d, %s", n, now)
	}
	d.say(fmt.Sprintf("Not understood: %s. You may say %s, or help.", words.Echo(text), now))
}

// name takes the name typed by a key that is nobody's yet.
func (d *door) name(text, said string) {
	switch said {
	case "quit", "exit", "bye":
		d.say("Goodbye.")
		d.quit = true
		return
	case "help", "?":
		d.say("Type the name you want to be known by, and press enter: " + lobby.NameHint() + ". Or say quit.")
		return
	}
	if d.cfg.SetName == nil {
		d.say("This server cannot take names here. Goodbye.")
		d.quit = true
		return
	}
	ctx, cancel := context.WithTimeout(d.ctx, callTimeout)
	id, named, err := d.cfg.SetName(ctx, text)
	cancel()
	if err != nil {
		d.say("Not saved: " + words.Sentence(d.said("save the name", err)) + " Type another.")
		return
	}
	d.naming = false
	d.me.ID = id
	d.say("You are " + named + ".")
	d.follow()
	if d.cfg.Lobby == nil {
		d.say("This server has no tables to play at. Its lists work: say help.")
		return
	}
	d.first()
}

// said is the sentence for err, logged when it hides what went wrong.
func (d *door) said(what string, err error) string {
	lobby.LogHidden(d.cfg.Log, err, "plain: could not "+what, "person", d.me.ID, "key", d.me.Key)
	return lobby.Shown(err)
}

// help says what may be said where the person is.
func (d *door) help() {
	lines := []string{}
	switch {
	case d.rp != nil:
		lines = append(lines, "Reading a replay: next for the next move, back for the one before, stop to go back.")
	case d.at != nil:
		lines = append(lines,
			"At a table, on your turn: a number from the choices said, or roll, blind (roll without looking), liar (call the claim a lie), pass (the claim on, unchanged), give up (against Mia), announce and a value (54, mia, double 3s, 9 pips: after your roll, or without one to raise blind), announce alone for the values you may, each with the chance a fresh roll beats it.",
			"At any time: status (the table now), log and a number (the last events again), who (the seats), rules, sit, stand, start (the game, or play again), leave (the game, or the table), lobby (back to the lobby, keeping your seat), chat and your text, add bot and a level, remove bot (the host, between games).")
	default:
		lines = append(lines,
			"In the lobby: tables (the open tables, numbered), open and a number or a name, create (a new table, one question at a time), chat and your text.")
	}
	lines = append(lines,
		"Events: events (the list, numbered), event and a name (its standings), event join and a name (to enter it: you are seated while you follow it here), event leave and a name, leave event (stop following it).")
	lines = append(lines,
		"Anywhere: history, replay and a game's number, stats, leaderboard, settings, go (to the last notice's table), more (the rest of a long list), mute chat, unmute chat, quit.")
	d.say(lines...)
}

// toLobby goes to the lobby and says its tables.
func (d *door) toLobby() {
	if d.at != nil {
		d.at.close()
		d.at = nil
	}
	d.rp = nil
	if d.lob == nil {
		d.lob = newLobbyRoom(d)
	}
	d.menu = menu{}
	d.lob.sayTables(d, "Lobby.")
}
