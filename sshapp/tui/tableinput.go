package tui

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/fair"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/sshapp/verdict"
)

// logKeep is how many log lines are kept from each snapshot.
const logKeep = MaxHeight

// tableScreen shows one table, live, and takes the viewer's moves. This
// file is its state and its input; tableview.go draws it.
type tableScreen struct {
	frame
	name    string
	sitDown bool                // sit down once the table is open
	invite  *string             // an invitation to take first: its code ("" for a public table's)
	table   *lobby.Table        // nil until open
	sub     *lobby.Subscription // the table's snapshots; nil once left
	left    bool                // another screen shows
	tick    time.Time           // the turn clock's next redraw; zero while no game is played
	ticker  *time.Timer         // with Config.Post: the timer that posts the tick armed for ticking
	ticking time.Time
	snap    lobby.Snapshot
	have    bool        // a snapshot arrived
	log     []string    // snap.LogLines, made when the snapshot arrives
	drawn   [2][]string // the log's and the chat's views, drawn when they change
	// the sizes drawn shows them in (a viewport draws them and is
	// dropped: two kept were 2 KB a screen)
	drawnSize [2][2]int
	// what drawn shows
	drawnLog  []string
	fitted    bool // the log, the chat and the picker fit the window and the snapshot
	drawnChat []lobby.ChatLine
	drawnBy   *Styles // the styles drawn shows: new ones (RestyleMsg) draw it again
	picker    *picker // nil while no picker shows (most screens never show one)
	autoAt    int     // the event count at which the picker last opened by itself
	confirm   bool
	say       *chatInput // the table chat line; nil until first used (sayLine)
	seed      *chatInput // the viewer's seed for the next game's dice (f); nil until first used
	status    string
	isErr     bool
	// pauseErr: the status is a refusal of the table's pause (its storage
	// not answering), which ends when the table resumes.
	pauseErr bool
	// busy is set from the moment a move is sent until its answer and the
	// snapshot showing it have both arrived; keys pressed meanwhile wait
	// in the frame's held keys (frame.take), so that each is read against
	// the table it was meant for.
	busy   bool
	moved  bool // the move in flight was taken; its snapshot is awaited
	sentAt int  // the event count when the move was sent
	// the events of the game seen so far, and the cup lifted at the end of
	// the last round, shown until its time is over
	gameID string
	seen   int
	cup    reveal
	// the ratings of the seats before a game and their changes after one
	// (ratingsFor says for what), and the read on its way, if any
	ratings    seatRatings
	ratingsAsk string
	// coach is the coach's verdict on the viewer's last move at a
	// coached table (words.Coached), "" for none; coachSeq the move it
	// is of.
	coach    string
	coachSeq int
	// clockMarked is set while a frame shared by spectators is drawn.
	clockMarked bool
	helpTop     int // the first line of the full help shown, scrolled with ↑/↓
	// event is the event whose table this is, when the viewer came from
	// its screen: back there once the game is over (backAt), or with esc.
	event  string
	backAt string // the game whose end takes the viewer back
	// chatted: the last key ended a chat line with enter. An esc right
	// after it (meant to close the chat) does not leave the table.
	chatted bool
	statusH int // the lines the status line took in the last frame drawn
	// quitAsk: q was pressed by a player in the game; q again quits, any
	// other key stays.
	quitAsk bool
	keys    tableKeys
}

func newTableScreen(c *common, name string, sit bool) *tableScreen {
	m := &tableScreen{frame: frame{c: c}, name: name, sitDown: sit, keys: newTableKeys(), autoAt: -1}
	m.shown, m.resized = m.helpKeys, m.layout
	// Keys wait while the table is not open or a move is on its way; the
	// chat and seed lines take theirs at once, and esc and q leave a table
	// that has not opened.
	m.ready = func() bool { return typing(m.say) || typing(m.seed) || m.have && !m.busy }
	m.leaves = func(k tea.KeyMsg) bool {
		return !m.have && !m.busy && key.Matches(k, m.keys.Back, m.keys.Quit)
	}
	m.syncKeys()
	return m
}

// sayLine is the table chat's line, made when first used: a text input is
// some 5 KB, and most people at a table never type in it.
func (m *tableScreen) sayLine() *chatInput {
	if m.say == nil {
		l := m.c.newChatInput("a line for the table")
		m.say = &l
	}
	m.say.Width = m.w - 6
	return m.say
}

// seedLine is the line for the viewer's seed, made when first used.
func (m *tableScreen) seedLine() *chatInput {
	if m.seed == nil {
		m.seed = &chatInput{Model: m.c.newInput("your seed: ", "any text; empty: none", fair.MaxSeedRunes), keys: newInputKeys(),
			whole: "a seed is"} // a seed is never cut: what does not fit is refused
		m.seed.keys.full(fair.MaxSeedRunes)
	}
	m.seed.Width = m.w - 6
	return m.seed
}

// setPicker shows p, or no picker if p is closed.
func (m *tableScreen) setPicker(p picker) {
	if !p.Open() {
		m.picker = nil
		return
	}
	m.picker = &p
}

// typing reports whether line exists and has the keyboard.
func typing(line *chatInput) bool { return line != nil && line.typing }

// Init opens the table (and sits down, if asked).
func (m *tableScreen) Init() tea.Cmd {
	open := openTable(m.c.cfg.Lobby, m.c.cfg.Player, m.name, m.sitDown)
	if m.invite != nil {
		open = takeInvitation(m.c.cfg.Lobby, m.c.cfg.Alerts, m.c.cfg.Player, m.name, *m.invite, open)
	}
	return ask(m, open)
}

// showsTable is the table the screen shows: notices of it are not shown.
func (m *tableScreen) showsTable() string { return m.name }

// Leave closes the table's subscription.
func (m *tableScreen) Leave() tea.Cmd {
	m.left = true
	sub := m.sub
	m.sub = nil
	m.armTick(nil)
	return closeSub(sub)
}

// helpKeys is the key map the help bar shows now.
func (m *tableScreen) helpKeys() help.KeyMap {
	switch {
	case typing(m.say):
		return m.say.keys
	case typing(m.seed):
		return m.seed.keys
	case m.confirm:
		return confirmKeysProto // the same for every screen: not copied
	case m.picker.Open():
		return m.picker.keys
	}
	return m.keys
}

func (m *tableScreen) setStatus(text string, isErr bool) {
	m.status, m.isErr, m.pauseErr = text, isErr, false
}

// Update implements tea.Model: the keys, and the answers of the table.
func (m *tableScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return m, m.take(msg, m.key)
	case openedMsg:
		return m, m.opened(msg)
	case snapshotMsg:
		if msg.sub != m.sub || m.sub == nil {
			return m, nil
		}
		snap, ok := m.sub.Take()
		if !ok { // taken already: wait for the next
			return m, m.wait()
		}
		m.tick = nextTick(snap, m.c.cfg.Now())
		return m, tea.Batch(m.wait(), m.setSnapshot(snap))
	case subClosedMsg:
		if msg.sub != m.sub || m.sub == nil {
			return m, nil
		}
		m.sub = nil
		why := "the table " + name(m.name) + " was closed"
		var end *lobby.EndError
		if err := msg.sub.Err(); errors.As(err, &end) {
			why = end.To(m.c.cfg.Player.ID) // who closed it, or removed you, and the game abandoned
		} else if err != nil {
			why = m.c.said("watch the table", err)
		}
		if m.event != "" {
			return m, m.c.nav.goTo(goTo{to: screenEvent, event: m.event})
		}
		return m, m.c.nav.goTo(goTo{to: screenLobby, status: why, isErr: true})
	case eventBackMsg:
		if m.left || m.event == "" || msg.game != m.backAt {
			return m, nil
		}
		return m, m.c.nav.goTo(goTo{to: screenEvent, event: m.event})
	case tickMsg:
		if msg.sub != m.sub || m.sub == nil {
			return m, nil
		}
		m.tick = time.Time{}
		if !m.left && m.have {
			m.tick = nextTick(m.snap, m.c.cfg.Now())
		}
		return m, m.wait()
	case doneMsg:
		return m, m.done(msg)
	case revealEndMsg:
		if msg.n == m.cup.n {
			m.cup.heading = "" // put back; the count goes on
		}
	case coachMsg:
		if msg.game == m.gameID && msg.seq == m.coachSeq {
			m.coach = msg.line
		}
		return m, nil
	case ratingsLoaded:
		if msg.r.key == m.ratingsAsk {
			m.ratingsAsk = ""
		}
		if msg.r.key == m.ratingsFor() {
			m.ratings = msg.r
		}
		return m, m.loadRatings()
	}
	return m, nil
}

// ratingsFor is what the ratings shown are of: between games, the table,
// the people seated for the next game and the game just over; "" while a
// game runs (none are shown) or without records.
func (m *tableScreen) ratingsFor() string {
	if !m.have || m.snap.Playing || m.c.cfg.Records == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(m.snap.Table.Name)
	for _, p := range m.snap.Table.Players {
		b.WriteString("\x00" + p.ID)
	}
	if m.snap.Game != nil && m.snap.Result != nil {
		b.WriteString("\x00game " + m.snap.Result.GameID)
	}
	return b.String()
}

// loadRatings reads the ratings of what the table shows now, unless they
// are read already or on their way.
func (m *tableScreen) loadRatings() tea.Cmd {
	want := m.ratingsFor()
	if want == "" || want == m.ratings.key || m.ratingsAsk != "" {
		return nil
	}
	m.ratingsAsk = want
	persons := make([]string, len(m.snap.Table.Players))
	for i, p := range m.snap.Table.Players {
		persons[i] = p.ID
	}
	game := ""
	if m.snap.Game != nil && m.snap.Result != nil {
		game = m.snap.Result.GameID
	}
	return ask(m, loadRatings(m.c.cfg.Records, want, m.snap.Table.Name, persons, game))
}

// opened takes the answer to the request to open the table.
func (m *tableScreen) opened(msg openedMsg) tea.Cmd {
	if m.left {
		return closeSub(msg.sub)
	}
	if msg.err != nil {
		if m.event != "" {
			return m.c.nav.goTo(goTo{to: screenEvent, event: m.event})
		}
		return m.c.nav.goTo(goTo{to: screenLobby, status: "could not open " + name(m.name) + ": " + m.c.said("open the table", msg.err), isErr: true})
	}
	m.name, m.table, m.sub = msg.table.Name(), msg.table, msg.sub
	if msg.sitErr != nil {
		m.setStatus("could not sit down: "+m.c.said("sit down", msg.sitErr), true)
	}
	if post := m.c.cfg.Post; post != nil {
		sub := msg.sub
		sub.Notify(func() { post(reply{to: m, msg: snapshotMsg{sub: sub}}) },
			func() { post(reply{to: m, msg: subClosedMsg{sub: sub}}) })
	}
	return m.wait()
}

// wait is the wait for the table's next snapshot or clock tick.
func (m *tableScreen) wait() tea.Cmd {
	if post := m.c.cfg.Post; post != nil { // the subscription posts its snapshots (opened)
		m.armTick(post)
		return nil
	}
	return ask(m, waitSnapshot(m.sub, m.c.cfg.Done, m.tick))
}

// nextTick is when the turn clock of snap, now, next shows another
// second: the moment the seconds left change. The clock is then drawn as
// its second turns, and a turn of a second and a half (a bot's) is drawn
// twice, as it starts and a second in, where a clock ticking every
// second from when the screen opened drew it two or three times. Zero
// while no clock is shown (no game, or a built-in bot's turn).
func nextTick(snap lobby.Snapshot, now time.Time) time.Time {
	if !snap.Playing || snap.Deadline.IsZero() {
		return time.Time{}
	}
	d := time.Second
	if left := snap.Deadline.Sub(now); left > 0 && left%time.Second > 0 {
		d = left % time.Second
	}
	return time.Now().Add(d)
}

// armTick has the turn clock's next redraw posted at m.tick, by a timer
// and no goroutine waiting (Config.Post); with post nil, or no tick, no
// redraw is posted.
func (m *tableScreen) armTick(post func(tea.Msg)) {
	if post == nil || m.sub == nil {
		m.tick = time.Time{}
	}
	if m.tick.Equal(m.ticking) {
		return
	}
	if m.ticker != nil {
		m.ticker.Stop()
	}
	m.ticker, m.ticking = nil, m.tick
	if m.tick.IsZero() {
		return
	}
	msg := reply{to: m, msg: tickMsg{sub: m.sub}}
	m.ticker = time.AfterFunc(time.Until(m.tick), func() { post(msg) })
}

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
	return m.have && m.snap.Table.HostID == m.c.cfg.Player.ID
}

// setSnapshot takes a newer snapshot: the log, the keys and the picker
// follow it; the keys held for a move that it shows landed run.
func (m *tableScreen) setSnapshot(snap lobby.Snapshot) tea.Cmd {
	first := !m.have
	if m.have && m.snap.Table.Paused && !snap.Table.Paused && m.pauseErr {
		m.setStatus("", false) // the table resumed: what it said of the pause is over
	}
	m.snap, m.have = snap, true
	revealed := m.follow(first)
	// Made once for everyone who sees the table from the same seat; the
	// names in it were typed by people, so it is cleaned.
	m.log = snap.CleanLogLines(logKeep, 4*MaxWidth)
	if !m.inGame() {
		m.confirm = false
	}
	v := m.view()
	if m.picker.Open() {
		m.setPicker(m.picker.Refresh(v))
	}
	// After the viewer's own roll, the picker opens by itself, once.
	if n := len(snap.Events()); !m.picker.Open() && !typing(m.say) && !m.confirm && v != nil && snap.Playing &&
		v.Can(engine.Claim) && m.autoAt != n {
		if p, ok := newPicker(m.c.s, v); ok {
			m.setPicker(p)
			m.autoAt = n
		}
	}
	m.syncKeys()
	m.layout()
	rated := tea.Batch(m.loadRatings(), m.eventBack())
	if m.moved && len(snap.Events()) > m.sentAt || first && !m.busy && len(m.held) > 0 {
		return tea.Batch(revealed, rated, m.landed())
	}
	return tea.Batch(revealed, rated)
}

// follow reads the events the snapshot adds to those seen: a round that
// ended lifts the cup for a while (reveal), a new round or game ends the
// status of a move refused in the one before. The first snapshot only
// counts them. It returns the command that redraws when the cup is put
// back.
func (m *tableScreen) follow(first bool) tea.Cmd {
	evs := m.snap.Events()
	if m.cup.shown() && m.snap.GameID == m.gameID && m.cup.at < len(evs) {
		// The cup lifted is told again in this snapshot's words: a player
		// renamed meanwhile is named as the log names them now.
		m.cup = newReveal(m.snap, m.cup.at, m.cup.n)
	}
	if m.snap.GameID != m.gameID {
		m.gameID, m.seen, m.coach = m.snap.GameID, 0, ""
		if !first && m.isErr {
			m.setStatus("", false)
		}
	}
	if first {
		m.seen = len(evs)
		return nil
	}
	var cmd, coached tea.Cmd
	for i := m.seen; i < len(evs); i++ {
		switch {
		case evs[i].Type == engine.EvRound && m.isErr:
			m.setStatus("", false)
		case words.EndsRound(evs[i].Type):
			m.cup = newReveal(m.snap, i, m.cup.n+1)
			cmd = ask(m, m.cup.end(m.c.cfg.Done))
		}
		if c := m.coachMove(i); c != nil {
			coached = c
		}
	}
	m.seen = len(evs)
	return tea.Batch(cmd, coached)
}

// coachMsg brings the coach's verdict on the viewer's move seq of game.
type coachMsg struct {
	game string
	seq  int
	line string
}

// coachMove asks the coach's verdict on the event i of the snapshot if
// it is a move of the viewer's at a coached table (verdict.Judge.Coach:
// their own move, from what they saw, its solve the table's source's to
// pay; refused, the coach says so), off the event loop; nil otherwise.
func (m *tableScreen) coachMove(i int) tea.Cmd {
	v, evs := m.snap.Game, m.snap.Events()
	if !m.snap.Table.Coach || v == nil || v.Seat < 0 || evs[i].Seat != v.Seat || !verdict.IsMove(evs[i].Type) {
		return nil
	}
	m.coach, m.coachSeq = "", evs[i].Seq
	game, seq, seat, opts, players := m.snap.GameID, evs[i].Seq, v.Seat, v.Options, len(v.Lives)
	seen, source, jd := append([]engine.Event(nil), evs...), m.snap.Table.SolveSource(), m.c.cfg.Judge
	return ask(m, func() tea.Msg {
		d, err := jd.Coach(source, true, opts, players, seen, seat, seq)
		switch {
		case errors.Is(err, verdict.ErrUnsolved): // the solver's budget said no: the game goes on
			return coachMsg{game: game, seq: seq, line: lobby.UnsolvedSaid(err, words.CoachUnsolved)}
		case err != nil:
			return coachMsg{game: game, seq: seq} // no verdict on it: nothing said
		}
		return coachMsg{game: game, seq: seq, line: words.Coached(d.Judgement)}
	})
}

// landed ends the wait for a move and plays the keys held meanwhile, in
// order, until one of them sends another move (frame.release).
func (m *tableScreen) landed() tea.Cmd {
	m.busy, m.moved = false, false
	return m.release(m.key)
}

// syncKeys enables the bindings of the actions legal now, so that the help
// bar shows only those.
func (m *tableScreen) syncKeys() {
	k := &m.keys
	if m.event != "" {
		k.Back.SetHelp("esc", "event")
	}
	v := m.view()
	playing := m.have && m.snap.Playing
	can := func(kind engine.ActionKind) bool { return playing && !m.snap.Table.Paused && v != nil && v.Can(kind) }
	k.Roll.SetEnabled(can(engine.Roll))
	k.Blind.SetEnabled(can(engine.Roll))
	k.Challenge.SetEnabled(can(engine.Challenge))
	if playing && v != nil && v.ChallengeCosts() {
		k.Challenge.SetHelp("c", "liar! (costs a life)")
	} else {
		k.Challenge.SetHelp("c", "liar!")
	}
	k.GiveUp.SetEnabled(can(engine.GiveUp))
	// p passes the claim on unchanged; raising without a roll goes through
	// the picker (a).
	samePass := can(engine.Pass) && v.CanPassOn()
	k.Pass.SetEnabled(samePass)
	if samePass {
		k.Pass.SetHelp("p", "pass "+v.Options.Ranking.Name(v.Claim))
	}
	// a (raise) is offered only when there is a value above the claim to
	// raise to (never facing a Mia, which only passes on unchanged)
	k.Announce.SetEnabled(can(engine.Claim) || can(engine.Pass) && v.CanRaise())
	if can(engine.Claim) {
		k.Announce.SetHelp("a", "announce")
	} else {
		k.Announce.SetHelp("a", "raise")
	}
	seated := m.have && m.snap.Seated
	switch {
	case !m.have:
		k.Sit.SetEnabled(false)
	case !seated && m.snap.Table.MaySit(m.c.cfg.Player) == nil:
		// At a driven table one sits down for the next deal at any time.
		k.Sit.SetEnabled(true)
		k.Sit.SetHelp("s", "sit")
	case !seated:
		k.Sit.SetEnabled(false) // s says why (key)
	case m.inGame():
		k.Sit.SetEnabled(true)
		k.Sit.SetHelp("s", "leave")
	default:
		k.Sit.SetEnabled(true)
		k.Sit.SetHelp("s", "stand")
	}
	k.Start.SetEnabled(m.have && !playing && m.snap.Table.MayStart(m.c.cfg.Player) == nil)
	k.Seed.SetEnabled(m.have && !playing && m.snap.Table.Fair.Next)
	m.syncBotKeys(playing)
	if m.have && m.snap.Game != nil {
		k.Start.SetHelp("enter", "play again")
	} else {
		k.Start.SetHelp("enter", "start")
	}
}

// key takes a key press (once frame.take lets it through): typed into
// the chat line, answered to the question or the picker, or a table key.
func (m *tableScreen) key(msg tea.KeyMsg) tea.Cmd {
	defer m.fitPicker()
	chatted := m.chatted
	m.chatted = false
	switch {
	case typing(m.say):
		return m.keyTyping(msg)
	case typing(m.seed):
		return m.keySeed(msg)
	case m.quitAsk:
		m.quitAsk = false
		if key.Matches(msg, m.keys.Quit) {
			return m.c.nav.quit()
		}
		m.setStatus("you stay at the table", false)
		return nil
	case m.c.help.ShowAll && scrollKeysProto.scroll(msg, &m.helpTop, m.h/2):
		return nil // the full help scrolls
	case m.confirm:
		ck := confirmKeysProto
		switch {
		case key.Matches(msg, ck.Yes):
			m.confirm = false
			return m.stand()
		case key.Matches(msg, ck.No):
			m.confirm = false
			m.setStatus("you stay in the game", false)
		}
		return nil
	case m.picker.Open() && key.Matches(msg, m.picker.keys.Choose):
		a := m.picker.Action()
		m.picker = nil
		return m.play(a)
	case m.picker.Open():
		m.setPicker(m.picker.Update(msg))
		return nil
	}
	k := m.keys
	v := m.view()
	switch {
	case key.Matches(msg, k.Back) && chatted:
		m.setStatus("the chat line is closed · esc again to leave the table", false)
	case key.Matches(msg, k.Back) && m.event != "":
		return m.c.nav.goTo(goTo{to: screenEvent, event: m.event})
	case key.Matches(msg, k.Back):
		return m.c.nav.goTo(goTo{to: screenLobby})
	case key.Matches(msg, k.Quit) && m.inGame():
		m.quitAsk = true // their seat would stay, losing lives: ask first
	case key.Matches(msg, k.Quit):
		return m.c.nav.quit()
	case key.Matches(msg, k.Chat) && m.table != nil:
		m.setStatus("", false) // a refused line's status: the line is back in the input
		m.input = m.sayLine()
		return m.say.start()
	case key.Matches(msg, k.Seed) && m.table != nil:
		m.input = m.seedLine()
		if s, ok := m.snap.Table.Fair.Seed(m.c.cfg.Player.ID); ok {
			m.seed.SetValue(s)
		}
		return m.seed.start()
	case !m.have:
		return nil
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
		if p, ok := newPicker(m.c.s, v); ok {
			m.setPicker(p)
		}
	case key.Matches(msg, k.Sit):
		switch {
		case m.inGame():
			m.confirm = true
		case m.snap.Seated:
			return m.stand()
		default:
			return m.sit()
		}
	case key.Matches(msg, k.AddBot):
		return m.addBot()
	case key.Matches(msg, k.RemoveBot):
		return m.removeBot()
	case key.Matches(msg, k.Start):
		cmd := m.call("start", m.table.Start)
		m.setStatus("starting…", false)
		return cmd
	case msg.String() == "s" && !m.snap.Seated:
		// s from someone who may not sit down: say why
		if err := m.snap.Table.MaySit(m.c.cfg.Player); err != nil {
			m.setStatus(m.c.said("sit", err), true)
		}
	case msg.Type == tea.KeyEnter && !m.snap.Playing && !m.snap.Table.Driven:
		// enter from someone who may not start: say who may
		if err := m.snap.Table.MayStart(m.c.cfg.Player); err != nil {
			m.setStatus(m.c.said("start", err), true)
		}
	}
	return nil
}

// whoStarts is who may start the next game, when the viewer may not:
// the host by name (lobby.HostStartsError); "" otherwise.
func (m *tableScreen) whoStarts() string {
	var hs *lobby.HostStartsError
	if errors.As(m.snap.Table.MayStart(m.c.cfg.Player), &hs) {
		return lobby.Shown(hs)
	}
	return ""
}

func (m *tableScreen) keyTyping(msg tea.KeyMsg) tea.Cmd {
	text, cmd := m.say.key(msg)
	m.chatted = !m.say.typing && key.Matches(msg, m.say.keys.Send)
	if text == "" {
		return cmd
	}
	if text, ok := m.say.send(text); ok {
		return ask(m, chatCall(m.table, m.c.cfg.Player, text))
	}
	return nil // on its way after the line before it
}

// keySeed takes a key press while the viewer types their seed; enter
// gives it, or takes it back when blank.
func (m *tableScreen) keySeed(msg tea.KeyMsg) tea.Cmd {
	text, sent, cmd := m.seed.submit(msg)
	if !m.seed.typing {
		m.input = m.say // the table chat's line again (nil if never used)
	}
	if !sent {
		return cmd
	}
	what := "seed"
	if strings.TrimSpace(text) == "" {
		what = "no seed"
	}
	t, me := m.table, m.c.cfg.Player
	return ask(m, tableCall(what, func(ctx context.Context) error { _, err := t.SetSeed(ctx, me, text); return err }))
}

// play sends a move; the keys that follow wait until it has landed.
func (m *tableScreen) play(a engine.Action) tea.Cmd {
	if m.busy || m.table == nil {
		return nil
	}
	m.busy, m.moved, m.sentAt = true, false, len(m.snap.Events())
	m.status = ""
	return ask(m, act(m.table, m.c.cfg.Player, a))
}

// call runs one request of the viewer at the table (sit, stand, start);
// the status of an earlier one goes.
func (m *tableScreen) call(what string, fn func(context.Context, lobby.Player) error) tea.Cmd {
	m.setStatus("", false)
	me := m.c.cfg.Player
	return ask(m, tableCall(what, func(ctx context.Context) error { return fn(ctx, me) }))
}

func (m *tableScreen) sit() tea.Cmd { return m.call("sit", m.table.Sit) }

func (m *tableScreen) stand() tea.Cmd { return m.call("stand", m.table.Stand) }

// done takes the answer to a move or request. A refused move frees the
// held keys at once; a taken one frees them when its snapshot is in.
func (m *tableScreen) done(msg doneMsg) tea.Cmd {
	if msg.what == "chat" {
		next, ok := m.sayLine().answered(msg.line, msg.err)
		switch {
		case msg.err != nil:
			m.setStatus(m.c.said("send the line", msg.err)+keptLine(m.keys.Chat, m.say.waiting()), true)
		case m.say.waiting() > 0 && m.isErr:
			m.setStatus("sent"+keptLine(m.keys.Chat, m.say.waiting()), false)
		}
		if ok {
			return ask(m, chatCall(m.table, m.c.cfg.Player, next))
		}
		return nil
	}
	switch {
	case msg.err != nil:
		m.setStatus(m.c.said(msg.what, msg.err), true)
		m.pauseErr = errors.Is(msg.err, lobby.ErrUnsaved) || errors.Is(msg.err, lobby.ErrPaused)
	case msg.what == "start":
		m.setStatus("", false)
	case msg.what == "seed":
		m.setStatus("your seed: "+words.SeedSays(true, m.snap.Seated), false)
	case msg.what == "no seed":
		m.setStatus("no seed of yours for the next game (none given is fine)", false)
	}
	if !msg.move || !m.busy {
		return nil
	}
	if msg.err != nil || len(m.snap.Events()) > m.sentAt {
		return m.landed()
	}
	m.moved = true
	return nil
}

// holdsEvent: a table of an event, opened from its screen, keeps the
// viewer there at the event, so that it seats them again as soon as the
// game is over.
func (m *tableScreen) holdsEvent() bool { return m.event != "" }

// eventBackAfter is how long the end of an event's game shows before the
// viewer is taken back to the event's standings.
const eventBackAfter = 4 * time.Second

// eventBackMsg takes the viewer back to the event once game is over.
type eventBackMsg struct{ game string }

// eventBack takes the viewer back to the event's screen a while after
// the game at its table is over: the standings between games.
func (m *tableScreen) eventBack() tea.Cmd {
	if m.event == "" || m.snap.Playing || m.snap.GameID == "" || m.backAt == m.snap.GameID {
		return nil
	}
	m.backAt = m.snap.GameID
	game, done := m.backAt, m.c.cfg.Done
	return ask(m, func() tea.Msg {
		t := time.NewTimer(eventBackAfter)
		defer t.Stop()
		select {
		case <-t.C:
			return eventBackMsg{game: game}
		case <-done:
			return nil
		}
	})
}
