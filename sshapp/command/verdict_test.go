package command

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/sshapp/verdict"
)

// cheapRules are rules the solver solves in a tenth of a second (seconds
// under -race): the verdicts' tests play under them.
func cheapRules() engine.Options {
	o := engine.DefaultOptions()
	o.Pass, o.MiaPenalty, o.Lives = false, 1, 2
	return o
}

// TestReplayMarks: replay marks each judged move as replay --json does,
// and sums each player up; without a Judge neither says a word of it.
func TestReplayMarks(t *testing.T) {
	jd := verdict.New()
	t.Cleanup(jd.Drain)
	h := newHarness(t, func(c *Config) { c.Judge = jd })
	ann, bob := h.person("ann"), h.person("bob")
	// The dice are the server's: games are played until one has a
	// marked move.
	for n := 0; ; n++ {
		if n == 20 {
			t.Fatal("20 games of random moves and not one marked")
		}
		if replayMarks(t, h, ann, h.finishedGameWith(fmt.Sprintf("club%d", n), cheapRules(), ann, bob)) {
			break
		}
	}

	off := newHarness(t)
	carl, dan := off.person("carl"), off.person("dan")
	id := off.finishedGameWith("club", cheapRules(), carl, dan)
	if r := off.run(carl, "replay", id, "--json"); r.code != ExitOK || strings.Contains(r.stdout, "analysis") || strings.Contains(r.stdout, "accuracy") {
		t.Errorf("without a judge the document has verdicts:\n%s", r.stdout)
	}
	if r := off.run(carl, "replay", id); r.code != ExitOK || strings.Contains(r.stdout, "Accuracy") || strings.Contains(r.stdout, "Verdicts") {
		t.Errorf("without a judge the replay has verdicts:\n%s", r.stdout)
	}
}

// replayMarks checks the marks of game id in replay and replay --json,
// and reports whether it had any.
func replayMarks(t *testing.T, h *harness, ann who, id string) bool {
	t.Helper()
	js := h.run(ann, "replay", id, "--json")
	js.expect(t, ExitOK, []string{`"analysis"`, `"accuracy"`}, nil)
	var doc struct {
		Events []struct {
			Analysis *struct {
				Mark string `json:"mark"`
			} `json:"analysis"`
		} `json:"events"`
		Accuracy []struct {
			Decisions int `json:"decisions"`
		} `json:"accuracy"`
	}
	if err := json.Unmarshal([]byte(js.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	marks := map[string]int{}
	judged := 0
	for _, e := range doc.Events {
		if e.Analysis != nil {
			judged++
			marks[e.Analysis.Mark]++
		}
	}
	if judged == 0 || len(doc.Accuracy) != 2 || doc.Accuracy[0].Decisions+doc.Accuracy[1].Decisions != judged {
		t.Fatalf("%d moves judged, accuracy %+v", judged, doc.Accuracy)
	}

	txt := h.run(ann, "replay", id)
	txt.expect(t, ExitOK, []string{"Accuracy:", "  ann: ", "  bob: ", "lives given away a move", "?! inaccuracy"}, nil)
	got := map[string]int{}
	moves, _, _ := strings.Cut(txt.stdout, "Standings:")
	for _, l := range strings.Split(moves, "\n") {
		for _, m := range []string{" ??", " ?", " ?!"} {
			if strings.HasSuffix(l, m) {
				got[m[1:]]++
				break
			}
		}
	}
	for _, m := range []string{"?!", "?", "??"} {
		if got[m] != marks[m] {
			t.Errorf("replay marks %d moves %s, --json %d:\n%s", got[m], m, marks[m], txt.stdout)
		}
	}
	return marks["?!"]+marks["?"]+marks["??"] > 0
}

// TestStatsAccuracy: stats sums each person's moves over their recent
// games as the replays judge them, in words and in --json; without a
// Judge, neither has a word of it.
func TestStatsAccuracy(t *testing.T) {
	jd := verdict.New()
	t.Cleanup(jd.Drain)
	h := newHarness(t, func(c *Config) { c.Judge = jd })
	ann, bob := h.person("ann"), h.person("bob")
	var want [2]int // ann's moves judged, and her blunders, by the replays
	for n := range 3 {
		id := h.finishedGameWith(fmt.Sprintf("club%d", n), cheapRules(), ann, bob)
		var doc struct {
			Players []struct {
				Person string `json:"person"`
			} `json:"players"`
			Accuracy []struct {
				Decisions int `json:"decisions"`
				Blunders  int `json:"blunders"`
			} `json:"accuracy"`
		}
		if err := json.Unmarshal([]byte(h.run(ann, "replay", id, "--json").stdout), &doc); err != nil {
			t.Fatal(err)
		}
		for seat, p := range doc.Players {
			if p.Person == ann.ID {
				want[0] += doc.Accuracy[seat].Decisions
				want[1] += doc.Accuracy[seat].Blunders
			}
		}
	}
	r := h.run(bob, "stats", "ann", "--json")
	var st StatsJSON
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil {
		t.Fatal(err)
	}
	if a := st.Accuracy; a == nil || a.Games != 3 || a.Pending != 0 || a.Decisions != want[0] || a.Blunders != want[1] ||
		a.Accuracy < 0 || a.Accuracy > 100 {
		t.Errorf("stats --json accuracy %+v, want 3 games, %d moves, %d blunders", a, want[0], want[1])
	}
	h.run(bob, "stats", "ann").expect(t, ExitOK, []string{"accuracy", "% over 3 games · ", "lives given away a move"}, nil)

	off := newHarness(t)
	carl := off.person("carl")
	off.finishedGameWith("club", cheapRules(), carl, off.person("dan"))
	if r := off.run(carl, "stats", "--json"); strings.Contains(r.stdout, "accuracy") {
		t.Errorf("without a judge stats has an accuracy:\n%s", r.stdout)
	}
	if r := off.run(carl, "stats"); strings.Contains(r.stdout, "accuracy") {
		t.Errorf("without a judge stats has an accuracy:\n%s", r.stdout)
	}
}

// TestCoachOption: table create --coach opens a coached table, said in
// words and in --json, listed by tables; table rules refuses to coach a
// rated table, and keeps a coached one coached; the option goes with the
// others (private, rules, bots).
func TestCoachOption(t *testing.T) {
	h := newHarness(t)
	ann := h.person("ann")
	r := h.run(ann, "table", "create", "practice", "--coach", "--private", "--no-pass", "--lives", "2", "--bots", "1", "--bot-level", "hard")
	r.expect(t, ExitOK, []string{"Table practice is open: private, 6 seats; classic, 2 lives, no pass", "Seated: "}, nil)
	if flat := strings.Join(strings.Fields(r.stdout), " "); !strings.Contains(flat, "Coached: after each of your moves you are told its mark and the better move") ||
		!strings.Contains(flat, "its games are not rated.") {
		t.Errorf("create does not say the coach:\n%s", r.stdout)
	}
	js := h.run(ann, "tables", "--json")
	var doc TablesJSON
	if err := json.Unmarshal([]byte(js.stdout), &doc); err != nil || len(doc.Tables) != 1 || !doc.Tables[0].Coach || !doc.Tables[0].Private {
		t.Errorf("tables --json: %s (%v)", js.stdout, err)
	}
	h.run(ann, "tables").expect(t, ExitOK, []string{"waiting, private, coached"}, nil)
	h.run(ann, "table", "create", "club", "--lives", "2").expect(t, ExitOK, nil, nil)
	if js := h.run(ann, "tables", "--json"); strings.Count(js.stdout, `"coach"`) != 1 {
		t.Errorf("a table without a coach says coach:\n%s", js.stdout)
	}
	h.run(ann, "table", "rules", "club", "--coach").expect(t, ExitRefused, nil,
		[]string{"club is rated: a coach is chosen when a table is created", "table create NAME --coach"})
	h.run(ann, "table", "rules", "practice", "--coach", "--lives", "3").expect(t, ExitOK, []string{"3 lives"}, nil)
	h.run(ann, "table", "rules", "practice", "--lives", "4").expect(t, ExitOK, []string{"4 lives"}, nil)
	if js := h.run(ann, "tables", "--json"); !strings.Contains(js.stdout, `"coach": true`) {
		t.Errorf("new rules took the coach away:\n%s", js.stdout)
	}
	h.run(ann, "table", "create", "x", "--coach=maybe").expect(t, ExitUsage, nil, nil)
}

// freshRules are n rule sets of cheapRules' cost (a tenth of a second to
// solve) that the solver has not solved yet (verdict.Solved): the budget
// counts only new solves, and the solver keeps what other tests (and
// earlier runs of this one, -count) solved.
func freshRules(t *testing.T, n int) []engine.Options {
	t.Helper()
	var out []engine.Options
	for i := range 16 { // more than the solver keeps
		o := cheapRules()
		o.Ranking = []engine.Ranking{engine.Classic, engine.Pips, engine.LittleMia, engine.AscendingDoubles}[i%4]
		o.LowClaim = []engine.LowClaim{engine.LowClaimRefused, engine.LowClaimLoses}[i/4%2]
		o.MiaReveal = []engine.MiaReveal{engine.MiaRevealChallenge, engine.MiaRevealAtOnce}[i/8]
		if !verdict.Solved(o) {
			out = append(out, o)
		}
		if len(out) == n {
			return out
		}
	}
	t.Fatalf("fewer than %d of 16 cheap rule sets unsolved", n)
	return nil
}

// TestSolveBudgetByAddress: one address, whatever its keys, has the
// solver solve at most its budget of new rule sets an hour; past it the
// replay is shown and says why it has no verdicts, the stats say which
// games were not judged, and another address still gets its verdicts.
func TestSolveBudgetByAddress(t *testing.T) {
	jd := verdict.NewBudgeted(lobby.NewSolves(1, 0, nil))
	t.Cleanup(jd.Drain)
	h := newHarness(t, func(c *Config) { c.Judge = jd })
	ann, bob, carl := h.person("ann"), h.person("bob"), h.person("carl")
	from := func(p who, source string) *callerSession { return &callerSession{player: p, h: h, source: source} }
	rules := freshRules(t, 2)
	first := h.finishedGameWith("club0", rules[0], ann, bob)
	second := h.finishedGameWith("club1", rules[1], ann, bob)
	const refused = "verdicts for these rules are not computed yet, and 1 new rule set was solved for your address in the last hour"

	h.runOn(from(ann, "203.0.113.7"), "replay", first).expect(t, ExitOK, []string{"Accuracy"}, nil)
	r := h.runOn(from(carl, "203.0.113.7"), "replay", second) // a fresh key, the same address
	r.expect(t, ExitOK, []string{"wins the game"}, nil)
	if flat := strings.Join(strings.Fields(r.stdout), " "); !strings.Contains(flat, "Verdicts on the moves: "+refused) || strings.Contains(flat, "Accuracy") {
		t.Errorf("past the budget replay does not say why it has no verdicts:\n%s", r.stdout)
	}
	r = h.runOn(from(ann, "203.0.113.7"), "stats")
	if flat := strings.Join(strings.Fields(r.stdout), " "); !strings.Contains(flat, "over 1 game") || !strings.Contains(flat, "1 game not judged: "+refused) {
		t.Errorf("stats past the budget:\n%s", r.stdout)
	}
	h.runOn(from(bob, "198.51.100.1"), "replay", second).expect(t, ExitOK, []string{"Accuracy"}, nil)
	// Once solved, the rule set costs nobody anything.
	h.runOn(from(carl, "203.0.113.7"), "replay", second).expect(t, ExitOK, []string{"Accuracy"}, nil)
}
