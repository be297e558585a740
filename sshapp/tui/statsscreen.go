package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/mia-game/mia/lobby"
)

// statsScreen shows the viewer's own numbers and the leaderboard.
type statsScreen struct {
	me      lobby.Player
	table   string // the table of the table leaderboard; "" offers only overall
	atTable bool   // the leaderboard shown is the table's
	data    statsData
	have    bool
	loading bool
	off     int // the first leaderboard row shown
	req     uint64
	err     string
	keys    statsKeys
}

func newStatsScreen(me lobby.Player, table string) statsScreen {
	m := statsScreen{me: me, table: table, keys: newStatsKeys()}
	m.keys.Board.SetEnabled(table != "")
	return m
}

// board is the table of the leaderboard shown, "" for overall.
func (m *statsScreen) board() string {
	if m.atTable {
		return m.table
	}
	return ""
}

// load reads everything the screen shows.
func (m *statsScreen) load(rec Records) tea.Cmd {
	m.req = nextReq()
	m.loading = true
	return loadStats(rec, m.me, m.board(), m.req)
}

// loaded takes the answer to the newest load.
func (m *statsScreen) loaded(msg statsLoaded) {
	if msg.req != m.req {
		return
	}
	m.loading = false
	if msg.err != nil {
		m.err = msg.err.Error()
		return
	}
	m.err = ""
	m.data, m.have, m.off = msg.data, true, 0
}

func (m statsScreen) update(msg tea.KeyMsg, rec Records) (statsScreen, tea.Cmd) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Back):
		return m, func() tea.Msg { return recordsBack{} }
	case key.Matches(msg, k.Board):
		m.atTable = !m.atTable
		return m, m.load(rec)
	case key.Matches(msg, k.Reload):
		return m, m.load(rec)
	case key.Matches(msg, k.Up):
		m.off = max(0, m.off-1)
	case key.Matches(msg, k.Down):
		m.off = min(max(0, len(m.data.board)-1), m.off+1)
	}
	return m, nil
}

// statsLeftW is the width of the viewer's own numbers.
const statsLeftW = 36

// view draws the screen in w×h cells.
func (m *statsScreen) view(s *Styles, hv *help.Model, w, h int) string {
	var b strings.Builder
	right := "you are " + name(m.me.Name)
	b.WriteString(fit(s.Title.Render("mia")+s.TitleBar.Render(" stats & leaderboard"), w-ansi.StringWidth(right)))
	b.WriteString(s.Subtle.Render(right))
	b.WriteString("\n\n")

	helpH := 1
	var helpView string
	if hv.ShowAll {
		helpView = hv.View(m.keys)
		helpH = min(strings.Count(helpView, "\n")+1, 4)
	}
	bodyH := max(1, h-2-1-helpH-1)
	rightW := w - statsLeftW - 2
	left := block(m.mine(s, statsLeftW), statsLeftW, bodyH)
	board := block(m.boardLines(s, rightW, bodyH), rightW, bodyH)
	side(&b, left, board, 2)
	b.WriteString("\n\n")
	switch {
	case m.err != "":
		b.WriteString(s.Error.Render(cut(m.err, w)))
	case m.loading:
		b.WriteString(s.Subtle.Render("loading…"))
	}
	b.WriteByte('\n')
	if hv.ShowAll {
		b.WriteString(cutLines(helpView, helpH))
	} else {
		b.WriteString(hv.View(m.keys))
	}
	return b.String()
}

// percent writes part of whole as "42%", or "-" when whole is 0.
func percent(part, whole int) string {
	if whole <= 0 {
		return "-"
	}
	return fmt.Sprintf("%d%%", (part*100+whole/2)/whole)
}

// mine is the viewer's own numbers, their rating, and the win rate over
// their recent games as a sparkline.
func (m *statsScreen) mine(s *Styles, w int) []string {
	out := []string{s.Header.Render("Your games")}
	if !m.have {
		return out
	}
	t := m.data.tally
	row := func(label, value string) string { return fit(label, 13) + " " + value }
	r := m.data.rating
	rating := s.Subtle.Render("no rated game yet")
	if r.Games > 0 {
		rating = s.Accent.Render(fmt.Sprintf("%.0f", r.Rating)) + s.Subtle.Render(fmt.Sprintf(" (%d games)", r.Games))
	}
	out = append(out,
		row("games", fmt.Sprintf("%d", t.Games)),
		row("wins", fmt.Sprintf("%d", t.Wins)+s.Subtle.Render(" · win rate "+percent(t.Wins, t.Games))),
		row("lives lost", fmt.Sprintf("%d", t.LivesLost)),
		row("bluffs", fmt.Sprintf("%d of %d claims", t.Bluffs, t.Claims)+s.Subtle.Render(" · "+percent(t.Bluffs, t.Claims))),
		row("caught", fmt.Sprintf("%d", t.BluffsCaught)+s.Subtle.Render(" bluffs")),
		row("challenges", fmt.Sprintf("%d, right %d", t.Challenges, t.ChallengesWon)+s.Subtle.Render(" · "+percent(t.ChallengesWon, t.Challenges))),
		row("rating", rating),
		"",
	)
	recent := m.data.recent
	if len(recent) == 0 {
		return out
	}
	if len(recent) > w {
		recent = recent[len(recent)-w:]
	}
	out = append(out, s.Header.Render(cut(fmt.Sprintf("Win rate, your last %d games", len(recent)), w)))
	var spark, results strings.Builder
	wins := 0
	for i, g := range recent {
		won := g.Winner >= 0 && g.Winner < len(g.Seats) && g.Seats[g.Winner].Fingerprint == m.me.Fingerprint
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

// boardLines is the leaderboard, the viewer's row marked.
func (m *statsScreen) boardLines(s *Styles, w, h int) []string {
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
	out := []string{s.Header.Render("Leaderboard · "+where) + hint}
	const rankW, ratingW, gamesW, winsW = 3, 6, 5, 5
	nameW := max(8, w-2-rankW-1-1-ratingW-1-gamesW-1-winsW)
	out = append(out, s.Header.Render(fit("  "+fmt.Sprintf("%*s", rankW, "#")+" "+fit("PLAYER", nameW)+" "+
		fmt.Sprintf("%*s %*s %*s", ratingW, "RATING", gamesW, "GAMES", winsW, "WINS"), w)))
	if m.have && len(m.data.board) == 0 {
		return append(out, s.Subtle.Render("  no rated games yet"))
	}
	rows := h - len(out)
	off := clamp(m.off, 0, max(0, len(m.data.board)-rows))
	for i := off; i < len(m.data.board) && len(out) < h; i++ {
		r := m.data.board[i]
		who := name(r.Name)
		switch {
		case r.Bot:
			who += " [bot]"
		case r.Fingerprint == m.me.Fingerprint:
			who += " (you)"
		}
		line := "  " + fmt.Sprintf("%*d", rankW, i+1) + " " + fit(who, nameW) + " " +
			fmt.Sprintf("%*.0f %*d %*d", ratingW, r.Rating, gamesW, r.Games, winsW, r.Wins)
		if r.Fingerprint == m.me.Fingerprint {
			out = append(out, s.Selected.Render(fit("›"+line[1:], w)))
		} else {
			out = append(out, line)
		}
	}
	return out
}
