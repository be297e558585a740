package tui

import "github.com/charmbracelet/bubbles/key"

// historyKeys are the history list's bindings.
type historyKeys struct {
	Up, Down, Open, Filter, Next, Prev, Back, Help, Quit key.Binding
}

func newHistoryKeys() historyKeys {
	return historyKeys{
		Up:     key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:   key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Open:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "replay")),
		Filter: key.NewBinding(key.WithKeys("f", "tab"), key.WithHelp("f", "filter")),
		Next:   key.NewBinding(key.WithKeys("right", "l", "pgdown", "n"), key.WithHelp("→/l", "older")),
		Prev:   key.NewBinding(key.WithKeys("left", "h", "pgup", "p"), key.WithHelp("←/h", "newer")),
		Back:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "lobby")),
		Help:   key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:   key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
	}
}

// ShortHelp is the history list's help bar.
func (k historyKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Filter, k.Prev, k.Next, k.Back, k.Help, k.Quit}
}

// FullHelp is the history list's full help.
func (k historyKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Open}, {k.Filter, k.Prev, k.Next}, {k.Back, k.Help, k.Quit}}
}

// replayKeys are the replay viewer's bindings.
type replayKeys struct {
	Back1, Fwd1, PrevRound, NextRound, First, Last, Back, Help, Quit key.Binding

	steps, rounds, ends key.Binding // the help bar's short forms of the pairs above
}

func newReplayKeys() replayKeys {
	return replayKeys{
		Back1:     key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "step back")),
		Fwd1:      key.NewBinding(key.WithKeys("right", "l", " "), key.WithHelp("→/l/space", "step on")),
		PrevRound: key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "round back")),
		NextRound: key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next round")),
		First:     key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home/g", "first step")),
		Last:      key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end/G", "last step")),
		Back:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "list")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:      key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),

		steps:  key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "step")),
		rounds: key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "round")),
		ends:   key.NewBinding(key.WithKeys("home", "end"), key.WithHelp("home/end", "first/last")),
	}
}

// ShortHelp is the replay viewer's help bar.
func (k replayKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.steps, k.rounds, k.ends, k.Back, k.Help, k.Quit}
}

// FullHelp is the replay viewer's full help.
func (k replayKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Back1, k.Fwd1}, {k.PrevRound, k.NextRound}, {k.First, k.Last}, {k.Back, k.Help, k.Quit}}
}

// statsKeys are the stats screen's bindings.
type statsKeys struct {
	Board, Prev, Next, AllTime, Up, Down, Reload, Back, Help, Quit key.Binding
}

func newStatsKeys() statsKeys {
	return statsKeys{
		Board:   key.NewBinding(key.WithKeys("f", "tab"), key.WithHelp("f", "overall/table")),
		Prev:    key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←", "season before")),
		Next:    key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→", "season after")),
		AllTime: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "all time/season")),
		Up:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "scroll up")),
		Down:    key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "scroll down")),
		Reload:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reload")),
		Back:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "lobby")),
		Help:    key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:    key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
	}
}

// ShortHelp is the stats screen's help bar.
func (k statsKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Board, k.Prev, k.Next, k.AllTime, k.Down, k.Back, k.Help, k.Quit}
}

// FullHelp is the stats screen's full help.
func (k statsKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Board, k.AllTime, k.Reload}, {k.Prev, k.Next}, {k.Up, k.Down}, {k.Back, k.Help, k.Quit}}
}
