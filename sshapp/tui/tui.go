// Package tui is every screen of an SSH session: the name prompt, the
// lobby with its tables and chat, the create-table form, the table itself,
// live, and the history, replay and stats screens. One model runs per
// session in its own Bubble Tea program; it talks to the lobby only
// through tea.Cmds, and follows the lobby and the table it shows through
// their mailboxes. Room: under sshapp, beside the server (which runs it on
// each session with a terminal). It may import lobby, engine and store
// (the types of its storage, reached only through the interfaces of its
// Config); never sshapp or its other rooms.
package tui

import (
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/mia-game/mia/lobby"
)

// Config is what one session's screens need.
type Config struct {
	Lobby    *lobby.Lobby
	Player   lobby.Player       // the person at the keyboard, already named
	Renderer *lipgloss.Renderer // the session's renderer (bm.MakeRenderer(s))
	// Styles, when set, are the styles Renderer would build, shared with
	// other sessions (StyleCache.For(Renderer)); nil: NewStyles(Renderer).
	Styles *Styles
	Table  string // optional: open this table first (ssh -t HOST play TABLE)
	Width  int    // the initial size; tea.WindowSizeMsg updates it
	Height int

	// Done, when set, is closed when the session ends (s.Context().Done()).
	// Every subscription the screens hold is then closed, even if the
	// program is killed without quitting.
	Done <-chan struct{}
	// Now is the clock of the turn countdown; time.Now if nil. Tests pass
	// the lobby's clock so that the countdown is deterministic.
	Now func() time.Time
	// Records is the stored history behind the history (h), replay and
	// stats (L) screens; nil: those keys say "history is not available".
	Records Records
}

type screen int

const (
	screenLobby screen = iota
	screenForm
	screenTable
)

// GoodbyeMsg tells the screens that the server is ending the session (a
// shutdown, or the person was idle too long): they close their
// subscriptions, show the reason and quit.
type GoodbyeMsg struct{ Reason string }

// Model is the root model of a session's program. Create it with New.
type Model struct {
	cfg    Config
	s      *Styles
	help   help.Model
	width  int
	height int

	screen screen
	lobby  lobbyScreen
	form   createForm
	table  tableScreen

	history historyScreen // the records screens (records.go)
	replay  replayScreen
	stats   statsScreen

	box     *lobby.Mailbox[int] // the lobby's change signals while the lobby shows
	sub     *lobby.Subscription // the table shown
	gen     int                 // the newest request to open a table; older answers are dropped
	ticking bool                // a turn clock tick is armed
	fatal   string              // a problem that leaves nothing to show, or the goodbye
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
	m := &Model{cfg: cfg, s: s, help: s.newHelp(), width: cfg.Width, height: cfg.Height}
	m.lobby = newLobbyScreen(s)
	m.resize()
	return m
}

// Init opens the requested table, or the table where the player is seated
// (a reconnect), or else the lobby.
func (m *Model) Init() tea.Cmd {
	if m.cfg.Lobby == nil {
		m.fatal = "the lobby is not available"
		return nil
	}
	target := m.cfg.Table
	if target == "" {
		if seated := m.cfg.Lobby.SeatedAt(m.cfg.Player.Fingerprint); len(seated) > 0 {
			target = seated[0].Name
		}
	}
	if target != "" {
		return m.toTable(target, false)
	}
	return m.toLobby("", false)
}

// Close ends the subscriptions the model still holds. It is for the caller
// once the program has stopped (it must not run beside Update); quitting
// with q has done it already.
func (m *Model) Close() {
	if m.sub != nil {
		m.sub.Close()
		m.sub = nil
	}
	if m.box != nil {
		m.cfg.Lobby.Unsubscribe(m.box)
		m.box = nil
	}
}

// leave drops the current screen's subscriptions, returning the command
// that closes a table subscription.
func (m *Model) leave() tea.Cmd {
	m.gen++
	var cmd tea.Cmd
	if m.sub != nil {
		cmd = closeSub(m.sub)
		m.sub = nil
	}
	if m.box != nil {
		m.cfg.Lobby.Unsubscribe(m.box)
		m.box = nil
	}
	return cmd
}

// toLobby shows the lobby, with a status line.
func (m *Model) toLobby(status string, isErr bool) tea.Cmd {
	cmd := m.leave()
	m.screen = screenLobby
	m.lobby.setStatus(status, isErr)
	m.box = m.cfg.Lobby.Subscribe()
	return tea.Batch(cmd, waitLobby(m.cfg.Lobby, m.cfg.Player.Viewer(), m.box, m.cfg.Done))
}

// toTable opens a table (and sits down when sit is set).
func (m *Model) toTable(name string, sit bool) tea.Cmd {
	cmd := m.leave()
	m.screen = screenTable
	m.table = newTableScreen(m.s, m.cfg.Player, name, nil)
	m.resize()
	return tea.Batch(cmd, openTable(m.cfg.Lobby, m.cfg.Player, name, m.gen, sit))
}

// quit closes every subscription, then quits.
func (m *Model) quit() tea.Cmd {
	return tea.Sequence(m.leave(), tea.Quit)
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

	case lobbyMsg:
		if msg.box != m.box {
			return m, nil
		}
		m.lobby.setTables(msg.tables)
		m.lobby.chat = msg.chat
		return m, waitLobby(m.cfg.Lobby, m.cfg.Player.Viewer(), m.box, m.cfg.Done)
	case lobbyClosedMsg:
		if msg.box == m.box {
			m.box = nil
			m.lobby.setStatus("the server is shutting down", true)
		}
		return m, nil
	case lobbyOpen:
		return m, m.toTable(msg.name, false)
	case lobbyNew:
		cmd := m.leave()
		m.screen = screenForm
		m.form = newCreateForm(m.s, m.cfg.Player)
		return m, cmd
	case lobbySay:
		l, p := m.cfg.Lobby, m.cfg.Player
		return m, func() tea.Msg { return lobbySaidMsg{l.Say(p, msg.text)} }
	case lobbySaidMsg:
		if msg.err != nil {
			m.lobby.setStatus(msg.err.Error(), true)
		}
		return m, nil

	case formBack:
		return m, m.toLobby("", false)
	case formSubmit:
		m.gen++
		return m, createTable(m.cfg.Lobby, m.cfg.Player, msg.tc, m.gen)
	case createFailedMsg:
		if msg.gen == m.gen && m.screen == screenForm {
			m.form.busy = false
			m.form.err = msg.err.Error()
		}
		return m, nil

	case openedMsg:
		return m, m.opened(msg)
	case snapshotMsg:
		if msg.sub != m.sub || m.screen != screenTable {
			return m, nil
		}
		var held tea.Cmd
		m.table, held = m.table.setSnapshot(msg.snap)
		cmds := []tea.Cmd{waitSnapshot(m.sub, m.cfg.Done), held}
		if msg.snap.Playing && !m.ticking {
			m.ticking = true
			cmds = append(cmds, tick())
		}
		return m, tea.Batch(cmds...)
	case subClosedMsg:
		if msg.sub != m.sub {
			return m, nil
		}
		m.sub = nil
		return m, m.toLobby("the table "+name(m.table.name)+" was closed", true)
	case tickMsg:
		if m.screen == screenTable && m.table.have && m.table.snap.Playing {
			return m, tick()
		}
		m.ticking = false
		return m, nil
	case doneMsg:
		if m.screen == screenTable {
			var cmd tea.Cmd
			m.table, cmd = m.table.done(msg)
			return m, cmd
		}
		return m, nil
	case tableBack:
		return m, m.toLobby("", false)
	case tableQuit:
		return m, m.quit()
	case recordsMsg:
		return m, m.records(msg)
	case GoodbyeMsg:
		m.fatal = msg.Reason
		if m.fatal == "" {
			m.fatal = "goodbye"
		}
		return m, m.quit()
	}
	return m, nil
}

// resize fits the text inputs to the window.
func (m *Model) resize() {
	w := clamp(m.width, MinWidth, MaxWidth)
	m.lobby.input.Width = w - 6
	m.table.input.Width = w - 6
}

// opened takes the answer to a request to open a table.
func (m *Model) opened(msg openedMsg) tea.Cmd {
	if msg.gen != m.gen || (m.screen != screenTable && m.screen != screenForm) {
		return closeSub(msg.sub)
	}
	if msg.err != nil {
		return m.toLobby(fmt.Sprintf("could not open %s: %v", name(msg.name), msg.err), true)
	}
	m.screen = screenTable
	m.sub = msg.sub
	m.table = newTableScreen(m.s, m.cfg.Player, msg.name, msg.table)
	m.resize()
	if msg.sitErr != nil {
		m.table.setStatus("could not sit down: "+msg.sitErr.Error(), true)
	}
	return waitSnapshot(m.sub, m.cfg.Done)
}

// typing reports whether a text input has the keyboard.
func (m *Model) typing() bool {
	switch m.screen {
	case screenLobby:
		return m.lobby.typing
	case screenForm:
		return m.form.focus == fieldName
	case screenTable:
		return m.table.typing
	}
	return false
}

// key routes a key press to the screen shown. Runes typed faster than
// they are read arrive as one message ("jjj"); outside a paste each is
// one key press, taken in order.
func (m *Model) key(msg tea.KeyMsg) tea.Cmd {
	if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
		cmds := make([]tea.Cmd, 0, len(msg.Runes))
		for _, r := range msg.Runes {
			cmds = append(cmds, m.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt}))
		}
		return tea.Sequence(cmds...)
	}
	if msg.String() == "ctrl+c" || (m.fatal != "" && msg.String() == "q") {
		return m.quit()
	}
	if m.fatal != "" {
		return nil
	}
	if msg.String() == "?" && !m.typing() {
		m.help.ShowAll = !m.help.ShowAll
		return nil
	}
	var cmd tea.Cmd
	switch m.screen {
	case screenLobby:
		if !m.lobby.typing && msg.String() == "q" {
			return m.quit()
		}
		m.lobby, cmd = m.lobby.update(msg)
	case screenForm:
		m.form, cmd = m.form.update(msg)
	case screenTable:
		m.table, cmd = m.table.update(msg)
	case screenHistory, screenReplay, screenStats:
		if msg.String() == "q" {
			return m.quit()
		}
		cmd = m.recordsKey(msg)
	}
	return cmd
}

// View draws the screen shown, or asks for a bigger window.
func (m *Model) View() string {
	w, h := m.width, m.height
	if w <= 0 || h <= 0 {
		w, h = MinWidth, MinHeight // size not known yet
	}
	if w < MinWidth || h < MinHeight {
		return m.tooSmall(w, h)
	}
	w, h = min(w, MaxWidth), min(h, MaxHeight)
	m.help.Width = w
	if m.fatal != "" {
		return m.s.Error.Render(m.fatal) + "\n\n" + m.s.Subtle.Render("q: quit")
	}
	switch m.screen {
	case screenForm:
		return m.form.view(m.s, &m.help, w, h)
	case screenTable:
		return m.table.render(m.s, &m.help, m.cfg.Now(), w, h)
	case screenHistory, screenReplay, screenStats:
		return m.recordsView(w, h)
	}
	return m.lobby.view(m.s, m.cfg.Player, &m.help, w, h)
}

// tooSmall is the whole screen when the window cannot hold the layout.
func (m *Model) tooSmall(w, h int) string {
	msg := m.s.Center.Render(fmt.Sprintf("make the window at least %d×%d", MinWidth, MinHeight)) + "\n" +
		m.s.Subtle.Render(fmt.Sprintf("(now %d×%d)", w, h))
	return m.s.r.Place(min(w, MaxWidth), min(h, MaxHeight), lipgloss.Center, lipgloss.Center, msg)
}
