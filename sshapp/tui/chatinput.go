package tui

import (
	"fmt"
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
	// kept are lines the chat refused, oldest first, waiting to be sent
	// again: each comes back into the line once it is empty.
	kept []string
	// Lines go to the chat one at a time, in the order they were sent:
	// inflight while one awaits its answer, queue the ones sent meanwhile.
	inflight bool
	queue    []string
	// whole, when set, is what a line holds (a seed): text that does not
	// fit is refused whole, saying so, never cut to fit; refusedNow is
	// the refusal until the next key.
	whole      string
	refusedNow bool
}

func (c *common) newChatInput(placeholder string) chatInput {
	l := chatInput{Model: c.newInput("say: ", placeholder, lobby.MaxChatRunes), keys: newInputKeys()}
	l.keys.full(lobby.MaxChatRunes)
	return l
}

// send is a line sent with enter: it returns the line to send now, or
// ok false when it waits behind the line on its way (answered sends it).
// Lines sent one after another reach the chat in their order.
func (c *chatInput) send(text string) (string, bool) {
	if c.inflight {
		c.queue = append(c.queue, text)
		return "", false
	}
	c.inflight = true
	return text, true
}

// answered takes the answer to the line on its way: a refused line is
// kept, and so is every line sent behind it, in order (the chat would
// refuse them too); after a line taken, the next waiting one is to be
// sent now (ok).
func (c *chatInput) answered(line string, err error) (next string, ok bool) {
	c.inflight = false
	if err != nil {
		queued := c.queue
		c.queue = nil
		c.kept = append(c.kept, append([]string{line}, queued...)...)
		c.restore()
		return "", false
	}
	if len(c.queue) == 0 {
		return "", false
	}
	next, c.queue = c.queue[0], c.queue[1:]
	c.inflight = true
	return next, true
}

// restore puts the oldest kept line into the line if it is empty.
func (c *chatInput) restore() {
	if c.Value() == "" && len(c.kept) > 0 {
		c.SetValue(c.kept[0])
		c.CursorEnd()
		c.kept = c.kept[1:]
	}
	c.sync()
}

// waiting is the number of lines kept to be sent again: the one in the
// line (when it is not being typed) and those behind it.
func (c *chatInput) waiting() int {
	n := len(c.kept)
	if !c.typing && c.Value() != "" {
		n++
	}
	return n
}

// sync shows in the help bar whether the line is full, or that text was
// refused for not fitting.
func (c *chatInput) sync() {
	full := c.CharLimit > 0 && utf8.RuneCountInString(c.Value()) >= c.CharLimit
	c.keys.Full.SetEnabled(full || c.refusedNow)
	if c.refusedNow {
		c.keys.Full.SetHelp("not taken:", fmt.Sprintf("%s at most %d characters", c.whole, c.CharLimit))
	} else {
		c.keys.full(c.CharLimit)
	}
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
		c.restore() // the next line kept, if any, waits in the line
		return text, true, nil
	case key.Matches(msg, c.keys.Cancel):
		c.Blur()
		c.typing = false
		return "", false, nil
	}
	c.refusedNow = c.whole != "" && msg.Type == tea.KeyRunes && c.CharLimit > 0 &&
		utf8.RuneCountInString(c.Value())+len(msg.Runes) > c.CharLimit
	if !c.refusedNow {
		c.Model, cmd = c.Model.Update(msg)
	}
	c.sync()
	return "", false, cmd
}

// keptLine is what a refusal of a chat line adds to its status: the n
// lines kept wait in the input, and the chat key k brings each back.
func keptLine(k key.Binding, n int) string {
	if n <= 1 {
		return " · your line is kept: " + k.Help().Key + " to send it again"
	}
	return fmt.Sprintf(" · %d lines kept: %s to send each again", n, k.Help().Key)
}
