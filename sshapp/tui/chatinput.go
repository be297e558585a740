package tui

import (
	"strings"

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
}

func (s *Styles) newChatInput(placeholder string) chatInput {
	return chatInput{Model: s.newInput("say: ", placeholder, lobby.MaxChatRunes), keys: newInputKeys()}
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
		return text, true, nil
	case key.Matches(msg, c.keys.Cancel):
		c.Blur()
		c.typing = false
		return "", false, nil
	}
	c.Model, cmd = c.Model.Update(msg)
	return "", false, cmd
}
