package sshapp

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mia-game/mia/sshapp/tui"
	"github.com/mia-game/mia/sshapp/ui"
)

// root is a session's screen once the lobby is wired in: the name prompt
// for a new key, then the lobby and tables of package tui.
type root struct {
	prompt  ui.Model
	game    tea.Model // nil until the player has a name
	start   func(name string) tea.Model
	lastWin tea.WindowSizeMsg
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
		if bye, ok := msg.(ui.GoodbyeMsg); ok {
			msg = tui.GoodbyeMsg{Reason: bye.Reason}
		}
		var cmd tea.Cmd
		r.game, cmd = r.game.Update(msg)
		return r, cmd
	}
	m, cmd := r.prompt.Update(msg)
	r.prompt = m.(ui.Model)
	if name, ok := r.prompt.Named(); ok {
		r.game = r.start(name)
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
