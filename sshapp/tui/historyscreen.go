package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
)

// historyFilter is which finished games the history list shows.
type historyFilter int

// The filters, in the order f cycles through them.
const (
	filterMine  historyFilter = iota // games the viewer sat in
	filterTable                      // games of one table
	filterAll                        // every game the viewer may see
	filterCount
)

// historyChrome is the number of lines of the history screen around its
// rows, with the one-line help bar.
const historyChrome = 8

// historyScreen lists finished games, newest first, a page at a time.
type historyScreen struct {
	me      lobby.Player
	table   string // the table of filterTable; "" skips that filter
	filter  historyFilter
	limit   int      // games per page
	pages   []string // the Query.Before of each page on the way here; the last is this page's
	games   []store.Game
	next    string // the Before of the next page, "" if none
	cursor  int
	loading bool
	req     uint64 // the load whose answer is wanted
	err     string
	keys    historyKeys
}

func newHistoryScreen(me lobby.Player, table string, limit int) historyScreen {
	return historyScreen{me: me, table: table, limit: max(1, limit), pages: []string{""}, keys: newHistoryKeys()}
}

// query is the store query of the page shown.
func (m *historyScreen) query() store.Query {
	q := store.Query{Limit: m.limit, Before: m.pages[len(m.pages)-1]}
	switch m.filter {
	case filterMine:
		q.Player = m.me.Fingerprint
	case filterTable:
		q.Table = m.table
	}
	return q
}

// load reads the page shown.
func (m *historyScreen) load(rec Records) tea.Cmd {
	m.req = nextReq()
	m.loading = true
	m.err = ""
	return loadGames(rec, m.me, m.query(), m.req)
}

// loaded takes the answer to the newest load.
func (m *historyScreen) loaded(msg historyLoaded) {
	if msg.req != m.req {
		return
	}
	m.loading = false
	if msg.err != nil {
		m.err = msg.err.Error()
		m.games, m.next = nil, ""
		return
	}
	m.games, m.next = msg.games, msg.next
	m.cursor = clamp(m.cursor, 0, max(0, len(m.games)-1))
}

func (m historyScreen) update(msg tea.KeyMsg, rec Records) (historyScreen, tea.Cmd) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Back):
		return m, func() tea.Msg { return recordsBack{} }
	case key.Matches(msg, k.Up):
		if m.cursor > 0 {
			m.cursor--
		}
	case key.Matches(msg, k.Down):
		if m.cursor < len(m.games)-1 {
			m.cursor++
		}
	case key.Matches(msg, k.Open):
		if m.cursor < len(m.games) && !m.loading {
			id := m.games[m.cursor].ID
			return m, func() tea.Msg { return openReplay{id} }
		}
	case key.Matches(msg, k.Filter):
		m.filter = (m.filter + 1) % filterCount
		if m.filter == filterTable && m.table == "" {
			m.filter++
		}
		m.pages, m.cursor = m.pages[:1], 0
		return m, m.load(rec)
	case key.Matches(msg, k.Next):
		if m.next != "" && !m.loading {
			m.pages = append(m.pages, m.next)
			m.cursor = 0
			return m, m.load(rec)
		}
	case key.Matches(msg, k.Prev):
		if len(m.pages) > 1 && !m.loading {
			m.pages = m.pages[:len(m.pages)-1]
			m.cursor = 0
			return m, m.load(rec)
		}
	}
	return m, nil
}

// filterName is the words for a filter in the title bar.
func (m *historyScreen) filterName(f historyFilter) string {
	switch f {
	case filterMine:
		return "mine"
	case filterTable:
		return "table " + name(m.table)
	}
	return "everyone's"
}

// view draws the list in w×h cells.
func (m *historyScreen) view(s *Styles, hv *help.Model, now time.Time, w, h int) string {
	var b strings.Builder
	right := fmt.Sprintf("page %d", len(m.pages))
	b.WriteString(fit(s.Title.Render("mia")+s.TitleBar.Render(" history · finished games, newest first"), w-ansi.StringWidth(right)))
	b.WriteString(s.Subtle.Render(right))
	b.WriteString("\n\n")

	// The filters, the one shown marked.
	tabs := []string{s.Subtle.Render("show:")}
	for f := filterMine; f < filterCount; f++ {
		label := m.filterName(f)
		switch {
		case f == m.filter:
			tabs = append(tabs, s.Selected.Render("["+label+"]"))
		case f == filterTable && m.table == "":
			tabs = append(tabs, s.Dim.Render(" table: none chosen "))
		default:
			tabs = append(tabs, " "+label+" ")
		}
	}
	b.WriteString(cut(strings.Join(tabs, " ")+s.Subtle.Render("   f: change"), w))
	b.WriteString("\n\n")

	helpH := 1
	var helpView string
	if hv.ShowAll {
		helpView = hv.View(m.keys)
		helpH = min(strings.Count(helpView, "\n")+1, 4)
	}
	listH := max(1, h-historyChrome+1-helpH)

	// Columns: marker, game, table, ended, players, winner.
	const idW, tableW, endedW, winnerW = 7, 14, 9, 12
	playersW := max(8, w-2-idW-1-tableW-1-endedW-1-1-winnerW)
	b.WriteString(s.Header.Render(fit("  "+fit("GAME", idW)+" "+fit("TABLE", tableW)+" "+fit("ENDED", endedW)+" "+
		fit("PLAYERS", playersW)+" WINNER", w)))
	b.WriteByte('\n')
	lines := 0
	start := clamp(m.cursor-listH+1, 0, max(0, len(m.games)-listH))
	for i := start; i < len(m.games) && lines < listH; i++ {
		g := m.games[i]
		names := make([]string, len(g.Seats))
		for j, st := range g.Seats {
			names[j] = name(st.Name)
			if st.Fingerprint == m.me.Fingerprint && m.me.Fingerprint != "" {
				names[j] += " (you)"
			}
		}
		winner := "-"
		if g.Winner >= 0 && g.Winner < len(g.Seats) {
			winner = name(g.Seats[g.Winner].Name)
		}
		row := "  " + fit("#"+g.ID, idW) + " " + fit(name(g.Table), tableW) + " " + fit(ago(now, g.Ended), endedW) + " " +
			fit(strings.Join(names, ", "), playersW) + " " + fit(winner, winnerW)
		if i == m.cursor {
			b.WriteString(s.Selected.Render(fit("›"+row[1:], w)))
		} else {
			b.WriteString(fit(row, w))
		}
		b.WriteByte('\n')
		lines++
	}
	for ; lines < listH; lines++ {
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	switch {
	case m.err != "":
		b.WriteString(s.Error.Render(cut(m.err, w)))
	case m.loading:
		b.WriteString(s.Subtle.Render("loading…"))
	case len(m.games) == 0 && len(m.pages) == 1:
		b.WriteString(s.Subtle.Render(cut(m.emptyText(), w)))
	case len(m.games) == 0:
		b.WriteString(s.Subtle.Render("no older games: ← for newer"))
	default:
		var more []string
		if len(m.pages) > 1 {
			more = append(more, "← newer games")
		}
		if m.next != "" {
			more = append(more, "→ older games")
		} else {
			more = append(more, "no older games")
		}
		b.WriteString(s.Subtle.Render(cut(strings.Join(more, " · "), w)))
	}
	b.WriteByte('\n')
	if hv.ShowAll {
		b.WriteString(cutLines(helpView, helpH))
	} else {
		b.WriteString(hv.View(m.keys))
	}
	return b.String()
}

// emptyText says that the filter shows no games.
func (m *historyScreen) emptyText() string {
	switch m.filter {
	case filterMine:
		return "You have no finished games yet: press f to see everyone's."
	case filterTable:
		return "No finished games at " + name(m.table) + " yet."
	}
	return "No finished games yet."
}
