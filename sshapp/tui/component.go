package tui

import (
	"slices"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/mia-game/mia/lobby"
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
// its styles (built once from the session's renderer, often shared with
// other sessions) and the state of its help view.
type common struct {
	cfg  Config
	s    *Styles
	help helpState
	nav  navigator
	// hold is the viewer there at an event while its screen or one of
	// its tables shows (eventscreen.go); visited the event's tables the
	// viewer was taken to, never again.
	hold    *eventHold
	visited map[string]bool
}

// eventShower is a screen that keeps its viewer there at an event: the
// event's screen, and a table of the event.
type eventShower interface{ holdsEvent() bool }

// letGo lets the viewer go from the event they are there at, unless s
// shows it.
func (c *common) letGo(s Component) {
	if c.hold == nil {
		return
	}
	if es, ok := s.(eventShower); ok && es.holdsEvent() {
		return
	}
	c.hold.att.Close()
	c.hold = nil
}

// said is the sentence a screen shows for err, lobby.Shown's: the one way
// the screens tell an error, as every door does. An error that sentence
// hides is logged (lobby.LogHidden), with what the screen was doing
// ("open the table"), with the person and the key.
func (c *common) said(what string, err error) string {
	lobby.LogHidden(c.cfg.Log, err, "could not "+what, "person", c.cfg.Player.ID, "key", c.cfg.Player.Key)
	return lobby.Shown(err)
}

// myName is the name of the person at the keyboard now: the lobby's (a
// rename from another session shows at once), or the one they had when
// the session began.
func (c *common) myName() string {
	if c.cfg.Lobby != nil && c.cfg.Player.ID != "" {
		return c.cfg.Lobby.Name(c.cfg.Player.ID)
	}
	return c.cfg.Name
}

// helpState is what a session's help view holds of its own; the rest of a
// help.Model is its styles (helpModel).
type helpState struct {
	ShowAll bool // the full help, not the help bar
	Width   int  // the help bar's width; 0: no limit
}

// helpModel is the session's help view: a help.Model is some 3 KB of
// styles, made when drawn rather than kept by every session.
func (c *common) helpModel() help.Model {
	h := c.s.newHelp()
	h.ShowAll, h.Width = c.help.ShowAll, c.help.Width
	return h
}

// helpView is the help bar of k: the short help, or the full help cut to
// at most lines lines.
func (c *common) helpView(k help.KeyMap, lines int) string {
	if c.help.ShowAll {
		h := c.helpModel()
		return cutLines(h.View(k), lines)
	}
	return c.shortHelp(k)
}

// shortHelp is the help bar of k in the help's width: keys that do not
// fit are left out from the end, but ? (the full help, which lists every
// key), never cut in the middle.
func (c *common) shortHelp(k help.KeyMap) string {
	whole := c.helpModel()
	whole.Width = 0 // no limit: measured here
	keys := slices.Clone(k.ShortHelp())
	for {
		v := whole.ShortHelpView(keys)
		if c.help.Width <= 0 || ansi.StringWidth(v) <= c.help.Width {
			return v
		}
		j := len(keys) - 1
		for j >= 0 && (!keys[j].Enabled() || keys[j].Help().Key == "?") {
			j--
		}
		if j < 0 {
			h := c.helpModel()
			return h.ShortHelpView(keys) // ? alone: cut as the help cuts
		}
		keys = slices.Delete(keys, j, j+1)
	}
}

// helpHeight is the height of the help view of k, the full help counted up
// to most lines.
func (c *common) helpHeight(k help.KeyMap, most int) int {
	if !c.help.ShowAll {
		return 1
	}
	h := c.helpModel()
	return min(lineCount(h.View(k)), most)
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
	// ready, when set, reports whether the screen has what its keys act
	// on (a screen that loads it); until then keys wait in held, but
	// those for which leaves is true (esc, q), which act at once and drop
	// the held ones. Every key counts, on a slow link too.
	ready  func() bool
	leaves func(tea.KeyMsg) bool
	held   []tea.KeyMsg
}

// take hands k to key, or holds it while the screen is not ready (or
// keys before it still wait, so that they run in order).
func (f *frame) take(k tea.KeyMsg, key func(tea.KeyMsg) tea.Cmd) tea.Cmd {
	if f.ready == nil || (f.leaves != nil && f.leaves(k)) {
		f.held = nil
		return key(k)
	}
	if !f.ready() || len(f.held) > 0 {
		f.held = append(f.held, k)
		return nil
	}
	return key(k)
}

// release plays the held keys through key, in order, once the screen is
// ready; a key that makes it wait again (a reload) keeps the rest held.
func (f *frame) release(key func(tea.KeyMsg) tea.Cmd) tea.Cmd {
	if f.ready == nil || !f.ready() {
		return nil
	}
	keys := f.held
	f.held = nil
	cmds := make([]tea.Cmd, 0, len(keys))
	for i, k := range keys {
		if !f.ready() {
			f.held = append(keys[i:len(keys):len(keys)], f.held...)
			break
		}
		cmds = append(cmds, key(k))
	}
	return tea.Sequence(cmds...)
}

// handOn gives the held keys to the screen shown next (the root shows it
// at once, in the Update that calls this): they come back to the root as
// key presses, in order. Batch it beside the next screen's Init, never
// after it in a sequence: an Init may wait for long (a subscription).
func (f *frame) handOn() tea.Cmd {
	keys := f.held
	f.held = nil
	cmds := make([]tea.Cmd, len(keys))
	for i, k := range keys {
		cmds[i] = func() tea.Msg { return k }
	}
	return tea.Sequence(cmds...)
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
// answers of type A go to loaded, the keys to key, those pressed while it
// loads once it has loaded (frame.take).
func updateLoads[A any](m Component, f *frame, msg tea.Msg, loaded func(A), key func(tea.KeyMsg) tea.Cmd) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case A:
		loaded(msg)
		return m, f.release(key)
	case tea.KeyMsg:
		return m, f.take(msg, key)
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
	invite *string   // screenTable: an invitation taken: its code ("" for a public table's)
	game   string    // screenReplay: the game
	back   Component // screenReplay: the list to go back to; nil: the lobby
	status string    // screenLobby and screenEvent: a status line
	isErr  bool
	event  string // screenEvent: the event; screenTable: the event whose table it is (back to it after the game)
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
