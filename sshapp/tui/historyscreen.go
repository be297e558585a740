package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

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

// historyScreen lists finished games, newest first, a page of the store
// at a time.
type historyScreen struct {
	frame
	table   string // the table of filterTable; "" skips that filter
	filter  historyFilter
	limit   int      // games per page
	pages   []string // the Query.Before of each page on the way here; the last is this page's
	games   []store.Game
	next    string // the Before of the next page, "" if none
	cursor  int
	list    viewport.Model
	loading bool
	req     uint64 // the load whose answer is wanted
	err     string
	keys    historyKeys
}

// newHistoryScreen lists the games in pages of limit; 0 fits a page to the
// window.
func newHistoryScreen(c *common, table string, limit int) *historyScreen {
	m := &historyScreen{frame: frame{c: c}, table: table, limit: limit, pages: []string{""}, keys: newHistoryKeys(), list: c.s.newView()}
	m.shown = func() help.KeyMap { return m.keys }
	m.ready = func() bool { return !m.loading }
	m.leaves = func(k tea.KeyMsg) bool { return key.Matches(k, m.keys.Quit, m.keys.Back) }
	return m
}

// Init loads the first page.
func (m *historyScreen) Init() tea.Cmd { return m.load() }

// SetSize implements Component. The first size sets the page size, so
// that a page fits the window.
func (m *historyScreen) SetSize(w, h int) {
	m.w, m.h = w, h
	if m.limit <= 0 {
		m.limit = clamp(h-historyChrome, 1, store.DefaultLimit)
	}
	m.drawList()
}

// query is the store query of the page shown.
func (m *historyScreen) query() store.Query {
	q := store.Query{Limit: m.limit, Before: m.pages[len(m.pages)-1], Abandoned: true}
	switch m.filter {
	case filterMine:
		q.Player = m.c.cfg.Player.ID
	case filterTable:
		q.Table = m.table
	}
	return q
}

// load reads the page shown.
func (m *historyScreen) load() tea.Cmd {
	m.req++
	m.loading = true
	m.err = ""
	return ask(m, loadGames(m.c.cfg.Records, m.c.cfg.Player, m.query(), m.req))
}

// loaded takes the answer to the newest load.
func (m *historyScreen) loaded(msg historyLoaded) {
	if msg.req != m.req {
		return
	}
	m.loading = false
	if msg.err != nil {
		m.err = m.c.said("read the history", msg.err)
		m.games, m.next = nil, ""
		return
	}
	m.games, m.next = msg.games, msg.next
	m.cursor = clamp(m.cursor, 0, max(0, len(m.games)-1))
}

// Update implements tea.Model: the answers of its loads and the keys.
func (m *historyScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	defer m.drawList()
	return updateLoads(m, &m.frame, msg, m.loaded, m.key)
}

func (m *historyScreen) key(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		return m.c.nav.quit()
	case key.Matches(msg, k.Back):
		return m.c.nav.goTo(goTo{to: screenLobby})
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
			return m.c.nav.goTo(goTo{to: screenReplay, game: m.games[m.cursor].ID, back: m})
		}
	case key.Matches(msg, k.Filter):
		m.filter = (m.filter + 1) % filterCount
		if m.filter == filterTable && m.table == "" {
			m.filter++
		}
		m.pages, m.cursor = m.pages[:1], 0
		return m.load()
	case key.Matches(msg, k.Next):
		if m.next != "" && !m.loading {
			m.pages = append(m.pages, m.next)
			m.cursor = 0
			return m.load()
		}
	case key.Matches(msg, k.Prev):
		if len(m.pages) > 1 && !m.loading {
			m.pages = m.pages[:len(m.pages)-1]
			m.cursor = 0
			return m.load()
		}
	}
	return nil
}

// Columns of the list: marker, game, table, ended, players, winner.
const historyIDW, historyTableW, historyEndedW, historyWinnerW = 7, 14, 9, 12

func historyPlayersW(w int) int {
	return max(8, w-2-historyIDW-1-historyTableW-1-historyEndedW-1-1-historyWinnerW)
}

// drawList sizes the list to the window and the help shown, and draws the
// games into it.
func (m *historyScreen) drawList() {
	s, w, me := m.c.s, m.w, m.c.cfg.Player
	sizeView(&m.list, w, m.h-historyChrome+1-m.c.helpHeight(m, 4))
	now := m.c.cfg.Now()
	playersW := historyPlayersW(w)
	rows := make([]string, len(m.games))
	for i, g := range m.games {
		names := make([]string, len(g.Seats))
		for j, st := range g.Seats {
			names[j] = name(st.Name)
			if st.Person == me.ID && me.ID != "" {
				names[j] += " (you)"
			}
		}
		winner := "-"
		switch {
		case g.Abandoned != nil:
			winner = "(abandoned)"
		case g.Winner >= 0 && g.Winner < len(g.Seats):
			winner = name(g.Seats[g.Winner].Name)
		}
		row := "  " + fit("#"+g.ID, historyIDW) + " " + fit(name(g.Table), historyTableW) + " " + fit(ago(now, g.Ended), historyEndedW) + " " +
			fit(strings.Join(names, ", "), playersW) + " " + fit(winner, historyWinnerW)
		if i == m.cursor {
			rows[i] = s.Selected.Render(fit("›"+row[1:], w))
		} else {
			rows[i] = fit(row, w)
		}
	}
	setRows(&m.list, rows, m.cursor)
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

// View draws the list.
func (m *historyScreen) View() string {
	s, w := m.c.s, m.w
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

	b.WriteString(s.Header.Render(fit("  "+fit("GAME", historyIDW)+" "+fit("TABLE", historyTableW)+" "+fit("ENDED", historyEndedW)+" "+
		fit("PLAYERS", historyPlayersW(w))+" WINNER", w)))
	b.WriteByte('\n')
	b.WriteString(viewText(m.list))
	b.WriteString("\n\n")
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
	b.WriteString(m.c.helpView(m, 4))
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
