package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
)

// statsScreen shows the viewer's own numbers and the leaderboard.
type statsScreen struct {
	frame
	table   string // the table of the table leaderboard; "" offers only overall
	atTable bool   // the leaderboard shown is the table's
	data    statsData
	have    bool
	loading bool
	board   viewport.Model // the rows of the leaderboard, below its headers
	req     uint64
	err     string
	keys    statsKeys
}

func newStatsScreen(c *common, table string) *statsScreen {
	m := &statsScreen{frame: frame{c: c}, table: table, keys: newStatsKeys(), board: c.s.newView()}
	m.shown, m.resized = func() help.KeyMap { return m.keys }, m.drawBoard
	m.keys.Board.SetEnabled(table != "")
	m.ready = func() bool { return !m.loading }
	m.leaves = func(k tea.KeyMsg) bool { return key.Matches(k, m.keys.Quit, m.keys.Back) }
	return m
}

// Init loads everything the screen shows.
func (m *statsScreen) Init() tea.Cmd { return m.load() }

// boardTable is the table of the leaderboard shown, "" for overall.
func (m *statsScreen) boardTable() string {
	if m.atTable {
		return m.table
	}
	return ""
}

// load reads everything the screen shows.
func (m *statsScreen) load() tea.Cmd {
	m.req++
	m.loading = true
	return ask(m, loadStats(m.c.cfg.Records, m.c.cfg.Player, m.boardTable(), m.req))
}

// loaded takes the answer to the newest load.
func (m *statsScreen) loaded(msg statsLoaded) {
	if msg.req != m.req {
		return
	}
	m.loading = false
	if msg.err != nil {
		m.err = m.c.said("read the stats", msg.err)
		return
	}
	m.err = ""
	m.data, m.have = msg.data, true
	m.drawBoard()
	m.board.GotoTop()
}

// Update implements tea.Model: the answers of its loads and the keys.
func (m *statsScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	return updateLoads(m, &m.frame, msg, m.loaded, m.key)
}

func (m *statsScreen) key(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		return m.c.nav.quit()
	case key.Matches(msg, k.Back):
		return m.c.nav.goTo(goTo{to: screenLobby})
	case key.Matches(msg, k.Board):
		m.atTable = !m.atTable
		return m.load()
	case key.Matches(msg, k.Reload):
		return m.load()
	case key.Matches(msg, k.Up):
		m.board.ScrollUp(1)
	case key.Matches(msg, k.Down):
		m.board.ScrollDown(1)
	}
	return nil
}

// statsLeftW is the width of the viewer's own numbers.
const statsLeftW = 36

// bodyHeight is the height of the two columns.
func (m *statsScreen) bodyHeight() int {
	return max(1, m.h-2-1-m.c.helpHeight(m, 4)-1)
}

// View draws the screen.
func (m *statsScreen) View() string {
	s, w := m.c.s, m.w
	var b strings.Builder
	right := "you are " + name(m.c.myName())
	b.WriteString(fit(s.Title.Render("mia")+s.TitleBar.Render(" stats & leaderboard"), w-ansi.StringWidth(right)))
	b.WriteString(s.Subtle.Render(right))
	b.WriteString("\n\n")

	bodyH := m.bodyHeight()
	rightW := w - statsLeftW - 2
	left := block(m.mine(s, statsLeftW), statsLeftW, bodyH)
	board := block(append(m.boardHeaders(s, rightW), viewLines(m.board)...), rightW, bodyH)
	side(&b, left, board, 2)
	b.WriteString("\n\n")
	switch {
	case m.err != "":
		b.WriteString(s.Error.Render(cut(m.err, w)))
	case m.loading:
		b.WriteString(s.Subtle.Render("loading…"))
	}
	b.WriteByte('\n')
	b.WriteString(m.c.helpView(m, 4))
	return b.String()
}

// mine is the viewer's own numbers, their rating, and the win rate over
// their recent games as a sparkline.
func (m *statsScreen) mine(s *Styles, w int) []string {
	out := []string{s.Header.Render("Your games")}
	if !m.have {
		return out
	}
	t := m.data.tally
	const labelW = 15
	row := func(label, value string) string { return fit(label, labelW) + " " + value }
	r := m.data.rating
	rating := s.Subtle.Render("no rated game yet")
	if r.Games > 0 {
		rating = s.Accent.Render(fmt.Sprintf("%.0f", r.Rating)) + s.Subtle.Render(" ("+lobby.Plural(r.Games, "1 game", "games")+")")
	}
	out = append(out,
		row("games", fmt.Sprintf("%d", t.Games)),
		row("wins", fmt.Sprintf("%d", t.Wins)+s.Subtle.Render(" · win rate "+lobby.Percent(t.Wins, t.Games))),
		row("lives lost", fmt.Sprintf("%d", t.LivesLost)),
		row("bluffs", fmt.Sprintf("%d of %s", t.Bluffs, lobby.Plural(t.Claims, "1 claim", "claims"))+s.Subtle.Render(" · "+lobby.Percent(t.Bluffs, t.Claims))),
		row("understated", fmt.Sprintf("%d", t.Understated)+s.Subtle.Render(" · "+lobby.Percent(t.Understated, t.Claims))),
		row("caught bluffing", lobby.Plural(t.BluffsCaught, "1 time", "times")),
		row("challenges", fmt.Sprintf("%d, right %d", t.Challenges, t.ChallengesWon)+s.Subtle.Render(" · "+lobby.Percent(t.ChallengesWon, t.Challenges))),
		row("rating", rating),
		"",
	)
	// What the two bluff counts count: a claim made unseen is no bluff,
	// yet may be caught short.
	for _, l := range strings.Split(ansi.Wordwrap(store.BluffsNote, w, " "), "\n") {
		out = append(out, s.Subtle.Render(cut(l, w)))
	}
	out = append(out, "")
	recent := m.data.recent
	if len(recent) == 0 {
		return out
	}
	if len(recent) == 1 { // a rate of one game says nothing: say the game
		g := recent[0]
		result := "lost"
		if g.Winner >= 0 && g.Winner < len(g.Seats) && g.Seats[g.Winner].Person == m.c.cfg.Player.ID {
			result = "won"
		}
		return append(out, s.Header.Render("Your one game so far"), s.Subtle.Render(cut(result+" at "+name(g.Table), w)))
	}
	if len(recent) > w {
		recent = recent[len(recent)-w:]
	}
	out = append(out, s.Header.Render(cut("Win rate, your last "+lobby.Plural(len(recent), "game", "games"), w)))
	var spark, results strings.Builder
	wins := 0
	for i, g := range recent {
		won := g.Winner >= 0 && g.Winner < len(g.Seats) && g.Seats[g.Winner].Person == m.c.cfg.Player.ID
		if won {
			wins++
			results.WriteRune('●')
		} else {
			results.WriteRune('·')
		}
		spark.WriteRune(rateBar(wins, i+1))
	}
	out = append(out, s.Accent.Render(spark.String()),
		s.Subtle.Render(results.String()),
		s.Subtle.Render(cut("● a win · bars: the win rate so far", w)))
	return out
}

// rateBar is the sparkline's block for wins of games: ▁ for none, █ for
// all.
func rateBar(wins, games int) rune {
	if games <= 0 {
		return ' '
	}
	return blocks[clamp((wins*(len(blocks)-1)+games/2)/games, 0, len(blocks)-1)]
}

// Columns of the leaderboard: marker, rank, player, rating, games, wins.
const boardRankW, boardRatingW, boardGamesW, boardWinsW = 3, 6, 5, 5

func boardNameW(w int) int {
	return max(8, w-2-boardRankW-1-1-boardRatingW-1-boardGamesW-1-boardWinsW)
}

// boardHeaders are the two lines above the leaderboard's rows: its title
// and its column names.
func (m *statsScreen) boardHeaders(s *Styles, w int) []string {
	where := "overall"
	if m.atTable {
		where = "at " + name(m.table)
	}
	hint := ""
	if m.table != "" {
		other := "at " + name(m.table)
		if m.atTable {
			other = "overall"
		}
		hint = s.Subtle.Render(" (f: " + other + ")")
	}
	return []string{s.Header.Render("Leaderboard · "+where) + hint,
		s.Header.Render(fit("  "+fmt.Sprintf("%*s", boardRankW, "#")+" "+fit("PLAYER", boardNameW(w))+" "+
			fmt.Sprintf("%*s %*s %*s", boardRatingW, "RATING", boardGamesW, "GAMES", boardWinsW, "WINS"), w))}
}

// drawBoard sizes the leaderboard to the window and the help shown, and
// draws its rows, the viewer's marked, into its viewport.
func (m *statsScreen) drawBoard() {
	s, me := m.c.s, m.c.cfg.Player
	w := m.w - statsLeftW - 2
	sizeView(&m.board, w, m.bodyHeight()-2)
	if m.have && len(m.data.board) == 0 {
		m.board.SetContent(s.Subtle.Render("  no rated games yet"))
		return
	}
	nameW := boardNameW(w)
	rows := make([]string, len(m.data.board))
	for i, r := range m.data.board {
		who := lobby.Label(name(r.Name), r.Bot())
		if r.Person == me.ID {
			who += " (you)"
		}
		line := "  " + fmt.Sprintf("%*d", boardRankW, i+1) + " " + fit(who, nameW) + " " +
			fmt.Sprintf("%*.0f %*d %*d", boardRatingW, r.Rating, boardGamesW, r.Games, boardWinsW, r.Wins)
		if r.Person == me.ID {
			line = s.Selected.Render(fit("›"+line[1:], w))
		}
		rows[i] = line
	}
	m.board.SetContent(strings.Join(rows, "\n"))
}
