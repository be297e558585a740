// Package tui is every screen of an SSH session: the name prompt, the
// lobby with its tables and chat, the create-table form, the table itself,
// live, and the history, replay and stats screens. One Model runs per
// session in its own Bubble Tea program and shows one screen at a time
// (the list is in screens.go); every screen is a Component that makes its
// own calls into the lobby and the store through tea.Cmds, and follows the
// lobby and the table it shows through their mailboxes. Styles come from
// the session's renderer, built once per session (styles.go).
//
// Room: under sshapp, beside the server, which runs it on each session
// with a terminal. It may import lobby (and lobby/ai, lobby/words), engine (and
// engine/fair, engine/rating), store
// (record types: the history comes through the Records interface of its
// Config) and store/lobbystore (the history filter of the lobby's access
// rule); never sshapp or its other rooms.
package tui

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/log"

	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/sshapp/verdict"
)

// Config is what one session's screens need.
type Config struct {
	// Lobby is the live table registry. Nil: after the name prompt, a
	// page that points to the commands (as some tests run the server).
	Lobby *lobby.Lobby
	// Player is the person at the keyboard (ID "" for a key that is
	// nobody's yet, which starts at the name prompt).
	Player lobby.Player
	// Name is their name when the session began; once the lobby knows
	// them, the screens show the name the lobby looks up (Lobby.Name), so
	// that a rename from another session shows at once.
	Name string
	// SetName stores a name chosen at the prompt; it returns the person's
	// id and the stored name, or an error with a kind (lobby.ErrorKind), which
	// the prompt shows as lobby.Shown says. It runs off the event loop.
	SetName func(name string) (id, stored string, err error)
	// Hint is the ssh command line that reaches the server
	// ("ssh -p 23234 host"), for tips on screen.
	Hint string
	// Plain is the ssh command line of the plain mode, which the name
	// prompt offers to a screen reader ("ssh -t -p 23234 HOST plain");
	// "": not offered.
	Plain string
	// Renderer is the session's renderer (NewRenderer): every style comes
	// from it, and text inputs follow its background as it changes.
	Renderer *lipgloss.Renderer
	// Styles, when set, are the styles Renderer would build, shared with
	// other sessions (StyleCache.For(Renderer)); nil: NewStyles(Renderer).
	Styles *Styles
	// Table, if set, is opened first (ssh -t HOST play TABLE); Event,
	// the event's screen (play --event NAME).
	Table string
	Event string
	// Events is the server's events, listed in the lobby with their
	// screens; nil: none.
	Events *events.Registry
	// Width and Height are the initial size; tea.WindowSizeMsg updates it.
	Width, Height int

	// Done, when set, is closed when the session ends (s.Context().Done()).
	// Every subscription the screens hold is then closed, even if the
	// program is killed without quitting.
	Done <-chan struct{}
	// Post, when set, gives the program a message from outside it without
	// waiting (sshapp: the program's Send on a goroutine of its own). The
	// person's notices then wake the screen with no goroutine waiting for
	// them; the caller calls Model.Ended once the program has returned.
	// Without it a command waits for them.
	Post func(tea.Msg)
	// Now is the clock of the turn countdown; time.Now if nil. Tests pass
	// the lobby's clock so that the countdown is deterministic.
	Now func() time.Time
	// Records is the stored history behind the history (h), replay and
	// stats (L) screens, the lobby's season line and the table's ratings;
	// nil: those keys say "history is not available", and the lines are
	// not shown.
	Records Records
	// GameLink, when set, is the web address the table screen shows for
	// its game, "" for a game the web does not show (the web window's
	// Links.Game, with its public address set).
	GameLink func(id string, g lobby.GameAccess) string
	// Log receives the errors the screens answer without showing their
	// text (lobby.Hides), each with the person and the key (one logger
	// for every session: a logger of its own is some 4 KB a session);
	// nil: they are not logged.
	Log *log.Logger
	// Season is how the boards are cut into seasons (the server's
	// --season): the season the lobby and the stats screen show.
	Season rating.Period
	// Judge gives the verdicts on finished games' moves (the replay
	// screen) and a coached table's verdicts on the person's own moves;
	// nil: none are given.
	Judge *verdict.Judge
	// Alerts are the tables the person watches (w in the lobby) and their
	// invitations (the lobby's list); nil: neither.
	Alerts Alerts
	// Bell rings the terminal's bell once (a BEL written to the session,
	// between frames); nil: no bell. BellOff, when set, reports whether
	// the person turned the bell off (settings bell off).
	Bell    func()
	BellOff func() bool
}

// GoodbyeMsg tells the screens that the server is ending the session (a
// shutdown, or the person was idle too long): they close their
// subscriptions, show the reason and quit. The server kills the program
// if it has not quit after a grace period.
type GoodbyeMsg struct{ Reason string }

// Model is the root model of a session's program: it shows one screen at a
// time, routes keys to it and answers to the screen that asked, and owns
// what is global to the session (the size, the help toggle, quitting).
// Create it with New.
type Model struct {
	c      *common
	cur    Component
	width  int
	height int
	fatal  string // the goodbye, which leaves nothing else to show
	// the person's notices (notice.go): the news addressed to them, and
	// the one shown
	notices   *lobby.Queue[lobby.News]
	notice    *notice
	noticeGen int
	gone      chan struct{} // closed as the program quits: the notice's timer ends
	goneOnce  sync.Once
}

// New returns the root model of one session. The caller runs it with
// tea.NewProgram (with tea.WithAltScreen); the model quits on q or ctrl+c
// and then has closed its subscriptions. If the program ends otherwise,
// close Config.Done or call Close after Run returns.
func New(cfg Config) tea.Model {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := cfg.Styles
	if s == nil {
		s = NewStyles(cfg.Renderer)
	}
	m := &Model{c: &common{cfg: cfg, s: s, visited: map[string]bool{}}, width: cfg.Width, height: cfg.Height, gone: make(chan struct{})}
	m.c.nav = m
	return m
}

// Init shows the name prompt to a new key (and to everyone when there is
// no lobby), else the first screen.
func (m *Model) Init() tea.Cmd {
	if m.c.cfg.Player.ID == "" || m.c.cfg.Lobby == nil {
		return m.goTo(goTo{to: screenPrompt})
	}
	return m.goTo(m.c.first())
}

// The root follows the person's notices from the first screen shown with
// a name (goTo).

// Close ends the subscriptions the model still holds. It is for the caller
// once the program has stopped (it must not run beside Update); quitting
// with q has done it already.
func (m *Model) Close() {
	m.c.letGo(nil)
	if cmd := m.unfollow(); cmd != nil {
		cmd()
	}
	if m.cur == nil {
		return
	}
	if cmd := m.cur.Leave(); cmd != nil {
		cmd()
	}
}

// Ended ends what the screens hear without a goroutine waiting (see
// Config.Post): the program has returned. It must not run beside Update.
func (m *Model) Ended() { m.Close() }

// goTo shows a new screen.
func (m *Model) goTo(g goTo) tea.Cmd {
	next := m.c.open(g)
	leave := m.show(next)
	return tea.Batch(leave, next.Init(), m.follow())
}

// backTo shows again a screen shown before.
func (m *Model) backTo(s Component) tea.Cmd { return m.show(s) }

// show makes s the screen shown, leaving the one shown before, and returns
// the command that finishes leaving it.
func (m *Model) show(s Component) tea.Cmd {
	var leave tea.Cmd
	if m.cur != nil && m.cur != s {
		leave = m.cur.Leave()
	}
	m.c.letGo(s)
	m.cur = s
	if ts, ok := s.(tableShower); ok && m.notice != nil && strings.EqualFold(ts.showsTable(), m.notice.news.Table) {
		m.notice = nil // the table it tells of is in front of them now (an event took them there)
	}
	m.resize()
	return leave
}

// quit closes every subscription, then quits.
func (m *Model) quit() tea.Cmd {
	m.c.letGo(nil)
	var leave tea.Cmd
	if m.cur != nil {
		leave = m.cur.Leave()
	}
	return tea.Sequence(leave, m.unfollow(), tea.Quit)
}

// size is the size the screens draw in: the window's, at most
// MaxWidth×MaxHeight, and MinWidth×MinHeight while it is not known yet.
func (m *Model) size() (int, int) {
	w, h := m.width, m.height
	if w <= 0 || h <= 0 {
		w, h = MinWidth, MinHeight
	}
	return min(w, MaxWidth), min(h, MaxHeight)
}

// resize gives the screen shown its size, and the help view its width.
func (m *Model) resize() {
	w, h := m.size()
	m.c.help.Width = w
	if m.cur != nil {
		m.cur.SetSize(w, h)
	}
}

// Update handles one message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.resize()
		return m, nil
	case tea.KeyMsg:
		return m, m.key(msg)
	case reply:
		_, cmd := msg.to.Update(msg.msg)
		return m, cmd
	case RestyleMsg:
		if msg.Styles != nil {
			m.c.s = msg.Styles
			m.resize() // the screen draws what it keeps drawn again
		}
		return m, nil
	case GoodbyeMsg:
		m.fatal = msg.Reason
		if m.fatal == "" {
			m.fatal = "goodbye"
		}
		return m, m.quit()
	case followingMsg:
		if msg.q != m.notices {
			return m, nil
		}
		return m, waitNotices(m.c.cfg.Lobby, msg.q, m.c.cfg.Done)
	case noticesMsg:
		return m, m.heard(msg)
	case noticeOverMsg:
		if m.notice != nil && m.notice.gen == msg.gen {
			m.notice = nil
		}
		return m, nil
	case noticeTickMsg:
		if m.notice != nil && m.notice.gen == msg.gen {
			return m, m.noticeTimer(time.Second, noticeTickMsg(msg))
		}
		return m, nil
	}
	if m.cur == nil {
		return m, nil
	}
	_, cmd := m.cur.Update(msg)
	return m, cmd
}

// key handles the keys of the whole session (ctrl+c, ? for the full help)
// and hands the rest to the screen shown. Runes typed faster than they
// are read arrive as one message ("jjj"); outside a paste each is one key
// press, taken in order.
func (m *Model) key(msg tea.KeyMsg) tea.Cmd {
	if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
		cmds := make([]tea.Cmd, 0, len(msg.Runes))
		for _, r := range msg.Runes {
			cmds = append(cmds, m.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt}))
		}
		return tea.Sequence(cmds...)
	}
	if msg.Alt && !m.bindsAlt(msg) {
		// A terminal sends alt+key as esc and the key, as it sends esc
		// then a key typed fast: without a binding of its own, it is the
		// two keys, in order ("esc h" is not lost).
		plain := msg
		plain.Alt = false
		esc := m.key(tea.KeyMsg{Type: tea.KeyEscape})
		return tea.Sequence(esc, m.key(plain))
	}
	if msg.String() == "ctrl+c" || (m.fatal != "" && msg.String() == "q") {
		return m.quit()
	}
	if m.fatal != "" || m.cur == nil {
		return nil
	}
	if cmd, ok := m.noticeKey(msg); ok {
		return cmd
	}
	if m.tooSmall() {
		// The screen is not shown: its keys would act unseen. q still quits.
		if msg.String() == "q" && !m.cur.Typing() {
			return m.quit()
		}
		return nil
	}
	if msg.String() == "?" && !m.cur.Typing() {
		m.c.help.ShowAll = !m.c.help.ShowAll
		m.resize()
		return nil
	}
	_, cmd := m.cur.Update(msg)
	return cmd
}

// textAltKeys are the bindings with alt of a text input (a word back or
// on, a word deleted): alt+key means them while a line is typed.
var textAltKeys = func() []key.Binding {
	k := textinput.DefaultKeyMap
	return []key.Binding{k.WordForward, k.WordBackward, k.DeleteWordBackward, k.DeleteWordForward}
}()

// bindsAlt reports whether the screen shown has a binding for msg, a key
// with alt: its own keys (help.KeyMap), and a text input's while it types.
func (m *Model) bindsAlt(msg tea.KeyMsg) bool {
	if m.cur == nil {
		return false
	}
	var bs []key.Binding
	for _, col := range m.cur.FullHelp() {
		bs = append(bs, col...)
	}
	if m.cur.Typing() {
		bs = append(bs, textAltKeys...)
	}
	for _, b := range bs {
		for _, k := range b.Keys() {
			if k == msg.String() {
				return true
			}
		}
	}
	return false
}

// anySize is a screen that draws in any size (the name prompt); the
// others need at least MinWidth×MinHeight.
type anySize interface{ anySize() }

// noticer is a screen with news that a window too small for it still
// shows (the table: that it is the viewer's turn).
type noticer interface{ notice() string }

// windowSize is the window's size; MinWidth×MinHeight while not known yet.
func (m *Model) windowSize() (int, int) {
	if m.width <= 0 || m.height <= 0 {
		return MinWidth, MinHeight
	}
	return m.width, m.height
}

// tooSmall reports whether the window is too small for the screen shown,
// which then is not drawn and takes no keys.
func (m *Model) tooSmall() bool {
	w, h := m.windowSize()
	_, ok := m.cur.(anySize)
	return !ok && (w < MinWidth || h < MinHeight)
}

// View draws the screen shown, or asks for a bigger window.
func (m *Model) View() string {
	w, h := m.windowSize()
	if m.tooSmall() {
		return m.sizeNotice(w, h)
	}
	if m.fatal != "" {
		return m.c.s.Error.Render(m.fatal) + "\n\n" + m.c.s.Subtle.Render("q: quit")
	}
	if m.cur == nil {
		return ""
	}
	return m.withNotice(m.cur.View())
}

// sizeNotice is the whole screen when the window cannot hold the layout:
// the size it needs, and the screen's news (noticer).
func (m *Model) sizeNotice(w, h int) string {
	// wrapped, never cut mid-word, and never narrower than its words need
	ask := wrapLine(fmt.Sprintf("make the window at least %d×%d", MinWidth, MinHeight), max(16, min(w, MaxWidth)), "")
	msg := m.c.s.Center.Render(strings.Join(ask, "\n")) + "\n" +
		m.c.s.Subtle.Render(fmt.Sprintf("(now %d×%d)", w, h))
	if n, ok := m.cur.(noticer); ok {
		if news := n.notice(); news != "" {
			msg = m.c.s.Turn.Render(cut(news, min(w, MaxWidth))) + "\n\n" + msg
		}
	}
	if m.notice != nil {
		msg = m.noticeLine(min(w, MaxWidth)) + "\n\n" + msg
	}
	return m.c.s.r.Place(min(w, MaxWidth), min(h, MaxHeight), lipgloss.Center, lipgloss.Center, msg)
}
