package tui

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/lobby/words"
)

// eventScreen is one event, live: its clock, the standings, its tables
// now. An entrant who has it open is there (events.Event.Attend): the
// event seats them, and the screen takes them to their table as soon as
// they are dealt one (the table screen brings them back once the game is
// over); between games it shows the standings.
type eventScreen struct {
	frame
	name   string
	ev     *events.Event
	box    *lobby.Mailbox[events.Info] // nil once left
	info   events.Info
	have   bool
	left   bool
	list   viewport.Model
	status string
	isErr  bool
	keys   eventKeys
}

// eventKeys are the event screen's bindings.
type eventKeys struct {
	Up, Down, Join, Leave, Start, Back, Help, Quit key.Binding
	Open                                           key.Binding // the viewer's table, or one to watch (opened)
}

func newEventKeys() eventKeys {
	return eventKeys{
		Up:    key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑", "up")),
		Down:  key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓", "down")),
		Open:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "your table"), key.WithDisabled()),
		Join:  key.NewBinding(key.WithKeys("J"), key.WithHelp("J", "join")),
		Leave: key.NewBinding(key.WithKeys("X"), key.WithHelp("X", "leave")),
		Start: key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "start")),
		Back:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "lobby")),
		Help:  key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:  key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
	}
}

func (k eventKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Join, k.Leave, k.Start, k.Back, k.Help, k.Quit}
}

func (k eventKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Open}, {k.Join, k.Leave, k.Start}, {k.Back, k.Help, k.Quit}}
}

func newEventScreen(c *common, name, status string, isErr bool) *eventScreen {
	m := &eventScreen{frame: frame{c: c}, name: name, keys: newEventKeys(), list: c.s.newView(), status: status, isErr: isErr}
	m.shown = func() help.KeyMap { return m.keys }
	m.resized = m.layout
	m.ready = func() bool { return m.have }
	m.leaves = func(k tea.KeyMsg) bool { return key.Matches(k, m.keys.Back, m.keys.Quit) }
	return m
}

// holdsEvent: while it shows, its entrant is there.
func (m *eventScreen) holdsEvent() bool { return true }

// The event screen's messages.
type (
	eventOpenedMsg struct {
		ev  *events.Event
		box *lobby.Mailbox[events.Info]
		err error
	}
	eventInfoMsg struct{ box *lobby.Mailbox[events.Info] }
	eventGoneMsg struct{ box *lobby.Mailbox[events.Info] }
	eventTickMsg struct{ box *lobby.Mailbox[events.Info] }
	eventDoneMsg struct {
		what string
		err  error
	}
	attendedMsg struct{ hold *eventHold }
)

// eventHold is the entrant there at an event (events.Attendance), held
// by the session while it shows the event's screen or one of its tables.
type eventHold struct {
	event string
	att   *events.Attendance
}

// Init follows the event.
func (m *eventScreen) Init() tea.Cmd {
	reg, p, name := m.c.cfg.Events, m.c.cfg.Player, m.name
	return ask(m, func() tea.Msg {
		if reg == nil {
			return eventOpenedMsg{err: errNoEvents}
		}
		ev, err := reg.For(p.Viewer(), name)
		if err != nil {
			return eventOpenedMsg{err: err}
		}
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		box, err := ev.Watch(ctx, p)
		return eventOpenedMsg{ev: ev, box: box, err: err}
	})
}

// errNoEvents: the server runs no events.
var errNoEvents = lobby.NewError(lobby.Unavailable, "events are not available on this server")

// Leave stops following the event (the session lets the entrant go as
// it shows a screen of no event: Model.show).
func (m *eventScreen) Leave() tea.Cmd {
	m.left = true
	if m.box != nil {
		ev, box := m.ev, m.box
		m.box = nil
		return func() tea.Msg { ev.Unwatch(box); return nil }
	}
	return nil
}

// wait is the wait for the event's next change, or the countdown's next
// second.
func (m *eventScreen) wait() tea.Cmd {
	box, done := m.box, m.c.cfg.Done
	return ask(m, func() tea.Msg {
		t := time.NewTimer(time.Second)
		defer t.Stop()
		select {
		case <-box.Ready():
			return eventInfoMsg{box: box}
		case <-box.Done():
			return eventGoneMsg{box: box}
		case <-t.C:
			return eventTickMsg{box: box}
		case <-done:
			return nil
		}
	})
}

// attend marks the viewer there at the event, if they are in it, unless
// the session holds them there already.
func (m *eventScreen) attend() tea.Cmd {
	if h := m.c.hold; h != nil && h.event == m.info.Name || !m.entrant() || m.ev == nil {
		return nil
	}
	ev, p := m.ev, m.c.cfg.Player
	return ask(m, func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		att, err := ev.Attend(ctx, p)
		if err != nil {
			return eventDoneMsg{what: "be there", err: err}
		}
		return attendedMsg{hold: &eventHold{event: ev.Name(), att: att}}
	})
}

// me is the viewer's line of the standings, if they are in the event.
func (m *eventScreen) me() (events.Standing, bool) {
	for _, s := range m.info.Standings {
		if s.ID == m.c.cfg.Player.ID {
			return s, true
		}
	}
	return events.Standing{}, false
}

// entrant reports whether the viewer is in the event and has not left.
func (m *eventScreen) entrant() bool {
	s, ok := m.me()
	return ok && !s.Left && !s.Bot
}

// Update implements tea.Model.
func (m *eventScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case eventOpenedMsg:
		if m.left {
			if msg.box != nil {
				msg.ev.Unwatch(msg.box)
			}
			return m, nil
		}
		if msg.err != nil {
			return m, m.c.nav.goTo(goTo{to: screenLobby, status: "could not open the event " + name(m.name) + ": " + m.c.said("open the event", msg.err), isErr: true})
		}
		m.ev, m.box = msg.ev, msg.box
		return m, m.wait()
	case eventInfoMsg:
		if msg.box != m.box || m.box == nil {
			return m, nil
		}
		if info, ok := m.box.Take(); ok {
			m.info, m.have = info, true
		}
		m.setOpen()
		m.layout()
		if cmd := m.toTable(); cmd != nil {
			return m, cmd
		}
		return m, tea.Batch(m.wait(), m.attend(), m.release(m.key))
	case eventTickMsg:
		if msg.box != m.box || m.box == nil {
			return m, nil
		}
		return m, m.wait()
	case eventGoneMsg:
		if msg.box != m.box || m.box == nil {
			return m, nil
		}
		m.box = nil
		return m, m.c.nav.goTo(goTo{to: screenLobby, status: "the event " + name(m.name) + " was put away: " + m.c.cfg.Hint + " event " + name(m.name), isErr: false})
	case attendedMsg:
		if m.left || m.c.hold != nil {
			msg.hold.att.Close()
			return m, nil
		}
		m.c.hold = msg.hold
	case eventDoneMsg:
		if msg.err != nil {
			m.status, m.isErr = m.c.said(msg.what, msg.err), true
			return m, nil
		}
		m.status, m.isErr = msg.what, false
		return m, m.attend()
	case tea.KeyMsg:
		return m, m.take(msg, m.key)
	}
	return m, nil
}

// toTable takes an entrant who is there to the table they are dealt to,
// once its game has begun (and not back to one they left).
func (m *eventScreen) toTable() tea.Cmd {
	h := m.c.hold
	s, ok := m.me()
	if h == nil || h.event != m.info.Name || !ok || s.Where != "playing" || s.Table == "" || m.c.visited[s.Table] {
		return nil
	}
	for _, t := range m.info.Tables {
		if t.Name == s.Table && t.Playing {
			m.c.visited[s.Table] = true
			return m.c.nav.goTo(goTo{to: screenTable, table: s.Table, event: m.info.Name})
		}
	}
	return nil
}

// opens is the table enter opens: the one where the viewer plays now
// (mine), else the first of the event's tables in play, to watch; "" for
// none.
func (m *eventScreen) opens() (table string, mine bool) {
	if s, ok := m.me(); ok && s.Where == "playing" && s.Table != "" {
		for _, t := range m.info.Tables {
			if t.Name == s.Table {
				return t.Name, true
			}
		}
	}
	for _, t := range m.info.Tables {
		if t.Playing {
			return t.Name, false
		}
	}
	return "", false
}

// setOpen shows enter in the help as what it opens now.
func (m *eventScreen) setOpen() {
	table, mine := m.opens()
	m.keys.Open.SetEnabled(table != "")
	switch {
	case mine:
		m.keys.Open.SetHelp("enter", "your table")
	case table != "":
		m.keys.Open.SetHelp("enter", "watch "+name(table))
	}
}

func (m *eventScreen) key(msg tea.KeyMsg) tea.Cmd {
	p := m.c.cfg.Player
	switch {
	case key.Matches(msg, m.keys.Open):
		if table, _ := m.opens(); table != "" {
			return m.c.nav.goTo(goTo{to: screenTable, table: table, event: m.info.Name})
		}
	case key.Matches(msg, m.keys.Quit):
		return m.c.nav.quit()
	case key.Matches(msg, m.keys.Back):
		return m.c.nav.goTo(goTo{to: screenLobby})
	case key.Matches(msg, m.keys.Up):
		m.list.ScrollUp(1)
	case key.Matches(msg, m.keys.Down):
		m.list.ScrollDown(1)
	case key.Matches(msg, m.keys.Join):
		done := "you are in: you are seated as soon as a table is free, while this screen is open"
		if m.info.State == events.Scheduled {
			done = "you are in: you are seated once it starts, while this screen is open"
		}
		return m.call(done, func(ctx context.Context) error { return m.ev.Join(ctx, p, "") })
	case key.Matches(msg, m.keys.Leave):
		if h := m.c.hold; h != nil {
			h.att.Close()
			m.c.hold = nil
		}
		return m.call("you left the event: your points stay", func(ctx context.Context) error { return m.ev.Leave(ctx, p) })
	case key.Matches(msg, m.keys.Start):
		return m.call("the event has started", func(ctx context.Context) error { return m.ev.Start(ctx, p) })
	}
	return nil
}

// call runs a request of the event off the loop; done says what it did.
func (m *eventScreen) call(done string, fn func(ctx context.Context) error) tea.Cmd {
	if m.ev == nil {
		return nil
	}
	return ask(m, func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		err := fn(ctx)
		if errors.Is(err, events.ErrUnsaved) {
			err = nil
		}
		return eventDoneMsg{what: done, err: err}
	})
}

// The standings' columns: place, name, points, games, wins, rating.
const evPlaceW, evPointsW, evGamesW, evRatingW = 4, 7, 6, 6

// layout draws the standings into the list's viewport, and offers the
// keys that act now.
func (m *eventScreen) layout() {
	s := m.c.s
	st, in := m.me()
	open := m.have && m.info.State != events.Over && m.info.State != events.Closed && m.info.State != events.Stopping
	m.keys.Join.SetEnabled(open && (!in || st.Left))
	m.keys.Leave.SetEnabled(open && in && !st.Left && !st.Bot)
	m.keys.Start.SetEnabled(m.have && m.info.State == events.Scheduled && (m.info.HostID == m.c.cfg.Player.ID || m.c.cfg.Player.Admin))
	helpH := m.c.helpHeight(m, 3)
	tables := min(len(m.info.Tables), 3)
	sizeView(&m.list, m.w, max(1, m.h-6-tables-helpH))
	nameW := clamp(m.w-evPlaceW-evPointsW-2*evGamesW-evRatingW-6-22, 10, lobby.MaxNameLen+6)
	rows := make([]string, 0, len(m.info.Standings))
	for _, st := range m.info.Standings {
		pts := strconv.Itoa(st.Points)
		if st.Fire {
			pts += "🔥"
		}
		rt := "-"
		if st.Rated {
			rt = words.Figure(st.Rating)
		}
		row := fit(strconv.Itoa(st.Place)+".", evPlaceW) + " " + fit(words.Label(name(st.Name), st.Bot), nameW) + " " +
			fit(pts, evPointsW) + " " + fit(strconv.Itoa(st.Games), evGamesW) + " " + fit(strconv.Itoa(st.Wins), evGamesW) + " " +
			fit(rt, evRatingW) + " " + words.EventWhere(st.Where, st.Table)
		row = fit(row, m.w)
		if st.ID == m.c.cfg.Player.ID {
			row = s.Selected.Render(row)
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		rows = append(rows, s.Subtle.Render("    Nobody is in it yet: press J to join."))
	}
	m.list.SetContent(strings.Join(rows, "\n"))
}

// View draws the event.
func (m *eventScreen) View() string {
	s, w := m.c.s, m.w
	var b strings.Builder
	i := m.info
	if !m.have {
		b.WriteString(s.Title.Render("mia") + s.TitleBar.Render(" event "+name(m.name)) + "\n\n" + s.Subtle.Render("opening…") + "\n")
		return b.String()
	}
	now := m.c.cfg.Now()
	state := words.EventState(string(i.State), i.StartsAt, i.Ends, now)
	if i.Round > 0 {
		state += fmt.Sprintf(", round %d", i.Round)
	}
	right := state
	b.WriteString(fit(s.Title.Render("mia")+s.TitleBar.Render(" event "+name(i.Name)+" · "+string(i.Format)), w-ansi.StringWidth(right)))
	b.WriteString(s.Turn.Render(right))
	b.WriteByte('\n')
	line := words.EventFormat(string(i.Format), i.Rounds, i.Lasts) + " · tables of " + strconv.Itoa(i.Seats) + " · " +
		words.Plural(i.Entrants, "1 entrant", "entrants") + " · hosted by " + name(i.Host)
	b.WriteString(s.Subtle.Render(cut(line, w)))
	b.WriteByte('\n')
	b.WriteString(m.mine(w))
	b.WriteByte('\n')
	nameW := clamp(w-evPlaceW-evPointsW-2*evGamesW-evRatingW-6-22, 10, lobby.MaxNameLen+6)
	b.WriteString(s.Header.Render(fit(fit("#", evPlaceW)+" "+fit("PLAYER", nameW)+" "+fit("POINTS", evPointsW)+" "+
		fit("GAMES", evGamesW)+" "+fit("WINS", evGamesW)+" "+fit("RATING", evRatingW)+" NOW", w)))
	b.WriteByte('\n')
	b.WriteString(viewText(m.list))
	b.WriteByte('\n')
	for n, t := range i.Tables {
		if n == 3 {
			break
		}
		state := "playing"
		if !t.Playing {
			state = "over"
		}
		b.WriteString(s.Subtle.Render(cut("  "+t.Name+" ("+state+"): "+strings.Join(t.Players, ", "), w)))
		b.WriteByte('\n')
	}
	switch {
	case m.status != "" && m.isErr:
		b.WriteString(s.Error.Render(cut(m.status, w)))
	case m.status != "":
		b.WriteString(s.Info.Render(cut(m.status, w)))
	}
	b.WriteByte('\n')
	b.WriteString(m.c.helpView(m, 3))
	return b.String()
}

// mine is the viewer's line: their place and points, or how to join.
func (m *eventScreen) mine(w int) string {
	s := m.c.s
	i := m.info
	st, ok := m.me()
	switch {
	case i.Final && i.Champion != nil && ok:
		return s.Turn.Render(cut("Champion: "+words.Label(name(i.Champion.Name), i.Champion.Bot)+" · "+
			words.EventOver(i.Name, st.Place, len(i.Standings), st.Points), w))
	case i.Final && i.Champion != nil:
		return s.Turn.Render(cut(fmt.Sprintf("Champion: %s, %s", words.Label(name(i.Champion.Name), i.Champion.Bot),
			words.Plural(i.Champion.Points, "1 point", "points")), w))
	case !ok || st.Left:
		if i.State == events.Over || i.State == events.Closed {
			return s.Subtle.Render("The event is over.")
		}
		return s.Info.Render(cut("You are not in it: press J to join.", w))
	case st.Bot:
		return s.Subtle.Render(cut("You are in it as a bot: your bot plays (bot --event "+name(i.Name)+").", w))
	}
	return s.Info.Render(cut(fmt.Sprintf("You: %s, %s, %s", words.Ordinal(st.Place), words.Plural(st.Points, "1 point", "points"),
		words.EventWhere(st.Where, st.Table)), w))
}
