package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/lobby/words"
)

// lobbyScreen lists the open tables and shows the lobby chat. It follows
// the lobby's changes while it shows, and posts chat lines itself.
type lobbyScreen struct {
	frame
	box   *lobby.Mailbox[int] // the lobby's change signals; nil once left
	evBox *lobby.Mailbox[int] // the events' change signals; nil once left, or without events
	// with Config.Post: the timer that posts the events' countdown's next
	// second, while one is armed
	counter *time.Timer
	// events are listed first (running, to start); then the person's
	// invitations, then the tables (the cursor runs over all three);
	// watching the tables they watch (w), by lower-case name
	events     []events.Info
	invites    []lobby.News
	watching   map[string]bool
	alertsHave bool // the first read of them came (or there are no alerts)
	tables     []lobby.TableInfo
	chat       []lobby.ChatLine
	cursor     int
	list       []string // the rows in sight, drawn (a viewport draws them and is dropped)
	top        int      // the first row in sight
	talk       []string // the lobby chat's lines in sight, drawn
	listH      int
	chatH      int
	say        *chatInput // the lobby chat line; nil until first used (sayLine)
	status     string
	isErr      bool
	have       bool // the first list of tables arrived
	keys       lobbyKeys
	// the season line: the season running and the last one's champion
	season     seasonInfo
	seasonHave bool
	seasonAsk  bool // a load of it is on its way
}

// saidMsg answers a lobby chat line.
type saidMsg struct {
	err  error
	line string // the line sent, to be kept if it was refused
}

func newLobbyScreen(c *common, status string, isErr bool) *lobbyScreen {
	m := &lobbyScreen{frame: frame{c: c}, status: status, isErr: isErr, keys: newLobbyKeys()}
	m.keys.Watch.SetEnabled(c.cfg.Alerts != nil)
	m.alertsHave = c.cfg.Alerts == nil
	m.shown, m.resized = m.helpKeys, m.layout
	// The keys wait for the first list of tables and of invitations,
	// which they move in.
	m.ready = func() bool { return m.have && m.alertsHave }
	m.leaves = func(k tea.KeyMsg) bool { return key.Matches(k, m.keys.Quit) }
	return m
}

// sayLine is the lobby chat's line, made when first used: a text input is
// some 5 KB, and most people in the lobby never type in it.
func (m *lobbyScreen) sayLine() *chatInput {
	if m.say == nil {
		l := m.c.newChatInput("a line for the lobby")
		m.say = &l
		m.input = m.say
	}
	m.say.Width = m.w - 6
	return m.say
}

// Init follows the lobby, and reads the season line, the watches and the
// invitations.
func (m *lobbyScreen) Init() tea.Cmd {
	m.box = m.c.cfg.Lobby.Subscribe()
	if reg := m.c.cfg.Events; reg != nil {
		m.evBox = reg.Subscribe()
	}
	if post := m.c.cfg.Post; post != nil { // the boxes post their changes: no goroutine waits (wait)
		box, evBox := m.box, m.evBox
		if evBox != nil {
			evBox.Notify(func() { post(reply{to: m, msg: eventsWokeMsg{box: evBox}}) },
				func() { post(reply{to: m, msg: eventsMsg{box: evBox, gone: true}}) })
		}
		box.Notify(func() { post(reply{to: m, msg: lobbyWokeMsg{box: box}}) },
			func() { post(reply{to: m, msg: lobbyClosedMsg{box: box}}) })
	}
	return tea.Batch(m.wait(), m.loadSeason(), m.loadAlerts())
}

// lobbyWokeMsg and eventsWokeMsg say the lobby or the events changed
// (with Config.Post): the screen reads them on its event loop.
type (
	lobbyWokeMsg  struct{ box *lobby.Mailbox[int] }
	eventsWokeMsg struct{ box *lobby.Mailbox[int] }
	countdownMsg  struct{ box *lobby.Mailbox[int] }
)

// eventsMsg carries the list of events after a change, or the
// countdown's next second.
type eventsMsg struct {
	box  *lobby.Mailbox[int]
	list []events.Info
	gone bool
}

// loadSeason reads the season line when it is missing or a new season has
// begun; nil when there is none to show (no records, seasons off) or a
// read is on its way.
func (m *lobbyScreen) loadSeason() tea.Cmd {
	rec, p, now := m.c.cfg.Records, m.c.cfg.Season, m.c.cfg.Now()
	if rec == nil || p == rating.Off || m.seasonAsk || m.seasonHave && m.season.season == p.Of(now) {
		return nil
	}
	m.seasonAsk = true
	return ask(m, loadSeason(rec, p, now))
}

// seasonLine is the line under the title: the season running, how long
// it has to go, and the champion of the one before.
func (m *lobbyScreen) seasonLine(s *Styles, w int) string {
	if !m.seasonHave {
		return ""
	}
	in := m.season
	line := "Season " + in.season.String()
	if left := words.SeasonLeft(in.season, m.c.cfg.Now()); left != "" {
		line += ", " + left
	}
	if in.crowned {
		line += " · " + in.prev.String() + " champion: " + words.Label(name(in.champion.Name), in.champion.Bot()) + " " + words.Figure(in.champion.Rating)
	}
	return s.Subtle.Render(cut(line+" · L: boards", w))
}

// wait is the lobby screen's one wait: for the next change of the lobby
// (its tables and chat) or of the events, or for the next second while an
// event counts down. One goroutine waits for all of them, re-armed after
// each of its messages (a goroutine of its own for the events was some 4
// KB of stack a lobby screen). When the session ends it unsubscribes.
func (m *lobbyScreen) wait() tea.Cmd {
	l, reg, v, done := m.c.cfg.Lobby, m.c.cfg.Events, m.c.cfg.Player.Viewer(), m.c.cfg.Done
	box, evBox := m.box, m.evBox
	if box == nil && evBox == nil {
		return nil
	}
	counts := false
	for _, e := range m.events {
		counts = counts || e.State == events.Running && !e.Ends.IsZero() || e.State == events.Scheduled && !e.StartsAt.IsZero()
	}
	if post := m.c.cfg.Post; post != nil {
		if counts && evBox != nil && m.counter == nil {
			msg := reply{to: m, msg: countdownMsg{box: evBox}}
			m.counter = time.AfterFunc(time.Second, func() { post(msg) })
		}
		return nil
	}
	// A nil channel never fires: the boxes not followed are not waited on.
	var ready, closed, evReady, evClosed <-chan struct{}
	if box != nil {
		ready, closed = box.Ready(), box.Done()
	}
	if evBox != nil {
		evReady, evClosed = evBox.Ready(), evBox.Done()
	}
	return ask(m, func() tea.Msg {
		var tick <-chan time.Time
		if counts && evBox != nil {
			t := time.NewTimer(time.Second)
			defer t.Stop()
			tick = t.C
		}
		for {
			// The events first when both changed (as both have at first):
			// the events' rows come first in the list, and the cursor,
			// on the first row, stays on an event rather than follow a
			// table that the events' rows then push down.
			select {
			case <-evReady:
				evBox.Take()
				return eventsMsg{box: evBox, list: reg.List(v)}
			default:
			}
			select {
			case <-ready:
				if _, ok := box.Take(); ok {
					return lobbyMsg{box: box, tables: l.Tables(v), chat: l.Chat()}
				}
			case <-closed:
				return lobbyClosedMsg{box: box}
			case <-evReady:
				evBox.Take()
				return eventsMsg{box: evBox, list: reg.List(v)}
			case <-tick:
				return eventsMsg{box: evBox, list: reg.List(v)}
			case <-evClosed:
				return eventsMsg{box: evBox, gone: true}
			case <-done:
				if box != nil {
					l.Unsubscribe(box)
				}
				if evBox != nil {
					reg.Unsubscribe(evBox)
				}
				return nil
			}
		}
	})
}

// Leave stops following the lobby.
func (m *lobbyScreen) Leave() tea.Cmd {
	if m.counter != nil {
		m.counter.Stop()
		m.counter = nil
	}
	if m.box != nil {
		m.c.cfg.Lobby.Unsubscribe(m.box)
		m.box = nil
	}
	if m.evBox != nil {
		m.c.cfg.Events.Unsubscribe(m.evBox)
		m.evBox = nil
	}
	return nil
}

// helpKeys is the key map the help shows now.
func (m *lobbyScreen) helpKeys() help.KeyMap {
	if typing(m.say) {
		return m.say.keys
	}
	return m.keys
}

// layout sizes the list and the chat to the window and the help shown,
// and draws their rows.
func (m *lobbyScreen) layout() {
	m.chatH = clamp(m.h-18, 5, 10)
	helpH := m.c.helpHeight(m, 4)
	m.listH = max(1, m.h-2-1-1-(m.chatH+1)-1-helpH)
	m.talk = m.c.s.tailLines(m.w, m.chatH, len(m.chat), m.c.s.chatLineOf(m.chat))
	m.drawList()
}

// Columns of the list: marker, lock, name, host, seats, state, rules.
const lobbyHostW, lobbySeatsW, lobbyStateW = 12, 5, 7

// lobbyColumns are the widths of the name and rules columns in w cells.
func lobbyColumns(w int) (nameW, rulesW int) {
	fixed := 2 + 2 + 1 + 1 + lobbyHostW + 1 + lobbySeatsW + 1 + lobbyStateW + 1
	nameW = clamp(w-fixed-30, 12, lobby.MaxNameLen)
	return nameW, w - fixed - nameW
}

// drawList draws the rows of the tables in sight into the list's
// viewport, scrolling as little as keeps the cursor's row in sight. Only
// those rows are drawn: every lobby screen draws its list again at each
// change the lobby lists, and with hundreds of tables drawing them all
// was most of what a lobby screen cost.
func (m *lobbyScreen) drawList() {
	s := m.c.s
	n := m.rows() // the events' rows first, then the invitations', then the tables'
	if n == 0 {
		m.top = 0
		m.list = s.rowLines(m.w, m.listH, []string{s.Subtle.Render(fit("    No tables yet: press n to open one.", m.w))})
		return
	}
	h := max(1, m.listH)
	last := max(0, n-h)      // the lowest first row that fills the list
	m.top = min(m.top, last) // a list that shrank fills the view
	switch {
	case m.cursor < m.top:
		m.top = m.cursor
	case m.cursor >= m.top+h:
		m.top = m.cursor - h + 1
	}
	nameW, rulesW := lobbyColumns(m.w)
	now := m.c.cfg.Now()
	rows := make([]string, 0, min(h, n-m.top))
	for i := m.top; i < n && len(rows) < h; i++ {
		var row string
		if i < len(m.events) {
			e := m.events[i]
			row = "  ★  " + fit(name(e.Name), nameW) + " " + fit(name(e.Host), lobbyHostW) + " " +
				fit(fmt.Sprintf("%d in", e.Entrants), lobbySeatsW) + " " + fit("event", lobbyStateW) + " " +
				fit(string(e.Format)+" · "+words.EventState(string(e.State), e.StartsAt, e.Ends, now), rulesW)
		} else if j := i - len(m.events); j < len(m.invites) {
			inv := m.invites[j]
			row = s.Info.Render(fit("  ✉  "+fit(name(inv.Table), nameW)+" "+fit(name(m.c.cfg.Lobby.Name(inv.By)), lobbyHostW)+" invites you · enter: go there", m.w))
		} else {
			t := m.tables[j-len(m.invites)]
			lock := "  "
			if t.Private {
				lock = "🔒"
			}
			mark := " "
			if m.watching[strings.ToLower(t.Name)] {
				mark = "•" // watched: told when a seat is free
			}
			rules := shortRules(t.Rules)
			if t.HasSeat(m.c.cfg.Player.ID) {
				rules = "your seat · " + rules // their game goes on while they are here
			}
			row = "  " + lock + mark + fit(name(t.Name), nameW) + " " + fit(name(t.Host), lobbyHostW) + " " +
				fit(fmt.Sprintf("%d/%d", t.Taken, t.Seats), lobbySeatsW) + " " + fit(words.TableState(t.State, t.Paused, t.Resting), lobbyStateW) + " " + fit(rules, rulesW)
			if t.HasSeat(m.c.cfg.Player.ID) {
				row = s.Accent.Render(row)
			}
		}
		if i == m.cursor {
			row = s.Selected.Render(fit("›"+ansi.Strip(row)[len(" "):], m.w))
		}
		rows = append(rows, row)
	}
	m.list = s.rowLines(m.w, m.listH, rows)
}

// alertsLoaded answers loadAlerts.
type alertsLoaded struct {
	watching []string
	invites  []lobby.News
	err      error
}

// watchedMsg answers w: the table now watched (on) or not.
type watchedMsg struct {
	table string
	on    bool
	err   error
}

// loadAlerts reads the tables the person watches and their invitations;
// nil without the alerts.
func (m *lobbyScreen) loadAlerts() tea.Cmd {
	al, p := m.c.cfg.Alerts, m.c.cfg.Player
	if al == nil {
		return nil
	}
	return ask(m, func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		w, err := al.Watches(ctx, p)
		if err != nil {
			return alertsLoaded{err: err}
		}
		inv, err := al.Invitations(ctx, p.ID)
		return alertsLoaded{watching: w, invites: inv, err: err}
	})
}

// toggleWatch watches the table, or stops watching it.
func (m *lobbyScreen) toggleWatch(table string) tea.Cmd {
	al, p, on := m.c.cfg.Alerts, m.c.cfg.Player, !m.watching[strings.ToLower(table)]
	return ask(m, func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		if on {
			_, err := al.Watch(ctx, p, table)
			return watchedMsg{table: table, on: true, err: err}
		}
		return watchedMsg{table: table, on: false, err: al.Unwatch(ctx, p, table)}
	})
}

// selected is the row under the cursor: an invitation, or a table (nil
// both when there are no rows, or an event is).
func (m *lobbyScreen) selected() (*lobby.News, *lobby.TableInfo) {
	switch i := m.cursor - len(m.events); {
	case i < 0:
	case i < len(m.invites):
		return &m.invites[i], nil
	case i-len(m.invites) < len(m.tables):
		return nil, &m.tables[i-len(m.invites)]
	}
	return nil, nil
}

// rows is how many rows the list has: the events, the invitations, then
// the tables.
func (m *lobbyScreen) rows() int { return len(m.events) + len(m.invites) + len(m.tables) }

// setTables replaces the list, keeping the selected row selected.
func (m *lobbyScreen) setTables(ts []lobby.TableInfo) {
	m.setRowsKeeping(func() { m.tables = ts })
}

// setEvents replaces the events listed (those running and to start; an
// event over is left to the events command), keeping the row selected
// selected.
func (m *lobbyScreen) setEvents(list []events.Info) {
	m.setRowsKeeping(func() {
		m.events = slices.DeleteFunc(list, func(e events.Info) bool { return e.State == events.Over || e.State == events.Closed })
	})
}

// setRowsKeeping changes the rows (change), keeping the row selected
// selected (an invitation or a table).
func (m *lobbyScreen) setRowsKeeping(change func()) {
	inv, tbl := m.selected()
	var invTable, tblName string
	if inv != nil {
		invTable = inv.Table
	}
	if tbl != nil {
		tblName = tbl.Name
	}
	change()
	m.cursor = clamp(m.cursor, 0, max(0, m.rows()-1))
	for i, t := range m.tables {
		if tbl != nil && t.Name == tblName {
			m.cursor = len(m.events) + len(m.invites) + i
		}
	}
	for i, n := range m.invites {
		if inv != nil && n.Table == invTable {
			m.cursor = len(m.events) + i
		}
	}
}

func (m *lobbyScreen) setStatus(text string, isErr bool) { m.status, m.isErr = text, isErr }

// Update implements tea.Model.
func (m *lobbyScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case lobbyWokeMsg:
		if msg.box != m.box || m.box == nil {
			return m, nil
		}
		if _, ok := msg.box.Take(); !ok {
			return m, nil
		}
		v := m.c.cfg.Player.Viewer()
		var first tea.Cmd
		if m.evBox != nil { // the events first when both changed, as wait takes them
			if _, ok := m.evBox.Take(); ok {
				_, first = m.Update(eventsMsg{box: m.evBox, list: m.c.cfg.Events.List(v)})
			}
		}
		_, cmd := m.Update(lobbyMsg{box: msg.box, tables: m.c.cfg.Lobby.Tables(v), chat: m.c.cfg.Lobby.Chat()})
		return m, tea.Batch(first, cmd)
	case eventsWokeMsg:
		if msg.box != m.evBox || m.evBox == nil {
			return m, nil
		}
		if _, ok := msg.box.Take(); !ok {
			return m, nil
		}
		return m.Update(eventsMsg{box: msg.box, list: m.c.cfg.Events.List(m.c.cfg.Player.Viewer())})
	case countdownMsg:
		m.counter = nil
		if msg.box != m.evBox || m.evBox == nil {
			return m, nil
		}
		return m.Update(eventsMsg{box: msg.box, list: m.c.cfg.Events.List(m.c.cfg.Player.Viewer())})
	case lobbyMsg:
		if msg.box != m.box {
			return m, nil
		}
		m.setTables(msg.tables)
		m.chat, m.have = msg.chat, true
		cmd = tea.Batch(m.wait(), m.release(m.key), m.loadSeason())
	case eventsMsg:
		if msg.box != m.evBox || m.evBox == nil {
			return m, nil
		}
		if msg.gone {
			m.evBox = nil
		} else {
			m.setEvents(msg.list)
		}
		cmd = m.wait()
	case seasonLoaded:
		m.seasonAsk = false
		if msg.err == nil {
			m.season, m.seasonHave = msg.info, true
		}
	case alertsLoaded:
		first := !m.alertsHave
		m.alertsHave = true
		if msg.err != nil {
			m.setStatus(m.c.said("read your watches and invitations", msg.err), true)
		} else {
			m.setRowsKeeping(func() {
				m.invites = msg.invites
				m.watching = make(map[string]bool, len(msg.watching))
				for _, w := range msg.watching {
					m.watching[strings.ToLower(w)] = true
				}
			})
			if first {
				m.cursor = 0 // nothing chosen yet: the first row, an invitation if one waits
			}
		}
		cmd = m.release(m.key)
	case invitedMsg:
		cmd = m.loadAlerts()
	case watchedMsg:
		switch {
		case msg.err != nil:
			m.setStatus(m.c.said("watch the table", msg.err), true)
		case msg.on:
			if m.watching == nil {
				m.watching = map[string]bool{}
			}
			m.watching[strings.ToLower(msg.table)] = true
			m.setStatus("watching "+name(msg.table)+": you will be told when a seat is free (w again: stop)", false)
		default:
			delete(m.watching, strings.ToLower(msg.table))
			m.setStatus("no longer watching "+name(msg.table), false)
		}
	case lobbyClosedMsg:
		if msg.box == m.box && m.box != nil {
			m.box = nil
			m.setStatus("the server is shutting down", true)
			cmd = m.wait() // the events, if they are followed
		}
	case saidMsg:
		next, ok := m.sayLine().answered(msg.line, msg.err)
		switch {
		case msg.err != nil:
			m.setStatus(m.c.said("send the line", msg.err)+keptLine(m.keys.Chat, m.say.waiting()), true)
		case m.say.waiting() > 0 && m.isErr:
			m.setStatus("sent"+keptLine(m.keys.Chat, m.say.waiting()), false)
		}
		if ok {
			cmd = m.sayCall(next)
		}
	case tea.KeyMsg:
		cmd = m.take(msg, m.key)
	}
	m.layout()
	return m, cmd
}

// sayCall sends a line to the lobby chat; the answer carries the line.
func (m *lobbyScreen) sayCall(text string) tea.Cmd {
	l, p := m.c.cfg.Lobby, m.c.cfg.Player
	return ask(m, func() tea.Msg { return saidMsg{l.Say(p, text), text} })
}

func (m *lobbyScreen) key(msg tea.KeyMsg) tea.Cmd {
	if typing(m.say) {
		text, cmd := m.say.key(msg)
		if text == "" {
			return cmd
		}
		if text, ok := m.say.send(text); ok {
			return m.sayCall(text)
		}
		return nil // on its way after the line before it
	}
	switch {
	case key.Matches(msg, m.keys.Quit):
		return m.c.nav.quit()
	case key.Matches(msg, m.keys.Up):
		if m.cursor > 0 {
			m.cursor--
		}
	case key.Matches(msg, m.keys.Down):
		if m.cursor < m.rows()-1 {
			m.cursor++
		}
	case key.Matches(msg, m.keys.Open):
		if m.cursor < len(m.events) {
			return m.c.nav.goTo(goTo{to: screenEvent, event: m.events[m.cursor].Name})
		}
		inv, tbl := m.selected()
		switch {
		case inv != nil:
			code := inv.Code
			return m.c.nav.goTo(goTo{to: screenTable, table: inv.Table, invite: &code})
		case tbl != nil:
			return m.c.nav.goTo(goTo{to: screenTable, table: tbl.Name})
		}
		m.setStatus("no table to open: press n to create one", true)
	case key.Matches(msg, m.keys.Watch):
		if _, tbl := m.selected(); tbl != nil {
			return m.toggleWatch(tbl.Name)
		}
		m.setStatus("no table to watch", true)
	case key.Matches(msg, m.keys.New):
		return m.c.nav.goTo(goTo{to: screenForm})
	case key.Matches(msg, m.keys.History), key.Matches(msg, m.keys.Stats):
		if m.c.cfg.Records == nil {
			m.setStatus(errNoRecords, true)
			return nil
		}
		table := "" // the selected table, for the "this table" views
		if _, tbl := m.selected(); tbl != nil {
			table = tbl.Name
		}
		if key.Matches(msg, m.keys.History) {
			return m.c.nav.goTo(goTo{to: screenHistory, table: table})
		}
		return m.c.nav.goTo(goTo{to: screenStats, table: table})
	case key.Matches(msg, m.keys.Chat):
		m.status = ""
		return m.sayLine().start()
	}
	return nil
}

// View draws the lobby.
func (m *lobbyScreen) View() string {
	s, w := m.c.s, m.w
	var b strings.Builder
	title := s.Title.Render("mia")
	right := "you are " + name(m.c.myName())
	count := "1 open table"
	if len(m.tables) != 1 {
		count = fmt.Sprintf("%d open tables", len(m.tables))
	}
	b.WriteString(fit(title+s.TitleBar.Render(" lobby · "+count), w-ansi.StringWidth(right)))
	b.WriteString(s.Subtle.Render(right))
	b.WriteByte('\n')
	b.WriteString(m.seasonLine(s, w))
	b.WriteByte('\n')

	nameW, _ := lobbyColumns(w)
	b.WriteString(s.Header.Render(fit("     "+fit("TABLE", nameW)+" "+fit("HOST", lobbyHostW)+" "+fit("SEATS", lobbySeatsW)+" "+
		fit("STATE", lobbyStateW)+" RULES", w)))
	b.WriteByte('\n')
	b.WriteString(strings.Join(m.list, "\n"))
	b.WriteString("\n\n")
	b.WriteString(s.Header.Render("Lobby chat"))
	b.WriteByte('\n')
	b.WriteString(strings.Join(m.talk, "\n"))
	b.WriteByte('\n')
	switch {
	case typing(m.say):
		b.WriteString(m.say.View())
	case m.status != "" && m.isErr:
		b.WriteString(s.Error.Render(cut(m.status, w)))
	case m.status != "":
		b.WriteString(s.Info.Render(cut(m.status, w)))
	}
	b.WriteByte('\n')
	b.WriteString(m.c.helpView(m, 4))
	return b.String()
}
