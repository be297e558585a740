package sshapp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
)

// upTo reads lines until one starts with prefix, and returns them all.
func (b *protoBot) upTo(prefix string) ([]string, error) {
	var seen []string
	for {
		l, err := b.line()
		if err != nil {
			return seen, err
		}
		seen = append(seen, l)
		if strings.HasPrefix(l, prefix) {
			return seen, nil
		}
	}
}

// token is the last field of a prompt.
func token(l string) string { return l[strings.LastIndex(l, ";")+1:] }

// TestBotRulesAndMiaPass: over SSH, a bot hears the RULES line after GAME
// STARTING and so knows a Mia may be passed at this table (mia-pass wins);
// it passes a Mia on, the Mia comes back to its roller, and the loser
// hears MIA_CAME_BACK. At a maexchen table a low claim is
// ANNOUNCED_LOSING_DICE and a challenge before any claim is
// SEE_BEFORE_FIRST_ROLL, without ACTUAL DICE.
func TestBotRulesAndMiaPass(t *testing.T) {
	t.Parallel()
	dice := &lobbytest.Script{}
	e := startBotServer(t, lobby.Config{Dice: dice, BotDelay: lobby.NoDelay}, nil)
	_, host := e.named(t, "host")
	aKey, _ := e.named(t, "alpha")
	bKey, _ := e.named(t, "beta")
	wins := engine.DefaultOptions()
	wins.MiaPass, wins.Lives = engine.MiaPassWins, 1
	e.table(t, host, "wins", 2, wins)
	maex, _ := engine.Preset(engine.PresetMaexchen)
	e.table(t, host, "mx", 2, maex)

	// seat sits alpha then beta at table; the game starts when beta sits.
	seat := func(table string) (*protoBot, *protoBot) {
		t.Helper()
		a, err := dialBot(e.addr, aKey, "alpha", table)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(a.close)
		if _, err := a.upTo("JOINED;" + table + ";0"); err != nil {
			t.Fatal(err)
		}
		b, err := dialBot(e.addr, bKey, "beta", table)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(b.close)
		return a, b
	}
	must := func(lines []string, err error) []string {
		t.Helper()
		if err != nil {
			t.Fatalf("%v after %q", err, lines)
		}
		return lines
	}
	answer := func(b *protoBot, prompt, reply string) {
		t.Helper()
		l := must(b.upTo(prompt))
		if err := b.send(fmt.Sprintf(reply, token(l[len(l)-1]))); err != nil {
			t.Fatal(err)
		}
	}

	// mia-pass wins: the seats stay in order (a draw of 1), alpha opens
	// (0) and rolls Mia (1, 0).
	dice.Push(1, 0, 1, 0)
	a, b := seat("wins")
	got := must(a.upTo("RULES;"))
	if l := got[len(got)-1]; !strings.Contains(l, ",pass=on,") || !strings.Contains(l, ",mia_pass=wins,") ||
		!strings.HasPrefix(got[len(got)-2], "GAME STARTING;") {
		t.Errorf("the lines after GAME STARTING: %q", got)
	}
	answer(a, "YOUR TURN;-;", "ROLL;%s")
	answer(a, "ROLLED;2,1;", "ANNOUNCE;2,1;%s")
	answer(b, "YOUR TURN;2,1;", "PASS;%s")
	want := []string{"PLAYER PASSES;beta;2,1", "PLAYER LOST;beta;MIA_CAME_BACK;1", "SCORE;alpha:1,beta:0", "PLAYER OUT;beta", "GAME OVER;alpha;"}
	got = must(b.upTo("GAME OVER;"))
	if !containsInOrder(got, want) {
		t.Errorf("beta heard %q, want %q in order", got, want)
	}
	for _, l := range got {
		if strings.HasPrefix(l, "ERROR") {
			t.Errorf("a pass of Mia refused: %q", l)
		}
	}
	a.close()
	b.close()
	// The wins table, still seated, deals its next game from the same
	// script: wait until both bots have gone and no game runs there before
	// the draws of the next table.
	wt, err := e.lobby.Table("wins")
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, 5*time.Second, "the wins table empty", func() bool {
		i := wt.Info()
		return i.Taken == 0 && i.State != "playing"
	})

	// maexchen: in game 1, beta's low claim; in game 2, beta's challenge
	// before anything is claimed.
	dice.Push(1, 0, 4, 3, 2, 0)
	dice.Push(1, 1) // game 2: the seats in order; beta opens
	a, b = seat("mx")
	got = must(a.upTo("RULES;"))
	if l := got[len(got)-1]; !strings.Contains(l, ",mia_reveal=at-once,low_claim=loses,") || !strings.HasSuffix(l, ",preset=maexchen") {
		t.Errorf("RULES of maexchen: %q", l)
	}
	answer(a, "YOUR TURN;-;", "ROLL;%s")
	answer(a, "ROLLED;5,4;", "ANNOUNCE;5,4;%s")
	answer(b, "YOUR TURN;5,4;", "ROLL;%s")
	answer(b, "ROLLED;3,1;", "ANNOUNCE;4,3;%s")
	got = must(a.upTo("GAME OVER;"))
	if want := []string{"ANNOUNCED;beta;4,3", "PLAYER LOST;beta;ANNOUNCED_LOSING_DICE;1", "GAME OVER;alpha;"}; !containsInOrder(got, want) {
		t.Errorf("alpha heard %q, want %q in order", got, want)
	}
	must(b.upTo("GAME OVER;"))
	// A table of protocol bots starts its next game by itself; or else
	// the host starts it.
	tb, err := e.lobby.Table("mx")
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Start(context.Background(), host); err != nil && !errors.Is(err, lobby.ErrGameRunning) {
		t.Fatal(err)
	}
	answer(b, "YOUR TURN;-;", "SEE;%s")
	got = must(a.upTo("GAME OVER;"))
	if want := []string{"PLAYER WANTS TO SEE;beta", "PLAYER LOST;beta;SEE_BEFORE_FIRST_ROLL;1", "SCORE;alpha:1,beta:0", "GAME OVER;alpha;"}; !containsInOrder(got, want) {
		t.Errorf("alpha heard %q, want %q in order", got, want)
	}
	for _, l := range got {
		if strings.HasPrefix(l, "ACTUAL DICE") {
			t.Errorf("dice shown for a challenge of nothing: %q", got)
		}
	}
}

// containsInOrder reports whether lines holds lines starting with each of
// want, in that order.
func containsInOrder(lines, want []string) bool {
	i := 0
	for _, l := range lines {
		if i < len(want) && strings.HasPrefix(l, want[i]) {
			i++
		}
	}
	return i == len(want)
}
