package sshapp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
)

// botCallTimeout bounds one call from a bot session into the lobby or the
// store.
const botCallTimeout = 10 * time.Second

// botFlushGrace is how long the end of a bot session waits for its last
// lines to be read.
const botFlushGrace = 2 * time.Second

// botByePoll is how often a bot session looks for the server's goodbye.
const botByePoll = 200 * time.Millisecond

// gameReader is the part of the store that gives a finished game's
// events; a bot that fell behind when its table started the next game
// reads the end of the last one from it.
type gameReader interface {
	Game(ctx context.Context, id string) (store.Game, []engine.Event, error)
}

// runBot is `bot [TABLE]`: PROTOCOL.md §2 on the session's stdin and
// stdout. It seats the caller at TABLE (or at the table where they are
// seated already, or at the first public table waiting for players) and
// plays until the bot closes its input or the table closes.
func runBot(_ context.Context, c *Call) int {
	if len(c.Args) > 1 {
		fmt.Fprintln(c.Stdout, errorLine("usage: bot [TABLE]"))
		return c.Usage()
	}
	refuse := func(format string, args ...any) int {
		msg := fmt.Sprintf(format, args...)
		fmt.Fprintln(c.Stdout, errorLine(msg))
		return c.Refuse("%s", msg)
	}
	if c.Player.Name == "" {
		return refuse("choose a name first:  %s", c.Hint("name NEW"))
	}
	if c.srv.cfg.Lobby == nil || c.ss == nil {
		return refuse("tables are not available on this server")
	}
	// The command's own context ends after CommandTimeout; a bot plays as
	// long as its connection lasts.
	ctx := c.ss.Context()
	p := c.Player
	if !p.Bot {
		cctx, cancel := context.WithTimeout(ctx, botCallTimeout)
		np, err := c.srv.cfg.Players.SetName(cctx, p.Fingerprint, p.Name, true)
		cancel()
		if err != nil {
			c.srv.log.Error("mark bot", "fingerprint", p.Fingerprint, "err", err)
			return refuse("the server could not save your profile; please try again later")
		}
		p = np
		c.ss.setPlayer(np)
	}
	me := lobby.Player{Fingerprint: p.Fingerprint, Name: p.Name, Bot: true, Admin: c.Admin}
	bs := &botSession{srv: c.srv, ss: c.ss, me: me, out: newBotWriter(c.ss.out)}
	defer bs.out.close(botFlushGrace)
	bs.out.send(true, "HELLO;"+field(p.Name)+";"+textField(p.Fingerprint))

	table := ""
	if len(c.Args) == 1 {
		table = c.Args[0]
	}
	cctx, cancel := context.WithTimeout(ctx, botCallTimeout)
	t, sub, seat, err := bs.seat(cctx, table)
	cancel()
	if err != nil {
		bs.out.send(true, errorLine(err.Error()))
		fmt.Fprintf(c.Stderr, "mia: %v\n", err)
		return ExitRefused
	}
	defer sub.Close()
	bs.table, bs.sub = t, sub
	bs.out.send(true, "JOINED;"+textField(t.Name())+";"+strconv.Itoa(seat))
	c.srv.log.Info("bot seated", "name", p.Name, "table", t.Name())
	release := holdBotSeat(c.srv, p.Fingerprint, t.Name())
	code := bs.play(ctx)
	if last := release(); last && !c.srv.isClosing() {
		// A bot that hangs up gives its seat back (and leaves a running
		// game) so that no table waits on a bot that is gone, unless the
		// same key has another bot session at the table (a reconnect). A
		// server shutdown keeps every game as it is.
		sctx, cancel := context.WithTimeout(context.Background(), botCallTimeout)
		if err := t.Stand(sctx, me); err != nil && !errors.Is(err, lobby.ErrNotSeated) && !errors.Is(err, lobby.ErrTableClosed) {
			c.srv.log.Warn("bot could not stand", "name", p.Name, "table", t.Name(), "err", err)
		}
		cancel()
	}
	return code
}

// botSeats counts the bot sessions of each key at each table.
var botSeats = struct {
	sync.Mutex
	n map[botSeatKey]int
}{n: make(map[botSeatKey]int)}

type botSeatKey struct {
	srv       *Server
	fp, table string
}

// holdBotSeat counts one more bot session of fp at table; the returned
// func counts it gone and reports whether it was the last.
func holdBotSeat(srv *Server, fp, table string) func() bool {
	k := botSeatKey{srv, fp, table}
	botSeats.Lock()
	botSeats.n[k]++
	botSeats.Unlock()
	return func() bool {
		botSeats.Lock()
		defer botSeats.Unlock()
		botSeats.n[k]--
		if botSeats.n[k] > 0 {
			return false
		}
		delete(botSeats.n, k)
		return true
	}
}

// seat finds the bot's table, watches it and sits down. With no name it
// takes the table where the bot is seated already, or else the first
// public table waiting for players with a free seat.
func (bs *botSession) seat(ctx context.Context, name string) (*lobby.Table, *lobby.Subscription, int, error) {
	l := bs.srv.cfg.Lobby
	var candidates []string
	if name != "" {
		candidates = []string{name}
	} else {
		for _, info := range l.SeatedAt(bs.me.Fingerprint) {
			candidates = append(candidates, info.Name)
		}
		for _, info := range l.Tables(bs.me.Fingerprint) {
			if !info.Private && info.State == "waiting" && info.Taken < info.Seats {
				candidates = append(candidates, info.Name)
			}
		}
		if len(candidates) == 0 {
			return nil, nil, 0, errors.New("no public table is waiting for players; name one: bot TABLE")
		}
	}
	var last error
	for _, n := range candidates {
		t, sub, seat, err := bs.sit(ctx, n)
		if err == nil {
			return t, sub, seat, nil
		}
		last = err
	}
	return nil, nil, 0, last
}

func (bs *botSession) sit(ctx context.Context, name string) (*lobby.Table, *lobby.Subscription, int, error) {
	t, err := bs.srv.cfg.Lobby.Table(name)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("table %s: %w", clean(name, 32), err)
	}
	sub, err := t.Watch(ctx, bs.me)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("table %s: %w", t.Name(), err)
	}
	err = t.Sit(ctx, bs.me)
	if errors.Is(err, lobby.ErrGameRunning) {
		err = errors.New("a game is running at this table; connect again when it is over")
	}
	if err != nil && !errors.Is(err, lobby.ErrSeated) {
		sub.Close()
		return nil, nil, 0, fmt.Errorf("table %s: %w", t.Name(), err)
	}
	info := t.Info()
	seat := info.Taken - 1
	for i, s := range info.Players {
		if s.Fingerprint == bs.me.Fingerprint {
			seat = i
		}
	}
	return t, sub, seat, nil
}

// botSession is one bot at one table. Its loop (play) owns every field
// but out, which is safe for concurrent use.
type botSession struct {
	srv   *Server
	ss    *session
	me    lobby.Player
	out   *botWriter
	table *lobby.Table
	sub   *lobby.Subscription

	snap    lobby.Snapshot // the newest snapshot taken
	have    bool
	pending bool   // snap has news not yet turned into lines
	skip    string // a game that was over before the bot sat down
	tr      *translator
	mySeat  int    // the bot's seat in tr's game
	prompt  string // the open prompt's token, "" when none
	asked   promptKey
	lines   []string
}

// promptKey names one state of a game: a prompt is valid while the game
// has not moved on.
type promptKey struct {
	game   string
	events int
}

// botLine is one line read from the bot, or the end of its input.
type botLine struct {
	text    []byte
	tooLong bool
	err     error
}

// play runs the bot until it hangs up (ExitOK) or the table or server
// goes away (ExitRefused).
func (bs *botSession) play(ctx context.Context) int {
	in := make(chan botLine)
	stop := make(chan struct{})
	defer close(stop)
	go readBotLines(newBotLineReader(bs.ss), in, stop)

	// The server says goodbye (a shutdown) through the session; the bot
	// hears it as an ERROR line and a clean exit before the connection
	// closes.
	bye := time.NewTicker(botByePoll)
	defer bye.Stop()
	var touch <-chan time.Time
	if d := bs.srv.lim.IdleTimeout; d > 0 {
		tk := time.NewTicker(max(d/3, 10*time.Millisecond))
		defer tk.Stop()
		touch = tk.C
	}
	for {
		select {
		case <-ctx.Done():
			return ExitOK
		case <-bs.sub.Ready():
			if snap, ok := bs.sub.Take(); ok {
				bs.snap, bs.have, bs.pending = snap, true, true
			}
			if bs.have && !bs.snap.Seated { // the host kicked the bot
				bs.flush(ctx)
				bs.out.send(true, errorLine("you no longer have a seat at this table"))
				return ExitRefused
			}
		case <-bs.sub.Done():
			if snap, ok := bs.sub.Take(); ok {
				bs.snap, bs.have, bs.pending = snap, true, true
				bs.flush(ctx)
			}
			why := "the table closed"
			if t, err := bs.srv.cfg.Lobby.Table(bs.table.Name()); err == nil && t == bs.table {
				why = "you no longer have a seat at this table"
			}
			bs.out.send(true, errorLine(why))
			return ExitRefused
		case <-bs.out.drained:
		case l := <-in:
			if l.tooLong {
				bs.out.send(false, errorLine(errBotTooLong.Error()))
			} else if l.text != nil {
				bs.answer(ctx, l.text)
			}
			if l.err != nil {
				bs.flush(ctx)
				return ExitOK
			}
		case <-bye.C:
			if reason := bs.ss.goodbyeReason(); reason != "" {
				bs.flush(ctx)
				bs.out.send(true, errorLine(reason))
				return ExitRefused
			}
		case <-touch:
			// Seated at a table, a bot may wait long for its turn: it is
			// not idle in the sense of the interactive idle timeout.
			if bs.have && bs.snap.Seated {
				bs.ss.lastInput.Store(time.Now().UnixNano())
			}
		}
		bs.flush(ctx)
	}
}

// readBotLines reads the bot's lines into in until the input ends or stop
// closes.
func readBotLines(lr *botLineReader, in chan<- botLine, stop <-chan struct{}) {
	for {
		text, long, err := lr.next()
		select {
		case in <- botLine{text: text, tooLong: long, err: err}:
		case <-stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// flush turns the newest snapshot into lines, unless the bot is so far
// behind in reading that they should wait.
func (bs *botSession) flush(ctx context.Context) {
	if !bs.pending || bs.out.backlog() >= botSoftLimit {
		return
	}
	bs.pending = false
	bs.lines = bs.sync(ctx, bs.lines[:0])
	if len(bs.lines) > 0 {
		bs.out.send(true, bs.lines...)
	}
}

// sync appends the lines of every event the bot has not seen, then the
// prompt if it is the bot's turn.
func (bs *botSession) sync(ctx context.Context, out []string) []string {
	snap := bs.snap
	if snap.GameID == "" || snap.Game == nil {
		return out
	}
	if bs.tr == nil && bs.skip == "" && !snap.Playing {
		bs.skip = snap.GameID // the last game before the bot sat down
	}
	if snap.GameID == bs.skip {
		return out
	}
	if bs.tr != nil && bs.tr.game != snap.GameID {
		out = bs.finish(ctx, out)
		bs.tr = nil
	}
	if bs.tr == nil {
		if snap.You < 0 {
			return out // a game without this bot
		}
		names := make([]string, len(snap.Game.Lives))
		for i := range names {
			names[i] = snap.Name(i)
		}
		var first string
		bs.tr, first = newTranslator(snap.GameID, names, snap.Game.Options.Lives)
		bs.mySeat = snap.You
		out = append(out, first)
	}
	out = bs.tr.feed(out, snap.Events())
	v := snap.Game
	key := promptKey{snap.GameID, len(snap.Events())}
	if !snap.Playing || !v.MyTurn() || v.Seat != bs.mySeat {
		bs.prompt = ""
		return out
	}
	if bs.prompt != "" && bs.asked == key {
		return out // asked already
	}
	bs.prompt, bs.asked = newToken(), key
	if v.Phase == engine.PhaseAnnounce {
		return append(out, rolledLine(v.Dice, bs.prompt))
	}
	return append(out, yourTurnLine(v.Claim, bs.prompt))
}

// finish sends the rest of a game that ended while the bot was behind:
// the table started the next game before the bot read the last one's
// end, so its events come from the store.
func (bs *botSession) finish(ctx context.Context, out []string) []string {
	if bs.tr.over {
		return out
	}
	gr, ok := bs.srv.cfg.Players.(gameReader)
	if !ok {
		return out
	}
	cctx, cancel := context.WithTimeout(ctx, botCallTimeout)
	defer cancel()
	_, evs, err := gr.Game(cctx, bs.tr.game)
	if err != nil {
		bs.srv.log.Warn("bot: could not read the end of a game", "game", bs.tr.game, "err", err)
		return out
	}
	for i := range evs {
		evs[i] = evs[i].Redacted(bs.mySeat)
	}
	return bs.tr.feed(out, evs)
}

// answer plays one line from the bot, or says why not.
func (bs *botSession) answer(ctx context.Context, text []byte) {
	a, err := parseBotLine(text)
	switch {
	case errors.Is(err, errBotEmpty):
		return // blank lines are ignored
	case err != nil:
		bs.out.send(false, errorLine(err.Error()))
		return
	}
	// Take the newest state first, so that a token of a turn that has
	// moved on (a timeout, say) is refused as stale.
	if snap, ok := bs.sub.Take(); ok {
		bs.snap, bs.have, bs.pending = snap, true, true
		bs.flush(ctx)
	}
	now := promptKey{bs.snap.GameID, len(bs.snap.Events())}
	switch {
	case bs.prompt == "":
		bs.out.send(false, errorLine("no move is asked of you now"))
		return
	case a.Token != bs.prompt:
		bs.out.send(false, errorLine("wrong or stale token"))
		return
	case bs.asked != now:
		bs.out.send(false, errorLine("stale token: the turn has moved on"))
		return
	}
	cctx, cancel := context.WithTimeout(ctx, botCallTimeout)
	err = bs.table.Act(cctx, bs.me, a.Action)
	cancel()
	if err != nil {
		// The turn stays open, with the same token, until its clock runs out.
		bs.out.send(false, errorLine(err.Error()))
		return
	}
	bs.prompt = ""
}

// newToken is a fresh, unguessable token for one prompt.
func newToken() string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(fmt.Sprintf("crypto/rand: %v", err)) // never fails on supported platforms
	}
	return hex.EncodeToString(b[:])
}
