package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/mia-game/mia/lobby"
)

// lobbyScreen lists the open tables and shows the lobby chat.
type lobbyScreen struct {
	tables []lobby.TableInfo
	rules  []string // shortRules of each table, made when the list changes
	chat   []lobby.ChatLine
	cursor int
	typing bool
	input  textinput.Model
	status string
	isErr  bool
	keys   lobbyKeys
	ikeys  inputKeys
}

func newLobbyScreen(s *Styles) lobbyScreen {
	return lobbyScreen{keys: newLobbyKeys(), ikeys: newInputKeys(), input: s.newInput("say: ", "a line for the lobby", lobby.MaxChatRunes)}
}

// lobbyOpen asks the root to open a table; lobbyNew to show the form;
// lobbySay to post a chat line.
type (
	lobbyOpen struct{ name string }
	lobbyNew  struct{}
	lobbySay  struct{ text string }
)

// setTables replaces the list, keeping the selected table selected.
func (m *lobbyScreen) setTables(ts []lobby.TableInfo) {
	sel := ""
	if m.cursor >= 0 && m.cursor < len(m.tables) {
		sel = m.tables[m.cursor].Name
	}
	m.tables = ts
	m.rules = make([]string, len(ts))
	m.cursor = clamp(m.cursor, 0, max(0, len(ts)-1))
	for i, t := range ts {
		m.rules[i] = shortRules(t.Rules)
		if t.Name == sel {
			m.cursor = i
		}
	}
}

func (m *lobbyScreen) setStatus(text string, isErr bool) { m.status, m.isErr = text, isErr }

// helpKeys is the key map the help bar shows now.
func (m *lobbyScreen) helpKeys() help.KeyMap {
	if m.typing {
		return m.ikeys
	}
	return m.keys
}

func (m lobbyScreen) update(msg tea.KeyMsg) (lobbyScreen, tea.Cmd) {
	if m.typing {
		switch msg.String() {
		case "enter":
			text := m.input.Value()
			m.input.Reset()
			m.input.Blur()
			m.typing = false
			if strings.TrimSpace(text) == "" {
				return m, nil
			}
			return m, func() tea.Msg { return lobbySay{text} }
		case "esc":
			m.input.Blur()
			m.typing = false
			return m, nil
		}
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		return m, cmd
	}
	switch {
	case key.Matches(msg, m.keys.Up):
		if m.cursor > 0 {
			m.cursor--
		}
	case key.Matches(msg, m.keys.Down):
		if m.cursor < len(m.tables)-1 {
			m.cursor++
		}
	case key.Matches(msg, m.keys.Open):
		if m.cursor < len(m.tables) {
			name := m.tables[m.cursor].Name
			return m, func() tea.Msg { return lobbyOpen{name} }
		}
		m.setStatus("no table to open: press n to create one", true)
	case key.Matches(msg, m.keys.New):
		return m, func() tea.Msg { return lobbyNew{} }
	case key.Matches(msg, m.keys.History), key.Matches(msg, m.keys.Stats):
		table := "" // the selected table, for the "this table" views
		if m.cursor < len(m.tables) {
			table = m.tables[m.cursor].Name
		}
		if key.Matches(msg, m.keys.History) {
			return m, func() tea.Msg { return openHistory{table} }
		}
		return m, func() tea.Msg { return openStats{table} }
	case key.Matches(msg, m.keys.Chat):
		m.typing = true
		m.status = ""
		return m, m.input.Focus()
	}
	return m, nil
}

// view draws the lobby in w×h cells.
func (m *lobbyScreen) view(s *Styles, me lobby.Player, hv *help.Model, w, h int) string {
	var b strings.Builder
	title := s.Title.Render("mia")
	right := "you are " + name(me.Name)
	count := "1 open table"
	if len(m.tables) != 1 {
		count = fmt.Sprintf("%d open tables", len(m.tables))
	}
	b.WriteString(fit(title+s.TitleBar.Render(" lobby · "+count), w-ansi.StringWidth(right)))
	b.WriteString(s.Subtle.Render(right))
	b.WriteString("\n\n")

	chatH := clamp(h-18, 5, 10)
	helpH := 1
	var helpView string
	if hv.ShowAll {
		helpView = hv.View(m.helpKeys())
		helpH = min(strings.Count(helpView, "\n")+1, 4)
	}
	listH := h - 2 - 1 - 1 - (chatH + 1) - 1 - helpH

	// Columns: marker, lock, name, host, seats, state, rules.
	const hostW, seatsW, stateW = 12, 5, 7
	fixed := 2 + 2 + 1 + 1 + hostW + 1 + seatsW + 1 + stateW + 1
	nameW := clamp(w-fixed-30, 12, lobby.MaxNameLen)
	rulesW := w - fixed - nameW
	b.WriteString(s.Header.Render(fit("     "+fit("TABLE", nameW)+" "+fit("HOST", hostW)+" "+fit("SEATS", seatsW)+" "+
		fit("STATE", stateW)+" RULES", w)))
	b.WriteByte('\n')
	lines := 0
	if len(m.tables) == 0 {
		b.WriteString(s.Subtle.Render(fit("    No tables yet: press n to open one.", w)))
		b.WriteByte('\n')
		lines++
	}
	start := clamp(m.cursor-listH+1, 0, max(0, len(m.tables)-listH))
	for i := start; i < len(m.tables) && lines < listH; i++ {
		t := m.tables[i]
		lock := "  "
		if t.Private {
			lock = "🔒"
		}
		row := "  " + lock + " " + fit(name(t.Name), nameW) + " " + fit(name(t.Host), hostW) + " " +
			fit(fmt.Sprintf("%d/%d", t.Taken, t.Seats), seatsW) + " " + fit(t.State, stateW) + " " + fit(m.rules[i], rulesW)
		if i == m.cursor {
			b.WriteString(s.Selected.Render(fit("›"+row[1:], w)))
		} else {
			b.WriteString(row)
		}
		b.WriteByte('\n')
		lines++
	}
	for ; lines < listH; lines++ {
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	b.WriteString(s.Header.Render("Lobby chat"))
	b.WriteByte('\n')
	chat := chatBlock(s, m.chat, w, chatH)
	for i := 0; i < chatH; i++ {
		if i < len(chat) {
			b.WriteString(chat[i])
		}
		b.WriteByte('\n')
	}
	switch {
	case m.typing:
		b.WriteString(m.input.View())
	case m.status != "" && m.isErr:
		b.WriteString(s.Error.Render(cut(m.status, w)))
	case m.status != "":
		b.WriteString(s.Info.Render(cut(m.status, w)))
	}
	b.WriteByte('\n')
	if hv.ShowAll {
		b.WriteString(helpView)
	} else {
		b.WriteString(hv.View(m.helpKeys()))
	}
	return b.String()
}
