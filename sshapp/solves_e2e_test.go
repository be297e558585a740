package sshapp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/ai"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/sshapp/verdict"
)

// TestSolveBudgetEveryDoor: one address has the solver solve at most its
// budget of new rule sets an hour, by whichever door: an expert bot at a
// table opened from it, a replay asked from it (over SSH, through a
// trusted balancer naming the address), a coach at its table, new rules
// set on its table with expert bots; past the budget the replay says
// why, the coach and the experts say why, and nothing more is solved for
// it. Another address still has its verdicts.
func TestSolveBudgetEveryDoor(t *testing.T) {
	const here, there = "203.0.113.7", "198.51.100.9"
	rs := lobbytest.Unsolved(5)
	if len(rs) < 5 {
		t.Fatalf("%d cheap rule sets unsolved, want 5", len(rs))
	}
	solves := lobby.NewSolves(2, 0, nil)
	jd := verdict.NewBudgeted(solves)
	t.Cleanup(jd.Drain)
	e := startRecServerWith(t, lobby.Config{BotDelay: lobby.NoDelay, Solves: solves}, func(c *Config) {
		c.Judge = jd
		c.ProxyFrom = trusted(t, "127.0.0.2")
		c.Limits.MaxPerSource = 64
	})
	viaHere, viaThere := claimingLB(t, e.addr, here), claimingLB(t, e.addr, there)
	ctx := context.Background()
	ann := e.player(t, "ann")
	ann.Source = here
	// Two finished games to replay, under rules nobody solved.
	game := func(name string, o engine.Options) string {
		t.Helper()
		ps := []lobby.Player{e.player(t, name+"a"), e.player(t, name+"b")}
		tbl, err := e.lobby.CreateTable(ctx, ps[0], lobby.TableConfig{Name: name, Rules: o, Seats: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			if err := tbl.Sit(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
		return playGame(t, tbl, ps, nil)
	}
	g3, g4 := game("g3", rs[3]), game("g4", rs[4])
	replay := func(via string, n int, id string) result {
		t.Helper()
		c, err := dialFrom(via, "", clientConfig(newKey(t)))
		if err != nil {
			t.Fatalf("connect: %v", err)
		}
		defer c.Close()
		if r := runOn(t, c, fmt.Sprintf("name fresh%d", n)); r.code != 0 {
			t.Fatalf("name: %+v", r)
		}
		return runOn(t, c, "replay "+id)
	}
	experts := func(name string, o engine.Options) *lobby.Table {
		t.Helper()
		tbl, err := e.lobby.CreateTable(ctx, ann, lobby.TableConfig{Name: name, Rules: o, Seats: 2})
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if _, err := tbl.AddBot(ctx, ann, ai.Expert); err != nil {
				t.Fatal(err)
			}
		}
		return tbl
	}
	// 1. Expert bots at a table opened from the address: its first solve.
	e0 := experts("experts", rs[0])
	watch(t, e0, e.player(t, "viewer"), "the experts' rules solved", func(lobby.Snapshot) bool { return verdict.Solved(rs[0]) })
	// 2. A replay asked from the address: its second.
	if r := replay(viaHere, 1, g3); r.code != 0 || !strings.Contains(r.stdout, "Accuracy") {
		t.Fatalf("the address's second new rule set, a replay: %+v", r)
	}
	// 3. The coach at a table opened from the address: refused.
	coached, err := e.lobby.CreateTable(ctx, ann, lobby.TableConfig{Name: "drill", Rules: rs[2], Seats: 2, Coach: true})
	if err != nil {
		t.Fatal(err)
	}
	evs := []engine.Event{{Seq: 1, Type: engine.EvRound, Seat: 0}, {Seq: 2, Type: engine.EvRoll, Seat: 0, Dice: 53, Looked: true}}
	if _, err := jd.Coach(coached.Info().SolveSource(), true, rs[2], 2, evs, 0, 2); !errors.Is(err, lobby.ErrTooManySolvesHere) {
		t.Fatalf("the coach past the address's budget: %v", err)
	}
	// 4. New rules on the address's table, and expert bots there: refused,
	// and the table says why.
	if err := coached.SetRules(ctx, ann, rs[1], 2); err != nil {
		t.Fatal(err)
	}
	viewer := e.player(t, "viewer2")
	for range 2 {
		if _, err := coached.AddBot(ctx, ann, ai.Expert); err != nil {
			t.Fatal(err)
		}
	}
	said := words.ExpertUnsolved(2, false)
	watch(t, coached, viewer, "the experts' refusal said", func(s lobby.Snapshot) bool {
		return slices.ContainsFunc(s.Chat, func(c lobby.ChatLine) bool { return c.Text == said })
	})
	// 5. A replay from the address, a fresh key: refused, and says why.
	r := replay(viaHere, 2, g4)
	if flat := strings.Join(strings.Fields(r.stdout), " "); r.code != 0 || strings.Contains(flat, "Accuracy") ||
		!strings.Contains(flat, "and 2 new rule sets were solved for your address in the last hour") {
		t.Fatalf("a replay past the address's budget: %+v", r)
	}
	for i, o := range rs[1:3] {
		if verdict.Solved(o) {
			t.Errorf("rule set %d solved past the address's budget", i+1)
		}
	}
	// 6. Another address has its own budget. Its solve may outlast a
	// replay's wait on a loaded machine: ask again, as the reply says
	// (a rule set being solved is not counted again).
	for i := 0; ; i++ {
		r := replay(viaThere, 3+10*i, g4)
		if r.code == 0 && strings.Contains(r.stdout, "Accuracy") {
			break
		}
		if flat := strings.Join(strings.Fields(r.stdout), " "); i == 5 || r.code != 0 || !strings.Contains(flat, verdict.ErrNotReady.Error()) {
			t.Fatalf("a replay from another address, ask %d: %+v", i+1, r)
		}
	}
}

// watch waits, watching tbl as p, for a snapshot where ok holds.
func watch(t *testing.T, tbl *lobby.Table, p lobby.Player, what string, ok func(lobby.Snapshot) bool) {
	t.Helper()
	s, err := tbl.Watch(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	deadline := time.After(60 * time.Second)
	for {
		select {
		case <-s.Ready():
			if snap, got := s.Take(); got && ok(snap) {
				return
			}
		case <-s.Done():
			t.Fatalf("the subscription ended waiting for %s", what)
		case <-deadline:
			t.Fatalf("no snapshot shows %s", what)
		}
	}
}
