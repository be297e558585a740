package sshapp

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/sshapp/botline"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// gatedStorage is the lobby's storage behind a gate (lobbytest.Gate): shut,
// it holds every write, as a disk that stopped answering does.
type gatedStorage struct {
	lobby.Storage
	lobbytest.Gate
}

func (g *gatedStorage) CreateTable(ctx context.Context, t lobby.TableRecord) error {
	return g.Write(ctx, func(ctx context.Context) error { return g.Storage.CreateTable(ctx, t) })
}

func (g *gatedStorage) UpdateTable(ctx context.Context, name string, fn func(*lobby.TableRecord) error) error {
	return g.Write(ctx, func(ctx context.Context) error { return g.Storage.UpdateTable(ctx, name, fn) })
}

func (g *gatedStorage) CreateGame(ctx context.Context, rec lobby.GameRecord) (id string, err error) {
	err = g.Write(ctx, func(ctx context.Context) error {
		var err error
		id, err = g.Storage.CreateGame(ctx, rec)
		return err
	})
	return id, err
}

func (g *gatedStorage) Append(ctx context.Context, gameID string, evs []engine.Event, res *engine.Result) error {
	return g.Write(ctx, func(ctx context.Context) error { return g.Storage.Append(ctx, gameID, evs, res) })
}

func (g *gatedStorage) Abandon(ctx context.Context, gameID string, at time.Time, by string) error {
	return g.Write(ctx, func(ctx context.Context) error { return g.Storage.Abandon(ctx, gameID, at, by) })
}

func (g *gatedStorage) AddInvite(ctx context.Context, table, code string, expires time.Time) error {
	return g.Write(ctx, func(ctx context.Context) error { return g.Storage.AddInvite(ctx, table, code, expires) })
}

func (g *gatedStorage) UseInvite(ctx context.Context, table, code, fp string, now time.Time) error {
	return g.Write(ctx, func(ctx context.Context) error { return g.Storage.UseInvite(ctx, table, code, fp, now) })
}

// lineReader hands a bot's lines over a channel, so that a test waits for
// them with a deadline.
func lineReader(b *protoBot) <-chan string {
	lines := make(chan string, 256)
	go func() {
		defer close(lines)
		for {
			l, err := b.line()
			if err != nil {
				return
			}
			lines <- l
		}
	}()
	return lines
}

// nextLine waits for a line from lines.
func nextLine(t *testing.T, lines <-chan string) string {
	t.Helper()
	select {
	case l, ok := <-lines:
		if !ok {
			t.Fatal("the bot's session ended")
		}
		return l
	case <-time.After(10 * time.Second):
		t.Fatal("no line from the server")
		return ""
	}
}

// lineUntil reads lines until one starts with prefix, and returns it.
func lineUntil(t *testing.T, lines <-chan string, prefix string) string {
	t.Helper()
	for {
		if l := nextLine(t, lines); strings.HasPrefix(l, prefix) {
			return l
		}
	}
}

// TestBotTablePaused: a bot at a table whose storage stops answering is
// told (the move that could not be saved gets ERROR, then TABLE PAUSED),
// has its answers refused meanwhile, and once the storage answers gets
// TABLE RESUMED, the move saved late, and a fresh prompt.
func TestBotTablePaused(t *testing.T) {
	t.Parallel()
	st, err := store.Open(filepath.Join(t.TempDir(), "mia.db"))
	if err != nil {
		t.Fatal(err)
	}
	gate := &gatedStorage{Storage: lobbystore.New(st)}
	l, err := lobby.New(context.Background(), lobby.Config{Store: gate, SaveTimeout: 50 * time.Millisecond, BotDelay: lobby.NoDelay,
		Dice: lobbytest.NewDice(11)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		gate.Open(nil)
		l.Close()
		st.Close()
	})
	e := &botEnv{testServer: startServer(t, func(c *Config) { c.Storage, c.Lobby = storageOf(st), l }), st: st, lobby: l}
	_, host := e.named(t, "hoster")
	key, _ := e.named(t, "waiter")
	tbl := e.table(t, host, "slowdisk", 2, engine.DefaultOptions())
	if err := tbl.Sit(context.Background(), host); err != nil {
		t.Fatal(err)
	}
	hostView, err := tbl.Watch(context.Background(), host)
	if err != nil {
		t.Fatal(err)
	}
	defer hostView.Close()

	b, err := dialBot(e.addr, key, "waiter", tbl.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer b.close()
	lines := lineReader(b)
	lineUntil(t, lines, "GAME STARTING;")

	// The host plays (from the test) until it is the bot's turn.
	r := rand.New(rand.NewPCG(5, 6))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var prompt string
	for prompt == "" {
		select {
		case <-hostView.Ready():
			snap, ok := hostView.Take()
			if ok && snap.Playing && snap.Game.MyTurn() {
				if err := tbl.Act(ctx, host, lobbytest.Move(snap.Game, r)); err != nil {
					t.Fatal(err)
				}
			}
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the bot's session ended")
			}
			if strings.HasPrefix(l, "YOUR TURN;") {
				prompt = l
			}
		case <-ctx.Done():
			t.Fatal("the bot was never asked to move")
		}
	}
	token := prompt[strings.LastIndexByte(prompt, ';')+1:]

	gate.Shut()
	if err := b.send("ROLL;" + token); err != nil {
		t.Fatal(err)
	}
	if l := nextLine(t, lines); l != botline.ErrorLine(lobby.ErrUnsaved.Error()) {
		t.Fatalf("the move whose save hangs: %q", l)
	}
	if l := nextLine(t, lines); !strings.HasPrefix(l, "TABLE PAUSED;") {
		t.Fatalf("after the refused move: %q, want TABLE PAUSED", l)
	}
	if err := b.send("ROLL;" + token); err != nil {
		t.Fatal(err)
	}
	if l := nextLine(t, lines); l != "ERROR;no move is asked of you now" {
		t.Fatalf("an answer while paused: %q", l)
	}

	gate.Open(nil)
	if l := nextLine(t, lines); l != "TABLE RESUMED" {
		t.Fatalf("once the storage answers: %q, want TABLE RESUMED", l)
	}
	rolled := lineUntil(t, lines, "ROLLED;") // the roll, saved late: now announce
	fresh := rolled[strings.LastIndexByte(rolled, ';')+1:]
	if fresh == token {
		t.Fatal("the prompt after the pause reuses the old token")
	}
	if err := b.send("ANNOUNCE;2,1;" + fresh); err != nil { // Mia beats any claim before it
		t.Fatal(err)
	}
	if l := lineUntil(t, lines, "ANNOUNCED;"); l != "ANNOUNCED;waiter;2,1" {
		t.Fatalf("the announcement after the pause: %q", l)
	}
}
