package sshapp

import (
	"context"
	"fmt"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/sshapp/verdict"
)

// TestBotLinesAtACoachedTable: two protocol bots play two games at a
// coached table of a server that gives verdicts: their lines, during
// the games and after, carry no verdict and no coach; the games are
// judged once they end, and not rated.
func TestBotLinesAtACoachedTable(t *testing.T) {
	t.Parallel()
	jd := verdict.New()
	t.Cleanup(jd.Drain)
	e := startBotServer(t, lobby.Config{BotDelay: lobby.NoDelay}, func(c *Config) { c.Judge = jd })
	k0, p0 := e.named(t, "robo0")
	k1, p1 := e.named(t, "robo1")
	rules := engine.DefaultOptions()
	rules.Pass, rules.MiaPenalty, rules.Lives = false, 1, 2
	if _, err := e.lobby.CreateTable(context.Background(), p0, lobby.TableConfig{Name: "drill", Rules: rules, Seats: 2, Coach: true}); err != nil {
		t.Fatal(err)
	}
	type result struct {
		ids, lines []string
		err        error
	}
	results := make(chan result, 2)
	for i, k := range []struct {
		key  gossh.Signer
		name string
	}{{k0, nameOf(p0)}, {k1, nameOf(p1)}} {
		b, err := dialBot(e.addr, k.key, k.name, "drill")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(b.close)
		go func() {
			ids, lines, err := playNoPass(b, 2, uint64(i+1))
			results <- result{ids, lines, err}
		}()
	}
	var ids []string
	for range 2 {
		r := <-results
		if r.err != nil {
			t.Fatal(r.err)
		}
		for _, l := range r.lines {
			for _, w := range []string{"??", "?!", "best", "gave away", "accuracy", "coach", "your move"} {
				if strings.Contains(strings.ToLower(l), w) {
					t.Errorf("a bot line says %q: %s", w, l)
				}
			}
		}
		ids = r.ids
	}
	for _, id := range ids {
		g, evs, err := e.st.Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if a, err := jd.Of(context.Background(), "", g, evs); err != nil || len(a.Decisions) == 0 {
			t.Errorf("game %s: %d moves judged, %v", id, len(a.Decisions), err)
		}
		gr, err := e.st.GameRatings(context.Background(), id)
		if err != nil || gr.Overall != nil || gr.Table != nil {
			t.Errorf("game %s at a coached table was rated: %+v, %v", id, gr, err)
		}
	}
}

// playNoPass is protoBot.playGames at a table without passing: the
// simple strategy's blind raise is a challenge there.
func playNoPass(b *protoBot, games int, seed uint64) (ids, lines []string, err error) {
	m := newSimpleMove(seed)
	for len(ids) < games {
		l, err := b.line()
		if err != nil {
			return ids, lines, err
		}
		lines = append(lines, l)
		if strings.HasPrefix(l, "ERROR;") {
			return ids, lines, fmt.Errorf("%s: %q", b.name, l)
		}
		if strings.HasPrefix(l, "GAME OVER;") {
			ids = append(ids, strings.Split(l, ";")[2])
		}
		a := m.answer(l)
		if strings.HasPrefix(a, "PASS;") {
			f := strings.Split(a, ";")
			a = "SEE;" + f[len(f)-1]
		}
		if a != "" {
			if err := b.send(a); err != nil {
				return ids, lines, err
			}
		}
	}
	return ids, lines, nil
}
