package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/sshapp/verdict"
	"github.com/mia-game/mia/store"
)

// statsScreen shows the viewer's own numbers and the leaderboard, of the
// season running (the server's --season) or of any before, or all time.
type statsScreen struct {
	frame
	table   string        // the table of the table leaderboard; "" offers only overall
	atTable bool          // the leaderboard shown is the table's
	season  rating.Season // the season of the board shown; rating.AllTime for all time
	current rating.Season // the season running when the screen opened
	data    statsData
	have    bool
	loading bool
	board   viewport.Model // the rows of the leaderboard, below its headers
	req     uint64
	err     string
	keys    statsKeys
	// career is the viewer's accuracy (verdict.Judge.Over), loaded apart
	// from the rest, which does not wait for it; judging while it is.
	career    verdict.Career
	careerReq uint64
	judging   bool
	judged    bool
}

func newStatsScreen(c *common, table string) *statsScreen {
	m := &statsScreen{frame: frame{c: c}, table: table, keys: newStatsKeys(), board: c.s.newView()}
	m.current = c.cfg.Season.Of(c.cfg.Now())
	m.season = m.current
	seasons := !m.current.IsAllTime()
	m.keys.Prev.SetEnabled(seasons)
	m.keys.Next.SetEnabled(false)
	m.keys.AllTime.SetEnabled(seasons)
	m.shown, m.resized = func() help.KeyMap { return m.keys }, m.drawBoard
	m.keys.Board.SetEnabled(table != "")
	m.ready = func() bool { return !m.loading }
	m.leaves = func(k tea.KeyMsg) bool { return key.Matches(k, m.keys.Quit, m.keys.Back) }
	return m
}

// Init loads everything the screen shows.
func (m *statsScreen) Init() tea.Cmd { return tea.Batch(m.load(), m.loadCareer()) }

// loadCareer sums up the viewer's moves, on a server that judges them.
func (m *statsScreen) loadCareer() tea.Cmd {
	if m.c.cfg.Judge == nil {
		return nil
	}
	m.careerReq++
	m.judging = true
	return ask(m, loadCareer(m.c.cfg.Judge, m.c.cfg.Records, m.c.cfg.Player, m.careerReq))
}

// careerIn takes the answer to the newest loadCareer.
func (m *statsScreen) careerIn(msg careerLoaded) {
	if msg.req != m.careerReq {
		return
	}
	m.judging = false
	if msg.err != nil {
		m.c.said("judge your moves", msg.err) // logged; the rest of the screen stands
		return
	}
	m.career, m.judged = msg.career, true
}

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
	return ask(m, loadStats(m.c.cfg.Records, m.c.cfg.Player, m.boardTable(), m.season, m.req))
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
	if c, ok := msg.(careerLoaded); ok {
		m.careerIn(c)
		return m, nil
	}
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
	case key.Matches(msg, k.AllTime):
		if m.season.IsAllTime() {
			m.season = m.current
		} else {
			m.season = rating.AllTime
		}
		m.syncSeasonKeys()
		return m.load()
	case key.Matches(msg, k.Prev):
		if m.season.IsAllTime() {
			m.season = m.current
		}
		m.season = m.season.Prev()
		m.syncSeasonKeys()
		return m.load()
	case key.Matches(msg, k.Next):
		if m.season.IsAllTime() || m.season == m.current {
			return nil
		}
		m.season = m.season.Next()
		m.syncSeasonKeys()
		return m.load()
	case key.Matches(msg, k.Reload):
		return tea.Batch(m.load(), m.loadCareer())
	case key.Matches(msg, k.Up):
		m.board.ScrollUp(1)
	case key.Matches(msg, k.Down):
		m.board.ScrollDown(1)
	}
	return nil
}

// syncSeasonKeys offers the season after only before the season running.
func (m *statsScreen) syncSeasonKeys() {
	m.keys.Next.SetEnabled(!m.season.IsAllTime() && m.season != m.current)
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
	left := block(m.mine(s, statsLeftW, bodyH), statsLeftW, bodyH)
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

// mine is the viewer's own numbers, their rating, what the bluff counts
// count, and the win rate over their recent games as a sparkline, in h
// lines: the blank lines between the three come only where they fit.
func (m *statsScreen) mine(s *Styles, w, h int) []string {
	out := []string{s.Header.Render("Your games")}
	if !m.have {
		return out
	}
	note, recent := m.bluffsNote(s, w), m.recentLines(s, w)
	acc, detail, pending := m.accuracyLines(s, w)
	// The accuracy's detail where the window has room for it: the games
	// not judged first (in full, else in a few words), then the lives
	// and marks.
	room := h - len(out) - len(m.numbers(s, w, acc, nil)) - len(note) - len(recent)
	if len(pending) > 0 && len(pending) > room {
		pending = []string{"  " + s.Subtle.Render(cut(words.AccuracyNotAll, w-2))}
	}
	var extra []string
	switch c := m.career; {
	case room >= len(pending):
		extra, room = pending, room-len(pending)
	case len(pending) > 0: // no room at all: the row says it
		acc = accuracyRow(s.Accent.Render(words.AccuracyOf(c.Summary, c.Games, c.Games+c.Pending)))
	}
	if room >= len(detail) {
		extra, room = append(detail, extra...), room-len(detail)
	}
	out = append(out, m.numbers(s, w, acc, extra)...)
	gaps := room
	if gaps > 0 {
		out = append(out, "")
	}
	out = append(out, note...)
	if gaps > 1 && len(recent) > 0 {
		out = append(out, "")
	}
	return append(out, recent...)
}

// numbers are the viewer's counts and rating, a row each, the accuracy's
// row acc ("" for none) followed by extra.
func (m *statsScreen) numbers(s *Styles, w int, acc string, extra []string) []string {
	var out []string
	t := m.data.tally
	row := func(label, value string) string { return fit(label, statsLabelW) + " " + value }
	out = append(out,
		row("games", fmt.Sprintf("%d, %d won", t.Games, t.Wins)+s.Subtle.Render(" · "+words.Percent(t.Wins, t.Games))),
		row("lives lost", fmt.Sprintf("%d", t.LivesLost)),
		row("bluffs", fmt.Sprintf("%d of %s", t.Bluffs, words.Plural(t.Claims, "1 claim", "claims"))+s.Subtle.Render(" · "+words.Percent(t.Bluffs, t.Claims))),
		row("understated", fmt.Sprintf("%d", t.Understated)+s.Subtle.Render(" · "+words.Percent(t.Understated, t.Claims))),
		row("caught bluffing", words.Plural(t.BluffsCaught, "1 time", "times")),
		row("challenges", fmt.Sprintf("%d, right %d", t.Challenges, t.ChallengesWon)+s.Subtle.Render(" · "+words.Percent(t.ChallengesWon, t.Challenges))),
	)
	if acc != "" {
		out = append(append(out, acc), extra...)
	}
	return append(out, m.ratingLines(s, w, row)...)
}

// accuracyLines are the viewer's accuracy over their last games, as the
// stats command says it: its row ("" for none), and the lines that may
// follow it: the lives and marks, and the games not judged.
func (m *statsScreen) accuracyLines(s *Styles, w int) (acc string, detail, pending []string) {
	row := accuracyRow
	switch {
	case m.c.cfg.Judge == nil:
		return "", nil, nil
	case m.judging && !m.judged:
		return row(s.Subtle.Render(words.AccuracyComing)), nil, nil
	case !m.judged:
		return "", nil, nil
	}
	c := m.career
	lines := func(text string) []string {
		var out []string
		for _, part := range strings.Split(text, " · ") { // a part a line, where it fits
			for _, l := range strings.Split(ansi.Wordwrap(part, w-2, " "), "\n") {
				out = append(out, "  "+s.Subtle.Render(cut(l, w-2)))
			}
		}
		return out
	}
	if c.Decisions > 0 {
		detail = lines(words.AccuracyDetail(c.Summary))
	}
	if c.Pending > 0 {
		pending = lines(strings.TrimPrefix(words.AccuracyPending(c.Pending, lobby.Shown(c.Refused)), "; "))
	}
	return row(s.Accent.Render(cut(words.AccuracyFigure(c.Summary, c.Games), w-statsLabelW-1))), detail, pending
}

// statsLabelW is the width of the labels of the viewer's numbers.
const statsLabelW = 15

// accuracyRow is the accuracy's row, value drawn.
func accuracyRow(value string) string { return fit("accuracy", statsLabelW) + " " + value }

// bluffsNote says what the bluff counts count: a claim made unseen is no
// bluff, yet may be caught short; one below the dice is no bluff either.
func (m *statsScreen) bluffsNote(s *Styles, w int) []string {
	var out []string
	for _, l := range strings.Split(ansi.Wordwrap(store.BluffsNote, w, " "), "\n") {
		out = append(out, s.Subtle.Render(cut(l, w)))
	}
	return out
}

// recentLines are the viewer's recent games: the win rate so far after
// each, as a sparkline, and which they won.
func (m *statsScreen) recentLines(s *Styles, w int) []string {
	var out []string
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
	out = append(out, s.Header.Render(cut("Win rate, your last "+words.Plural(len(recent), "game", "games"), w)))
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

// ratingLines are the viewer's rating: all time, its numbers, in the
// season shown, and its trend over their last rated games.
func (m *statsScreen) ratingLines(s *Styles, w int, row func(label, value string) string) []string {
	r := m.data.rating
	if r.Games == 0 {
		return []string{row("rating", s.Subtle.Render("no rated game yet"))}
	}
	out := []string{
		row("rating", s.Accent.Render(words.Figure(r.Rating))+s.Subtle.Render(" · "+words.Plural(r.Games, "1 game", "games"))),
		row("", s.Subtle.Render(fmt.Sprintf("μ %.2f σ %.2f", r.Mu, r.Sigma))),
	}
	if !m.season.IsAllTime() {
		sr := m.data.season
		value := s.Subtle.Render("no games")
		if sr.Games > 0 {
			value = words.Figure(sr.Rating) + s.Subtle.Render(" · "+words.Plural(sr.Games, "1 game", "games"))
		}
		out = append(out, row("in "+m.season.String(), value))
	}
	if trend := m.data.trend; len(trend) > 1 {
		// the last games that fit, and how far they moved the figure
		trend = trend[max(0, len(trend)-(w-16-6)):]
		pts := make([]int, len(trend))
		for i, p := range trend {
			pts[i] = p.After.Points()
		}
		moved := words.Move(rating.Change{Before: trend[0].Before, After: trend[len(trend)-1].After})
		out = append(out, row("trend", s.Accent.Render(trendBars(pts))+s.Subtle.Render(" "+moved)))
	}
	return out
}

// trendBars draws figures as a sparkline, from the lowest (▁) to the
// highest (█) of them.
func trendBars(pts []int) string {
	lo, hi := pts[0], pts[0]
	for _, p := range pts {
		lo, hi = min(lo, p), max(hi, p)
	}
	var b strings.Builder
	for _, p := range pts {
		i := len(blocks) / 2
		if hi > lo {
			i = (p - lo) * (len(blocks) - 1) / (hi - lo)
		}
		b.WriteRune(blocks[i])
	}
	return b.String()
}

// rateBar is the sparkline's block for wins of games: ▁ for none, █ for
// all.
func rateBar(wins, games int) rune {
	if games <= 0 {
		return ' '
	}
	return blocks[clamp((wins*(len(blocks)-1)+games/2)/games, 0, len(blocks)-1)]
}

// Columns of the leaderboard: marker, rank, player, rating (a provisional
// one marked "?"), games, wins.
const boardRankW, boardRatingW, boardGamesW, boardWinsW = 3, 6, 5, 5

func boardNameW(w int) int {
	return max(8, w-2-boardRankW-1-1-boardRatingW-1-boardGamesW-1-boardWinsW)
}

// boardHeaders are the two lines above the leaderboard's rows: its title
// (where and when) and its column names.
func (m *statsScreen) boardHeaders(s *Styles, w int) []string {
	where := "overall"
	if m.atTable {
		where = "at " + name(m.table)
	}
	when := "all time"
	if !m.season.IsAllTime() {
		when = m.season.String()
		switch left := words.SeasonLeft(m.season, m.c.cfg.Now()); {
		case left == "ended" && m.have && len(m.data.board) > 0:
			top := m.data.board[0]
			when += " · champion " + words.Label(name(top.Name), top.Bot())
		case left != "":
			when += " · " + left
		}
	}
	hint := ""
	if m.table != "" {
		other := "at " + name(m.table)
		if m.atTable {
			other = "overall"
		}
		hint = s.Subtle.Render(" (f: " + other + ")")
	}
	title := s.Header.Render("Leaderboard · "+where) + hint
	return []string{cut(title, w), s.Subtle.Render(cut(when, w)),
		s.Header.Render(fit("  "+fmt.Sprintf("%*s", boardRankW, "#")+" "+fit("PLAYER", boardNameW(w))+" "+
			fmt.Sprintf("%*s %*s %*s", boardRatingW, "RATING", boardGamesW, "GAMES", boardWinsW, "WINS"), w))}
}

// drawBoard sizes the leaderboard to the window and the help shown, and
// draws its rows, the viewer's marked, into its viewport.
func (m *statsScreen) drawBoard() {
	s, me := m.c.s, m.c.cfg.Player
	w := m.w - statsLeftW - 2
	sizeView(&m.board, w, m.bodyHeight()-3)
	if m.have && len(m.data.board) == 0 {
		m.board.SetContent(s.Subtle.Render("  no rated games yet"))
		return
	}
	nameW := boardNameW(w)
	rows := make([]string, len(m.data.board), len(m.data.board)+1)
	provisional := false
	for i, r := range m.data.board {
		who := words.Label(name(r.Name), r.Bot())
		if r.Person == me.ID {
			who += " (you)"
		}
		line := "  " + fmt.Sprintf("%*d", boardRankW, i+1) + " " + fit(who, nameW) + " " +
			fmt.Sprintf("%*s %*d %*d", boardRatingW, words.Figure(r.Rating), boardGamesW, r.Games, boardWinsW, r.Wins)
		if r.Person == me.ID {
			line = s.Selected.Render(fit("›"+line[1:], w))
		}
		rows[i] = line
		provisional = provisional || r.Provisional()
	}
	if provisional {
		rows = append(rows, s.Subtle.Render(cut("  ? provisional: not sure yet", w)))
	}
	m.board.SetContent(strings.Join(rows, "\n"))
}
