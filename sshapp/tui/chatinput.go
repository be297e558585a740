package tui

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mia-game/mia/lobby"
)

// chatInput is the line a person types into a chat (the lobby's or a
// table's): c or t starts it, enter sends it, esc puts it away.
type chatInput struct {
	textinput.Model
	typing bool // the line has the keyboard
	keys   inputKeys
	sent   string // the last line sent, until it is taken
}

func (s *Styles) newChatInput(placeholder string) chatInput {
	c := chatInput{Model: s.newInput("say: ", placeholder, lobby.MaxChatRunes), keys: newInputKeys()}
	c.keys.full(lobby.MaxChatRunes)
	return c
}

// refused puts the line sent last back (unless another is being typed):
// a line the chat did not take is not lost. The person sends it again
// with the chat key.
func (c *chatInput) refused() {
	if c.Value() == "" {
		c.SetValue(c.sent)
		c.CursorEnd()
	}
	c.sent = ""
	c.sync()
}

// sync shows in the help bar whether the line is full.
func (c *chatInput) sync() {
	c.keys.Full.SetEnabled(c.CharLimit > 0 && utf8.RuneCountInString(c.Value()) >= c.CharLimit)
}

// start gives the line the keyboard.
func (c *chatInput) start() tea.Cmd {
	c.typing = true
	return c.Focus()
}

// key takes a key press while typing. It returns the line to send when
// enter ends one that is not blank.
func (c *chatInput) key(msg tea.KeyMsg) (string, tea.Cmd) {
	text, _, cmd := c.submit(msg)
	if strings.TrimSpace(text) == "" {
		return "", cmd
	}
	return text, cmd
}

// submit is key for a line where blank means something: sent reports that
// enter ended the line, whatever it holds (esc sends nothing).
func (c *chatInput) submit(msg tea.KeyMsg) (text string, sent bool, cmd tea.Cmd) {
	switch {
	case key.Matches(msg, c.keys.Send):
		text = c.Value()
		c.Reset()
		c.Blur()
		c.typing = false
		c.sent = text
		c.sync()
		return text, true, nil
	case key.Matches(msg, c.keys.Cancel):
		c.Blur()
		c.typing = false
		return "", false, nil
	}
	c.Model, cmd = c.Model.Update(msg)
	c.sync()
	return "", false, cmd
}

// keptLine is what a refusal of a chat line adds to its status: the line
// waits in the input, and the chat key k types it again.
func keptLine(k key.Binding) string {
	return " · your line is kept: " + k.Help().Key + " to send it again"
}
