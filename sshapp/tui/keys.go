package tui

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// lobbyKeys are the lobby's bindings.
type lobbyKeys struct {
	Up, Down, Open, New, Chat, Help, Quit key.Binding
	History, Stats                        key.Binding // the records screens
	Watch                                 key.Binding // be told when a seat is free (with the alerts)
}

func makeLobbyKeys() lobbyKeys {
	return lobbyKeys{
		Up:   key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down: key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Open: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open table")),
		New:  key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new table")),
		Chat: key.NewBinding(key.WithKeys("c", "tab"), key.WithHelp("c", "chat")),
		Help: key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit: key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),

		History: key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "history")),
		Stats:   key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "stats")),
		Watch:   key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "watch: told of a free seat")),
	}
}

// ShortHelp is the lobby's help bar.
func (k lobbyKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.New, k.Chat, k.History, k.Stats, k.Help, k.Quit, k.Watch}
}

// FullHelp is the lobby's full help.
func (k lobbyKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Open}, {k.New, k.Chat, k.Watch}, {k.History, k.Stats}, {k.Help, k.Quit}}
}

// formKeys are the create-table form's bindings.
type formKeys struct {
	Up, Down, Left, Right, Toggle, Create, Back, Help key.Binding
}

func newFormKeys() formKeys {
	return formKeys{
		Up:     key.NewBinding(key.WithKeys("up", "shift+tab"), key.WithHelp("↑", "previous")),
		Down:   key.NewBinding(key.WithKeys("down", "tab"), key.WithHelp("↓/tab", "next")),
		Left:   key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←", "less")),
		Right:  key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→", "more")),
		Toggle: key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "change")),
		Create: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "create")),
		Back:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Help:   key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
	}
}

// ShortHelp is the form's help bar.
func (k formKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Left, k.Right, k.Create, k.Back}
}

// FullHelp is the form's full help.
func (k formKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down}, {k.Left, k.Right, k.Toggle}, {k.Create, k.Back, k.Help}}
}

// tableKeys are the table's bindings; only the actions legal now are
// enabled, so the help bar lists exactly those.
type tableKeys struct {
	Roll, Blind, Challenge, Pass, GiveUp, Announce, Sit, Start, Chat, Back, Help, Quit key.Binding
	AddBot, RemoveBot                                                                  key.Binding // the host's, between games
	Seed                                                                               key.Binding // your seed for the next game's dice

	all [][]key.Binding // every binding, enabled, for the full help
}

func makeTableKeys() tableKeys {
	k := tableKeys{
		Roll:      key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "roll")),
		Blind:     key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "blind")),
		Challenge: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "liar!")),
		Pass:      key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pass")),
		GiveUp:    key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "give up")),
		Announce:  key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "announce")),
		Sit:       key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sit")),
		Start:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "start")),
		Chat:      key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "chat")),
		Back:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "lobby")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:      key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		AddBot:    key.NewBinding(key.WithKeys("+"), key.WithHelp("+", "add "+string(addBotLevel)+" bot")),
		RemoveBot: key.NewBinding(key.WithKeys("-"), key.WithHelp("-", "remove bot")),
		Seed:      key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "dice seed")),
	}
	k.Pass.SetHelp("p", "pass on")
	k.Announce.SetHelp("a", "announce/raise")
	k.Sit.SetHelp("s", "sit/stand/leave")
	k.Start.SetHelp("enter", "start/play again")
	k.all = [][]key.Binding{
		{k.Roll, k.Blind, k.Announce},
		{k.Challenge, k.Pass, k.GiveUp},
		{k.Start, k.Sit, k.AddBot, k.RemoveBot, k.Seed},
		{k.Chat, k.Back, k.Help, k.Quit},
	}
	return k
}

// ShortHelp is the table's help bar: the actions legal now (disabled
// bindings are not shown), then help, then the rest, which a narrow window
// cuts off ("…") before the help key.
func (k tableKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Roll, k.Blind, k.Challenge, k.Pass, k.Announce, k.GiveUp, k.Start, k.Sit, k.AddBot, k.RemoveBot, k.Seed, k.Help, k.Chat, k.Back, k.Quit}
}

// FullHelp is the table's full help: every key, legal now or not.
func (k tableKeys) FullHelp() [][]key.Binding { return k.all }

// scrollKeys scroll a text taller than its window (the table's full
// help).
type scrollKeys struct {
	Up, Down, PageUp, PageDown key.Binding
}

func makeScrollKeys() scrollKeys {
	return scrollKeys{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "scroll up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "scroll down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", " "), key.WithHelp("pgdn", "page down")),
	}
}

// scroll moves *top for a scroll key (page lines at a time for a page),
// reporting whether msg was one. The drawing keeps *top in range.
func (k scrollKeys) scroll(msg tea.KeyMsg, top *int, page int) bool {
	switch {
	case key.Matches(msg, k.Up):
		*top = max(0, *top-1)
	case key.Matches(msg, k.Down):
		*top++
	case key.Matches(msg, k.PageUp):
		*top = max(0, *top-max(1, page))
	case key.Matches(msg, k.PageDown):
		*top += max(1, page)
	default:
		return false
	}
	return true
}

// pickerKeys are the claim picker's bindings.
type pickerKeys struct {
	Up, Down, Truth, Choose, Cancel key.Binding
}

func makePickerKeys() pickerKeys {
	return pickerKeys{
		Up:     key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "lower")),
		Down:   key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "higher")),
		Truth:  key.NewBinding(key.WithKeys("*", "d"), key.WithHelp("d", "your dice")),
		Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "announce")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}

// ShortHelp is the picker's help bar.
func (k pickerKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Truth, k.Choose, k.Cancel}
}

// FullHelp is the picker's full help.
func (k pickerKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// inputKeys are the bindings while typing a chat line.
type inputKeys struct {
	Send, Cancel key.Binding
	// Full is no key: the note that the line holds all it may (enabled
	// then, see full).
	Full key.Binding
}

func makeInputKeys() inputKeys {
	return inputKeys{
		Send:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		// a key name no key press has: help shows only bindings with keys
		Full: key.NewBinding(key.WithKeys("(full)"), key.WithDisabled()),
	}
}

// full names the limit of a line of at most limit characters in the note
// shown when it is reached.
func (k *inputKeys) full(limit int) {
	k.Full.SetHelp(fmt.Sprintf("%d/%d", limit, limit), "the line is full")
}

// ShortHelp is the chat input's help bar.
func (k inputKeys) ShortHelp() []key.Binding { return []key.Binding{k.Send, k.Cancel, k.Full} }

// FullHelp is the chat input's full help.
func (k inputKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// confirmKeys are the bindings of a yes/no question.
type confirmKeys struct {
	Yes, No key.Binding
}

func makeConfirmKeys() confirmKeys {
	return confirmKeys{
		Yes: key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "yes, leave")),
		No:  key.NewBinding(key.WithKeys("n", "N", "esc"), key.WithHelp("n/esc", "stay")),
	}
}

// ShortHelp is the question's help bar.
func (k confirmKeys) ShortHelp() []key.Binding { return []key.Binding{k.Yes, k.No} }

// FullHelp is the question's full help.
func (k confirmKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// promptKeys are the name prompt's bindings.
type promptKeys struct {
	Confirm, Quit key.Binding
}

func makePromptKeys() promptKeys {
	return promptKeys{
		Confirm: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "confirm")),
		Quit:    key.NewBinding(key.WithKeys("q", "esc"), key.WithHelp("q", "quit")),
	}
}

// ShortHelp is the prompt's help bar.
func (k promptKeys) ShortHelp() []key.Binding { return []key.Binding{k.Confirm, k.Quit} }

// FullHelp is the prompt's full help.
func (k promptKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// The key maps as every screen starts with them, made once: a screen
// takes a copy, which shares their keys and help texts (a key map of its
// own was some 2 KB a session), and changes only its copy's bindings
// (enabled, help), never the slices they share. The scroll and confirm
// keys never change: screens use these, not copies.
var (
	lobbyKeysProto   = makeLobbyKeys()
	tableKeysProto   = makeTableKeys()
	scrollKeysProto  = makeScrollKeys()
	pickerKeysProto  = makePickerKeys()
	inputKeysProto   = makeInputKeys()
	confirmKeysProto = makeConfirmKeys()
	promptKeysProto  = makePromptKeys()
)

func newLobbyKeys() lobbyKeys   { return lobbyKeysProto }
func newTableKeys() tableKeys   { return tableKeysProto }
func newPickerKeys() pickerKeys { return pickerKeysProto }
func newInputKeys() inputKeys   { return inputKeysProto }
func newPromptKeys() promptKeys { return promptKeysProto }
