package sshapp

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/sshapp/plain/plaintest"
	"github.com/mia-game/mia/store"
)

// plainSession is the plain mode over real SSH: its every byte, and
// what was read of them (next).
type plainSession struct {
	*screen
	pos int
}

// openPlain opens an interactive session on a PTY of 80×24 of type
// "xterm" with env set, running cmd ("" for none).
func openPlain(t *testing.T, c *gossh.Client, env map[string]string, cmd string) *plainSession {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatalf("session: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	for k, v := range env {
		if err := s.Setenv(k, v); err != nil {
			t.Fatalf("setenv %s: %v", k, err)
		}
	}
	if err := s.RequestPty("xterm", 24, 80, gossh.TerminalModes{}); err != nil {
		t.Fatalf("pty: %v", err)
	}
	in, err := s.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out := &syncBuffer{}
	s.Stdout, s.Stderr = out, out
	if cmd == "" {
		err = s.Shell()
	} else {
		err = s.Start(cmd)
	}
	if err != nil {
		t.Fatalf("start %q: %v", cmd, err)
	}
	sc := &screen{sess: s, in: in, out: out, done: make(chan error, 1)}
	go func() { sc.done <- s.Wait() }()
	return &plainSession{screen: sc}
}

// text is what the session received, its line ends as \n.
func (p *plainSession) text() string { return strings.ReplaceAll(p.out.String(), "\r\n", "\n") }

// next waits until what the session received after the last thing found
// holds want, and moves past it; it returns what came up to its end.
func (p *plainSession) next(t *testing.T, want string) string {
	t.Helper()
	changed := p.out.changed()
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	for {
		text := p.text()
		if i := strings.Index(text[p.pos:], want); i >= 0 {
			from := p.pos
			p.pos += i + len(want)
			return text[from:p.pos]
		}
		select {
		case <-changed:
		case <-deadline.C:
			t.Fatalf("the plain session never said %q after:\n%s", want, text[p.pos:])
		}
	}
}

// line types a line and presses enter.
func (p *plainSession) line(t *testing.T, s string) { t.Helper(); p.send(t, s+"\r") }

// TestPlainGameWithABotAndAScreen plays a whole game through the plain
// mode, over real SSH with a terminal, reading only its lines: alice
// names herself, creates a table by its questions and seats a built-in
// bot; carol, on the screens, opens the table and sits, which starts the
// game. Every byte alice received is plain (no escape sequence, no
// drawing), and each event of the game is told to her exactly once, in
// order.
func TestPlainGameWithABotAndAScreen(t *testing.T) {
	t.Parallel()
	e := startRecServer(t, lobby.NoDelay)
	alice := openPlain(t, e.connect(t, newKey(t)), nil, "plain")
	alice.next(t, "Choose a name")
	alice.line(t, "alice")
	alice.next(t, "You are alice.")
	alice.next(t, "Lobby. No open tables.")
	alice.line(t, "create")
	for _, answer := range []string{"e2e", "", "3", "2", "", "", "", ""} { // the last: not coached
		alice.next(t, "Enter for ")
		alice.line(t, answer)
	}
	alice.next(t, "Table e2e is open, 3 seats: classic, 2 lives, 60s a turn.")
	alice.next(t, "Waiting for a game: 1 of 3 seats taken, by you.")
	alice.line(t, "add bot")
	alice.next(t, "ada [bot] sat down.")

	carol := openScreen(t, e.connect(t, newKey(t)), 100, 30)
	carol.waitFor(t, "name", 5*time.Second)
	carol.send(t, "carol\r")
	carol.waitFor(t, "e2e", 5*time.Second)
	carol.send(t, "\r")
	carol.waitFor(t, "e2e ·", 5*time.Second)
	carol.send(t, "s") // the third seat: the game starts

	tbl, err := e.lobby.Table("e2e")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := tbl.Watch(context.Background(), lobby.Player{ID: "test:spectator"})
	if err != nil {
		t.Fatal(err)
	}
	defer spec.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var snap lobby.Snapshot
	within := func(d time.Duration, cond func(lobby.Snapshot) bool) bool {
		wctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		for !cond(snap) {
			s, ok := spec.Wait(wctx)
			if !ok {
				return false
			}
			snap = s
		}
		return true
	}
	if !within(10*time.Second, func(s lobby.Snapshot) bool { return s.Playing }) {
		t.Fatal("the game did not start")
	}
	game := snap.GameID
	for moves := 0; snap.Playing; moves++ {
		if moves > 300 {
			t.Fatal("the game did not end")
		}
		n := len(snap.Events())
		grew := func(s lobby.Snapshot) bool { return len(s.Events()) > n || !s.Playing }
		switch snap.Name(snap.Game.Turn) {
		case "alice":
			alice.next(t, "Choose: ")
			choices := alice.next(t, "\n")
			switch {
			case strings.Contains(choices, "your dice"):
				alice.line(t, "1")
			case strings.Contains(choices, "announce another value"):
				alice.line(t, "announce")
				alice.next(t, "lowest first:\n1: ")
				alice.line(t, "1")
			case strings.Contains(choices, "call liar") && moves%2 == 0:
				alice.line(t, "liar")
			default:
				alice.line(t, "1")
			}
			if !within(10*time.Second, grew) {
				t.Fatalf("alice's move did not land: %s", choices)
			}
		case "carol":
			for try := 0; ; try++ {
				if try == 25 {
					t.Fatalf("carol's keys did nothing; last %+v", snap.Game)
				}
				key := "c"
				switch snap.Game.Phase {
				case engine.PhaseOpen:
					key = "r"
				case engine.PhaseAnnounce:
					key = "\r" // the picker opened by itself: the lowest value
				}
				carol.send(t, key)
				if within(400*time.Millisecond, grew) {
					break
				}
			}
		default:
			if !within(10*time.Second, grew) {
				t.Fatal("the bot did not move")
			}
		}
	}
	alice.next(t, "Standings: ")

	g, evs, err := e.st.Game(context.Background(), game)
	if err != nil || g.Ended.IsZero() {
		t.Fatalf("the stored game: %+v, %v", g, err)
	}
	seat := slices.IndexFunc(g.Seats, func(s store.Seat) bool { return s.Name == "alice" })
	names := make([]string, len(g.Seats))
	for i, s := range g.Seats {
		names[i] = words.Label(s.Called(), s.Bot)
	}
	nar := words.Narrator{Names: names, You: seat, Ranking: g.Rules.Ranking, Turn: -1}
	if err := plaintest.ToldOnce(alice.text(), evs, nar); err != nil {
		t.Fatalf("%v\nalice's session:\n%s", err, alice.text())
	}
	if bad := plaintest.Forbidden([]byte(alice.out.String())); bad != "" {
		t.Fatalf("alice received %s", bad)
	}
	carol.waitFor(t, "win", 5*time.Second) // the other door told the same game
}

// TestPlainSurvives: the plain setting holds on every key of its person
// and across a restart; ACCESSIBLE=1 asks for the mode without it;
// coming back into a running game (a reconnect) says where the game is,
// once; a window resized redraws nothing; the server's goodbye is said.
func TestPlainSurvives(t *testing.T) {
	t.Parallel()
	e := startRecServer(t, lobby.NoDelay)
	alice := e.player(t, "alice")
	if r := e.as(t, "alice", "settings plain on"); r.code != 0 || !strings.Contains(r.stdout, "plain is on now.") {
		t.Fatalf("settings plain on: %+v", r)
	}
	rules := engine.DefaultOptions()
	rules.Lives = 2
	tbl, err := e.lobby.CreateTable(context.Background(), alice, lobby.TableConfig{Name: "held", Rules: rules, Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.Sit(context.Background(), alice); err != nil {
		t.Fatal(err)
	}
	if _, err := tbl.AddBot(context.Background(), alice, "easy"); err != nil { // the game starts
		t.Fatal(err)
	}

	// No command, a terminal: the setting opens the plain mode, straight
	// back into the game.
	first := openPlain(t, e.connect(t, e.key(t, "alice")), nil, "")
	first.next(t, "You are back at held, in your game: you have 2 lives. Game ")
	first.next(t, "Choose: ")
	first.next(t, "\n")
	if err := first.sess.WindowChange(40, 100); err != nil {
		t.Fatal(err)
	}
	if err := first.sess.WindowChange(12, 30); err != nil {
		t.Fatal(err)
	}
	first.line(t, "who")
	if got := first.next(t, "Seats: "); got != "who\nSeats: " {
		t.Fatalf("a resize drew something: %q", got)
	}
	first.next(t, "\n")
	first.sess.Close()

	// Back again, from another connection: where the game is, once.
	again := openPlain(t, e.connect(t, e.key(t, "alice")), nil, "play")
	again.next(t, "You are back at held, in your game")
	again.line(t, "1")                         // the first choice, whatever the bot left: the game goes on
	again.nextOf(t, "You ", "Your turn: you ") // the move told, or the roll that asks for the next
	if n := strings.Count(again.text(), "You are back at"); n != 1 {
		t.Errorf("where the game is was said %d times", n)
	}
	if bad := plaintest.Forbidden([]byte(first.out.String() + again.out.String())); bad != "" {
		t.Fatalf("the sessions received %s", bad)
	}

	// The server's goodbye, then a restart: the setting is still there.
	e.restart(t)
	again.next(t, "the server is shutting down. Goodbye.")
	after := openPlain(t, e.connect(t, e.key(t, "alice")), nil, "")
	after.next(t, "in plain lines")

	// Another person without the setting gets the screens, but for
	// ACCESSIBLE=1.
	e.key(t, "bob")
	screens := openPlain(t, e.connect(t, e.key(t, "bob")), nil, "")
	screens.waitFor(t, "\x1b[", 5*time.Second)                 // drawn
	stranger := openScreen(t, e.connect(t, newKey(t)), 80, 24) // the name prompt offers the mode
	stranger.waitFor(t, words.PlainOffer, 5*time.Second)
	stranger.waitFor(t, " 127.0.0.1 plain", 5*time.Second)
	stranger.waitFor(t, words.PlainOrSet, 5*time.Second)
	asked := openPlain(t, e.connect(t, e.key(t, "bob")), map[string]string{"ACCESSIBLE": "1"}, "")
	asked.next(t, "in plain lines")
	asked.next(t, "Lobby.")
	if bad := plaintest.Forbidden([]byte(asked.out.String())); bad != "" {
		t.Fatalf("ACCESSIBLE=1 received %s", bad)
	}
}
