package lobby

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby/ai"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/lobby/words"
)

// diskFull is the fault a store gives for a write on a full disk.
var diskFull = &StorageFault{Reason: "the server's disk is full", Err: syscall.ENOSPC}

// moves is the actions the lobby has applied, of every kind.
func moves(l *Lobby) uint64 {
	var n uint64
	for _, c := range l.Stats().Moves {
		n += c
	}
	return n
}

// timerCase is one kind of table timer, set up to come due at the
// table: arm readies a table whose timer of that kind comes due once the
// clock advances by due; count is how many times its work is done now
// (in what the store holds and the table shows).
type timerCase struct {
	name  string
	due   time.Duration
	arm   func(t *testing.T, e *env) (*Table, *Subscription)
	count func(t *testing.T, e *env, tbl *Table, s *Subscription) int
	// fresh, when set, is how long after the table resumes the timer
	// comes due again (the turn clock starts afresh): not a moment before.
	// Such a timer stands still while the table is paused: it does not
	// come due then.
	fresh time.Duration
}

// advance moves the clock by d, then waits until the table has taken
// every timer that came due (held or run): the functions posted to the
// actor run in order.
func advance(e *env, tbl *Table, d time.Duration) {
	e.clock.AdvanceWait(d)
	done := make(chan struct{})
	tbl.post(func(context.Context) { close(done) })
	<-done
}

// twoPeople is a table of alice and bob with a 30 s turn clock, a game
// running.
func twoPeople(t *testing.T, e *env) (*Table, *Subscription) {
	rules := quickRules()
	rules.TurnSeconds = 30
	ps := []Player{e.player("alice"), e.player("bob")}
	tbl := seatPlayers(t, e, "clock", rules, ps...)
	s := mustWatch(t, tbl, e.player("carol"))
	until(t, s, "the game", func(s Snapshot) bool { return s.Playing })
	return tbl, s
}

// botsTurn is a table of alice and two built-in bots, a game running,
// where it is a bot's turn; bots move between 1 and 2 s after their turn
// opens.
func botsTurn(t *testing.T, e *env) (*Table, *Subscription) {
	e.botDelay = time.Second
	e.restart()
	alice := e.player("alice")
	ctx := ctxT(t)
	rules := quickRules()
	rules.TurnSeconds = 3600
	tbl, err := e.lobby.CreateTable(ctx, alice, TableConfig{Name: "bots", Rules: rules, Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := tbl.AddBot(ctx, alice, ai.Normal); err != nil {
			t.Fatal(err)
		}
	}
	s := mustWatch(t, tbl, alice)
	if err := tbl.Start(ctx, alice); err != nil {
		t.Fatal(err)
	}
	until(t, s, "the game", func(s Snapshot) bool { return s.Playing })
	r := rand.New(rand.NewPCG(1, 2))
	for snap := latest(t, s, tbl); snap.You == snap.Game.Turn; snap = latest(t, s, tbl) {
		if err := tbl.Act(ctx, alice, lobbytest.Move(snap.Game, r)); err != nil {
			t.Fatal(err)
		}
	}
	return tbl, s
}

// botsBetweenGames is a table of three built-in bots whose game just
// ended: the next one starts by itself 3 s later.
func botsBetweenGames(t *testing.T, e *env) (*Table, *Subscription) {
	e.botDelay = time.Second
	e.restart()
	host := e.player("alice")
	ctx := ctxT(t)
	rules := quickRules()
	rules.Lives = 1
	rules.End = engine.FirstOut
	tbl, err := e.lobby.CreateTable(ctx, host, TableConfig{Name: "botsonly", Rules: rules, Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	s := mustWatch(t, tbl, host)
	for range 3 {
		if _, err := tbl.AddBot(ctx, host, ai.Easy); err != nil {
			t.Fatal(err)
		}
	}
	// The bots play the first game, a second at a time, to its end.
	for i := 0; latest(t, s, tbl).Game == nil || latest(t, s, tbl).Playing; i++ {
		if i > 1000 {
			t.Fatal("the bots' game does not end")
		}
		advance(e, tbl, 2*time.Second/3)
	}
	return tbl, s
}

// gamesOf is the number of games begun at the table: stored, with their
// first events.
func gamesOf(e *env, table string) int {
	e.st.mu.Lock()
	defer e.st.mu.Unlock()
	n := 0
	for _, g := range e.st.games {
		if g.Table == table && len(g.Events) > 0 {
			n++
		}
	}
	return n
}

// drivenClock is a driven table (the Mäxchen gateway's kind) where a
// person, dealt in, lets the turn clock run out: they stand up.
func drivenClock(t *testing.T, e *env) (*Table, *Subscription) {
	rules := quickRules()
	rules.TurnSeconds = 30
	tbl, host := drivenTable(t, e, rules)
	alice, bob := e.player("alice"), e.player("bob")
	for _, p := range []Player{alice, bob} {
		mustWatch(t, tbl, p)
		if err := tbl.Sit(ctxT(t), p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tbl.Deal(ctxT(t), host, nil); err != nil {
		t.Fatal(err)
	}
	s := mustWatch(t, tbl, e.player("carol"))
	until(t, s, "the game", func(s Snapshot) bool { return s.Playing })
	return tbl, s
}

var timerCases = []timerCase{
	{
		name: "turn clock", due: 30 * time.Second, arm: twoPeople, fresh: 30 * time.Second,
		count: func(t *testing.T, e *env, tbl *Table, s *Subscription) int {
			return int(e.lobby.Stats().Moves[engine.Timeout.String()])
		},
	},
	{
		name: "bot move", due: 2 * time.Second, arm: botsTurn,
		count: func(t *testing.T, e *env, tbl *Table, s *Subscription) int { return int(moves(e.lobby)) },
	},
	{
		name: "next game", due: 3 * time.Second, arm: botsBetweenGames,
		count: func(t *testing.T, e *env, tbl *Table, s *Subscription) int { return gamesOf(e, tbl.Name()) },
	},
	{
		// The cup is lifted by a move (a challenge, a timeout); how long a
		// screen shows it is the screen's own (sshapp/tui's reveal), never
		// the table's: the table's timers are those above and below.
		name: "seat release", due: 30 * time.Second, arm: drivenClock, fresh: 30 * time.Second,
		count: func(t *testing.T, e *env, tbl *Table, s *Subscription) int {
			rec, err := e.st.Table(tbl.Name())
			if err != nil {
				t.Fatal(err)
			}
			return 2 - len(rec.Seated) // the seats given up
		},
	},
}

// TestPauseAtEveryTimer: for every kind of timer a table sets, a store
// that stalls (or fails, as a full disk does) the timer's own write, or
// any write while the timer comes due, pauses the table; the timer's
// work is done once and only once, as the table resumes (or as it came
// due, when that write was the timer's) — never twice, never lost, and
// the turn clock starts afresh.
func TestPauseAtEveryTimer(t *testing.T) {
	type how struct {
		name string
		// stop makes the store stop saving: the timer's own write (own)
		// or the next one.
		stop func(e *env)
		// start makes it save again, the writes held saved (or not).
		start func(e *env)
		saved bool // the write held is saved as the store comes back
	}
	hows := []how{
		{"stalled, then saved", func(e *env) { e.gate.Shut() }, func(e *env) { e.gate.Open(nil) }, true},
		{"stalled, then lost", func(e *env) { e.gate.Shut() }, func(e *env) { e.gate.Open(errors.New("disk gone")) }, false},
		{"disk full, then freed", func(e *env) { e.gate.Fail(diskFull) }, func(e *env) {
			e.gate.Fail(nil)
			e.clock.AdvanceWait(RetryLimit) // the next retry
		}, true},
	}
	for _, tc := range timerCases {
		for _, h := range hows {
			for _, own := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/%s/own=%t", tc.name, h.name, own), func(t *testing.T) {
					e := newGatedEnv(t, 20*time.Millisecond)
					e.gate.tellsGameID = true
					tbl, s := tc.arm(t, e)
					before := tc.count(t, e, tbl, s)
					writes := e.gate.Writes()
					h.stop(e)
					if !own {
						// Another write pauses the table first: a chat line's.
						if err := tbl.Say(ctxT(t), e.player("dave"), "hello"); err != nil {
							t.Fatal(err)
						}
						until(t, s, "the pause", func(s Snapshot) bool { return s.Table.Paused })
					}
					advance(e, tbl, tc.due)
					if own {
						until(t, s, "the pause", func(s Snapshot) bool { return s.Table.Paused })
					} else if got := e.gate.Writes(); got != writes+1 && h.name != "disk full, then freed" { // (which tries the line again)
						t.Fatalf("%d writes tried while paused, want the chat line's only", got-writes)
					}
					// However long the store takes, nothing comes due twice.
					for range 5 {
						advance(e, tbl, tc.due)
					}
					if got := tc.count(t, e, tbl, s); got != before {
						t.Fatalf("done %d times while paused", got-before)
					}
					if info := tbl.Info(); !info.Paused || info.PausedFor == "" {
						t.Fatalf("the table's info does not say it is paused and why: %+v", info)
					}
					h.start(e)
					until(t, s, "the table resumed", func(s Snapshot) bool { return !s.Table.Paused })
					latest(t, s, tbl)
					want := before + 1
					if own && !h.saved || !own && tc.fresh > 0 {
						want = before // lost, or stood still: it comes due afresh
					}
					if got := tc.count(t, e, tbl, s); got != want {
						t.Fatalf("done %d times as the table resumed, want %d", got-before, want-before)
					}
					if want == before {
						if tc.fresh > 0 {
							advance(e, tbl, tc.fresh-time.Second)
							if got := tc.count(t, e, tbl, s); got != before {
								t.Fatalf("done again %v after it resumed, before its fresh time", tc.fresh-time.Second)
							}
							advance(e, tbl, time.Second)
						} else {
							advance(e, tbl, tc.due)
						}
						deadline := time.Now().Add(10 * time.Second)
						for tc.count(t, e, tbl, s) != before+1 {
							if time.Now().After(deadline) {
								t.Fatalf("a timer whose write was lost is not done again")
							}
							time.Sleep(time.Millisecond)
						}
					}
					// The store holds what the table shows.
					snap := latest(t, s, tbl)
					if snap.GameID != "" {
						stored, err := e.st.Game(snap.GameID)
						if err != nil || !slices.EqualFunc(stored.Events, snap.Events(), func(a, b engine.Event) bool { return a.Type == b.Type && a.Seat == b.Seat }) {
							t.Fatalf("the store holds %d events, the table shows %d (%v)", len(stored.Events), len(snap.Events()), err)
						}
					}
				})
			}
		}
	}
}

// TestFullDiskPausesAndResumes: a write the disk fails (full, read-only,
// an I/O error: a *StorageFault) pauses the table as a stalled one does,
// with the reason told at the table; the table tries the write again,
// each time after longer (up to RetryLimit), and resumes by itself, the
// move saved once, when the disk takes it.
func TestFullDiskPausesAndResumes(t *testing.T) {
	e := newGatedEnv(t, 20*time.Millisecond)
	tbl, s := twoPeople(t, e)
	ctx := ctxT(t)
	snap := latest(t, s, tbl)
	p := Player{ID: tbl.Info().Players[snap.Game.Turn].ID}
	mine := mustWatch(t, tbl, p)
	e.gate.Fail(diskFull)
	err := tbl.Act(ctx, p, engine.Action{Kind: engine.Roll, Look: true})
	var unsaved *UnsavedError
	if !errors.Is(err, ErrUnsaved) || !errors.As(err, &unsaved) || !errors.Is(err, ErrStorageFailing) {
		t.Fatalf("the move the disk failed: %v, want an UnsavedError with the fault", err)
	}
	if got := Shown(err); got != "the server's disk is full: the table pauses; this counts once it is saved" {
		t.Fatalf("shown as %q", got)
	}
	paused := until(t, s, "the pause", func(s Snapshot) bool { return s.Table.Paused })
	if paused.Table.PausedFor != diskFull.Reason || !hasLine(paused.Chat, words.PausedLine(diskFull.Reason)) {
		t.Fatalf("paused for %q, chat %v", paused.Table.PausedFor, paused.Chat)
	}
	if st := e.lobby.Stats(); st.Paused != 1 || st.PausedFor != diskFull.Reason {
		t.Fatalf("the lobby's stats: %d paused, for %q", st.Paused, st.PausedFor)
	}
	// Tried again after 1 s, 2 s, 4 s, 8 s, then every 10 s.
	for i, wait := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, RetryLimit, RetryLimit} {
		writes := e.gate.Writes()
		advance(e, tbl, wait-time.Millisecond)
		if e.gate.Writes() != writes {
			t.Fatalf("try %d came before %v", i+2, wait)
		}
		advance(e, tbl, time.Millisecond)
		if e.gate.Writes() != writes+1 {
			t.Fatalf("try %d did not come after %v", i+2, wait)
		}
	}
	e.gate.Fail(nil)
	advance(e, tbl, RetryLimit)
	resumed := until(t, s, "the table resumed", func(s Snapshot) bool { return !s.Table.Paused })
	if got := len(resumed.Events()) - len(snap.Events()); got != 1 {
		t.Fatalf("the roll shows %d times", got)
	}
	stored, err := e.st.Game(resumed.GameID)
	if err != nil || len(stored.Events) != len(resumed.Events()) {
		t.Fatalf("stored %d events, shown %d (%v)", len(stored.Events), len(resumed.Events()), err)
	}
	if st := e.lobby.Stats(); st.Paused != 0 {
		t.Fatalf("%d tables still paused", st.Paused)
	}
	// Play goes on.
	if err := tbl.Act(ctx, p, lobbytest.Move(latest(t, mine, tbl).Game, rand.New(rand.NewPCG(3, 4)))); err != nil {
		t.Fatal(err)
	}
}

// TestNoClockOnABuiltinBotsTurn: the snapshots show no turn clock on a
// built-in bot's turn (it moves within seconds, and a clock drawn for it
// would cost every viewer a frame a second), and show it on a person's
// turn, to the person and to a spectator alike.
func TestNoClockOnABuiltinBotsTurn(t *testing.T) {
	e := newEnv(t)
	e.botDelay = time.Second
	e.restart()
	alice := e.player("alice")
	ctx := ctxT(t)
	rules := quickRules()
	rules.TurnSeconds = 3600
	tbl, err := e.lobby.CreateTable(ctx, alice, TableConfig{Name: "duel", Rules: rules, Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	subs := map[string]*Subscription{"alice": mustWatch(t, tbl, alice), "a spectator": mustWatch(t, tbl, e.player("carol"))}
	if err := tbl.Sit(ctx, alice); err != nil {
		t.Fatal(err)
	}
	if _, err := tbl.AddBot(ctx, alice, ai.Normal); err != nil {
		t.Fatal(err)
	}
	until(t, subs["alice"], "the game", func(s Snapshot) bool { return s.Playing })
	r := rand.New(rand.NewPCG(1, 2))
	seen := map[bool]bool{} // whose turn was checked: alice's (true), the bot's
	for i := 0; len(seen) < 2; i++ {
		if i > 100 {
			t.Fatal("the turns do not change hands")
		}
		mine := latest(t, subs["alice"], tbl)
		if !mine.Playing {
			t.Fatal("the game ended before both turns were seen")
		}
		hers := mine.You == mine.Game.Turn
		seen[hers] = true
		want := time.Time{}
		if hers {
			want = e.clock.Now().Add(3600 * time.Second)
		}
		for who, sub := range subs {
			got := latest(t, sub, tbl).Deadline
			if hers && (got.After(want) || got.Before(want.Add(-2*time.Second))) || !hers && !got.IsZero() {
				t.Errorf("%s sees the clock end at %v on alice's turn %v, want %v", who, got, hers, want)
			}
		}
		if hers {
			if err := tbl.Act(ctx, alice, lobbytest.Move(mine.Game, r)); err != nil {
				t.Fatal(err)
			}
			continue
		}
		advance(e, tbl, 2*time.Second)
	}
}

// TestOnBeat: a pause lengthened to end on the next beat, by less than a
// beat; a pause that ends on one, or no beat, is left alone.
func TestOnBeat(t *testing.T) {
	at := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	beat := 50 * time.Millisecond
	for _, c := range []struct {
		now     time.Time
		d, beat time.Duration
		want    time.Duration
	}{
		{at, time.Second, beat, time.Second},
		{at, 1234 * time.Millisecond, beat, 1250 * time.Millisecond},
		{at.Add(7 * time.Millisecond), time.Second, beat, 1043 * time.Millisecond},
		{at.Add(7 * time.Millisecond), 1043 * time.Millisecond, beat, 1043 * time.Millisecond},
		{at.Add(time.Nanosecond), time.Second, beat, time.Second + beat - time.Nanosecond},
		{at.Add(7 * time.Millisecond), 1234 * time.Millisecond, 0, 1234 * time.Millisecond},
	} {
		if got := onBeat(c.now, c.d, c.beat); got != c.want {
			t.Errorf("onBeat(%v, %v, %v) = %v, want %v", c.now.Format(".000000000"), c.d, c.beat, got, c.want)
		}
	}
}

// TestBotsMoveOnTheBeat: a built-in bot moves between its least pause and
// twice that (and a beat), and always on a beat, a twentieth of the least
// pause: the bots of all tables that would move within a beat move
// together, and share a commit.
func TestBotsMoveOnTheBeat(t *testing.T) {
	e := newEnv(t)
	tbl, s := botsTurn(t, e)
	const step = 10 * time.Millisecond
	beat := e.botDelay / botBeats
	for move := range 2 {
		from := e.clock.Now()
		n := len(latest(t, s, tbl).Events())
		for len(latest(t, s, tbl).Events()) == n {
			if e.clock.Now().Sub(from) > 2*e.botDelay+beat {
				t.Fatalf("bot move %d: none %v after its turn opened", move, e.clock.Now().Sub(from))
			}
			advance(e, tbl, step)
		}
		now := e.clock.Now()
		if waited := now.Sub(from); waited < e.botDelay {
			t.Errorf("bot move %d came after %v, sooner than the least pause %v", move, waited, e.botDelay)
		}
		if on := now.Truncate(beat); !on.After(now.Add(-step)) {
			t.Errorf("bot move %d came at %s, not on a beat of %v (the last was %s)", move,
				now.Format("15:04:05.000"), beat, on.Format("15:04:05.000"))
		}
	}
}
