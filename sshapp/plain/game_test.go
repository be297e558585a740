package plain

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/sshapp/plain/plaintest"
	"github.com/mia-game/mia/store"
)

// duel is alice at a plain door and bob (played by the test through the
// lobby, as any other door) at a table of two, the game dealt from a
// script: alice in seat 0 and opening.
type duel struct {
	e          *env
	d          *client
	tbl        *lobby.Table
	alice, bob lobby.Player
	dice       *lobbytest.Script
	spec       *lobby.Subscription // a spectator, to count the game's events
	seen       lobby.Snapshot      // its newest snapshot
}

func newDuel(t *testing.T, rules engine.Options, term bool) *duel {
	t.Helper()
	dice := &lobbytest.Script{}
	e := newEnv(t, dice)
	g := &duel{e: e, dice: dice, alice: e.player("alice"), bob: e.player("bob")}
	g.tbl = e.table(g.alice, "duel", 2, rules)
	spec, err := g.tbl.Watch(ctxT(t), lobby.Player{ID: "test:spectator"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(spec.Close)
	g.spec = spec
	g.d = e.open(g.alice, term, func(c *Config) { c.Table = "duel" })
	g.d.next("At table duel")
	g.d.send("sit")
	g.d.next("You are seated for the next game.")
	dice.Push(1, 0) // the seats as they sat; seat 0 opens
	if err := g.tbl.Sit(ctxT(t), g.bob); err != nil {
		t.Fatal(err)
	}
	return g
}

// events is how many events the game has, as the spectator saw them
// last (a table publishes a move before it answers it).
func (g *duel) events() int {
	if snap, ok := g.spec.Take(); ok {
		g.seen = snap
	}
	return len(g.seen.Events())
}

// bobDoes plays a move for bob.
func (g *duel) bobDoes(a engine.Action) {
	g.e.t.Helper()
	if err := g.tbl.Act(ctxT(g.e.t), g.bob, a); err != nil {
		g.e.t.Fatalf("bob %v: %v", a, err)
	}
}

// TestEveryWord: at a table, in a game, every listed choice and every
// word does what it says; a wrong one is answered with one sentence and
// changes nothing (the game has as many events after it as before).
func TestEveryWord(t *testing.T) {
	t.Parallel()
	g := newDuel(t, engine.DefaultOptions(), true)
	d := g.d
	d.next("Game 1 starts: you and bob, 6 lives each.")
	d.next("Your turn. Round 1: you open. Choose: 1 roll, 2 roll blind.")

	// Wrong, each: one sentence, nothing changes.
	before := g.events()
	for _, c := range []struct{ line, want string }{
		{"rol", "Not understood: rol. You may say a number from 1 to 2, roll, blind, liar, pass, announce and a value, status, or help."},
		{"pass", "Not done: "},
		{"give up", "Not done: give up: the opener must roll first."},
		{"liar", "Not done: "},
		{"announce 77", "77 is not a value; say it as the table does: 54, 33, mia. Nothing was done."},
		{"announce 43", "Not done: "},
		{"3", "There is no 3: choose 1 to 2."},
		{"0", "There is no 0: choose 1 to 2."},
		{"log x", "Say log, or log and a number of events, like log 10. Nothing was done."},
		{"chat", "Say chat and then your text, on one line."},
		{"chat " + strings.Repeat("é", lobby.MaxChatRunes+1), "A chat line holds 200 characters; yours has 201. Nothing was sent."},
		{"sit", "Not done: you are seated at this table already."},
		{"start", "Not done: a game is running at this table."},
		{"stand", "You are in this game: say leave to leave it."},
		{"add bot", "Not done: a game is running at this table."},
		{"add robot", "Say add bot, or add bot and a level: easy, normal, hard, expert. Nothing was done."},
		{"add bot wizard", "A bot's level is one of easy, normal, hard, expert. Nothing was done."},
		{"remove bot", "No built-in bot is seated here."},
		{"more", "There is no more to say."},
		{strings.Repeat("x", MaxLine+1), "That line is 1025 characters long; the most this takes is 1024. Nothing was done."},
		{strings.Repeat("é", MaxLine+1), "That line is 1025 characters long; the most this takes is 1024. Nothing was done."},
		// The line editor keeps 4096 characters of a line: the rest is
		// not known.
		{strings.Repeat("x", 5000), "That line is at least 4096 characters long; the most this takes is 1024. Nothing was done."},
	} {
		d.send(c.line)
		d.next(c.want)
	}
	d.send("leave")
	d.next("Leaving puts you out of this game. Say yes to leave it, anything else to stay.")
	d.send("no")
	d.next("You stay in the game.")
	if after := g.events(); after != before {
		t.Fatalf("wrong words changed the game: %d events, then %d", before, after)
	}

	// The words that tell, at any time.
	for _, c := range []struct{ line, want string }{
		{"status", "At table duel. Game 1, round 1. No claim yet. Your turn. 60 seconds left. You have 6 lives."},
		{"who", "Seats: you, 6 lives, your turn; bob, 6 lives, away."},
		{"log", "The last event of game 1:\nRound 1: you open."},
		{"log 50", "Round 1: you open."},
		{"rules", "The rules at duel, 2 seats:"},
		{"help", "At a table, on your turn:"},
		{"chat hello bob", "alice says: hello bob"},
	} {
		d.send(c.line)
		d.next(c.want)
	}
	if after := g.events(); after != before {
		t.Fatalf("the words that tell changed the game: %d events, then %d", before, after)
	}

	// The choices and the moves.
	g.dice.Roll(4, 3)
	d.send("1")
	d.next("Your turn: you rolled 43. Choose: 1 announce 43, your dice, 2 announce another value.")
	d.send("2")
	d.next("The values you may announce, lowest first:\n1: 31, beaten 94% of the time.")
	d.next("14 more lines: say more.")
	d.send("more")
	d.next("9: 54, beaten 50% of the time.")
	d.send("announce double 9s")
	d.next("double 9s is not a value")
	d.send("announce 34") // dice either way round
	d.next("You announced 43 to bob.")
	d.send("1")
	d.next("That list is out of date: the game moved on. Nothing was done; say status.")

	g.dice.Roll(6, 5)
	g.bobDoes(engine.Action{Kind: engine.Roll, Look: true})
	d.next("bob rolled.")
	g.bobDoes(engine.Action{Kind: engine.Claim, Value: 65})
	d.next("Your turn: bob announced 65 to you. Choose: 1 roll, 2 roll blind, 3 call liar, 4 pass 65 on, 5 raise blind.")
	d.send("raise")
	d.next("The values you may raise to blind, lowest first:\n1: 11, beaten 19% of the time.")
	d.send("announce mia")
	d.next("You raised blind to Mia and passed to bob.")

	g.bobDoes(engine.Action{Kind: engine.Challenge})
	d.next("bob called you a liar: 65, you lose a life.")
	d.next("Round 2: bob opens.")
	g.dice.Roll(2, 1)
	g.bobDoes(engine.Action{Kind: engine.Roll, Look: true})
	g.bobDoes(engine.Action{Kind: engine.Claim, Value: engine.Mia})
	d.next("Your turn: bob announced Mia to you. Choose: 1 call liar, 2 give up.")
	d.send("give up")
	d.next("You gave up against Mia and lose a life.")
	d.next("Round 3: bob opens.")
	g.dice.Roll(3, 2)
	g.bobDoes(engine.Action{Kind: engine.Roll, Look: true})
	g.bobDoes(engine.Action{Kind: engine.Claim, Value: 32})
	d.next("Your turn: bob announced 32 to you.")
	d.send("4")
	d.next("You passed 32 to bob.")
	g.bobDoes(engine.Action{Kind: engine.Challenge})
	d.next("bob called you a liar: 32, bob loses a life.")
	d.next("Your turn. Round 4: you open.")
	g.dice.Roll(5, 5)
	d.send("blind")
	d.next("Your turn: you rolled without looking.")
	d.next("Choose: 1 announce another value.")
	d.send("announce 55")
	d.next("You announced 55 to bob.")
	g.bobDoes(engine.Action{Kind: engine.Challenge})
	d.next("bob called you a liar: 55, bob loses a life.")
	d.next("Your turn. Round 5: you open.")
	d.send("who")
	d.next("Seats: you, 4 lives, your turn; bob, 4 lives, away.")
	d.send("leave")
	d.next("Leaving puts you out of this game.")
	d.send("yes")
	d.next("You left the game and lose 4 lives.")
	d.next("bob wins the game.")
	d.next("Standings: 1 bob, 2 you.")
	d.next("Waiting for a game: 1 of 2 seats taken, by bob. Say sit to take a seat.")

	if bad := plaintest.Forbidden(d.out.Bytes()); bad != "" {
		t.Fatalf("the door wrote %s", bad)
	}
}

// TestClockThresholds: the turn clock is said when the turn is asked for,
// then at 30 and at 10 seconds left, never at another second; a turn
// that ends stops it.
func TestClockThresholds(t *testing.T) {
	t.Parallel()
	g := newDuel(t, engine.DefaultOptions(), false)
	d := g.d
	d.next("Your turn. Round 1: you open.")
	g.e.clock.Advance(29 * time.Second)
	d.send("status")
	d.next("31 seconds left.")
	g.e.clock.Advance(time.Second)
	d.next("30 seconds left.")
	g.e.clock.Advance(19 * time.Second)
	d.send("who")
	d.next("Seats:")
	g.e.clock.Advance(time.Second)
	d.next("10 seconds left.")
	g.dice.Roll(6, 1)
	d.send("roll")
	d.next("Your turn: you rolled 61. 10 seconds left. Choose:")
	d.send("announce 61")
	d.next("You announced 61 to bob.")
	g.e.clock.Advance(9 * time.Second)
	d.send("status")
	d.next("bob's turn.")
	text := d.text()
	for s := 1; s <= 60; s++ {
		said := strings.Count(text, fmt.Sprintf("\n%d seconds left.", s))
		want := map[int]int{30: 1, 10: 1}[s]
		if said != want {
			t.Errorf("%d seconds left said %d times, want %d", s, said, want)
		}
	}
}

// TestBackInGame: a player who comes back to their game (a new
// session: a reconnect, or the server restarted) is told where the game
// is, once, and then each new event; nothing told before is told again.
func TestBackInGame(t *testing.T) {
	t.Parallel()
	g := newDuel(t, engine.DefaultOptions(), true)
	d := g.d
	g.dice.Roll(5, 4)
	d.send("roll")
	d.send("announce 54")
	d.next("You announced 54 to bob.")
	d.close()

	g.dice.Roll(6, 2)
	g.bobDoes(engine.Action{Kind: engine.Roll, Look: true})
	g.bobDoes(engine.Action{Kind: engine.Claim, Value: 62})
	back := g.e.open(g.alice, true, nil) // no table named: the game brings her there
	back.next("At table duel, classic, 6 lives, 60s a turn.\nYou are back at duel, in your game: you have 6 lives. " +
		"Game 1, round 1.\nYour turn. Claim: 62 by bob. Choose: 1 roll, 2 roll blind, 3 call liar, 4 pass 62 on, 5 raise blind.")
	back.send("liar")
	back.next("You called bob a liar: 62, you lose a life.")
	text := back.text()
	for _, once := range []string{"You are back at duel", "Game 1, round 1."} {
		if n := strings.Count(text, once); n != 1 {
			t.Errorf("%q said %d times", once, n)
		}
	}
	for _, old := range []string{"Round 1: you open.", "You rolled 54", "bob announced 62"} {
		if strings.Contains(text, old) {
			t.Errorf("an event told again: %q", old)
		}
	}
}

// TestHeldWhileTyping: on a terminal, what happens while a line is half
// typed waits until it is sent, then comes before its answer; a line
// left half typed lets it through after holdFor. Nothing is drawn over
// what is typed: no escape sequence.
func TestHeldWhileTyping(t *testing.T) {
	t.Parallel()
	g := newDuel(t, engine.DefaultOptions(), true)
	d := g.d
	d.next("Your turn. Round 1: you open. Choose:")
	if _, err := io.WriteString(d.in, "sta"); err != nil {
		t.Fatal(err)
	}
	d.next("sta") // its echo
	if err := g.tbl.Say(ctxT(t), g.bob, "while you type"); err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(d.in, "tus\r"); err != nil {
		t.Fatal(err)
	}
	got := d.next("At table duel.")
	if !strings.Contains(got, "bob says: while you type") || strings.Index(got, "bob says") < strings.Index(got, "tus") {
		t.Fatalf("the chat line held, then the answer; got %q", got)
	}
	if _, err := io.WriteString(d.in, "xy"); err != nil {
		t.Fatal(err)
	}
	d.next("xy")
	if err := g.tbl.Say(ctxT(t), g.bob, "typed and erased"); err != nil {
		t.Fatal(err)
	}
	before := len(d.out.Bytes())
	if _, err := io.WriteString(d.in, "\x7f\x7f"); err != nil { // erased: what waited comes at once
		t.Fatal(err)
	}
	d.next("bob says: typed and erased")
	// Backspace's echo moves the cursor, as any line editor's does: the
	// door's own writing, before it and after it, does not.
	all := d.out.Bytes()
	if bad := plaintest.Forbidden(all[:before]); bad != "" {
		t.Fatalf("the door wrote %s", bad)
	}
	editing := all[before:bytes.Index(all, []byte("bob says: typed and erased"))]
	if _, err := io.WriteString(d.in, "wh"); err != nil {
		t.Fatal(err)
	}
	d.next("wh")
	if err := g.tbl.Say(ctxT(t), g.bob, "still typing?"); err != nil {
		t.Fatal(err)
	}
	g.e.clock.Advance(holdFor)
	d.next("bob says: still typing?")
	if bad := plaintest.Forbidden(d.out.Bytes()[before+len(editing):]); bad != "" {
		t.Fatalf("the door wrote %s", bad)
	}
}

// TestGameWithABot: a whole game against a built-in bot, played only by
// reading the door's lines and typing the choices it lists: each event
// of the game is told once, in order, and no byte of it is drawing.
func TestGameWithABot(t *testing.T) {
	t.Parallel()
	for _, term := range []bool{true, false} {
		e := newEnv(t, lobbytest.NewDice(11))
		alice := e.player("alice")
		rules := engine.DefaultOptions()
		rules.Lives = 3
		tbl := e.table(alice, fmt.Sprintf("bots%v", term), 2, rules)
		d := e.open(alice, term, func(c *Config) { c.Table = tbl.Name() })
		d.next("Waiting for a game")
		d.send("sit")
		d.next("You are seated")
		d.send("add bot hard")
		d.next("Game ")
		for moves := 0; ; moves++ {
			if moves > 200 {
				t.Fatal("the game did not end")
			}
			got := d.next("\n")
			if strings.Contains(got, "Standings: ") {
				break
			}
			_, choices, ok := strings.Cut(got, "Choose: ")
			if !ok {
				continue
			}
			switch {
			case strings.Contains(choices, "your dice"):
				d.send("1")
			case strings.Contains(choices, "announce another value"):
				d.send("announce")
				d.next("lowest first:\n1: ")
				d.send("1")
			case strings.Contains(choices, "call liar") && moves%3 == 0:
				d.send("liar")
			default:
				d.send("1")
			}
		}
		snap := tbl.Info()
		if snap.State != "waiting" {
			t.Fatalf("the table after the game: %+v", snap)
		}
		// Every seat taken, alice there: the door says the next game
		// deals itself, as the screens do.
		d.next(capital(words.Sentence(words.NextGameByItself(lobby.RestBetweenGames))))
		games, err := e.st.Games(ctxT(t), store.Query{Table: tbl.Name()})
		if err != nil || len(games) != 1 {
			t.Fatalf("the games stored: %v, %v", games, err)
		}
		g, evs, err := e.st.Game(ctxT(t), games[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		seat := slices.IndexFunc(g.Seats, func(s store.Seat) bool { return s.Person == alice.ID })
		names := make([]string, len(g.Seats))
		for i, s := range g.Seats {
			names[i] = words.Label(s.Called(), s.Bot)
		}
		if err := plaintest.ToldOnce(d.text(), evs, words.Narrator{Names: names, You: seat, Ranking: rules.Ranking, Turn: -1}); err != nil {
			t.Fatal(err)
		}
		if bad := plaintest.Forbidden(d.out.Bytes()); bad != "" {
			t.Fatalf("the door wrote %s", bad)
		}
	}
}

// TestTypingReader: a line is half typed while characters typed since
// its end are not all erased; escape sequences count nothing.
func TestTypingReader(t *testing.T) {
	for _, c := range []struct {
		in     string
		typing bool
	}{
		{"ro", true},
		{"roll\r", false},
		{"roll\rli", true},
		{"ab\x7f\x7f", false},
		{"ab\x7f", true},
		{"é\x7f", false},
		{"\x1b[A", false},
		{"\x1b[A\x1b[D", false},
		{"x\x1b[D", true},
		{"abc\x15", false},
		{"\x1bOH", false},
	} {
		var typing atomic.Bool
		r := &typingReader{r: strings.NewReader(c.in), typing: &typing}
		if _, err := io.ReadAll(r); err != nil {
			t.Fatal(err)
		}
		if typing.Load() != c.typing {
			t.Errorf("after %q: typing %v, want %v", c.in, typing.Load(), c.typing)
		}
	}
}
