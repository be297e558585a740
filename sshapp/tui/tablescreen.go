package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
)

// logKeep is how many log lines are kept from each snapshot.
const logKeep = MaxHeight

// tableScreen shows one table, live, and takes the viewer's moves.
type tableScreen struct {
	name    string
	table   *lobby.Table
	me      lobby.Player
	snap    lobby.Snapshot
	have    bool     // a snapshot arrived
	log     []string // snap.LogLines, made when the snapshot arrives
	picker  picker
	autoAt  int // the event count at which the picker last opened by itself
	confirm bool
	typing  bool
	input   textinput.Model
	status  string
	isErr   bool
	// busy is set from the moment a move is sent until its answer and the
	// snapshot showing it have both arrived; keys pressed meanwhile wait in
	// held, so that each is read against the table it was meant for.
	busy   bool
	moved  bool // the move in flight was taken; its snapshot is awaited
	sentAt int  // the event count when the move was sent
	held   []tea.KeyMsg
	keys   tableKeys
	ikeys  inputKeys
	ckeys  confirmKeys
}

// Requests from the table screen to the root.
type (
	tableBack struct{}
	tableQuit struct{}
)

func newTableScreen(s *Styles, me lobby.Player, name string, t *lobby.Table) tableScreen {
	m := tableScreen{name: name, table: t, me: me, keys: newTableKeys(), ikeys: newInputKeys(), ckeys: newConfirmKeys(), autoAt: -1,
		input: s.newInput("say: ", "a line for the table", lobby.MaxChatRunes)}
	m.syncKeys()
	return m
}

func (m *tableScreen) setStatus(text string, isErr bool) { m.status, m.isErr = text, isErr }

// view is the game as the viewer sees it, or nil.
func (m *tableScreen) view() *engine.View {
	if !m.have {
		return nil
	}
	return m.snap.Game
}

// inGame reports whether the viewer holds a living seat in the running
// game.
func (m *tableScreen) inGame() bool {
	v := m.view()
	return m.snap.Playing && v != nil && v.Seat >= 0 && v.Seat < len(v.Lives) && v.Lives[v.Seat] > 0
}

func (m *tableScreen) isHost() bool {
	return m.have && m.snap.Table.HostFingerprint == m.me.Fingerprint
}

// setSnapshot takes a newer snapshot: the log, the keys and the picker
// follow it.
func (m tableScreen) setSnapshot(snap lobby.Snapshot) (tableScreen, tea.Cmd) {
	m.snap, m.have = snap, true
	// Made once for everyone who sees the table from the same seat; the
	// names in it were typed by people, so it is cleaned.
	m.log = snap.CleanLogLines(logKeep, 4*MaxWidth)
	if !m.inGame() {
		m.confirm = false
	}
	v := m.view()
	if m.picker.Open() {
		m.picker = m.picker.Refresh(v)
	}
	// After the viewer's own roll, the picker opens by itself, once.
	if n := len(snap.Events()); !m.picker.Open() && !m.typing && !m.confirm && v != nil && snap.Playing &&
		v.Can(engine.Claim) && m.autoAt != n {
		if p, ok := newPicker(v); ok {
			m.picker, m.autoAt = p, n
		}
	}
	m.syncKeys()
	if m.moved && len(snap.Events()) > m.sentAt {
		return m.release()
	}
	return m, nil
}

// release ends the wait for a move and plays the keys held meanwhile, in
// order, until one of them sends another move.
func (m tableScreen) release() (tableScreen, tea.Cmd) {
	m.busy, m.moved = false, false
	keys := m.held
	m.held = nil
	var cmds []tea.Cmd
	for i, k := range keys {
		if m.busy {
			m.held = append(m.held, keys[i:]...)
			break
		}
		var cmd tea.Cmd
		m, cmd = m.update(k)
		cmds = append(cmds, cmd)
	}
	return m, tea.Sequence(cmds...)
}

// syncKeys enables the bindings of the actions legal now, so that the help
// bar shows only those.
func (m *tableScreen) syncKeys() {
	k := &m.keys
	v := m.view()
	playing := m.have && m.snap.Playing
	can := func(kind engine.Kind) bool { return playing && v != nil && v.Can(kind) }
	k.Roll.SetEnabled(can(engine.Roll))
	k.Blind.SetEnabled(can(engine.Roll))
	k.Challenge.SetEnabled(can(engine.Challenge))
	k.GiveUp.SetEnabled(can(engine.GiveUp))
	// p passes the claim on unchanged; raising without a roll goes through
	// the picker (a).
	samePass := can(engine.Pass) && len(v.Passes) > 0 && v.Passes[0] == v.Claim
	k.Pass.SetEnabled(samePass)
	if samePass {
		k.Pass.SetHelp("p", "pass "+v.Claim.Name())
	}
	k.Announce.SetEnabled(can(engine.Claim) || can(engine.Pass))
	if can(engine.Claim) {
		k.Announce.SetHelp("a", "announce")
	} else {
		k.Announce.SetHelp("a", "raise")
	}
	seated := m.have && m.snap.Seated
	switch {
	case !m.have:
		k.Sit.SetEnabled(false)
	case !playing && !seated:
		k.Sit.SetEnabled(true)
		k.Sit.SetHelp("s", "sit")
	case !playing:
		k.Sit.SetEnabled(true)
		k.Sit.SetHelp("s", "stand")
	case m.inGame():
		k.Sit.SetEnabled(true)
		k.Sit.SetHelp("s", "leave")
	case seated:
		k.Sit.SetEnabled(true)
		k.Sit.SetHelp("s", "stand")
	default:
		k.Sit.SetEnabled(false)
	}
	k.Start.SetEnabled(m.have && !playing && (seated || m.isHost()))
	m.syncBotKeys(playing)
	if m.have && m.snap.Game != nil {
		k.Start.SetHelp("enter", "play again")
	} else {
		k.Start.SetHelp("enter", "start")
	}
}

// helpKeys is the key map the help bar shows now.
func (m *tableScreen) helpKeys() help.KeyMap {
	switch {
	case m.typing:
		return m.ikeys
	case m.confirm:
		return m.ckeys
	case m.picker.Open():
		return m.picker.keys
	}
	return m.keys
}

func (m tableScreen) update(msg tea.KeyMsg) (tableScreen, tea.Cmd) {
	switch {
	case m.typing:
		return m.updateTyping(msg)
	case m.busy:
		m.held = append(m.held, msg)
		return m, nil
	case m.confirm:
		ck := m.ckeys
		switch {
		case key.Matches(msg, ck.Yes):
			m.confirm = false
			return m, m.stand()
		case key.Matches(msg, ck.No):
			m.confirm = false
			m.setStatus("you stay in the game", false)
		}
		return m, nil
	case m.picker.Open() && key.Matches(msg, m.picker.keys.Choose):
		a := m.picker.Action()
		m.picker = picker{}
		return m.play(a)
	case m.picker.Open():
		m.picker = m.picker.Update(msg)
		return m, nil
	}
	k := m.keys
	v := m.view()
	switch {
	case key.Matches(msg, k.Back):
		return m, func() tea.Msg { return tableBack{} }
	case key.Matches(msg, k.Quit):
		return m, func() tea.Msg { return tableQuit{} }
	case key.Matches(msg, k.Chat) && m.table != nil:
		m.typing = true
		return m, m.input.Focus()
	case !m.have:
		return m, nil
	case key.Matches(msg, k.Roll):
		return m.play(engine.Action{Kind: engine.Roll, Look: true})
	case key.Matches(msg, k.Blind):
		return m.play(engine.Action{Kind: engine.Roll, Look: false})
	case key.Matches(msg, k.Challenge):
		return m.play(engine.Action{Kind: engine.Challenge})
	case key.Matches(msg, k.GiveUp):
		return m.play(engine.Action{Kind: engine.GiveUp})
	case key.Matches(msg, k.Pass):
		return m.play(engine.Action{Kind: engine.Pass, Value: v.Claim})
	case key.Matches(msg, k.Announce):
		m.openPicker()
	case key.Matches(msg, k.Sit):
		switch {
		case m.inGame():
			m.confirm = true
		case m.snap.Seated:
			return m, m.stand()
		default:
			return m, m.sit()
		}
	case key.Matches(msg, k.AddBot):
		return m, m.addBot()
	case key.Matches(msg, k.RemoveBot):
		return m, m.removeBot()
	case key.Matches(msg, k.Start):
		t, me := m.table, m.me
		m.setStatus("starting…", false)
		return m, tableCall("start", func(ctx context.Context) error { return t.Start(ctx, me) })
	}
	return m, nil
}

func (m *tableScreen) openPicker() {
	if p, ok := newPicker(m.view()); ok {
		m.picker = p
	}
}

func (m tableScreen) updateTyping(msg tea.KeyMsg) (tableScreen, tea.Cmd) {
	switch msg.String() {
	case "enter":
		text := m.input.Value()
		m.input.Reset()
		m.input.Blur()
		m.typing = false
		if strings.TrimSpace(text) == "" {
			return m, nil
		}
		t, me := m.table, m.me
		return m, tableCall("chat", func(ctx context.Context) error { return t.Say(ctx, me, text) })
	case "esc":
		m.input.Blur()
		m.typing = false
		return m, nil
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return m, cmd
}

// play sends a move; the keys that follow wait until it has landed.
func (m tableScreen) play(a engine.Action) (tableScreen, tea.Cmd) {
	if m.busy || m.table == nil {
		return m, nil
	}
	m.busy, m.moved, m.sentAt = true, false, len(m.snap.Events())
	m.status = ""
	return m, act(m.table, m.me, a)
}

func (m *tableScreen) sit() tea.Cmd {
	t, me := m.table, m.me
	return tableCall("sit", func(ctx context.Context) error { return t.Sit(ctx, me) })
}

func (m *tableScreen) stand() tea.Cmd {
	t, me := m.table, m.me
	return tableCall("stand", func(ctx context.Context) error { return t.Stand(ctx, me) })
}

// done takes the answer to a move or request. A refused move frees the
// held keys at once; a taken one frees them when its snapshot is in.
func (m tableScreen) done(msg doneMsg) (tableScreen, tea.Cmd) {
	switch {
	case msg.err != nil:
		m.setStatus(msg.err.Error(), true)
	case msg.what == "start":
		m.setStatus("", false)
	}
	if !msg.move || !m.busy {
		return m, nil
	}
	if msg.err != nil || len(m.snap.Events()) > m.sentAt {
		return m.release()
	}
	m.moved = true
	return m, nil
}

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

// spectatorFrame is what a spectator's frame depends on besides the
// snapshot: spectators who match draw the same frame.
type spectatorFrame struct {
	name      string // the table's name as the viewer opened it
	w, h      int
	left      int // seconds on the turn clock
	styles    *Styles
	host      bool
	canChat   bool
	helpWidth int
}

// render draws the table in w×h cells, with the help bar (or the full help
// in place of the log and chat). A spectator with nothing of their own on
// the screen (no status, input, picker or full help) sees what every such
// spectator of the table sees: the frame is drawn once for all of them
// (lobby.Snapshot.Shared) instead of once each, every second.
func (m *tableScreen) render(s *Styles, hv *help.Model, now time.Time, w, h int) string {
	if m.have && m.snap.You < 0 && !m.snap.Seated && !m.typing && !m.confirm && !m.busy && len(m.held) == 0 &&
		!m.picker.Open() && m.status == "" && !hv.ShowAll {
		k := spectatorFrame{name: m.name, w: w, h: h, left: m.remaining(now), styles: s, host: m.isHost(),
			canChat: m.table != nil, helpWidth: hv.Width}
		return m.snap.Shared(k, func() string { return m.draw(s, hv, now, w, h) })
	}
	return m.draw(s, hv, now, w, h)
}

// draw draws the table; see render.
func (m *tableScreen) draw(s *Styles, hv *help.Model, now time.Time, w, h int) string {
	var b strings.Builder
	m.titleBar(&b, s, w)
	b.WriteString("\n\n")
	if !m.have {
		b.WriteString(s.Subtle.Render("opening table " + name(m.name) + "…"))
		return b.String()
	}
	const leftW = 41 // marker 2, name 16, tag 6, hearts 9, clock 5, and gaps
	rightW := w - leftW - 2
	topH := max(9, m.seatCount())
	left := block(m.seatLines(s, now), leftW, topH)
	right := block(m.panelLines(s, now, rightW), rightW, topH)
	side(&b, left, right, 2)
	b.WriteString("\n\n")

	botH := h - 2 - topH - 1 - 1 - 1
	if hv.ShowAll {
		full := hv.View(m.helpKeys())
		b.WriteString(cutLines(full, botH))
		for i := strings.Count(cutLines(full, botH), "\n") + 1; i < botH; i++ {
			b.WriteByte('\n')
		}
	} else {
		colW := (w - 2) / 2
		var lcol []string
		if m.picker.Open() {
			lcol = strings.Split(m.picker.View(s, colW, botH), "\n")
		} else {
			lcol = append(lcol, s.Header.Render("Round log"))
			lcol = append(lcol, tail(len(m.log), colW, botH-1, func(i int) string { return m.log[i] })...)
		}
		rcol := append(make([]string, 0, botH), s.Header.Render("Table chat"))
		rcol = append(rcol, chatBlock(s, m.snap.Chat, w-colW-2, botH-1)...)
		side(&b, block(lcol, colW, botH), rcol, 2)
	}
	b.WriteByte('\n')
	m.statusLine(&b, s, w)
	b.WriteByte('\n')
	if !hv.ShowAll {
		b.WriteString(hv.View(m.helpKeys()))
	}
	return b.String()
}

func (m *tableScreen) titleBar(b *strings.Builder, s *Styles, w int) {
	left := s.Title.Render("mia") + " " + s.Bold.Render(name(m.name))
	if m.have && m.snap.Table.Private {
		left += " 🔒"
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
		rules = " · " + longRules(m.snap.Table.Rules)
	}
	b.WriteString(fit(left+s.TitleBar.Render(cut(rules, max(0, lw-ansi.StringWidth(left)))), lw))
	b.WriteByte(' ')
	b.WriteString(s.Subtle.Render(right))
}

// seat is one seat as drawn.
type seat struct {
	name                string
	lives, max          int
	bot, away, you, out bool
	turn, empty         bool
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
	for _, p := range info.Players {
		out = append(out, seat{name: p.Name, lives: p.Lives, max: info.Rules.Lives, bot: p.Bot,
			away: !p.Bot && !p.Connected, you: p.Fingerprint == m.me.Fingerprint})
	}
	for len(out) < info.Seats {
		out = append(out, seat{empty: true})
	}
	return out
}

func (m *tableScreen) seatLines(s *Styles, now time.Time) []string {
	seats := m.seats()
	lines := make([]string, 0, len(seats)+1)
	switch {
	case m.snap.Playing:
	case m.snap.Game != nil:
		lines = append(lines, s.Header.Render("Seated for the next game"))
	default:
		lines = append(lines, s.Header.Render("Seats"))
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
		if st.out {
			lives = s.Dim.Render(fit("out", engine.MaxLives))
		} else {
			l, lost := hearts(st.lives, st.max)
			lives = s.Heart.Render(l) + s.HeartLost.Render(lost) + spaces(engine.MaxLives-st.max)
		}
		clock := ""
		if st.turn && left >= 0 {
			clock = " " + s.Turn.Render(fmt.Sprintf("%5s", clockText(left)))
		}
		lines = append(lines, marker+nm+" "+fit(tag, 6)+" "+lives+clock)
	}
	return lines
}

// panelLines is the right side: the claim, whose turn, the dice or cup, or
// the result of the last game.
func (m *tableScreen) panelLines(s *Styles, now time.Time, w int) []string {
	v := m.snap.Game
	var out []string
	switch {
	case v == nil:
		out = append(out, s.Header.Render("Waiting for players"),
			fmt.Sprintf("%d of %d seats taken.", m.snap.Table.Taken, m.snap.Table.Seats),
			"The game starts when all seats are",
			"taken or the host presses enter.", "")
		if !m.snap.Seated {
			out = append(out, s.Info.Render("s: take a seat"))
		}
		switch {
		case m.isHost():
			out = append(out, s.Info.Render("enter: start the game"))
		case m.snap.Seated:
			out = append(out, s.Subtle.Render("waiting for the host to start"))
		}
		return out
	case !m.snap.Playing:
		return m.resultLines(s, w)
	}
	switch {
	case v.Claim == engine.NoValue:
		out = append(out, s.Subtle.Render("No claim yet"))
	case v.Claim == engine.Mia:
		out = append(out, s.Accent.Render("Mia!")+" by "+name(m.snap.Who(v.Claimant)))
	default:
		out = append(out, "Claim: "+s.Accent.Render(v.Claim.Name())+" by "+name(m.snap.Who(v.Claimant)))
	}
	turn, hint := m.turnLines(s, v, now)
	out = append(out, cut(turn, w), cut(hint, w))
	switch {
	case v.Dice != engine.NoValue:
		out = append(out, strings.Split(s.Die.Render(drawDice(v.Dice)), "\n")...)
		cap := "your dice: " + v.Dice.Name()
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

// turnLines say whose turn it is, the clock, and what they must do.
func (m *tableScreen) turnLines(s *Styles, v *engine.View, now time.Time) (string, string) {
	clock := ""
	if left := m.remaining(now); left >= 0 {
		clock = " · " + clockText(left) + " left"
	}
	if v.MyTurn() {
		var hint []string
		switch {
		case v.Phase == engine.PhaseAnnounce:
			hint = append(hint, "announce a value: a")
		case v.Claim == engine.Mia:
			hint = append(hint, "Mia! liar: c", "give up: g")
		default:
			if v.Can(engine.Challenge) {
				hint = append(hint, "liar: c")
			}
			if v.Can(engine.Roll) {
				hint = append(hint, "roll: r or b (blind)")
			}
			if len(v.Passes) > 0 && v.Passes[0] == v.Claim {
				hint = append(hint, "pass: p")
			}
			if len(v.Passes) > 0 && v.Passes[len(v.Passes)-1] != v.Claim {
				hint = append(hint, "raise: a")
			}
		}
		return s.Turn.Render("Your turn" + clock), strings.Join(hint, " · ")
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
	return who + "'s turn" + clock, s.Subtle.Render(doing)
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
	} else {
		out = append(out, s.Accent.Render(cut(name(res.Winner)+" wins!", w)))
		var line strings.Builder
		for i, n := range res.Standings {
			item := fmt.Sprintf("%d. %s", i+1, name(n))
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
	if !m.snap.Seated {
		out = append(out, s.Info.Render("s: sit for the next game"))
	}
	if m.snap.Seated || m.isHost() {
		out = append(out, s.Info.Render("enter: play again"))
	}
	return out
}

func (m *tableScreen) statusLine(b *strings.Builder, s *Styles, w int) {
	switch {
	case m.typing:
		b.WriteString(m.input.View())
	case m.confirm:
		b.WriteString(s.Error.Render(cut("Leave the running game? You will be out of it. (y/n)", w)))
	case m.status != "" && m.isErr:
		b.WriteString(s.Error.Render(cut(m.status, w)))
	case m.status != "":
		b.WriteString(s.Info.Render(cut(m.status, w)))
	case !m.have:
	case m.snap.Game != nil && m.snap.Playing && m.snap.Game.Seat < 0:
		b.WriteString(s.Subtle.Render("You are watching this game."))
	}
}
