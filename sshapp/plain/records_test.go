package plain

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/sshapp/plain/plaintest"
	"github.com/mia-game/mia/store"
)

// commands is a stand-in for the server's router: replay --json of the
// store's games (PROTOCOL.md §3), a long history, and a refusal; it
// notes every command line run.
func commands(st *store.Store, ran *[]string) func(ctx context.Context, out, errOut io.Writer, args []string) int {
	return func(ctx context.Context, out, errOut io.Writer, args []string) int {
		*ran = append(*ran, strings.Join(args, " "))
		switch {
		case args[0] == "history":
			for i := range 20 {
				fmt.Fprintf(out, "game %d\n\n", i+1)
			}
			fmt.Fprintln(out, "More:  history --before 1")
			return 0
		case args[0] == "replay" && len(args) == 3 && args[2] == "--json":
			g, evs, err := st.Game(ctx, args[1])
			if err != nil {
				fmt.Fprintf(errOut, "mia: no game %s; list the games with:  history\n", args[1])
				return 1
			}
			if err := g.Replay(evs).Encode(out); err != nil {
				return 1
			}
			return 0
		}
		fmt.Fprintf(errOut, "mia: %s is refused\n", args[0])
		return 1
	}
}

// TestLists: the server's lists through its commands, a page at a time
// (more for the rest); a refusal said as a sentence; and a finished game
// read move by move with next and back, in the replay's words.
func TestLists(t *testing.T) {
	t.Parallel()
	dice := &lobbytest.Script{}
	e := newEnv(t, dice)
	ann, bob := e.player("ann"), e.player("bob")
	rules := engine.DefaultOptions()
	rules.Lives = 1
	tbl := e.table(ann, "t", 2, rules)
	dice.Push(1, 0)
	dice.Roll(4, 2)
	for _, p := range []lobby.Player{ann, bob} {
		if err := tbl.Sit(ctxT(t), p); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range []struct {
		p lobby.Player
		a engine.Action
	}{
		{ann, engine.Action{Kind: engine.Roll, Look: true}},
		{ann, engine.Action{Kind: engine.Claim, Value: 53}},
		{bob, engine.Action{Kind: engine.Challenge}},
	} {
		if err := tbl.Act(ctxT(t), m.p, m.a); err != nil {
			t.Fatal(err)
		}
	}
	var ran []string
	d := e.open(ann, true, func(c *Config) { c.Command = commands(e.st, &ran) })
	d.next("Lobby.")
	d.send("history")
	d.next("game 8\n13 more lines: say more.")
	d.send("more")
	d.next("game 16\n5 more lines: say more.")
	d.send("more")
	d.next("game 20\nMore:  history --before 1\n")
	d.send("leaderboard")
	d.next("leaderboard is refused.")
	d.send("replay 99")
	d.next("no game 99; list the games with:  history.")
	d.send("replay")
	d.next("Say replay and a game's number; history lists them.")

	d.send("replay 1")
	d.next("Game 1 at t: classic, 1 life, 60s a turn. Players: ann, bob. 3 moves: say next, back, or stop.")
	d.next("The start. Round 1: ann opens. The cup is empty.")
	d.send("back")
	d.next("This is the start: say next.")
	d.send("next")
	d.next("Move 1 of 3. ann rolled 42. In the cup: 42 (ann's roll, seen).")
	d.send("next")
	d.next("Move 2 of 3. ann announced 53 to bob — bluff!")
	d.send("next")
	d.next("Move 3 of 3. bob called ann a liar: 42, ann loses a life — caught bluffing! ann is out. bob wins the game.\n" +
		"That was the last move: say back, or stop.")
	d.send("next")
	d.next("That was the last move: say back, or stop.")
	d.send("back")
	d.next("Move 2 of 3.")
	d.send("stop")
	d.next("Lobby.")
	if got := strings.Join(ran, "|"); got != "history|leaderboard|replay 99 --json|replay 1 --json" {
		t.Errorf("the commands run: %s", got)
	}
	if bad := plaintest.Forbidden(d.out.Bytes()); bad != "" {
		t.Fatalf("the door wrote %s", bad)
	}
}
