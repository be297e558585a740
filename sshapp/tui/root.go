package tui

import (
	tea "github.com/charmbracelet/bubbletea"
)

// root is a session's screen once the lobby is wired in: the name prompt
// for a new key, then the lobby and tables.
type root struct {
	prompt  Prompt
	game    tea.Model // nil until the player has a name
	start   func(name string) tea.Model
	lastWin tea.WindowSizeMsg
}

// NewRoot is a session's screen: prompt until the player has a name, then
// the model start makes for that name.
func NewRoot(prompt Prompt, start func(name string) tea.Model) tea.Model {
	r := &root{prompt: prompt, start: start}
	if name, ok := prompt.Named(); ok {
		r.game = start(name)
		r.prompt = Prompt{} // never shown again: let its styles go
	}
	return r
}

func (r *root) Init() tea.Cmd {
	if r.game != nil {
		return r.game.Init()
	}
	return r.prompt.Init()
}

func (r *root) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if w, ok := msg.(tea.WindowSizeMsg); ok {
		r.lastWin = w
	}
	if r.game != nil {
		var cmd tea.Cmd
		r.game, cmd = r.game.Update(msg)
		return r, cmd
	}
	m, cmd := r.prompt.Update(msg)
	r.prompt = m.(Prompt)
	if name, ok := r.prompt.Named(); ok {
		r.game = r.start(name)
		r.prompt = Prompt{}
		init := r.game.Init()
		var size tea.Cmd
		if r.lastWin.Width > 0 {
			w := r.lastWin
			size = func() tea.Msg { return w }
		}
		return r, tea.Batch(cmd, init, size)
	}
	return r, cmd
}

func (r *root) View() string {
	if r.game != nil {
		return r.game.View()
	}
	return r.prompt.View()
}

// Close ends the screens' subscriptions.
func (r *root) Close() {
	if c, ok := r.game.(interface{ Close() }); ok {
		c.Close()
	}
}
