package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
)

type promptPhase int

const (
	asking  promptPhase = iota // choosing a name
	saving                     // the name is being stored
	ready                      // named, without a lobby: the page that points to the commands
	leaving                    // quitting
)

// nameSetMsg is the answer of Config.SetName.
type nameSetMsg struct {
	id, name string
	err      error
}

// promptScreen asks a new key for a display name, and stores it. Once the
// player has a name it shows the first screen; without a lobby, a page
// that points to the commands.
type promptScreen struct {
	frame
	phase  promptPhase
	input  textinput.Model
	errMsg string
	keys   promptKeys
	// refused are the characters refused past the name's end since its
	// last edit (a paste that arrives in pieces): while there are any,
	// the name is not taken as cut, and the refusal says its length.
	refused string
}

// maxRefused bounds what the prompt keeps of refused characters.
const maxRefused = 4096

func newPrompt(c *common) *promptScreen {
	in := c.newInput("> ", "your name", lobby.MaxNameLen)
	in.Width = lobby.MaxNameLen + 1
	in.Focus()
	p := &promptScreen{frame: frame{c: c}, input: in, phase: ready, keys: newPromptKeys()}
	p.shown = func() help.KeyMap { return p.keys }
	// Keys typed while the name is stored wait: for the name again if it
	// is refused, else for the screen shown next.
	p.ready = func() bool { return p.phase != saving }
	p.leaves = func(k tea.KeyMsg) bool { return k.Type == tea.KeyCtrlD }
	if c.cfg.Player.ID == "" {
		p.phase = asking
	}
	p.keys.Quit.SetEnabled(p.phase == ready)
	return p
}

func (p *promptScreen) anySize() {}

// Typing implements Component: the name is typed.
func (p *promptScreen) Typing() bool { return p.phase == asking }

// Update implements tea.Model.
func (p *promptScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case nameSetMsg:
		if msg.err != nil {
			// the keys typed meanwhile go on in the name
			p.phase, p.errMsg = asking, p.c.said("save the name", msg.err)
			return p, p.release(p.key)
		}
		p.errMsg, p.c.cfg.Player.ID, p.c.cfg.Name = "", msg.id, msg.name
		if p.c.cfg.Lobby != nil {
			return p, tea.Batch(p.c.nav.goTo(p.c.first()), p.handOn())
		}
		p.phase = ready
		p.keys.Quit.SetEnabled(true)
		return p, p.release(p.key)
	case tea.KeyMsg:
		return p, p.take(msg, p.key)
	}
	return p, nil
}

func (p *promptScreen) key(msg tea.KeyMsg) tea.Cmd {
	if msg.Type == tea.KeyCtrlD || (p.phase == ready && key.Matches(msg, p.keys.Quit)) {
		p.phase = leaving
		return p.c.nav.quit()
	}
	if p.phase != asking {
		return nil
	}
	if key.Matches(msg, p.keys.Confirm) {
		if p.refused != "" {
			return nil // the refusal stays said: the name is never taken cut
		}
		name := strings.TrimSpace(p.input.Value())
		if name == "" {
			p.errMsg = "type a name first"
			return nil
		}
		p.phase, p.errMsg = saving, ""
		set := p.c.cfg.SetName
		return ask(p, func() tea.Msg {
			id, n, err := set(name)
			return nameSetMsg{id: id, name: n, err: err}
		})
	}
	if msg.Type == tea.KeyRunes && lobby.Overflows(p.input.Value(), len(msg.Runes)) {
		// said by the name rule, never cut without a word
		if len(p.refused) < maxRefused {
			p.refused += string(msg.Runes)
		}
		if err := lobby.CheckName(p.input.Value() + p.refused); err != nil {
			p.errMsg = p.c.said("check the name", err)
		}
		return nil
	}
	before := p.input.Value()
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	if p.input.Value() != before {
		p.errMsg, p.refused = "", "" // the refusal was of the name before
	}
	return cmd
}

// View implements tea.Model.
func (p *promptScreen) View() string {
	s := p.c.s
	var b strings.Builder
	b.WriteString(s.Title.Render("Mia") + s.Subtle.Render(" · the dice bluffing game") + "\n\n")
	switch p.phase {
	case asking, saving:
		if p.c.cfg.Plain != "" { // the command on a line of its own, never broken
			b.WriteString(s.Subtle.Render(words.PlainOffer) + "\n" + p.c.cfg.Plain + "\n" +
				s.Subtle.Render(words.PlainOrSet) + "\n\n")
		}
		b.WriteString("Welcome! Choose a display name:\n")
		b.WriteString(s.Subtle.Render(lobby.NameHint()) + "\n\n")
		b.WriteString(p.input.View() + "\n\n")
		switch {
		case p.phase == saving:
			b.WriteString(s.Subtle.Render("saving…") + "\n")
		case p.errMsg != "":
			// A refusal says why, in as many lines as the window needs.
			for _, l := range words.Wrap(p.errMsg, max(20, p.w-2)) {
				b.WriteString(s.Error.Render(l) + "\n")
			}
		default:
			b.WriteString("\n")
		}
		b.WriteString("\n" + s.Subtle.Render("enter to confirm · ctrl+c to leave"))
	case ready:
		b.WriteString("Hello, " + s.Bold.Render(name(p.c.myName())) + ".\n")
		b.WriteString(s.Subtle.Render("Your key: "+p.c.cfg.Player.Key) + "\n\n")
		b.WriteString("This server has no tables to play at; its commands work:\n")
		b.WriteString("  " + p.c.cfg.Hint + " help\n\n")
		b.WriteString(s.Subtle.Render("q to quit"))
	case leaving:
		b.WriteString("Bye!\n")
	}
	return s.centred(p.w, p.h, b.String())
}
