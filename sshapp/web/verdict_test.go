package web

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/sshapp/verdict"
)

// cheapRules are rules the solver solves in a tenth of a second (seconds
// under -race): the verdicts' tests play under them.
func cheapRules() engine.Options {
	o := engine.DefaultOptions()
	o.Pass, o.MiaPenalty, o.Lives = false, 1, 2
	return o
}

// judgedWords are what only a page with verdicts says.
var judgedWords = []string{"Accuracy", "lives given away", "&#39;s move:", "the strategy here", `class="judged`, `"analysis"`}

// TestGamePageVerdicts: while a game runs, neither its page, its
// document, its table's page nor the table's stream says a word of a
// verdict; once it has ended, the page marks the moves, sums each player
// up and gives the best move on a judged move's own page, and the
// document has the analysis.
func TestGamePageVerdicts(t *testing.T) {
	jd := verdict.New()
	t.Cleanup(jd.Drain)
	e := newEnv(t, lobbytest.NewDice(9), func(c *Config) { c.Judge = jd })
	a, b := e.player("alice"), e.player("bob")
	for n := 0; ; n++ {
		if n == 20 {
			t.Fatal("20 games of random moves and not one marked")
		}
		table := fmt.Sprintf("alpha%d", n)
		g := e.newGame(table, cheapRules(), false, a, b)
		st := e.stream("/tables/" + table + "/events")
		id := g.last[0].GameID
		id = g.playOut(func() {
			if g.over() {
				return
			}
			for _, p := range []string{"/games/" + id, "/games/" + id + ".json", "/tables/" + table} {
				_, body := e.get(p)
				for _, w := range judgedWords {
					if strings.Contains(body, w) {
						t.Fatalf("%s while the game runs says %q:\n%s", p, w, body)
					}
				}
			}
		})
		for _, w := range judgedWords {
			if strings.Contains(st.bytes(), w) {
				t.Fatalf("the table's stream says %q", w)
			}
		}
		st.close()
		if gamePageMarked(t, e, id) {
			return
		}
	}
}

var judgedMark = regexp.MustCompile(`<strong class="judged (inaccuracy|mistake|blunder)" title="[a-z]+">(\?!|\?|\?\?)</strong>`)

// gamePageMarked checks game id's page and document, and reports whether
// a move of it is marked.
func gamePageMarked(t *testing.T, e *env, id string) bool {
	t.Helper()
	var body string
	// A page waits 2 s for verdicts not worked out yet (a first solve
	// under -race may take longer), then says so: read it again.
	waitFor(t, "the verdicts on the page", func() bool {
		_, body = e.get("/games/" + id)
		return !strings.Contains(body, "still being worked out")
	})
	if m := missing(body, "<h2>Accuracy</h2>", "alice</span>: accuracy", "bob</span>: accuracy", "?! inaccuracy"); m != nil {
		t.Fatalf("the page of the finished game lacks %q:\n%s", m, body)
	}
	_, doc := e.get("/games/" + id + ".json")
	if m := missing(doc, `"analysis"`, `"accuracy"`); m != nil {
		t.Fatalf("the document lacks %q", m)
	}
	if !judgedMark.MatchString(body) {
		return false
	}
	// The best move on a marked move's own page.
	step := regexp.MustCompile(`<li id="m(\d+)" class="move[^"]*" [^>]*data-best="([^"]*)"[^>]*>.*?<strong class="judged`).FindStringSubmatch(body)
	if step == nil || !strings.Contains(step[2], "best:") {
		t.Fatalf("a marked move has no best move in its data: %v", step)
	}
	_, page := e.get("/games/" + id + "?m=" + step[1])
	if m := missing(page, `<p class="best" id="best">`, "&#39;s move: ", "best: ", "the strategy here: "); m != nil {
		t.Errorf("move %s's page lacks %q", step[1], m)
	}
	return true
}

// TestCoachedTableOnTheWeb: a coached table's page says it is coached
// and not rated; the coach's verdicts, each player's own, never reach
// the page or its stream while the game runs, nor a table without one.
func TestCoachedTableOnTheWeb(t *testing.T) {
	jd := verdict.New()
	t.Cleanup(jd.Drain)
	e := newEnv(t, lobbytest.NewDice(9), func(c *Config) { c.Judge = jd })
	a, b := e.player("alice"), e.player("bob")
	ctx := ctxT(t)
	tbl, err := e.lobby.CreateTable(ctx, a, lobby.TableConfig{Name: "drill", Rules: cheapRules(), Seats: 2, Coach: true})
	if err != nil {
		t.Fatal(err)
	}
	_, body := e.get("/tables/drill")
	if m := missing(body, `coached, not rated</span>`, "you are told its mark and the better move"); m != nil {
		t.Fatalf("the coached table's page lacks %q:\n%s", m, body)
	}
	st := e.stream("/tables/drill/events")
	g := &game{e: e, tbl: tbl, ps: []lobby.Player{a, b}, last: make([]lobby.Snapshot, 2), rng: rand.New(rand.NewPCG(5, 6))}
	for _, p := range g.ps {
		sub, err := tbl.Watch(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(sub.Close)
		g.subs = append(g.subs, sub)
		if err := tbl.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	g.catchUp()
	coachWords := []string{"your move:", "gave away", "best: ", "a best move"}
	g.playOut(func() {
		_, body := e.get("/tables/drill")
		for _, w := range coachWords {
			if strings.Contains(body, w) {
				t.Fatalf("the coached table's page says %q:\n%s", w, body)
			}
		}
	})
	for _, w := range coachWords {
		if strings.Contains(st.bytes(), w) {
			t.Errorf("the coached table's stream says %q", w)
		}
	}
	e.newGame("plain", cheapRules(), false, a, b)
	if _, body = e.get("/tables/plain"); strings.Contains(body, "coached") {
		t.Errorf("a table without a coach says coached:\n%s", body)
	}
}

// TestPlayerPageAccuracy: a player's page gives their accuracy over the
// last games anyone may see, as the stats command sums it up for a
// viewer who sees only public tables: a game of a private table does not
// count; a server without verdicts shows none.
func TestPlayerPageAccuracy(t *testing.T) {
	jd := verdict.New()
	t.Cleanup(jd.Drain)
	e := newEnv(t, lobbytest.NewDice(9), func(c *Config) { c.Judge = jd })
	a, b := e.player("alice"), e.player("bob")
	e.newGame("open", cheapRules(), false, a, b).playOut(nil)
	e.newGame("hidden", cheapRules(), true, a, b).playOut(nil)
	var body string
	// A page waits 2 s for verdicts not worked out yet (a first solve
	// under -race may take longer), then says so: read it again.
	waitFor(t, "the accuracy on the player's page", func() bool {
		_, body = e.get("/players/alice")
		return !strings.Contains(body, "being worked out")
	})
	for _, w := range []string{"<dt>Accuracy</dt>", "over 1 game · ", "lives given away a move", "over the last games anyone may see"} {
		if !strings.Contains(body, w) {
			t.Errorf("the player's page lacks %q:\n%s", w, body)
		}
	}

	off := newEnv(t, lobbytest.NewDice(9), nil)
	c, d := off.player("carl"), off.player("dan")
	off.newGame("open", cheapRules(), false, c, d).playOut(nil)
	if _, body := off.get("/players/carl"); strings.Contains(body, "Accuracy") || strings.Contains(body, "lives given away") {
		t.Errorf("without a judge the player's page has an accuracy:\n%s", body)
	}
}

// TestSolveBudgetAtTheWeb: past the solver's budget for the reader's
// address the game page and the player page are shown without the
// verdicts and say why, in the budget's words.
func TestSolveBudgetAtTheWeb(t *testing.T) {
	budget := lobby.NewSolves(1, 0, nil)
	jd := verdict.NewBudgeted(budget)
	t.Cleanup(jd.Drain)
	e := newEnv(t, lobbytest.NewDice(9), func(c *Config) {
		c.Judge, c.SourceOf = jd, func(ip string) string { return "net:" + ip }
	})
	a, b := e.player("alice"), e.player("bob")
	rules := cheapRules()
	for _, r := range []engine.Ranking{engine.Pips, engine.LittleMia, engine.AscendingDoubles, engine.Numeric} {
		if rules.Ranking = r; !verdict.Solved(rules) {
			break
		}
	}
	if verdict.Solved(rules) {
		t.Fatal("every rule set of the test solved already")
	}
	id := e.newGame("open", rules, false, a, b).playOut(nil)
	done, err := budget.Solve("net:127.0.0.1") // the reader's address has had its one solve
	if err != nil {
		t.Fatal(err)
	}
	done()
	const refused = "verdicts for these rules are not computed yet, and 1 new rule set was solved for your address in the last hour"
	_, body := e.get("/games/" + id)
	for _, w := range []string{"Verdicts on the moves: " + refused, "wins the game"} {
		if !strings.Contains(body, w) {
			t.Errorf("the game page past the budget lacks %q:\n%s", w, body)
		}
	}
	if _, body := e.get("/players/alice"); !strings.Contains(body, "no moves judged yet; 1 game not judged: "+refused) {
		t.Errorf("the player's page past the budget:\n%s", body)
	}
}
