package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
)

// The drawing of the table screen; tableinput.go is its state and input.

// remaining is the turn clock as the viewer sees it: whole seconds left.
func (m *tableScreen) remaining(now time.Time) int {
	if m.snap.Deadline.IsZero() {
		return -1
	}
	d := m.snap.Deadline.Sub(now)
	if d <= 0 {
		return 0
	}
	return int((d + time.Second - 1) / time.Second)
}

// bottom is the size of the columns under the seats: the log (or the
// picker) and the chat, each colW wide (the chat the rest), botH high.
func (m *tableScreen) bottom() (colW, botH int) {
	return (m.w - 2) / 2, m.h - 2 - m.topH() - 1 - max(1, m.statusH) - 1
}

// maxStatusH is the most lines the status line wraps to: the columns
// above give way to it.
const maxStatusH = 3

// topH is the height of the seats and the panel beside them: the panel's
// tallest (a claim, the turn, two lines of hints, the dice and their
// caption), or the seats.
func (m *tableScreen) topH() int { return max(10, m.seatCount()) }

// layout asks for the log, the chat and the picker to be fitted to the
// window again before the next frame is drawn (fitViews). It costs
// nothing: a spectator whose frame is shared never fits them.
func (m *tableScreen) layout() { m.fitted = false }

// fitViews sizes the log, the chat and the picker to the window, and draws
// the log and the chat into their viewports when they or the size changed
// (most snapshots leave the chat as it was); only if layout asked for it.
func (m *tableScreen) fitViews() {
	if m.fitted {
		return
	}
	m.fitted = true
	colW, botH := m.bottom()
	restyled := m.drawnBy != m.c.s
	m.drawnBy = m.c.s
	logSize := [2]int{max(1, colW), max(1, botH-1)}
	if restyled || m.drawnSize[0] != logSize || !slices.Equal(m.drawnLog, m.log) {
		m.drawn[0], m.drawnSize[0] = m.tail(logSize, len(m.log), func(i int) string { return m.log[i] }), logSize
		m.drawnLog = m.log
	}
	chat := m.snap.Chat
	chatSize := [2]int{max(1, m.w-colW-2), max(1, botH-1)}
	if restyled || m.drawnSize[1] != chatSize || !slices.Equal(m.drawnChat, chat) || m.drawn[1] == nil {
		m.drawn[1], m.drawnSize[1] = m.tail(chatSize, len(chat), m.c.s.chatLineOf(chat)), chatSize
		m.drawnChat = chat
	}
	m.fitPicker()
}

// tail draws the end of n items in a viewport of size (setTail), as
// lines.
func (m *tableScreen) tail(size [2]int, n int, line func(i int) string) []string {
	return m.c.s.tailLines(size[0], size[1], n, line)
}

// fitPicker sizes the picker to the log's place.
func (m *tableScreen) fitPicker() {
	if m.picker != nil {
		colW, botH := m.bottom()
		m.picker.SetSize(colW, botH)
	}
}

// spectatorFrame is what a spectator's frame depends on besides the
// snapshot: spectators who match draw the same frame.
type spectatorFrame struct {
	name      string // the table's name as the viewer opened it
	w, h      int
	clockW    int // the turn clock's width in the frame, -1 for none
	left      int // seconds on the turn clock; -1 in a frame with the clock's marks
	styles    *Styles
	host      bool
	canChat   bool
	yourSeed  string // the viewer's seed for the next game's dice, if any
	seedGiven bool
	cupAt     int    // the lifted cup's event, or -1 (reveal.shownAt)
	ratings   string // what the ratings shown are of (seatRatings.key)
}

// View draws the table, with the help bar (or the full help in place of
// the log and chat). A spectator with nothing of their own on the screen
// (no status line, line being typed, picker, question or full help) sees
// what every such spectator of the table sees: the frame is drawn once for
// all of them (lobby.Snapshot.Shared) instead of once each, every second.
func (m *tableScreen) View() string {
	if m.have && m.snap.You < 0 && !m.snap.Seated && !m.Typing() && !m.confirm && !m.busy && len(m.held) == 0 &&
		!m.picker.Open() && m.status == "" && !m.c.help.ShowAll {
		left := m.remaining(m.c.cfg.Now())
		k := spectatorFrame{name: m.name, w: m.w, h: m.h, clockW: -1, left: -1, styles: m.c.s,
			host: m.isHost(), canChat: m.table != nil, cupAt: m.cup.shownAt(), ratings: m.ratings.key}
		if f := m.snap.Table.Fair; f.Next {
			k.yourSeed, k.seedGiven = f.Seed(m.c.cfg.Player.ID)
		}
		if left < 0 {
			return m.snap.Shared(k, m.draw)
		}
		k.clockW = len(clockText(left))
		template := k
		k.left = left
		return m.snap.Shared(k, func() string {
			frame := m.snap.Shared(template, func() string {
				m.clockMarked = true
				defer func() { m.clockMarked = false }()
				return m.draw()
			})
			frame = strings.ReplaceAll(frame, strings.Repeat(string(clockMark), k.clockW), clockText(left))
			if strings.ContainsRune(frame, clockMark) { // a clock cut by the window's edge
				return m.draw()
			}
			return frame
		})
	}
	return m.draw()
}

// clockMark stands in for each character of the turn clock in a frame
// shared by spectators, which is drawn once per snapshot and not once a
// second: each second's frame is the shared one with the clock written in.
// It is a private-use rune, which words.Clean takes out of anything
// people type, as wide as a digit.
const clockMark = '\uE000'

// clockText is the turn clock's text, or marks as wide as it while a
// shared frame is drawn (see clockMark).
func (m *tableScreen) clockText(left int) string {
	t := clockText(left)
	if m.clockMarked {
		return strings.Repeat(string(clockMark), len(t))
	}
	return t
}

// draw draws the table; see View.
func (m *tableScreen) draw() string {
	s, w, now := m.c.s, m.w, m.c.cfg.Now()
	var b strings.Builder
	m.titleBar(&b, s, w)
	b.WriteByte('\n')
	if m.have {
		b.WriteString(s.Subtle.Render(m.diceLine(w)))
	}
	b.WriteByte('\n')
	if !m.have {
		b.WriteString(s.Subtle.Render("opening table " + name(m.name) + "…"))
		return b.String()
	}
	status := m.statusLines(s, w)
	if len(status) != max(1, m.statusH) {
		m.statusH, m.fitted = len(status), false
	}
	m.fitViews()
	const leftW = 41 // marker 2, name 16, tag 6, hearts 9, clock 5, and gaps
	rightW := w - leftW - 2
	topH := m.topH()
	left := block(m.seatLines(s, now), leftW, topH)
	right := block(m.panelLines(s, now, rightW), rightW, topH)
	side(&b, left, right, 2)
	b.WriteString("\n\n")

	colW, botH := m.bottom()
	if m.c.help.ShowAll {
		// every key, then the rules: as long as they are, they scroll
		lines := append(strings.Split(m.c.helpModel().View(m), "\n"), m.rulesLines(s, w)...)
		m.helpTop = clamp(m.helpTop, 0, max(0, len(lines)-botH))
		b.WriteString(strings.Join(block(lines[m.helpTop:], w, botH), "\n"))
	} else {
		var lcol []string
		switch {
		case m.picker.Open():
			lcol = strings.Split(m.picker.View(), "\n")
		case m.cup.shown() && m.cupWide(colW, botH):
			// the lifted cup, over the log and the chat for its few
			// seconds: its words are told whole, its dice drawn
			b.WriteString(strings.Join(block(m.cup.lines(s, w, botH), w, botH), "\n"))
		case m.cup.shown():
			// the lifted cup, in place of the log that tells it too
			lcol = m.cup.lines(s, colW, botH)
		default:
			lcol = append([]string{s.Header.Render("Round log")}, m.drawn[0]...)
		}
		if lcol != nil {
			rcol := append([]string{s.Header.Render("Table chat")}, m.drawn[1]...)
			side(&b, block(lcol, colW, botH), rcol, 2)
		}
	}
	b.WriteByte('\n')
	b.WriteString(strings.Join(status, "\n"))
	b.WriteByte('\n')
	if !m.c.help.ShowAll {
		b.WriteString(m.c.helpView(m, 1))
	} else {
		b.WriteString(s.Subtle.Render(cut("↑/↓ scroll the help and the rules · ? close", w)))
	}
	return b.String()
}

// cupWide reports whether the lifted cup takes the whole width, the
// chat's column too: when its words do not fit the log's column, or when
// its dice do not fit there beside its words but do in the whole width
// and the chat has nothing to cover.
func (m *tableScreen) cupWide(colW, botH int) bool {
	switch {
	case m.cup.showsDice(colW, botH):
		return false
	case !m.cup.fits(colW, botH):
		return true
	}
	return len(m.snap.Chat) == 0 && m.cup.showsDice(m.w, botH)
}

func (m *tableScreen) titleBar(b *strings.Builder, s *Styles, w int) {
	left := s.Title.Render("mia") + " " + s.Bold.Render(name(m.name))
	if m.have && m.snap.Table.Private {
		left += " 🔒"
	}
	if m.have && m.snap.Table.Coach {
		left += s.Subtle.Render(" coached, not rated")
	}
	var right string
	switch {
	case !m.have:
	case m.snap.Playing && m.snap.Game != nil:
		right = fmt.Sprintf("round %d", m.snap.Game.Round)
	case m.snap.Game != nil:
		right = "game over"
	default:
		right = fmt.Sprintf("waiting · %d/%d seated", m.snap.Table.Taken, m.snap.Table.Seats)
	}
	if m.have && !m.snap.Seated && (m.snap.Game == nil || m.snap.You < 0) {
		right += " · watching"
	}
	lw := w - ansi.StringWidth(right) - 1
	rules := ""
	if m.have {
		// the rules that fit, each whole or not at all
		rules = cutParts(" · "+longRules(m.snap.Table.Rules), " · ", max(0, lw-ansi.StringWidth(left)))
	}
	b.WriteString(fit(left+s.TitleBar.Render(rules), lw))
	b.WriteByte(' ')
	b.WriteString(s.Subtle.Render(right))
}

// seat is one seat as drawn.
type seat struct {
	name                string
	lives, max          int
	bot, away, you, out bool
	turn, empty         bool
	at                  int // the seat's place in Table.Players between games
}

// seatCount is the number of lines the seats take, with their header
// between games.
func (m *tableScreen) seatCount() int {
	if m.snap.Playing && m.snap.Game != nil {
		return len(m.snap.Game.Lives)
	}
	return 1 + max(m.snap.Table.Seats, len(m.snap.Table.Players))
}

// seats lists the seats in order: the running game's, or else the people
// seated for the next game and the empty seats.
func (m *tableScreen) seats() []seat {
	info := m.snap.Table
	v := m.snap.Game
	var out []seat
	if m.snap.Playing && v != nil {
		for i, l := range v.Lives {
			st := seat{name: m.snap.Name(i), lives: l, max: v.Options.Lives, you: i == v.Seat, out: l == 0,
				turn: i == v.Turn && v.Phase != engine.PhaseOver}
			if i < len(info.Players) && info.Players[i].Name == st.name {
				p := info.Players[i]
				st.bot, st.away = p.Bot, !p.Bot && !p.Connected
			}
			out = append(out, st)
		}
		return out
	}
	for i, p := range info.Players {
		out = append(out, seat{name: p.Name, lives: p.Lives, max: info.Rules.Lives, bot: p.Bot,
			away: !p.Bot && !p.Connected, you: p.ID == m.c.cfg.Player.ID, at: i})
	}
	for len(out) < info.Seats {
		out = append(out, seat{empty: true})
	}
	return out
}

func (m *tableScreen) seatLines(s *Styles, now time.Time) []string {
	seats := m.seats()
	lines := make([]string, 0, len(seats)+1)
	rated := m.seatsRated()
	head := ""
	switch {
	case m.snap.Playing:
	case m.snap.Game != nil && m.snap.Table.Event != "":
		head = "Played this game" // an event's table deals one game; its players are seated again by the event
	case m.snap.Game != nil:
		head = "Seated for the next game"
	default:
		head = "Seats"
	}
	if head != "" {
		if rated {
			col := "rating  win"
			if m.ratings.seats.AtTable {
				col = "here    win"
			}
			head = fit(head, 26) + col
		}
		lines = append(lines, s.Header.Render(head))
	}
	left := m.remaining(now)
	for _, st := range seats {
		if st.empty {
			lines = append(lines, s.Dim.Render("  · empty seat"))
			continue
		}
		marker := "  "
		if st.turn {
			marker = s.Turn.Render("▶ ")
		}
		nm := fit(name(st.name), 16)
		switch {
		case st.out:
			nm = s.Dim.Render(nm)
		case st.turn:
			nm = s.Turn.Render(nm)
		}
		tag := ""
		switch {
		case st.bot:
			tag = "[bot]"
		case st.away:
			tag = "(away)"
		case st.you:
			tag = "(you)"
		}
		var lives string
		switch {
		case rated && !m.snap.Playing:
			// before a game: the rating and the model's chance to win
			rs := m.ratings.seats
			lives = fmt.Sprintf("%5s", words.Figure(rs.Ratings[st.at]))
			if st.at < len(rs.Chances) {
				lives += fmt.Sprintf(" %4s", fmt.Sprintf("%.0f%%", 100*rs.Chances[st.at]))
			}
		case st.out:
			lives = s.Dim.Render(fit("out", engine.MaxLives))
		default:
			l, lost := hearts(st.lives, st.max)
			lives = s.Heart.Render(l) + s.HeartLost.Render(lost) + spaces(engine.MaxLives-st.max)
		}
		clock := ""
		if st.turn && left >= 0 {
			clock = " " + s.Turn.Render(fmt.Sprintf("%5s", m.clockText(left)))
		}
		lines = append(lines, marker+nm+" "+fit(tag, 6)+" "+lives+clock)
	}
	return lines
}

// seatsRated reports whether the ratings of the seats for the next game
// are read, and of these seats.
func (m *tableScreen) seatsRated() bool {
	return !m.snap.Playing && m.ratings.key != "" && m.ratings.key == m.ratingsFor() && !m.ratings.failed &&
		len(m.ratings.seats.Ratings) == len(m.snap.Table.Players)
}

// panelLines is the right side: the claim, whose turn, the dice or cup, or
// the result of the last game.
func (m *tableScreen) panelLines(s *Styles, now time.Time, w int) []string {
	v := m.snap.Game
	var out []string
	switch {
	case v == nil:
		out = append(out, s.Header.Render("Waiting for players"),
			fmt.Sprintf("%d of %d seats taken.", m.snap.Table.Taken, m.snap.Table.Seats))
		if m.snap.Table.StartsByItself { // a full table back after a restart
			out = append(out, wrapLine(words.Sentence(words.NextGameByItself(lobby.RestBetweenGames)), w, "")...)
		} else {
			out = append(out, "The game starts when all seats are", "taken or the host presses enter.")
		}
		out = append(out, "")
		if !m.snap.Seated && m.keys.Sit.Enabled() {
			out = append(out, s.Info.Render("s: take a seat"))
		}
		switch {
		case m.keys.Start.Enabled():
			out = append(out, s.Info.Render("enter: start the game"))
		case m.isHost() || m.snap.Seated && !m.snap.Table.HostHere:
			out = append(out, s.Subtle.Render("waiting for a second player"))
		case m.snap.Seated:
			out = append(out, s.Subtle.Render(cut("waiting for "+name(m.snap.Table.Host)+", the host, to start", w)))
		}
		return out
	case !m.snap.Playing:
		return m.resultLines(s, w)
	}
	out = append(out, claimLine(s, m.snap.Narrator().ClaimWords(v.Claim, v.Claimant)))
	turn, hint := m.turnLines(s, v, now, w)
	out = append(out, cut(turn, w))
	out = append(out, hint...)
	switch {
	case v.Dice != engine.NoValue:
		out = append(out, strings.Split(s.Die.Render(drawDice(v.Dice)), "\n")...)
		cap := "your dice: " + words.DiceName(v.Options.Ranking, v.Dice)
		if v.Dice == engine.Mia {
			cap += "!"
		}
		out = append(out, s.Bold.Render(cap))
	case v.Roller >= 0:
		out = append(out, strings.Split(s.Cup.Render(drawCup()), "\n")...)
		if v.Roller == v.Seat {
			out = append(out, s.Subtle.Render("you rolled blind: unseen"))
		} else {
			out = append(out, s.Subtle.Render(cut("under the cup: "+name(m.snap.Name(v.Roller))+"'s roll", w)))
		}
	default:
		out = append(out, s.Subtle.Render("the cup is empty"))
	}
	return out
}

// turnLines say whose turn it is, the clock, and what they must do, in
// lines of at most w cells (two at most: the panel has room for them).
func (m *tableScreen) turnLines(s *Styles, v *engine.View, now time.Time, w int) (string, []string) {
	if m.snap.Table.Paused {
		return s.Error.Render("Table paused"), joinLines(strings.Fields(m.snap.Table.PausedWords()), " ", w, 2)
	}
	clock := ""
	if left := m.remaining(now); left >= 0 {
		clock = " · " + m.clockText(left) + " left"
	}
	if v.MyTurn() {
		var hint []string
		switch {
		case v.Phase == engine.PhaseAnnounce:
			hint = append(hint, "a: announce a value")
		case v.Claim == engine.Mia:
			hint = append(hint, "Mia! c: liar")
			if v.Can(engine.GiveUp) {
				hint = append(hint, "g: give up")
			}
			if v.Can(engine.Roll) { // a Mia come back to its roller (mia-pass reroll)
				hint = append(hint, "r: roll")
			}
			if v.CanPassOn() { // mia-pass: it may go on
				hint = append(hint, "p: pass")
			}
		default:
			if v.Can(engine.Roll) && v.ChallengeCosts() {
				hint = append(hint, "r: roll", "b: roll blind", "c: liar now loses you a life")
				break
			}
			if v.Can(engine.Challenge) {
				hint = append(hint, "c: liar")
			}
			if v.Can(engine.Roll) {
				hint = append(hint, "r: roll", "b: roll blind")
			}
			if v.CanPassOn() {
				hint = append(hint, "p: pass")
			}
			if v.CanRaise() {
				hint = append(hint, "a: raise")
			}
		}
		return s.Turn.Render("Your turn" + clock), joinLines(hint, " · ", w, 2)
	}
	who := name(m.snap.Name(v.Turn))
	var doing string
	switch v.Phase {
	case engine.PhaseOpen:
		doing = who + " opens the round"
	case engine.PhaseAnnounce:
		doing = who + " announces"
	default:
		doing = who + " answers the claim"
	}
	return who + "'s turn" + clock, []string{s.Subtle.Render(cut(doing, w))}
}

// joinLines joins items with sep into lines of at most w cells, an item
// never split, at most most lines (an item too wide is cut).
func joinLines(items []string, sep string, w, most int) []string {
	var out []string
	line := ""
	for _, it := range items {
		switch {
		case line == "":
			line = it
		case ansi.StringWidth(line+sep+it) <= w:
			line += sep + it
		default:
			out = append(out, cut(line, w))
			line = it
		}
	}
	if line != "" {
		out = append(out, cut(line, w))
	}
	return out[:min(len(out), most)]
}

// clockText writes seconds left: "42s", or "12:05" from 100 s up.
func clockText(sec int) string {
	if sec < 100 {
		return fmt.Sprintf("%ds", sec)
	}
	return fmt.Sprintf("%d:%02d", sec/60, sec%60)
}

// resultLines shows how the last game ended.
func (m *tableScreen) resultLines(s *Styles, w int) []string {
	out := []string{s.Header.Render("Game over")}
	res := m.snap.Result
	if res == nil {
		if v := m.snap.Game; v != nil && v.Winner >= 0 {
			out = append(out, s.Accent.Render(cut(name(m.snap.Name(v.Winner))+" wins!", w)))
		}
	} else if lines, ok := m.changeLines(s, w); ok {
		out[0] = s.Header.Render(lines[0])
		out = append(out, s.Accent.Render(cut(label(res.Winner)+" wins!", w)))
		out = append(out, lines[1:]...)
	} else {
		out = append(out, s.Accent.Render(cut(label(res.Winner)+" wins!", w)))
		var line strings.Builder
		for i, n := range res.Standings {
			item := fmt.Sprintf("%d. %s", i+1, label(n))
			if line.Len() > 0 && ansi.StringWidth(line.String())+2+ansi.StringWidth(item) > w {
				out = append(out, line.String())
				line.Reset()
			}
			if line.Len() > 0 {
				line.WriteString("  ")
			}
			line.WriteString(item)
		}
		if line.Len() > 0 {
			out = append(out, line.String())
		}
	}
	out = append(out, "")
	if !m.snap.Seated && m.keys.Sit.Enabled() {
		out = append(out, s.Info.Render("s: sit for the next game"))
	}
	switch {
	case m.snap.Table.StartsByItself:
		for _, l := range wrapLine(words.Sentence(words.NextGameByItself(lobby.RestBetweenGames)), w, "") {
			out = append(out, s.Subtle.Render(l))
		}
	case m.keys.Start.Enabled():
		out = append(out, s.Info.Render("enter: play again"))
	case m.snap.Seated && m.whoStarts() != "":
		out = append(out, s.Subtle.Render(cut(name(m.snap.Table.Host)+", the host, starts the next game", w)))
	}
	return out
}

// changeLines are the panel's heading and the standings of the game just
// over, each with the rating it left and how far it moved it: "1. ann
// 1441  +88"; two to a line when one each would not fit beside the seats.
// ok is false while the changes are not read (or the game was not rated).
func (m *tableScreen) changeLines(s *Styles, w int) ([]string, bool) {
	v, res, gr := m.snap.Game, m.snap.Result, m.ratings.game
	if v == nil || res == nil || gr == nil || m.ratings.key != m.ratingsFor() {
		return nil, false
	}
	cs := gr.Shown()
	if cs == nil || len(v.Standings) != len(res.Standings) {
		return nil, false
	}
	items := make([]string, 0, len(v.Standings))
	for i, seat := range v.Standings {
		if seat < 0 || seat >= len(cs) {
			return nil, false
		}
		c := cs[seat]
		items = append(items, fmt.Sprintf("%d. %s %5s %4s", i+1, fit(label(res.Standings[i]), 14), words.Figure(c.After), words.Move(c)))
	}
	head := "Game over · ratings"
	if gr.Overall == nil {
		head = "Game over · ratings at this table"
	}
	out := []string{cut(head, w)}
	if 2+len(items)+3 <= m.topH() || w < 2*30 {
		for _, it := range items {
			out = append(out, cut(it, w))
		}
		return out, true
	}
	for i := 0; i < len(items); i += 2 {
		line := items[i]
		if i+1 < len(items) {
			line += "  " + items[i+1]
		}
		out = append(out, cut(line, w))
	}
	return out, true
}

// statusLines are the status line's: a typed line, a question, a status
// or the coach's word, wrapped to at most maxStatusH lines, else the one
// line about the game.
func (m *tableScreen) statusLines(s *Styles, w int) []string {
	wrapped := func(st lipgloss.Style, text string) []string {
		lines := wrapLine(text, w, "")
		if len(lines) > maxStatusH {
			lines = append(lines[:maxStatusH-1], cut(strings.Join(lines[maxStatusH-1:], " "), w))
		}
		for i, l := range lines {
			lines[i] = st.Render(cut(l, w))
		}
		return lines
	}
	switch {
	case typing(m.say):
		return []string{m.say.View()}
	case typing(m.seed):
		return []string{m.seed.View()}
	case m.confirm:
		return wrapped(s.Error, "Leave the running game? You will be out of it. (y/n)")
	case m.quitAsk:
		return wrapped(s.Error, "You are seated in a game at "+name(m.name)+
			": your turns time out while you are away. q again to quit, any other key to stay.")
	case m.status != "" && m.isErr:
		return wrapped(s.Error, m.status)
	case m.status != "":
		return wrapped(s.Info, m.status)
	case m.coach != "" && m.snap.Table.Coach:
		return wrapped(s.Accent, m.coach)
	case !m.have:
	case m.snap.Game != nil && m.snap.Playing && m.snap.Game.Seat < 0:
		line := "You are watching this game."
		if link := m.gameLink(); link != "" {
			line = fitLink(w, link, "You are watching this game · on the web: ", "on the web: ")
		}
		return []string{s.Subtle.Render(cut(line, w))}
	case m.snap.Game != nil:
		if link := m.gameLink(); link != "" {
			return []string{s.Subtle.Render(cut(fitLink(w, link, "This game on the web: ", "on the web: "), w))}
		}
	}
	return []string{""}
}

// fitLink is link after the longest of the words that leaves it whole in
// w cells (a link cut short opens nothing), or the link alone.
func fitLink(w int, link string, words ...string) string {
	for _, wd := range words {
		if ansi.StringWidth(wd+link) <= w {
			return wd + link
		}
	}
	return link
}

// gameLink is the web address of the table's game (Config.GameLink), ""
// for none.
func (m *tableScreen) gameLink() string {
	if m.c.cfg.GameLink == nil || m.snap.GameID == "" {
		return ""
	}
	a := m.snap.Table.Access()
	// The game was played at the table as it is now: its record is the
	// table's access (a game no older than the table).
	return m.c.cfg.GameLink(m.snap.GameID, lobby.GameAccess{Started: a.Created, Table: &a})
}

// diceLine is the line under the title, in at most w cells: the
// server's commitment to the dice (its first 16 hex digits; `seed TABLE`
// shows all 64) and the seeds of the players, for the running game or the
// next, and the viewer's own. What does not fit goes whole, never cut in
// the middle of a seed: the viewer's seed is then only said to be given,
// and then the parts at the end go.
func (m *tableScreen) diceLine(w int) string {
	f := m.snap.Table.Fair
	if f.Commitment == "" {
		return cut("dice: not committed (a game dealt before commitments, or scripted)", w)
	}
	var b strings.Builder
	if f.Next {
		b.WriteString("next game's dice: ")
	} else {
		b.WriteString("dice: ")
	}
	fmt.Fprintf(&b, "sha256 %s…", f.Commitment[:16])
	var names []string // the seeds that count: the players'
	for _, s := range f.Seeds {
		if s.Seated {
			names = append(names, name(s.Name))
		}
	}
	switch {
	case len(names) == 0 && f.Next:
		b.WriteString(" · no seeds yet")
	case len(names) == 0:
		b.WriteString(" · no player seeds")
	default:
		b.WriteString(" · seeds: " + strings.Join(names, ", "))
	}
	line := b.String()
	if !f.Next {
		return cutParts(line, " · ", w)
	}
	if s, ok := f.Yours(m.c.cfg.Player.ID); ok {
		yours, given := fmt.Sprintf(" · yours %q (f)", s.Seed), " · yours: given (f)"
		if !s.Seated { // it counts only if they play (words.SeedSays)
			yours, given = fmt.Sprintf(" · yours %q %s (f)", s.Seed, words.SeedIfSeated), " · yours "+words.SeedIfSeated+" (f)"
		}
		if full := line + yours; ansi.StringWidth(full) <= w {
			return full
		}
		return cutParts(line+given, " · ", w)
	}
	return cutParts(line+" · yours: none (f)", " · ", w)
}

// rulesLines are the table's rules under the full help, in lines of w
// cells: a blank line, the rules in words, then what sets them apart from
// the classic rules, explained (words.RulesApart), and where every rule
// is told.
func (m *tableScreen) rulesLines(s *Styles, w int) []string {
	o := m.snap.Table.Rules
	if m.snap.Game != nil && m.snap.Playing {
		o = m.snap.Game.Options // the game's, when the host changed them for the next one
	}
	out := []string{""}
	for _, l := range words.Wrap("Rules: "+words.RulesSummary(o), w) {
		out = append(out, s.Header.Render(l))
	}
	for _, r := range words.RulesApart(o) {
		out = append(out, words.Wrap(r.Option+" "+r.Value+": "+r.Text, w)...)
	}
	if m.snap.Table.Coach {
		out = append(out, words.Wrap("Coached: "+words.CoachSays+".", w)...)
	}
	every := "every rule in words: " + m.c.cfg.Hint + " rules " + name(m.name)
	if m.c.cfg.Hint == "" || ansi.StringWidth(every) > w {
		every = "every rule in words: the rules command"
	}
	return append(out, s.Subtle.Render(every))
}

// notice is what a window too small for the table still says: that it is
// the viewer's turn, and the clock (noticer).
func (m *tableScreen) notice() string {
	v := m.view()
	if !m.inGame() || !v.MyTurn() {
		return ""
	}
	news := "Your turn at " + name(m.name)
	if left := m.remaining(m.c.cfg.Now()); left >= 0 {
		news += " · " + clockText(left) + " left"
	}
	return news
}

// claimLine is the claim on the table as the table and the replay screens
// show it (words.ClaimWords): "No claim yet" subdued, the claim itself in
// the accent.
func claimLine(s *Styles, c words.ClaimWords) string {
	if c.Value == "" {
		return s.Subtle.Render(c.Lead)
	}
	return c.Lead + s.Accent.Render(c.Value) + c.By
}
