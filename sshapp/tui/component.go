package tui

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Component is the contract of every screen, as soft-serve's
// common.Component: a Bubble Tea model that names the keys it takes now
// (help.KeyMap, for the help bar) and draws itself in the size it is
// given. A screen makes its own calls into the lobby and the store (their
// answers come back to it as replies, shown or not); it asks the root only
// to show another screen or to quit (navigator).
type Component interface {
	tea.Model
	help.KeyMap
	// SetSize gives the screen its size (at most MaxWidth×MaxHeight), and
	// again whenever the window or the help view changes.
	SetSize(width, height int)
	// Typing reports whether a text input has the keyboard: then ? and q
	// are text, not commands.
	Typing() bool
	// Leave drops what the screen holds (its subscriptions) when another
	// screen is shown or the program quits. The command it returns
	// finishes that off the event loop.
	Leave() tea.Cmd
}

// common is what every screen of a session shares: the session's config,
// its styles (built once from the session's renderer) and its help view.
type common struct {
	cfg  Config
	s    *Styles
	help help.Model
	nav  navigator
}

// helpView is the help bar of k: the short help, or the full help cut to
// at most lines lines.
func (c *common) helpView(k help.KeyMap, lines int) string {
	if c.help.ShowAll {
		return cutLines(c.help.View(k), lines)
	}
	return c.help.View(k)
}

// helpHeight is the height of the help view of k, the full help counted up
// to most lines.
func (c *common) helpHeight(k help.KeyMap, most int) int {
	if !c.help.ShowAll {
		return 1
	}
	return min(lineCount(c.help.View(k)), most)
}

// frame is what every screen keeps: the session's common state, its size,
// the key map its help shows now, its chat line if it has one, and what
// it redraws when its size changes. Its methods are the defaults of
// Component; a screen defines its own where it differs.
type frame struct {
	c       *common
	w, h    int
	shown   func() help.KeyMap // the key map the help shows now
	input   *chatInput         // the screen's chat line, or nil
	resized func()             // lays the screen out again after SetSize, or nil
}

// Init implements tea.Model: nothing to load.
func (f *frame) Init() tea.Cmd { return nil }

// SetSize implements Component.
func (f *frame) SetSize(w, h int) {
	f.w, f.h = w, h
	if f.input != nil {
		f.input.Width = w - 6
	}
	if f.resized != nil {
		f.resized()
	}
}

// Typing implements Component: the chat line has the keyboard.
func (f *frame) Typing() bool { return f.input != nil && f.input.typing }

// Leave implements Component: nothing held.
func (f *frame) Leave() tea.Cmd { return nil }

// ShortHelp implements help.KeyMap.
func (f *frame) ShortHelp() []key.Binding { return f.shown().ShortHelp() }

// FullHelp implements help.KeyMap.
func (f *frame) FullHelp() [][]key.Binding { return f.shown().FullHelp() }

// updateLoads is the Update of a screen that loads what it shows: the
// answers of type A go to loaded, the keys to key.
func updateLoads[A any](m Component, msg tea.Msg, loaded func(A), key func(tea.KeyMsg) tea.Cmd) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case A:
		loaded(msg)
	case tea.KeyMsg:
		return m, key(msg)
	}
	return m, nil
}

// reply carries the answer to a screen's request back to that screen,
// whether it is still shown or not (a screen that was left drops it, or
// closes what it brings).
type reply struct {
	to  Component
	msg tea.Msg
}

// ask runs cmd off the event loop and brings its message back to to.
func ask(to Component, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		msg := cmd()
		if msg == nil {
			return nil
		}
		return reply{to: to, msg: msg}
	}
}

// goTo names a new screen of the list in screens.go, with what it shows.
type goTo struct {
	to     screenID
	table  string    // screenTable: the table to open; history and stats: the "this table" view
	sit    bool      // screenTable: sit down too
	game   string    // screenReplay: the game
	back   Component // screenReplay: the list to go back to; nil: the lobby
	status string    // screenLobby: a status line
	isErr  bool
}

// navigator is the root as the screens see it. A screen calls it from its
// Update, so the next key already reaches the screen it shows; each
// returns the commands that finish the change.
type navigator interface {
	// goTo leaves the screen shown and shows a new one.
	goTo(g goTo) tea.Cmd
	// backTo shows again a screen shown before, as it was left.
	backTo(s Component) tea.Cmd
	// quit closes every subscription and quits.
	quit() tea.Cmd
}
