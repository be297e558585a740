package lobby

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/fair"
	"github.com/mia-game/mia/lobby/ai"
	"github.com/mia-game/mia/lobby/lobbytest"
)

// gatedStore stands between the lobby and its storage: its writes go
// through a gate (lobbytest.Gate), which holds them while shut.
type gatedStore struct {
	Storage
	lobbytest.Gate
}

var _ PendingWrite = (*lobbytest.Held)(nil)

func (g *gatedStore) CreateTable(ctx context.Context, t TableRecord) error {
	return g.Write(ctx, func(ctx context.Context) error { return g.Storage.CreateTable(ctx, t) })
}

func (g *gatedStore) UpdateTable(ctx context.Context, name string, fn func(*TableRecord) error) error {
	return g.Write(ctx, func(ctx context.Context) error { return g.Storage.UpdateTable(ctx, name, fn) })
}

func (g *gatedStore) CreateGame(ctx context.Context, rec GameRecord) (id string, err error) {
	err = g.Write(ctx, func(ctx context.Context) error {
		var err error
		id, err = g.Storage.CreateGame(ctx, rec)
		return err
	})
	return id, err
}

func (g *gatedStore) Append(ctx context.Context, gameID string, evs []engine.Event, res *engine.Result) error {
	return g.Write(ctx, func(ctx context.Context) error { return g.Storage.Append(ctx, gameID, evs, res) })
}

func (g *gatedStore) Abandon(ctx context.Context, gameID string, at time.Time, by string) error {
	return g.Write(ctx, func(ctx context.Context) error { return g.Storage.Abandon(ctx, gameID, at, by) })
}

func (g *gatedStore) AddInvite(ctx context.Context, table, code string, expires time.Time) error {
	return g.Write(ctx, func(ctx context.Context) error { return g.Storage.AddInvite(ctx, table, code, expires) })
}

func (g *gatedStore) UseInvite(ctx context.Context, table, code, fp string, now time.Time) error {
	return g.Write(ctx, func(ctx context.Context) error { return g.Storage.UseInvite(ctx, table, code, fp, now) })
}

func (g *gatedStore) SaveNextDice(ctx context.Context, table string, d fair.NextDice) error {
	return g.Write(ctx, func(ctx context.Context) error { return g.Storage.SaveNextDice(ctx, table, d) })
}

func (g *gatedStore) AddChat(ctx context.Context, table string, l ChatLine) error {
	return g.Write(ctx, func(ctx context.Context) error { return g.Storage.AddChat(ctx, table, l) })
}

// newGatedEnv is newEnv with a gate before the store, and SaveTimeout d.
func newGatedEnv(t *testing.T, d time.Duration) *env {
	t.Helper()
	return newGatedEnvDice(t, d, lobbytest.NewDice(7))
}

// newGatedEnvDice is newGatedEnv dealing dice (nil: the server's provably
// fair dice, as newFairEnv).
func newGatedEnvDice(t *testing.T, d time.Duration, dice *lobbytest.Dice) *env {
	t.Helper()
	e := &env{t: t, st: newMemStore(), clock: lobbytest.NewClock(), dice: dice, botDelay: NoDelay,
		gate: &gatedStore{}, saveTimeout: d}
	e.open()
	t.Cleanup(func() {
		e.gate.Open(nil) // no write is left waiting
		e.close()
	})
	return e
}

// until waits for a snapshot for which ok holds.
func until(t *testing.T, s *Subscription, what string, ok func(Snapshot) bool) Snapshot {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case <-s.Ready():
			snap, got := s.Take()
			if !got {
				continue
			}
			lastMu.Lock()
			lastSeen[s] = snap
			lastMu.Unlock()
			if ok(snap) {
				return snap
			}
		case <-s.Done():
			t.Fatalf("the subscription ended waiting for %s", what)
		case <-deadline:
			t.Fatalf("no snapshot shows %s", what)
		}
	}
}

func hasLine(chat []ChatLine, text string) bool {
	return slices.ContainsFunc(chat, func(c ChatLine) bool { return c.From == "" && c.Text == text })
}

// TestPausedTable: a store that stops answering pauses the table. The
// move whose write hangs is answered ErrUnsaved, everyone at the table
// sees the pause (and a line in the chat), moves are refused while chat
// and watching go on, and the turn clock stands still; when the store
// answers, the table resumes by itself with the move saved (or not, if
// the write failed) and a fresh turn clock.
func TestPausedTable(t *testing.T) {
	for _, saved := range []bool{true, false} {
		t.Run(fmt.Sprintf("saved=%t", saved), func(t *testing.T) {
			e := newGatedEnv(t, 20*time.Millisecond)
			ps := []Player{e.player("alice"), e.player("bob")}
			rules := quickRules()
			rules.TurnSeconds = 30
			tbl := seatPlayers(t, e, "slowdisk", rules, ps...)
			subs := watchAll(t, tbl, ps)
			spectator := mustWatch(t, tbl, e.player("carol"))
			ctx := ctxT(t)

			before := latest(t, spectator, tbl)
			mover, other := ps[0], ps[1]
			if before.Name(before.Game.Turn) != mover.Name() {
				mover, other = other, mover
			}
			e.gate.Shut()
			if err := tbl.Act(ctx, mover, engine.Action{Kind: engine.Roll, Look: true}); !errors.Is(err, ErrUnsaved) {
				t.Fatalf("the move whose write hangs: %v, want ErrUnsaved", err)
			}
			for _, s := range []*Subscription{subs[mover.ID], subs[other.ID], spectator} {
				snap := until(t, s, "the pause", func(s Snapshot) bool { return s.Table.Paused })
				if !hasLine(snap.Chat, pausedNotice) || !snap.Deadline.IsZero() || len(snap.Events()) != len(before.Events()) {
					t.Fatalf("paused: chat %v, deadline %v, %d events (before %d)", snap.Chat, snap.Deadline, len(snap.Events()), len(before.Events()))
				}
			}
			if info := tbl.Info(); !info.Paused {
				t.Fatal("the lobby's list does not show the pause")
			}

			// Moves and seats are refused at once; chat and watching go on.
			for what, err := range map[string]error{
				"a move":  tbl.Act(ctx, other, engine.Action{Kind: engine.Challenge}),
				"a stand": tbl.Stand(ctx, other),
				"a sit":   tbl.Sit(ctx, e.player("dave")),
				"a kick":  tbl.Kick(ctx, mover, other.ID),
			} {
				if !errors.Is(err, ErrPaused) {
					t.Errorf("%s while paused: %v, want ErrPaused", what, err)
				}
			}
			if err := tbl.Say(ctx, other, "is it stuck?"); err != nil {
				t.Fatalf("chat while paused: %v", err)
			}
			late := mustWatch(t, tbl, e.player("erin"))
			if snap := until(t, late, "the table", func(Snapshot) bool { return true }); !snap.Table.Paused {
				t.Fatal("a new spectator does not see the pause")
			}
			// The turn clock stands still.
			e.clock.Advance(time.Hour)
			if snap := latest(t, spectator, tbl); !slices.Equal(snap.Game.Lives, before.Game.Lives) {
				t.Fatalf("lives %v during the pause, %v before", snap.Game.Lives, before.Game.Lives)
			}
			if e.gate.Waiting() != 1 {
				t.Fatalf("%d writes wait, want the move's only", e.gate.Waiting())
			}

			if saved {
				e.gate.Open(nil)
			} else {
				e.gate.Open(errors.New("disk gone"))
			}
			snap := until(t, spectator, "the table resumed", func(s Snapshot) bool {
				return !s.Table.Paused && hasLine(s.Chat, resumedNotice) && !s.Deadline.IsZero()
			})
			if got := snap.Deadline.Sub(e.clock.Now()); got != 30*time.Second {
				t.Fatalf("the turn clock after the pause: %v left, want a fresh 30s", got)
			}
			snap = latest(t, subs[mover.ID], tbl)
			rolled := len(snap.Events()) > len(before.Events())
			if rolled != saved {
				t.Fatalf("saved %t: the roll shows %t (%d events, %d before)", saved, rolled, len(snap.Events()), len(before.Events()))
			}
			stored, err := e.st.Game(snap.GameID)
			if err != nil || len(stored.Events) != len(snap.Events()) {
				t.Fatalf("the store holds %d events, the table %d (%v)", len(stored.Events), len(snap.Events()), err)
			}
			// And the game goes on.
			next := lobbytest.Move(snap.Game, rand.New(rand.NewPCG(1, 2)))
			if err := tbl.Act(ctx, mover, next); err != nil {
				t.Fatalf("the next move after the pause: %v", err)
			}
		})
	}
}

// TestPausedBotMovesAgain: a built-in bot whose move hung moves again
// once the table resumes, even when that move was not saved.
func TestPausedBotMovesAgain(t *testing.T) {
	e := newGatedEnv(t, 20*time.Millisecond)
	e.botDelay = time.Second // bots move when the test's clock says so
	e.restart()
	alice := e.player("alice")
	ctx := ctxT(t)
	tbl, err := e.lobby.CreateTable(ctx, alice, TableConfig{Name: "bots", Rules: quickRules(), Seats: 3})
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
	snap := latest(t, s, tbl)
	for snap.You == snap.Game.Turn { // alice moves until a bot's turn
		if err := tbl.Act(ctx, alice, lobbytest.Move(snap.Game, r)); err != nil {
			t.Fatal(err)
		}
		snap = latest(t, s, tbl)
	}
	if snap.You == snap.Game.Turn {
		t.Fatalf("alice's turn again: %+v", snap.Game)
	}
	e.gate.Shut()
	e.clock.Advance(2 * time.Second) // the bot moves; its write hangs
	until(t, s, "the pause", func(s Snapshot) bool { return s.Table.Paused })
	e.gate.Open(errors.New("disk gone"))
	resumed := until(t, s, "the table resumed", func(s Snapshot) bool { return !s.Table.Paused })
	if len(resumed.Events()) != len(snap.Events()) {
		t.Fatalf("a move that was not saved shows: %d events, %d before", len(resumed.Events()), len(snap.Events()))
	}
	e.clock.Advance(2 * time.Second)
	until(t, s, "the bot's move", func(s Snapshot) bool { return len(s.Events()) > len(snap.Events()) })
}

// TestGivenUpRequestNeverRuns: a caller whose ctx ends before the table
// takes its request is told ctx.Err(), and the request never runs; one
// whose ctx ends once the table has taken it gets its answer.
func TestGivenUpRequestNeverRuns(t *testing.T) {
	e := newGatedEnv(t, 10*time.Second)
	alice, bob := e.player("alice"), e.player("bob")
	tbl, err := e.lobby.CreateTable(ctxT(t), alice, TableConfig{Name: "queue", Rules: quickRules()})
	if err != nil {
		t.Fatal(err)
	}

	// The actor is busy: bob's Sit waits, and he gives up.
	busy, release := make(chan struct{}), make(chan struct{})
	go func() {
		_ = tbl.do(context.Background(), func(context.Context) error {
			close(busy)
			<-release
			return nil
		})
	}()
	<-busy
	ctx, cancel := context.WithCancel(context.Background())
	sat := make(chan error, 1)
	go func() { sat <- tbl.Sit(ctx, bob) }()
	cancel()
	if err := <-sat; !errors.Is(err, context.Canceled) {
		t.Fatalf("Sit after giving up: %v", err)
	}
	close(release)
	if err := tbl.do(ctxT(t), func(context.Context) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if tbl.Info().Taken != 0 {
		t.Fatalf("bob was seated after Sit returned ctx.Err(): %+v", tbl.Info().Players)
	}

	// Taken, then given up: the caller waits for the answer.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	e.gate.BeforeWrite(cancel) // the seat's write: the caller gives up now
	if err := tbl.Sit(ctx, bob); err != nil {
		t.Fatalf("Sit given up while the table ran it: %v, want its answer", err)
	}
	if tbl.Info().Taken != 1 {
		t.Fatalf("bob is not seated: %+v", tbl.Info().Players)
	}
}

// TestSitNeverAfterGivingUp races Sit against its caller's ctx: whenever
// Sit says ctx ended, the player was not seated; whenever it says nil,
// they were.
func TestSitNeverAfterGivingUp(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.player("alice"), e.player("bob")
	tbl, err := e.lobby.CreateTable(ctxT(t), alice, TableConfig{Name: "race", Rules: quickRules()})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 500 {
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			for range i % 7 {
				_ = tbl.do(context.Background(), func(context.Context) error { return nil })
			}
			cancel()
		}()
		err := tbl.Sit(ctx, bob)
		seated := tbl.Info().Taken == 1
		switch {
		case err == nil && !seated, errors.Is(err, context.Canceled) && seated:
			t.Fatalf("round %d: Sit said %v, seated %t", i, err, seated)
		case err != nil && !errors.Is(err, context.Canceled):
			t.Fatalf("round %d: Sit: %v", i, err)
		}
		cancel()
		if seated {
			if err := tbl.Stand(ctxT(t), bob); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestPostDoesNotWait: post returns at once, from the actor itself too.
func TestPostDoesNotWait(t *testing.T) {
	e := newEnv(t)
	tbl, err := e.lobby.CreateTable(ctxT(t), e.player("alice"), TableConfig{Name: "post", Rules: quickRules()})
	if err != nil {
		t.Fatal(err)
	}
	ran := make(chan int, 3)
	err = tbl.do(ctxT(t), func(context.Context) error {
		for i := range 3 {
			tbl.post(func(context.Context) { ran <- i })
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for want := range 3 {
		select {
		case got := <-ran:
			if got != want {
				t.Fatalf("posted %d ran as %d", want, got)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a function posted by the actor never ran")
		}
	}
	// While the actor is busy, post returns.
	release := make(chan struct{})
	go func() {
		_ = tbl.do(context.Background(), func(context.Context) error { <-release; return nil })
	}()
	tbl.post(func(context.Context) {})
	close(release)
}

// TestStopConcurrently: stopping a table from many goroutines at once
// stops it once: 10,000 stops, two at once on each of 5,000 tables (the
// close of a closed channel panicked 2 times in 20,000 such pairs), and
// then 10,000 at once on one table.
func TestStopConcurrently(t *testing.T) {
	e := newEnv(t)
	tables := make([]*Table, 5000)
	for i := range tables {
		tables[i] = startTable(e.lobby, TableRecord{Name: fmt.Sprintf("t%d", i), Rules: quickRules(), Seats: 2}, kept{})
	}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, tbl := range tables {
		for range 2 {
			wg.Go(func() {
				<-start
				tbl.stop()
			})
		}
	}
	close(start)
	wg.Wait()

	tbl, err := e.lobby.CreateTable(ctxT(t), e.player("alice"), TableConfig{Name: "stop", Rules: quickRules()})
	if err != nil {
		t.Fatal(err)
	}
	start = make(chan struct{})
	for range 10000 {
		wg.Go(func() {
			<-start
			tbl.stop()
		})
	}
	close(start)
	wg.Wait()
	if err := tbl.Sit(ctxT(t), e.player("bob")); !errors.Is(err, ErrTableClosed) {
		t.Fatalf("Sit at a stopped table: %v", err)
	}
	tbl.post(func(context.Context) { t.Error("a function posted to a stopped table ran") })
}

// TestCreateTableWhileTheStoreHangs: the lobby is not held while a table
// is written; its name is kept meanwhile, and a table whose write answers
// late opens when it does.
func TestCreateTableWhileTheStoreHangs(t *testing.T) {
	e := newGatedEnv(t, 50*time.Millisecond)
	alice := e.player("alice")
	ctx := ctxT(t)
	e.gate.Shut()
	if _, err := e.lobby.CreateTable(ctx, alice, TableConfig{Name: "late", Rules: quickRules()}); !errors.Is(err, ErrUnsaved) {
		t.Fatalf("a table whose write hangs: %v, want ErrUnsaved", err)
	}
	// The lobby answers meanwhile, and keeps the name.
	if err := e.lobby.Say(alice, "hello"); err != nil {
		t.Fatal(err)
	}
	if got := e.lobby.Tables(Viewer{}); len(got) != 0 {
		t.Fatalf("tables listed before the write answered: %+v", got)
	}
	if _, err := e.lobby.CreateTable(ctx, alice, TableConfig{Name: "LATE", Rules: quickRules()}); !errors.Is(err, ErrTableExists) {
		t.Fatalf("the same name meanwhile: %v, want ErrTableExists", err)
	}
	var alike *LookalikeError // 1ate looks like late (lobby/ident's skeleton)
	if _, err := e.lobby.CreateTable(ctx, alice, TableConfig{Name: "1ate", Rules: quickRules()}); !errors.Is(err, ErrTableExists) ||
		!errors.As(err, &alike) || alike.Taken != "late" {
		t.Fatalf("a name that looks like it meanwhile: %v, want a LookalikeError naming late", err)
	}
	m := e.lobby.Subscribe()
	defer e.lobby.Unsubscribe(m)
	e.gate.Open(nil)
	deadline := time.After(10 * time.Second)
	for len(e.lobby.Tables(Viewer{})) == 0 {
		select {
		case <-m.Ready():
			m.Take()
		case <-deadline:
			t.Fatal("the table saved late never opened")
		}
	}
	if _, err := e.lobby.Table("late"); err != nil {
		t.Fatal(err)
	}
}

// TestPausedWritesOfEveryKind: each kind of write a table makes besides
// moves and seats (a seed given, a chat line, a web link) pauses the
// table when the store hangs on it, and counts once the store answers,
// if it saved it. A seed and a link wait for that (ErrUnsaved); a chat
// line is said at once (Say returns nil), only its keeping waits.
func TestPausedWritesOfEveryKind(t *testing.T) {
	type kind struct {
		name  string
		write func(t *testing.T, tbl *Table, host Player) error
		want  error                                                    // what the write returns
		kept  func(t *testing.T, e *env, tbl *Table, host Player) bool // it is in the store, and the table has it
	}
	kinds := []kind{
		{"a seed", func(t *testing.T, tbl *Table, host Player) error {
			_, err := tbl.SetSeed(ctxT(t), host, "lucky 7")
			return err
		}, ErrUnsaved, func(t *testing.T, e *env, tbl *Table, host Player) bool {
			d, _, err := e.st.NextDice(ctxT(t), tbl.Info().Name)
			if err != nil {
				t.Fatal(err)
			}
			stored := slices.Contains(d.Given, fair.GivenSeed{Person: host.ID, Seed: "lucky 7"})
			_, shown := tbl.Info().Fair.Seed(host.ID)
			if stored != shown {
				t.Fatalf("the seed stored %t, shown %t", stored, shown)
			}
			return stored
		}},
		{"a chat line", func(t *testing.T, tbl *Table, host Player) error {
			return tbl.Say(ctxT(t), host, "anyone there?")
		}, nil, func(t *testing.T, e *env, tbl *Table, host Player) bool {
			lines, err := e.st.Chat(ctxT(t), tbl.Info().Name)
			if err != nil {
				t.Fatal(err)
			}
			return slices.ContainsFunc(lines, func(l ChatLine) bool { return l.FromID == host.ID && l.Text == "anyone there?" })
		}},
		{"a web link", func(t *testing.T, tbl *Table, host Player) error {
			token, err := tbl.Link(ctxT(t), host, false)
			if token != "" {
				t.Errorf("a link whose write paused the table gave its token %q", token)
			}
			return err
		}, ErrUnsaved, func(t *testing.T, e *env, tbl *Table, host Player) bool {
			rec, err := e.st.Table(tbl.Info().Name)
			if err != nil {
				t.Fatal(err)
			}
			shown, err := tbl.Link(ctxT(t), host, false) // the token the table holds, or a new one if none
			if err != nil {
				t.Fatal(err)
			}
			return rec.Link != "" && rec.Link == shown
		}},
	}
	var before string // the commitment before a game's start
	kinds = append(kinds, kind{"a game's start, with the next game's dice", func(t *testing.T, tbl *Table, host Player) error {
		before = tbl.Info().Fair.Commitment
		return tbl.Start(ctxT(t), host)
	}, ErrUnsaved, func(t *testing.T, e *env, tbl *Table, host Player) bool {
		// The game, saved too late, is not played; the next game's dice,
		// saved in the same write, are the table's.
		d, _, err := e.st.NextDice(ctxT(t), tbl.Info().Name)
		if err != nil {
			t.Fatal(err)
		}
		info := tbl.Info()
		if info.State == "playing" || d.Seed.Commitment() != info.Fair.Commitment {
			t.Fatalf("%s; commitment stored %s, shown %s", info.State, d.Seed.Commitment(), info.Fair.Commitment)
		}
		return info.Fair.Commitment != before
	}})
	for _, k := range kinds {
		for _, saved := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s saved=%t", k.name, saved), func(t *testing.T) {
				e := newGatedEnvDice(t, 20*time.Millisecond, nil) // fair dice: seeds are taken
				host := e.player("alice")
				tbl, err := e.lobby.CreateTable(ctxT(t), host, TableConfig{Name: "slow", Rules: quickRules(), Private: true})
				if err != nil {
					t.Fatal(err)
				}
				s := mustWatch(t, tbl, host)
				if err := tbl.Sit(ctxT(t), host); err != nil {
					t.Fatal(err)
				}
				if _, err := tbl.AddBot(ctxT(t), host, ai.Normal); err != nil {
					t.Fatal(err)
				}
				e.gate.Shut()
				if err := k.write(t, tbl, host); !errors.Is(err, k.want) && err != k.want {
					t.Fatalf("the write whose store hangs: %v, want %v", err, k.want)
				}
				until(t, s, "the pause", func(s Snapshot) bool { return s.Table.Paused && hasLine(s.Chat, pausedNotice) })
				if k.name == "a chat line" {
					snap := latest(t, s, tbl)
					if !slices.ContainsFunc(snap.Chat, func(l ChatLine) bool { return l.Text == "anyone there?" }) {
						t.Fatal("a chat line whose keeping hangs is not shown")
					}
				}
				if saved {
					e.gate.Open(nil)
				} else {
					e.gate.Open(errors.New("disk gone"))
				}
				until(t, s, "the table resumed", func(s Snapshot) bool { return !s.Table.Paused && hasLine(s.Chat, resumedNotice) })
				if got := k.kept(t, e, tbl, host); got != saved {
					t.Fatalf("kept %t, saved %t", got, saved)
				}
			})
		}
	}
}
