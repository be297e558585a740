package tui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/sshapp/verdict"
)

// replayScreen steps through a finished game, every die shown.
type replayScreen struct {
	frame
	id   string
	back Component   // the list it was opened from; nil: the lobby
	rp   *replayGame // nil while loading or refused
	step int
	log  viewport.Model // the step's round in words
	req  uint64
	err  string
	keys replayKeys
	left bool // the screen was left: it asks for nothing more
}

func newReplayScreen(c *common, id string, back Component) *replayScreen {
	m := &replayScreen{frame: frame{c: c}, id: id, back: back, keys: newReplayKeys(), log: c.s.newView()}
	m.shown, m.resized = func() help.KeyMap { return m.keys }, m.drawLog
	m.ready = func() bool { return m.rp != nil || m.err != "" }
	m.leaves = func(k tea.KeyMsg) bool { return key.Matches(k, m.keys.Quit, m.keys.Back) }
	return m
}

// Init loads the game.
func (m *replayScreen) Init() tea.Cmd {
	m.req++
	return ask(m, loadReplay(m.c.cfg.Records, m.c.cfg.Player, m.id, m.req))
}

// loaded takes the game, or the reason it is not shown.
func (m *replayScreen) loaded(msg replayLoaded) {
	if msg.req != m.req {
		return
	}
	if msg.err != nil {
		m.err = m.c.said("read the game", msg.err)
		return
	}
	m.rp, m.step = msg.rp, 0
	if m.c.cfg.Judge != nil {
		m.rp.judging = true
	}
}

// Leave implements Component: a verdict still on its way is not asked
// for again.
func (m *replayScreen) Leave() tea.Cmd {
	m.left = true
	return nil
}

// judged takes the verdicts on the game's moves; while they are still
// being worked out, the screen asks again as long as it is shown.
func (m *replayScreen) judged(msg verdictsLoaded) tea.Cmd {
	if msg.req != m.req || m.rp == nil {
		return nil
	}
	if errors.Is(msg.err, verdict.ErrNotReady) {
		if m.left {
			return nil
		}
		return m.judge()
	}
	m.rp.judging = false
	switch {
	case errors.Is(msg.err, verdict.ErrUnsolved):
		m.rp.unjudged = words.NoVerdicts(lobby.Shown(msg.err))
	case msg.err != nil:
		m.c.said("judge the moves", msg.err) // logged; the replay goes on without them
	default:
		m.rp.verdicts = msg.a
	}
	return nil
}

// judge asks for the verdicts on the game's moves.
func (m *replayScreen) judge() tea.Cmd {
	return ask(m, loadVerdicts(m.c.cfg.Done, m.c.cfg.Judge, lobby.SolveSource(m.c.cfg.Player), m.rp.game, m.rp.events, m.req))
}

// Update implements tea.Model: the answers of its loads and the keys.
func (m *replayScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	defer m.drawLog()
	if v, ok := msg.(verdictsLoaded); ok {
		return m, m.judged(v)
	}
	judging := m.rp != nil && m.rp.judging
	mm, cmd := updateLoads(m, &m.frame, msg, m.loaded, m.key)
	if !judging && m.rp != nil && m.rp.judging {
		cmd = tea.Batch(cmd, m.judge())
	}
	return mm, cmd
}

func (m *replayScreen) key(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		return m.c.nav.quit()
	case key.Matches(msg, k.Back) && m.back != nil:
		return m.c.nav.backTo(m.back)
	case key.Matches(msg, k.Back):
		return m.c.nav.goTo(goTo{to: screenLobby})
	case m.rp == nil:
		return nil
	}
	last := len(m.rp.steps) - 1
	switch {
	case key.Matches(msg, k.Back1):
		m.step = max(0, m.step-1)
	case key.Matches(msg, k.Fwd1):
		m.step = min(last, m.step+1)
	case key.Matches(msg, k.PrevRound):
		m.step = m.rp.prevRound(m.step)
	case key.Matches(msg, k.NextRound):
		m.step = m.rp.nextRound(m.step)
	case key.Matches(msg, k.First):
		m.step = 0
	case key.Matches(msg, k.Last):
		m.step = last
	}
	return nil
}

// logHeight is the height of the log at the window's height, below the
// panel of the step shown.
func (m *replayScreen) logHeight() int {
	const helpH = 1
	panelH := len(m.panel(m.c.s, m.rp.steps[m.step], m.w))
	return max(1, m.h-7-panelH-len(m.rp.game.Seats)-helpH)
}

// drawLog sizes the log and draws the round of the step into it.
func (m *replayScreen) drawLog() {
	if m.rp == nil {
		return
	}
	sizeView(&m.log, m.w, m.logHeight())
	log := m.logLines(m.c.s, m.w)
	setTail(&m.log, len(log), func(i int) string { return log[i] })
}

// Widths of a seat row's parts before the chart: marker, name, tag,
// hearts, and a gap.
const (
	replayNameW  = 14
	replayTagW   = 6
	replayChartX = 2 + replayNameW + 1 + replayTagW + 1 + engine.MaxLives + 2
)

// View draws the viewer.
func (m *replayScreen) View() string {
	s, w, now := m.c.s, m.w, m.c.cfg.Now()
	var b strings.Builder
	if m.rp == nil {
		b.WriteString(fit(s.Title.Render("mia")+s.TitleBar.Render(" replay · game #"+m.id), w))
		b.WriteString("\n\n")
		if m.err != "" {
			b.WriteString(s.Error.Render(cut(m.err, w)))
		} else {
			b.WriteString(s.Subtle.Render("loading game #" + m.id + "…"))
		}
		b.WriteString("\n\n")
		b.WriteString(s.Subtle.Render("esc: back to the list"))
		return b.String()
	}
	rp := m.rp
	g := rp.game
	st := rp.steps[m.step]

	m.titleBar(&b, s, w, now)
	b.WriteString("\n\n")

	// Header: where we are, and the chart's title above its column.
	chartW := max(0, w-replayChartX)
	c0 := chartStart(rp.rounds(), st.Round, chartW)
	pos := s.Header.Render(fmt.Sprintf("Round %d of %d", st.Round, rp.rounds())) +
		s.Subtle.Render(fmt.Sprintf(" · step %d of %d", m.step, len(rp.steps)-1))
	chartTitle := "Lives per round"
	if c0 > 0 || rp.rounds() > chartW {
		chartTitle += fmt.Sprintf(" (%d–%d)", c0+1, min(rp.rounds(), c0+chartW))
	}
	b.WriteString(fit(pos, replayChartX))
	b.WriteString(s.Header.Render(cut(chartTitle, chartW)))
	b.WriteByte('\n')

	for seat := range g.Seats {
		b.WriteString(m.seatRow(s, seat, st, c0, chartW))
		b.WriteByte('\n')
	}
	b.WriteByte('\n')

	// The claim, the cup, and what the dice say of this step.
	for _, l := range m.panel(s, st, w) {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteByte('\n')

	logH := m.logHeight()
	if m.c.help.ShowAll {
		full := m.c.helpView(m, logH+1)
		if len(rp.verdicts.Decisions) > 0 { // what the marks mean, below the keys
			note := wrapLine(words.AnalysisNote(rp.verdicts.Exact), w, "")
			for i, l := range note {
				note[i] = s.Subtle.Render(l)
			}
			full = cutLines(full+"\n\n"+strings.Join(note, "\n"), logH+1)
		}
		b.WriteString(full)
		for i := lineCount(full); i < logH+1; i++ {
			b.WriteByte('\n')
		}
	} else {
		b.WriteString(s.Header.Render(fmt.Sprintf("Round %d, all dice shown", st.Round)))
		b.WriteByte('\n')
		b.WriteString(viewText(m.log))
		b.WriteByte('\n')
	}
	switch {
	case st.Over:
		b.WriteString(s.Accent.Render(cut(rp.nar.Won(g.Winner)+" · home: from the start", w)))
	case g.Abandoned != nil && m.step == len(rp.steps)-1:
		b.WriteString(s.Error.Render(cut("abandoned: "+words.ClosedWhileRunning(g.Abandoned.Name)+"; no one won · home: from the start", w)))
	case m.step == 0:
		b.WriteString(s.Subtle.Render(cut("→ to step through the game, ↓ a round at a time", w)))
	}
	b.WriteByte('\n')
	if !m.c.help.ShowAll {
		b.WriteString(m.c.helpView(m, 1))
	}
	return b.String()
}

// titleBar is the replay's title: the game, its table and its rules,
// then when it ended, a space apart; the rules that do not fit are left
// out whole.
func (m *replayScreen) titleBar(b *strings.Builder, s *Styles, w int, now time.Time) {
	g := m.rp.game
	right := "ended " + ago(now, g.Ended)
	if g.Abandoned != nil {
		right = "abandoned " + ago(now, g.Ended)
	}
	lw := w - ansi.StringWidth(right) - 1
	mia := s.Title.Render("mia")
	text := cutParts(fmt.Sprintf(" replay · game #%s at %s · %s", g.ID, name(g.Table), shortRules(g.Rules)), " · ",
		max(0, lw-ansi.StringWidth(mia)))
	b.WriteString(fit(mia+s.TitleBar.Render(text), lw))
	b.WriteByte(' ')
	b.WriteString(s.Subtle.Render(right))
}

// seatRow is one seat: who, the lives at this step, and the lives per
// round as a bar chart (rounds after this step dim).
func (m *replayScreen) seatRow(s *Styles, seat int, st engine.Step, c0, chartW int) string {
	rp := m.rp
	g := rp.game
	lives := st.Lives[seat]
	marker := "  "
	nm := fit(rp.name(seat), replayNameW)
	switch {
	case st.Over && seat == g.Winner:
		marker = s.Accent.Render("★ ")
		nm = s.Accent.Render(nm)
	case seat == st.Turn:
		marker = s.Turn.Render("▶ ")
		nm = s.Turn.Render(nm)
	case lives == 0:
		nm = s.Dim.Render(nm)
	}
	me := m.c.cfg.Player
	tag := ""
	switch {
	case g.Seats[seat].Bot:
		tag = "[bot]"
	case g.Seats[seat].Person == me.ID && me.ID != "":
		tag = "(you)"
	}
	var hs string
	if lives == 0 {
		hs = s.Dim.Render(fit("out", engine.MaxLives))
	} else {
		l, lost := hearts(lives, g.Rules.Lives)
		hs = s.Heart.Render(l) + s.HeartLost.Render(lost) + spaces(engine.MaxLives-max(g.Rules.Lives, lives))
	}
	return marker + nm + " " + fit(tag, replayTagW) + " " + hs + "  " +
		chartRow(s, rp.chart[seat], g.Rules.Lives, c0, chartW, st.Done)
}

// chartStart is the first round (from 0) of a chart of width cells that
// shows round cur of n.
func chartStart(n, cur, width int) int {
	if width <= 0 || n <= width {
		return 0
	}
	return clamp(cur-1-width/2, 0, n-width)
}

// blocks are the chart's eight heights.
var blocks = []rune("▁▂▃▄▅▆▇█")

// lifeBar is one round of the chart: a block as high as the share of
// lives left, or "·" for none.
func lifeBar(lives, most int) rune {
	if lives <= 0 || most <= 0 {
		return '·'
	}
	return blocks[clamp((lives*len(blocks)+most-1)/most, 1, len(blocks))-1]
}

// chartRow draws lives per round, from round c0+1, in at most width
// cells: the first done rounds in hearts' colour, later ones dim.
func chartRow(s *Styles, lives []int, most, c0, width, done int) string {
	var past, future strings.Builder
	for r := c0; r < len(lives) && r < c0+width; r++ {
		if r < done {
			past.WriteRune(lifeBar(lives[r], most))
		} else {
			future.WriteRune(lifeBar(lives[r], most))
		}
	}
	out := ""
	if past.Len() > 0 {
		out = s.Heart.Render(past.String())
	}
	if future.Len() > 0 {
		out += s.Dim.Render(future.String())
	}
	return out
}

// dieRunes are the faces ⚀ to ⚅.
var dieRunes = []rune("⚀⚁⚂⚃⚄⚅")

// cupText writes dice as faces and digits: "⚄⚂ 53".
func cupText(v engine.Value) string {
	if !v.Valid() {
		return "-"
	}
	return dieFaces(v) + " " + v.Name()
}

// dieFaces writes valid dice as their faces: "⚄⚂".
func dieFaces(v engine.Value) string {
	hi, lo := v.Dice()
	return string([]rune{dieRunes[hi-1], dieRunes[lo-1]})
}

// panel is the claim and the cup at this step on a line, then what the
// dice say of the step's action in words (a bluff, a caught bluff), or
// the action itself, whole, wrapped to w.
func (m *replayScreen) panel(s *Styles, st engine.Step, w int) []string {
	rp := m.rp
	claim := claimLine(s, rp.nar.ClaimWords(st.Claim, st.Claimant))
	cw := rp.nar.CupWords(st.Cup, st.Roller, st.Looked)
	cup := s.Subtle.Render(cw.Lead)
	if cw.Value != "" {
		cup = cw.Lead + s.Bold.Render(dieFaces(st.Cup)+" "+cw.Value) + s.Subtle.Render(cw.By)
	}
	first := cut(claim+s.Subtle.Render(" · ")+cup, w)

	// The step's action: the event that says the most about it.
	words, dress := "", func(l string) string { return l }
	for i := st.First; i < st.End; i++ {
		kind, said := rp.verdict(i)
		if kind == engine.Unjudged {
			continue
		}
		style := verdictStyle(s, kind)
		words, dress = said, func(l string) string { return style.Render(l) }
		break
	}
	if words == "" && st.First < st.End {
		words = rp.describe(st.First)
	}
	out := []string{first}
	if words != "" {
		for _, l := range wrapLine(words, w, "") {
			out = append(out, dress(l))
		}
	}
	if len(out) < 2 {
		out = append(out, "")
	}
	return append(out, m.verdictLines(s, st, w)...)
}

// verdictLines are the verdict on the step's move and what the solved
// strategy plays there; at the game's end, each player's accuracy; while
// the verdicts are worked out, that they are.
func (m *replayScreen) verdictLines(s *Styles, st engine.Step, w int) []string {
	rp := m.rp
	switch {
	case rp.judging:
		return []string{s.Subtle.Render(cut(words.VerdictsPending, w))}
	case rp.unjudged != "":
		var out []string
		for _, l := range wrapLine(rp.unjudged, w, "  ") {
			out = append(out, s.Subtle.Render(l))
		}
		return out
	}
	var out []string
	for i := st.First; i < st.End; i++ {
		d, ok := rp.verdicts.Of(rp.events[i].Seq)
		if !ok {
			continue
		}
		style := s.Info
		if d.Mark != verdict.Good {
			style = markStyle(s, d.Mark)
		}
		for _, l := range wrapLine(words.JudgedBy(rp.name(d.Seat), words.Judged(d.Judgement)), w, "  ") {
			out = append(out, style.Render(l))
		}
		for _, l := range wrapLine(words.StrategyLine(d.Judgement), w, "  ") {
			out = append(out, s.Subtle.Render(l))
		}
		break
	}
	if m.step == len(rp.steps)-1 && len(rp.verdicts.Decisions) > 0 {
		names := make([]string, len(rp.game.Seats))
		for seat := range names {
			names[seat] = rp.name(seat)
		}
		for _, l := range wrapLine(words.AccuracyLine(names, rp.verdicts.Players), w, "  ") {
			out = append(out, s.Bold.Render(l))
		}
	}
	return out
}

// markStyle is the colour of a verdict's mark.
func markStyle(s *Styles, mk verdict.Mark) lipgloss.Style {
	if mk == verdict.Inaccuracy {
		return s.Accent
	}
	return s.Error
}

// wrapLine wraps text to w cells, a word wider than w broken, each line
// after the first led by indent.
func wrapLine(text string, w int, indent string) []string {
	lines := strings.Split(ansi.Wrap(text, w, " "), "\n")
	if indent == "" || len(lines) < 2 {
		return lines
	}
	rest := strings.Split(ansi.Wrap(strings.Join(lines[1:], " "), max(1, w-ansi.StringWidth(indent)), " "), "\n")
	for i, l := range rest {
		rest[i] = indent + l
	}
	return append(lines[:1], rest...)
}

// verdictStyle is the colour of a verdict.
func verdictStyle(s *Styles, k engine.Verdict) lipgloss.Style {
	switch k {
	case engine.Bluffed, engine.Caught:
		return s.Error
	case engine.Truthful, engine.Stood:
		return s.Info
	}
	return s.Subtle
}

// logLines is the round of this step in words, up to the step, with the
// cup under every claim and pass, and the bluffs marked. The step's own
// lines are marked "›".
func (m *replayScreen) logLines(s *Styles, w int) []string {
	rp := m.rp
	st := rp.steps[m.step]
	from := rp.steps[rp.roundStart(m.step)].First
	for from > 0 && rp.events[from].Type != engine.EvRound {
		from--
	}
	var out []string
	for i := from; i < st.End; i++ {
		e := rp.events[i]
		if e.Type == engine.EvRound && i > from {
			break // the next round's opening: its step's, as the header says
		}
		// told as the table tells it ("loses a life — caught bluffing!"),
		// the mark in its colour
		line := rp.nar.Told(rp.events, i)
		if kind, _ := rp.verdict(i); words.Mark(kind) != "" {
			if base, ok := strings.CutSuffix(line, words.Mark(kind)); ok {
				line = base + verdictStyle(s, kind).Render(words.Mark(kind))
			}
		}
		if e.Type == engine.EvClaim || e.Type == engine.EvPass {
			if r, ok := engine.LastRoll(rp.events[:i]); ok {
				line += s.Subtle.Render(" · cup " + cupText(r.Dice))
			}
		}
		if d, ok := rp.verdicts.Of(e.Seq); ok && d.Mark != verdict.Good {
			line += " " + markStyle(s, d.Mark).Render(d.Mark.String())
		}
		if i >= st.First {
			line = s.Bold.Render("› ") + line
		} else {
			line = "  " + line
		}
		out = append(out, strings.Join(wrapLine(line, w, "    "), "\n")) // whole: the log's view shows its end
	}
	return out
}
