package sshapp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/store"

	"github.com/mia-game/mia/sshapp/command"
)

// TestRuleOptionsOverSSH: every rule option is a flag of table create and
// table rules, named as the option; a preset goes first and options go on
// top; tables and rules say the rules in words; help and rules fit 80
// columns; flag errors are said as the other errors.
func TestRuleOptionsOverSSH(t *testing.T) {
	t.Parallel()
	e := startRecServer(t, lobby.NoDelay)
	e.steps(t, []step{
		{name: "maexchen", who: "alice", cmd: "table create mx --preset maexchen --seats 3", code: 0,
			stdout: []string{"Table mx is open: public, 3 seats; preset maexchen, classic, 1 life, no pass, Mia shown at once, low claims lose, first out, 60s a turn."}},
		{name: "pips, mia-pass wins, 12 seats", who: "alice", code: 0,
			cmd:    "table create pw --ranking pips --mia-pass wins --next-opener before-loser --seats 12",
			stdout: []string{"Table pw is open: public, 12 seats; pips, 6 lives, Mia may pass (wins when back), the one before the loser opens, 60s a turn."}},
		{name: "reroll and low claims", who: "bob", cmd: "table create rr --mia-pass reroll --low-claim loses --mia-reveal challenge", code: 0,
			stdout: []string{"classic, 6 lives, Mia may pass (rerolled when back), low claims lose, 60s a turn"}},
		{name: "a preset with options on top is no longer the preset", who: "bob", cmd: "table create m3 --preset maexchen --lives 3", code: 0,
			stdout: []string{"; classic, 3 lives, no pass, Mia shown at once, low claims lose, first out"}, not: []string{"preset"}},
		{name: "the turn clock keeps the preset", who: "bob", cmd: "table create m4 --turn-seconds 20 --preset maexchen", code: 0,
			stdout: []string{"preset maexchen", "20s a turn"}},
		{name: "tables in words", who: "carol", cmd: "tables", code: 0,
			stdout: []string{"preset maexchen, classic, 1 life", "Mia may pass (wins when back)", "rerolled when back), low claims lose"}},
		{name: "an impossible combination", who: "alice", cmd: "table rules pw --mia-reveal at-once", code: 1,
			stderr: []string{"mia: option mia-pass: a Mia revealed at once is never passed"}},
		{name: "rules from a preset", who: "alice", cmd: "table rules pw --preset maexchen --seats 4", code: 0,
			stdout: []string{"Rules of pw from the next game: 4 seats; preset maexchen, classic, 1 life"}},
		{name: "a change leaves the preset", who: "alice", cmd: "table rules pw --pass --mia-reveal challenge", code: 0,
			stdout: []string{"4 seats; classic, 1 life, low claims lose, first out"}, not: []string{"preset", "Mia shown"}},
		{name: "back to pips", who: "alice", cmd: "table rules pw --ranking pips --mia-pass wins --lives 2 --low-claim refused --end last-standing --next-opener before-loser", code: 0,
			stdout: []string{"pips, 2 lives, Mia may pass (wins when back), the one before the loser opens"}},
		// Errors, in the server's voice.
		{name: "unknown flag", who: "alice", cmd: "table create x --bogus", code: 2,
			stderr: []string{"mia: unknown flag --bogus\n", "usage:"}},
		{name: "a flag without its value", who: "alice", cmd: "table create x --lives", code: 2,
			stderr: []string{"mia: flag --lives needs a value\n"}},
		{name: "not a number", who: "alice", cmd: "table create x --seats many", code: 2,
			stderr: []string{`mia: invalid value "many" for --seats: not a number`}},
		{name: "not a switch", who: "alice", cmd: "table create x --pass=maybe", code: 2,
			stderr: []string{`mia: invalid value "maybe" for --pass: not true or false`}},
		{name: "bad mia-pass", who: "alice", cmd: "table create x --mia-pass sometimes", code: 1,
			stderr: []string{`mia: option mia-pass: "sometimes" is not off, reroll or wins`}},
		{name: "bad low-claim", who: "alice", cmd: "table create x --low-claim maybe", code: 1, stderr: []string{"mia: option low-claim:"}},
		{name: "bad mia-reveal", who: "alice", cmd: "table create x --mia-reveal never", code: 1, stderr: []string{"mia: option mia-reveal:"}},
		{name: "bad next-opener", who: "alice", cmd: "table create x --next-opener winner", code: 1, stderr: []string{"mia: option next-opener:"}},
		{name: "bad preset", who: "alice", cmd: "table create x --preset meyer", code: 1, stderr: []string{`mia: option preset: "meyer" is not one of classic, maexchen`}},
		{name: "a flag of no command", who: "alice", cmd: "replay --bogus", code: 2, stderr: []string{"mia: unknown flag --bogus\n", "usage:"}},
		{name: "history's unknown flag", who: "alice", cmd: "history --bogus", code: 2, stderr: []string{"mia: unknown flag --bogus\n"}},
		// The rules command.
		{name: "rules of a table", who: "carol", cmd: "rules pw", code: 0,
			stdout: []string{"Rules of pw, 4 seats: pips, 2 lives", "ranking: pips", "11 pips > 10 pips >", "63 and 54 are",
				"mia-pass: wins", "every other player loses a", "next-opener: before-loser", "the living\n"}},
		{name: "rules of maexchen", who: "carol", cmd: "rules mx", code: 0,
			stdout: []string{"preset: maexchen", "Mäxchen bot server", "mia-reveal: at-once", "low-claim: loses", "pass: off", "end: first-out"}},
		{name: "the default rules and the presets", who: "carol", cmd: "rules", code: 0,
			stdout: []string{"The default rules (classic): classic, 6 lives, 60s a turn.", "mia-pass: off", "Presets:",
				"  maexchen  preset maexchen, classic, 1 life", "help table"}},
		{name: "no such table", who: "carol", cmd: "rules nosuch", code: 1, stderr: []string{"mia: no such table: nosuch"}},
		{name: "two tables", who: "carol", cmd: "rules a b", code: 2, stderr: []string{"usage:", "rules [TABLE] [--json]"}},
		{name: "help replay points into the source", who: "carol", cmd: "help replay", code: 0, stdout: []string{"sshapp/PROTOCOL.md"}},
		{name: "help table lists the options", who: "carol", cmd: "help table", code: 0,
			stdout: []string{"--mia-pass off|reroll|wins", "--mia-reveal challenge|at-once", "--low-claim refused|loses",
				"--next-opener after-loser|loser|before-loser", "--preset P", "--seats N"}},
	})

	// Every line of help, help table, rules and a usage fits 80 columns.
	for _, cmd := range []string{"help", "help table", "help rules", "help ban", "help unban", "help maexchen", "rules", "rules pw", "rules mx", "table create x --bogus", "table bogus"} {
		r := e.as(t, "carol", cmd)
		for _, l := range strings.Split(r.stdout+r.stderr, "\n") {
			if n := len([]rune(l)); n > command.HelpWidth {
				t.Errorf("%s: a line of %d columns: %q", cmd, n, l)
			}
		}
	}

	// rules --json: the rules object of PROTOCOL.md §3 and each rule in words.
	r := e.as(t, "carol", "rules pw --json")
	var doc command.RulesDoc
	if err := json.Unmarshal([]byte(r.stdout), &doc); r.code != 0 || err != nil {
		t.Fatalf("rules --json: exit %d, %v: %s", r.code, err, r.stderr)
	}
	if doc.Table != "pw" || doc.Seats != 4 || doc.Rules.Ranking != engine.Pips || doc.Rules.MiaPass != engine.MiaPassWins ||
		len(doc.Explained) < 12 {
		t.Errorf("rules pw --json: %+v", doc)
	}
	r = e.as(t, "carol", "rules --json")
	doc = command.RulesDoc{}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || doc.Rules != engine.DefaultOptions() ||
		doc.Presets["maexchen"].MiaReveal != engine.MiaRevealAtOnce || doc.Presets["maexchen"].Preset != "maexchen" {
		t.Errorf("rules --json: %v %+v", err, doc)
	}
	// tables --json writes the option keys.
	r = e.as(t, "carol", "tables --json")
	for _, want := range []string{`"preset": "maexchen"`, `"mia_pass": "wins"`, `"mia_reveal": "at-once"`, `"low_claim": "loses"`, `"next_opener": "before-loser"`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("tables --json lacks %s:\n%s", want, r.stdout)
		}
	}
}

// TestOptionGamesReplay plays scripted games under the maexchen preset
// and under pips with mia-pass wins, then reads them back over SSH: the
// text replay tells the option events in words and names pips claims by
// their rank; replay --json writes §3's new keys and events, and replays
// through the engine.
func TestOptionGamesReplay(t *testing.T) {
	t.Parallel()
	dice := &lobbytest.Script{}
	e := startRecServerDice(t, lobby.NoDelay, dice)
	ctx := context.Background()
	p := map[string]lobby.Player{}
	for _, n := range []string{"alice", "bob", "carol"} {
		p[n] = e.player(t, n)
	}
	e.steps(t, []step{
		{name: "maexchen", who: "alice", cmd: "table create mx --preset maexchen --seats 3", code: 0},
		{name: "pips", who: "alice", cmd: "table create pw --ranking pips --mia-pass wins --lives 2 --seats 3", code: 0},
	})
	act := func(tb *lobby.Table, who string, a engine.Action) {
		t.Helper()
		if err := tb.Act(ctx, p[who], a); err != nil {
			t.Fatalf("%s %v: %v", who, a.Kind, err)
		}
	}
	roll := engine.Action{Kind: engine.Roll, Look: true}
	claim := func(v engine.Value) engine.Action { return engine.Action{Kind: engine.Claim, Value: v} }
	challenge := engine.Action{Kind: engine.Challenge}
	games := 0
	play := func(name string, draws []int, moves func(tb *lobby.Table)) string {
		t.Helper()
		tb, err := e.lobby.Table(name)
		if err != nil {
			t.Fatal(err)
		}
		dice.Push(2, 1) // the seats shuffled into the order alice, bob, carol
		dice.Push(draws...)
		for _, n := range []string{"alice", "bob", "carol"} {
			if err := tb.Sit(ctx, p[n]); err != nil && !errors.Is(err, lobby.ErrSeated) {
				t.Fatalf("%s sits: %v", n, err)
			}
		}
		// A full table starts its game by itself.
		if err := tb.Start(ctx, p["alice"]); err != nil && !errors.Is(err, lobby.ErrGameRunning) {
			t.Fatalf("start: %v", err)
		}
		moves(tb)
		games++
		eventually(t, 10*time.Second, "the game stored as finished", func() bool {
			gs, err := e.st.Games(ctx, store.Query{Limit: 10})
			return err == nil && len(gs) == games && gs[0].Finished()
		})
		gs, _ := e.st.Games(ctx, store.Query{Limit: 1})
		if dice.Left() != 0 {
			t.Errorf("%d scripted draws left", dice.Left())
		}
		return gs[0].ID
	}
	// maexchen: a true Mia shown at once; a low claim; a challenge of nothing.
	g1 := play("mx", []int{0, 1, 0}, func(tb *lobby.Table) { act(tb, "alice", roll); act(tb, "alice", claim(engine.Mia)) })
	g2 := play("mx", []int{1, 4, 3, 2, 0}, func(tb *lobby.Table) {
		act(tb, "bob", roll)
		act(tb, "bob", claim(54))
		act(tb, "carol", roll)
		act(tb, "carol", claim(43))
	})
	g3 := play("mx", []int{2}, func(tb *lobby.Table) { act(tb, "carol", challenge) })
	// pips, mia-pass wins: a Mia passed back round; 9 pips cannot be
	// raised to 9 pips; a caught 10 pips; equal sums stand.
	g4 := play("pw", []int{0, 1, 0, 5, 2, 4, 3, 3, 2, 0, 0}, func(tb *lobby.Table) {
		act(tb, "alice", roll)
		act(tb, "alice", claim(engine.Mia))
		act(tb, "bob", engine.Action{Kind: engine.Pass})
		act(tb, "carol", engine.Action{Kind: engine.Pass})
		act(tb, "alice", roll) // 63: alice opens again, her Mia having come back
		act(tb, "alice", claim(63))
		act(tb, "bob", roll) // 54
		if err := tb.Act(ctx, p["bob"], claim(54)); !errors.Is(err, engine.ErrNotHigher) {
			t.Errorf("54 over 9 pips: %v, want refused", err)
		}
		act(tb, "bob", claim(64))
		act(tb, "carol", challenge) // 54 under 10 pips: bob is out
		act(tb, "carol", roll)      // 43
		act(tb, "carol", claim(43))
		act(tb, "alice", challenge) // 7 pips stands
		act(tb, "carol", roll)      // 11
		act(tb, "carol", claim(11))
		act(tb, "alice", challenge)
	})

	text := map[string][]string{
		g1: {"preset maexchen", "alice announced Mia", "alice's Mia is shown at once: Mia, bob and carol lose a life — the claim stood",
			"alice wins the game"},
		g2: {"bob announced 54 to carol", "carol rolled 31", "carol announced 43, not above 54, and loses a life — bluff!"},
		g3: {"carol challenged before anything was claimed and loses a life"},
		g4: {"pips, 2 lives, Mia may pass (wins when back)", "bob passed Mia to carol", "carol passed Mia to alice",
			"alice's Mia came back round: bob and carol lose a life", "Round 2: alice opens", "alice rolled 63 (9 pips)",
			"alice announced 9 pips to bob", "bob announced 10 pips to carol — bluff!",
			"carol called bob a liar: 54 (9 pips), bob loses a life — caught bluffing!", "carol announced 7 pips to alice",
			"alice called carol a liar: 43 (7 pips), alice loses a life — the claim stood", "carol wins the game"},
	}
	for id, want := range text {
		e.steps(t, []step{{name: "replay " + id, who: "bob", cmd: "replay " + id, code: 0, stdout: want}})
	}

	type wantEv struct {
		typ  string
		json string // a piece of the event's JSON
	}
	jsonWant := map[string][]wantEv{
		g1: {{"claim", `"value":"21"`}, {"reveal", `"seat":0,"claim":"21","dice":"21","losses":[{"seat":1,"lives_lost":1},{"seat":2,"lives_lost":1}]`}},
		g2: {{"low_claim", `"seat":2,"value":"43","claim":"54","loser":2,"lives_lost":1`}},
		g3: {{"challenge", `"seat":2,"claimant":null,"claim":null,"dice":null,"loser":2,"lives_lost":1`}},
		g4: {{"mia_back", `"seat":0,"losses":[{"seat":1,"lives_lost":1},{"seat":2,"lives_lost":1}]`},
			{"claim", `"seat":0,"value":"63"`}, {"claim", `"seat":1,"value":"64"`},
			{"challenge", `"seat":2,"claimant":1,"claim":"64","dice":"54","loser":1,"lives_lost":1`}},
	}
	for id, want := range jsonWant {
		g := e.checkReplayJSON(t, "carol", id)
		r := e.as(t, "carol", "replay "+id+" --json")
		var raw struct {
			Rules  map[string]any    `json:"rules"`
			Events []json.RawMessage `json:"events"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &raw); err != nil {
			t.Fatal(err)
		}
		if id == g4 {
			if raw.Rules["ranking"] != "pips" || raw.Rules["mia_pass"] != "wins" || raw.Rules["preset"] != nil {
				t.Errorf("game %s rules %v", id, raw.Rules)
			}
		} else if raw.Rules["preset"] != "maexchen" || raw.Rules["mia_reveal"] != "at-once" || raw.Rules["low_claim"] != "loses" {
			t.Errorf("game %s rules %v", id, raw.Rules)
		}
		for _, w := range want {
			found := false
			for _, ev := range raw.Events {
				var c bytes.Buffer
				_ = json.Compact(&c, ev)
				s := c.String()
				found = found || strings.Contains(s, `"type":"`+w.typ+`"`) && strings.Contains(s, w.json)
			}
			if !found {
				t.Errorf("game %s: no %s event with %s", id, w.typ, w.json)
			}
		}
		if g.Winner < 0 {
			t.Errorf("game %s has no winner", id)
		}
	}
}
