// Package botline is the bot line protocol of PROTOCOL.md §2: a bot's
// session at one table, the lines it may send, and the translation of a
// game's events into the lines the server sends.
//
// Room: under sshapp, beside the server and the commands; the bot command
// of package command runs it. It may import lobby (and lobby/words), engine and store (the
// record type of the finished games it reads through Config.Games); never
// sshapp or its other rooms. (Its output is bounded by the session's own:
// its tests use sshapp/internal/outbox for one.)
package botline

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/charmbracelet/log"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/store"
)

// botCallTimeout bounds one call from a bot session into the lobby or the
// store.
const botCallTimeout = 10 * time.Second

// botByePoll is how often a bot session looks for the server's goodbye.
const botByePoll = 200 * time.Millisecond

// Games gives a finished game's events; a bot that fell behind when its
// table started the next game reads the end of the last one from it.
type Games interface {
	Game(ctx context.Context, id string) (store.Game, []engine.Event, error)
}

// Session is the bot's SSH session as the protocol needs it.
type Session interface {
	// Read reads the bot's lines.
	io.Reader
	// Output takes the lines to the bot; the session's end waits for the
	// bot to take them.
	Output
	// GoodbyeReason is why the server ends the session ("" while it
	// does not).
	GoodbyeReason() string
	// Touch counts as input for the session's idle timeout.
	Touch()
}

// Config is what a bot session needs from the server.
type Config struct {
	// Lobby is the live table registry.
	Lobby *lobby.Lobby
	// Games reads finished games; nil: a bot that fell behind misses the
	// end of a game.
	Games Games
	// Seats counts the bot sessions of each key at each table; the server
	// owns it.
	Seats *Seats
	// Log receives the sessions' logs.
	Log *log.Logger
	// IdleTimeout is the session's idle timeout: a bot seated at a table
	// touches its session a few times within it (0: never).
	IdleTimeout time.Duration
	// Events is the server's events (bot --event); nil: none.
	Events *events.Registry
	// Closing reports whether the server is shutting down: then a bot
	// that hangs up keeps its seat and its game.
	Closing func() bool
}

// ErrEnded says the table or the server ended the bot's session; the bot
// was told why in an ERROR line.
var ErrEnded = errors.New("the bot's session was ended")

// Serve runs the protocol for the bot me on s until it hangs up (nil) or
// the table or the server ends its session (ErrEnded). me sits as a bot
// (me.Bot) at that table only: the same person may play by screen at
// another. It greets the bot (by its name now and its key),
// seats it at table (or at the table where it is seated already, or at
// the first public table waiting for players: table ""), and writes its
// lines to s. An error that kept it from sitting down is returned after
// the bot was told in an ERROR line. ctx is the bot's connection.
func Serve(ctx context.Context, cfg Config, s Session, me lobby.Player, table string) error {
	bs := &botSession{cfg: cfg, s: s, me: me, out: newBotWriter(s)}
	name := cfg.Lobby.Name(me.ID)
	bs.out.send(true, "HELLO;"+field(name)+";"+textField(me.Key))

	cctx, cancel := context.WithTimeout(ctx, botCallTimeout)
	t, sub, seat, err := bs.seat(cctx, table)
	cancel()
	if err != nil {
		bs.out.send(true, bs.errorLine(err))
		return err
	}
	defer sub.Close()
	bs.table, bs.sub = t, sub
	bs.out.send(true, "JOINED;"+textField(t.Name())+";"+strconv.Itoa(seat))
	cfg.Log.Info("bot seated", "person", me.ID, "name", name, "table", t.Name())
	release := cfg.Seats.hold(me.ID, t.Name())
	in, stop := bs.readLines()
	defer close(stop)
	err = bs.play(ctx, in)
	if last := release(); last && !cfg.Closing() {
		// A bot that hangs up gives its seat back (and leaves a running
		// game) so that no table waits on a bot that is gone, unless the
		// same key has another bot session at the table (a reconnect). A
		// server shutdown keeps every game as it is.
		sctx, cancel := context.WithTimeout(context.Background(), botCallTimeout)
		if err := t.Stand(sctx, me); err != nil && !errors.Is(err, lobby.ErrNotSeated) && !errors.Is(err, lobby.ErrTableClosed) {
			cfg.Log.Warn("bot could not stand", "person", me.ID, "table", t.Name(), "err", err)
		}
		cancel()
	}
	return err
}

// Seats counts the bot sessions of each person at each table. Its zero value
// is ready; the server holds one for all its sessions.
type Seats struct {
	mu sync.Mutex
	n  map[seatKey]int
}

type seatKey struct{ id, table string }

// hold counts one more bot session of the person id at table; the
// returned func counts it gone and reports whether it was the last.
func (s *Seats) hold(id, table string) func() bool {
	k := seatKey{id, table}
	s.mu.Lock()
	if s.n == nil {
		s.n = make(map[seatKey]int)
	}
	s.n[k]++
	s.mu.Unlock()
	return func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.n[k]--
		if s.n[k] > 0 {
			return false
		}
		delete(s.n, k)
		return true
	}
}

// seat finds the bot's table, watches it and sits down. With no name it
// takes the table where the bot is seated already, or else the first
// public table waiting for players with a free seat.
func (bs *botSession) seat(ctx context.Context, name string) (*lobby.Table, *lobby.Subscription, int, error) {
	l := bs.cfg.Lobby
	var candidates []string
	if name != "" {
		candidates = []string{name}
	} else {
		for _, info := range l.SeatedAt(bs.me.ID) {
			candidates = append(candidates, info.Name)
		}
		for _, info := range l.Tables(bs.me.Viewer()) {
			if !info.Private && info.State == "waiting" && info.Taken < info.Seats {
				candidates = append(candidates, info.Name)
			}
		}
		if len(candidates) == 0 {
			return nil, nil, 0, errNoWaitingTable
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

// errNoWaitingTable: bot without a TABLE found none to sit at.
var errNoWaitingTable = lobby.NewError(lobby.NotFound, "no public table is waiting for players; name one: bot TABLE")

// sit watches the table of that name and sits down. Its errors name the
// table as the bot wrote it: a private table that does not admit the bot
// is "no such table" (lobby.TableFor), word for word as a name no table
// has.
func (bs *botSession) sit(ctx context.Context, name string) (*lobby.Table, *lobby.Subscription, int, error) {
	asked := words.Echo(name)
	t, err := bs.cfg.Lobby.TableFor(bs.me.Viewer(), name)
	if err != nil {
		return nil, nil, 0, atTable(asked, err)
	}
	sub, err := t.Watch(ctx, bs.me)
	if err != nil {
		return nil, nil, 0, atTable(asked, err)
	}
	err = t.Sit(ctx, bs.me)
	if errors.Is(err, lobby.ErrGameRunning) {
		err = lobby.Reword(err, "a game is running at this table; connect again when it is over")
	}
	if err != nil && !errors.Is(err, lobby.ErrSeated) {
		sub.Close()
		return nil, nil, 0, atTable(asked, err)
	}
	info := t.Info()
	seat := info.Taken - 1
	for i, s := range info.Players {
		if s.ID == bs.me.ID {
			seat = i
		}
	}
	return t, sub, seat, nil
}

// atTable is err of the table name, in the bot's words: "table club:
// every seat is taken".
func atTable(name string, err error) error {
	return lobby.Reword(err, "table %s: %s", name, lobby.Shown(err))
}

// errorLine is the ERROR line that answers err: the one place where the
// bot protocol tells an error, whatever its kind (lobby.ErrorKind), in the one
// line PROTOCOL.md §2 has for it, ERROR;TEXT, with lobby.Shown's
// sentence. An error that sentence hides (a fault, a storage that does
// not answer) is logged with its text, never sent.
func (bs *botSession) errorLine(err error) string {
	lobby.LogHidden(bs.cfg.Log, err, "bot: a request failed", "person", bs.me.ID)
	return ErrorLine(lobby.Shown(err))
}

// botSession is one bot at one table. Its loop (play) owns every field
// but out, which is safe for concurrent use.
type botSession struct {
	cfg   Config
	s     Session
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
	paused  bool // the bot was told the table paused (TABLE PAUSED)
	lines   []string
	// event: the bot plays an event's games, a table at a time
	// (ServeEvent): a game over ends its play at that table.
	event bool
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

// readLines reads the bot's lines, on a goroutine of its own, until
// stop is closed or the input ends.
func (bs *botSession) readLines() (<-chan botLine, chan struct{}) {
	in := make(chan botLine)
	stop := make(chan struct{})
	go readBotLines(newBotLineReader(bs.s), in, stop)
	return in, stop
}

// play runs the bot until it hangs up (nil) or the table or server goes
// away (ErrEnded). At an event's table (bs.event) it returns
// errGameDone once the game dealt there is over and told, or its table
// has gone.
func (bs *botSession) play(ctx context.Context, in <-chan botLine) error {
	// The server says goodbye (a shutdown) through the session; the bot
	// hears it as an ERROR line and a clean exit before the connection
	// closes.
	bye := time.NewTicker(botByePoll)
	defer bye.Stop()
	var touch <-chan time.Time
	if d := bs.cfg.IdleTimeout; d > 0 {
		tk := time.NewTicker(max(d/3, 10*time.Millisecond))
		defer tk.Stop()
		touch = tk.C
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-bs.sub.Ready():
			if snap, ok := bs.sub.Take(); ok {
				bs.snap, bs.have, bs.pending = snap, true, true
			}
			if bs.have && !bs.snap.Seated && !bs.event { // the host kicked the bot
				bs.flush(ctx)
				bs.out.send(true, ErrorLine("you no longer have a seat at this table"))
				return ErrEnded
			}
		case <-bs.sub.Done():
			if snap, ok := bs.sub.Take(); ok {
				bs.snap, bs.have, bs.pending = snap, true, true
				bs.flush(ctx)
			}
			if bs.event {
				if bs.tr != nil && !bs.tr.over {
					bs.out.send(true, gameAbandonedLine(bs.tr.game))
				}
				return errGameDone
			}
			bs.out.send(true, bs.endLines(bs.sub.Err())...)
			return ErrEnded
		case <-bs.out.drained:
		case l := <-in:
			if l.tooLong {
				bs.out.send(false, bs.errorLine(errBotTooLong))
			} else if l.text != nil {
				bs.answer(ctx, l.text)
			}
			if l.err != nil {
				bs.flush(ctx)
				return nil
			}
		case <-bye.C:
			if reason := bs.s.GoodbyeReason(); reason != "" {
				bs.flush(ctx)
				bs.out.send(true, ErrorLine(reason))
				return ErrEnded
			}
		case <-touch:
			// Seated at a table, a bot may wait long for its turn: it is
			// not idle in the sense of the interactive idle timeout.
			if bs.have && (bs.snap.Seated || bs.event) {
				bs.s.Touch()
			}
		}
		bs.flush(ctx)
		if bs.event && bs.tr != nil && bs.tr.over && !bs.pending {
			return errGameDone
		}
	}
}

// endLines are the last lines of a bot whose subscription the table
// ended for why (Subscription.Err): GAME ABANDONED when the table closed
// while the bot's game ran there, then the ERROR line that says why.
func (bs *botSession) endLines(why error) []string {
	var end *lobby.EndError
	if !errors.As(why, &end) {
		return []string{ErrorLine("you no longer have a seat at this table")}
	}
	var out []string
	if end.Game != "" && bs.tr != nil && bs.tr.game == end.Game && !bs.tr.over {
		out = append(out, gameAbandonedLine(end.Game))
		bs.tr.over = true
	}
	return append(out, bs.errorLine(end))
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
	if snap.Table.Paused != bs.paused {
		// No prompt stands while the table is paused; after it, whoever's
		// turn it is is asked again, with a fresh token.
		bs.paused, bs.prompt = snap.Table.Paused, ""
		if bs.paused {
			out = append(out, pausedLine(snap.Table))
		} else {
			out = append(out, resumedLine)
		}
	}
	if snap.GameID == "" || snap.Game == nil {
		return out
	}
	if bs.tr == nil && bs.skip == "" && !snap.Playing && !bs.event {
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
		var first []string
		bs.tr, first = newTranslator(snap.GameID, names, snap.Game.Options)
		bs.mySeat = snap.You
		out = append(out, first...)
		if f := snap.Table.Fair; snap.Playing && !f.Next && f.Commitment != "" {
			// A line after GAME STARTING, as RULES is: bots skip words they
			// do not know (the examples of cmd/mia-bot do).
			out = append(out, "COMMITMENT;"+f.Commitment)
		}
	}
	out = bs.tr.feed(out, snap.Events())
	v := snap.Game
	key := promptKey{snap.GameID, len(snap.Events())}
	if !snap.Playing || bs.paused || !v.MyTurn() || v.Seat != bs.mySeat {
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
	if bs.cfg.Games == nil {
		return out
	}
	cctx, cancel := context.WithTimeout(ctx, botCallTimeout)
	defer cancel()
	_, evs, err := bs.cfg.Games.Game(cctx, bs.tr.game)
	if err != nil {
		bs.cfg.Log.Warn("bot: could not read the end of a game", "game", bs.tr.game, "err", err)
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
		bs.out.send(false, bs.errorLine(err))
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
		bs.out.send(false, bs.errorLine(errBotNotAsked))
		return
	case a.Token != bs.prompt:
		bs.out.send(false, bs.errorLine(errBotToken))
		return
	case bs.asked != now:
		bs.out.send(false, bs.errorLine(errBotStale))
		return
	}
	cctx, cancel := context.WithTimeout(ctx, botCallTimeout)
	err = bs.table.Act(cctx, bs.me, a.Action)
	cancel()
	if err != nil {
		// The turn stays open, with the same token, until its clock runs out.
		bs.out.send(false, bs.errorLine(err))
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
