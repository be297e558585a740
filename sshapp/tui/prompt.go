package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/mia-game/mia/lobby"
)

// PromptParams are what the name prompt needs from its session.
type PromptParams struct {
	// Renderer is the session's renderer: every style comes from it.
	Renderer *lipgloss.Renderer
	// Name is the player's display name, "" for a new key.
	Name string
	// Fingerprint identifies the player's key.
	Fingerprint string
	// SetName stores a name; it returns the stored name, or an error
	// whose text is fit to show the person. It runs outside Update.
	SetName func(name string) (string, error)
	// Hint is the ssh command line that reaches the server
	// ("ssh -p 23234 host"), for tips on screen.
	Hint string
}

type phase int

const (
	asking  phase = iota // choosing a name
	saving               // the name is being stored
	ready                // the placeholder lobby
	leaving              // quitting
)

// nameSetMsg is the result of Params.SetName.
type nameSetMsg struct {
	name string
	err  error
}

// Prompt is the name prompt of a new key, and without a lobby the page
// after it.
type Prompt struct {
	p      PromptParams
	st     promptStyles
	phase  phase
	input  textinput.Model
	errMsg string
	bye    string
	width  int
	height int
}

type promptStyles struct {
	title, dim, err, key lipgloss.Style
}

func newPromptStyles(r *lipgloss.Renderer) promptStyles {
	return promptStyles{
		title: r.NewStyle().Bold(true).Foreground(lipgloss.Color("205")),
		dim:   r.NewStyle().Foreground(lipgloss.Color("245")),
		err:   r.NewStyle().Foreground(lipgloss.Color("196")),
		key:   r.NewStyle().Bold(true),
	}
}

// NewPrompt makes the name prompt if p.Name is "", else the page after
// it.
func NewPrompt(p PromptParams) Prompt {
	if p.Renderer == nil {
		p.Renderer = lipgloss.NewRenderer(nil)
	}
	r := p.Renderer
	in := textinput.New()
	in.Placeholder = "your name"
	in.CharLimit = lobby.MaxNameLen
	in.Width = lobby.MaxNameLen + 1
	in.PromptStyle = r.NewStyle()
	in.TextStyle = r.NewStyle()
	in.PlaceholderStyle = r.NewStyle().Foreground(lipgloss.Color("240"))
	in.CompletionStyle = r.NewStyle()
	in.Cursor.Style = r.NewStyle()
	in.Cursor.TextStyle = r.NewStyle()
	in.Cursor.SetMode(cursor.CursorStatic)
	in.Focus()
	m := Prompt{p: p, st: newPromptStyles(r), input: in, phase: ready, width: 80, height: 24}
	if p.Name == "" {
		m.phase = asking
	}
	return m
}

// Named returns the player's name once they have one.
func (m Prompt) Named() (string, bool) { return m.p.Name, m.phase == ready }

// Init implements tea.Model.
func (m Prompt) Init() tea.Cmd { return nil }

// Update implements tea.Model.
func (m Prompt) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m, nil
	case GoodbyeMsg:
		m.phase, m.bye = leaving, msg.Reason
		return m, tea.Quit
	case nameSetMsg:
		if msg.err != nil {
			m.phase, m.errMsg = asking, msg.err.Error()
			return m, nil
		}
		m.phase, m.errMsg, m.p.Name = ready, "", msg.name
		return m, nil
	case tea.KeyMsg:
		if msg.Type == tea.KeyCtrlC || msg.Type == tea.KeyCtrlD {
			m.phase = leaving
			return m, tea.Quit
		}
		return m.key(msg)
	}
	return m, nil
}

func (m Prompt) key(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch m.phase {
	case asking:
		if msg.Type == tea.KeyEnter {
			name := strings.TrimSpace(m.input.Value())
			if name == "" {
				m.errMsg = "type a name first"
				return m, nil
			}
			m.phase, m.errMsg = saving, ""
			set := m.p.SetName
			return m, func() tea.Msg {
				n, err := set(name)
				return nameSetMsg{name: n, err: err}
			}
		}
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		return m, cmd
	case ready:
		if msg.String() == "q" || msg.Type == tea.KeyEsc {
			m.phase = leaving
			return m, tea.Quit
		}
	}
	return m, nil
}

// View implements tea.Model.
func (m Prompt) View() string {
	var b strings.Builder
	b.WriteString(m.st.title.Render("Mia") + m.st.dim.Render(" · the dice bluffing game") + "\n\n")
	switch m.phase {
	case asking, saving:
		b.WriteString("Welcome! Choose a display name:\n")
		b.WriteString(m.st.dim.Render(lobby.NameHint()) + "\n\n")
		b.WriteString(m.input.View() + "\n\n")
		switch {
		case m.phase == saving:
			b.WriteString(m.st.dim.Render("saving…") + "\n")
		case m.errMsg != "":
			b.WriteString(m.st.err.Render(m.errMsg) + "\n")
		default:
			b.WriteString("\n")
		}
		b.WriteString("\n" + m.st.dim.Render("enter to confirm · ctrl+c to leave"))
	case ready:
		b.WriteString("Hello, " + m.st.key.Render(m.p.Name) + ".\n")
		b.WriteString(m.st.dim.Render("Your key: "+m.p.Fingerprint) + "\n\n")
		b.WriteString("The lobby is coming soon. Meanwhile, try:\n")
		b.WriteString("  " + m.p.Hint + " help\n\n")
		b.WriteString(m.st.dim.Render("q to quit"))
	case leaving:
		if m.bye != "" {
			b.WriteString(m.bye + "\n")
		} else {
			b.WriteString("Bye!\n")
		}
	}
	return m.p.Renderer.Place(m.width, m.height, lipgloss.Center, lipgloss.Center, b.String())
}
