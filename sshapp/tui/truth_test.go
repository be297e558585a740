package tui

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/lobby/words"
)

// truthRuleSets are the option sets the truth is told under, each played
// under every ranking: the defaults, each option that adds an event, and
// every option at once.
func truthRuleSets() map[string]engine.Options {
	d := engine.DefaultOptions()
	d.Lives = 1
	sets := map[string]engine.Options{"defaults": d}
	o := d
	o.MiaPass = engine.MiaPassWins
	sets["mia-pass wins"] = o
	o = d
	o.MiaPass = engine.MiaPassReroll
	sets["mia-pass reroll"] = o
	o = d
	o.MiaReveal, o.LowClaim = engine.MiaRevealAtOnce, engine.LowClaimLoses
	sets["mia-reveal at-once, low-claim loses"] = o
	o = d
	o.EqualClaims, o.Pass = true, false
	sets["equal-claims"] = o
	o, _ = engine.Preset(engine.PresetMaexchen)
	sets["maexchen"] = o
	o = d
	o.Lives, o.MiaPass, o.LowClaim, o.MiaPenalty, o.MiaPenaltyBoth = 2, engine.MiaPassWins, engine.LowClaimLoses, 1, true
	o.NextOpener, o.End = engine.BeforeLoser, engine.FirstOut
	sets["every option"] = o
	return sets
}

// cupSeen is a lifted cup as a screen drew it.
type cupSeen struct {
	at     int              // the event that lifted it
	text   string           // the cup's words on the screen, spaces collapsed
	events []engine.Event   // the events as the viewer had them
	nar    words.Narrator   // the viewer's narrator
	log    []string         // the viewer's log then
	seat   int              // the viewer's seat, -1 for the spectator
	frame  string           // for the failure message
	view   *engine.View     // the viewer's game then
	claim  engine.Value     // the claim the cup judged
	kind   engine.EventType // what ended the round
}

var spaceRun = regexp.MustCompile(`\s+`)

// liftedText is the lifted cup's part of a table frame, its lines joined and
// spaces collapsed: the left column below its heading, or the whole width
// when it covers the chat too (without the dice drawn beside the words).
func liftedText(t *testing.T, ts *tableScreen, frame string) string {
	t.Helper()
	lines := strings.Split(frame, "\n")
	colW, botH := ts.bottom()
	for k, l := range lines {
		if !strings.HasPrefix(l, "The cup is lifted") && !strings.HasPrefix(l, "Round over") {
			continue
		}
		var parts []string
		for _, row := range lines[k+1 : min(len(lines), k+botH)] {
			r := []rune(row)
			if strings.Contains(l, "Table chat") {
				r = r[:min(len(r), colW)]
			}
			parts = append(parts, string(r))
		}
		text := strings.Join(parts, " ")
		text = strings.Map(func(r rune) rune { // the dice drawn beside the words
			if strings.ContainsRune("┌┐└┘─│●", r) {
				return ' '
			}
			return r
		}, text)
		return strings.TrimSpace(spaceRun.ReplaceAllString(text, " "))
	}
	t.Fatalf("no lifted cup on the screen:\n%s", frame)
	return ""
}

// namesClaim reports whether frame names the claim on the table in its
// words (words.ClaimWords): whole, or cut with "…" in the claimant's name
// when the longest names leave no room, the claim itself never cut.
func namesClaim(frame string, c words.ClaimWords) bool {
	for _, line := range strings.Split(frame, "\n") {
		k := strings.Index(line, c.Lead+c.Value)
		if k < 0 {
			continue
		}
		got := strings.TrimRight(line[k:], " ")
		if strings.HasPrefix(got, c.String()) {
			return true
		}
		cut, ok := strings.CutSuffix(got, "…")
		return ok && len(cut) > len(c.Lead+c.Value) && strings.HasPrefix(c.String(), cut)
	}
	return false
}

// TestEveryScreenTellsTheSameTruth plays random games at 12-seat tables
// under every ranking and option set, names as long as names go (bots
// marked), and reads the lifted cup at every round's end off a player's
// and a spectator's screen at 80×24 (and the claim on the table after
// every other move, words.ClaimWords): it names the claim it judged as the
// log does ("7 pips", never "61"), shows every word of the round's end
// (never cut), and those words are the replay's line for that event, the
// verdict's mark included (a low claim's truth aside, whose cup stays shut
// while the game runs).
func TestEveryScreenTellsTheSameTruth(t *testing.T) {
	sets := truthRuleSets()
	seed := uint64(0)
	for setName, base := range sets {
		for _, rk := range engine.Rankings {
			o := base
			o.Ranking = rk
			o = words.PresetKept(o)
			if err := o.Validate(); err != nil {
				t.Fatalf("%s under %s: %v", setName, rk, err)
			}
			seed++
			seed := seed
			t.Run(setName+"/"+string(rk), func(t *testing.T) {
				t.Parallel()
				tellTheTruth(t, o, seed)
			})
		}
	}
}

func tellTheTruth(t *testing.T, rules engine.Options, seed uint64) {
	e := newEnvDice(t, lobbytest.NewDice(seed))
	r := rand.New(rand.NewPCG(seed, 99))
	ctx := ctxT(t)
	ps := make([]lobby.Player, engine.MaxSeats)
	byName := map[string]lobby.Player{}
	for i := range ps {
		name := fmt.Sprintf("longestnamehe%03d", i+1)[:lobby.MaxNameLen]
		ps[i] = e.player(name)
		ps[i].Bot = i%3 == 1 // a seat played by a program
		byName[name] = ps[i]
	}
	watcher := e.player("watcher")
	tbl, err := e.lobby.CreateTable(ctx, ps[0], lobby.TableConfig{Name: "truth", Rules: rules, Seats: engine.MaxSeats})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if err := tbl.Sit(ctx, p); err != nil {
			t.Fatalf("%s sits: %v", nameOf(p), err)
		}
	}
	snap := e.until(tbl, watcher, "the game", func(s lobby.Snapshot) bool { return s.Playing })
	gameID := snap.GameID
	type viewer struct {
		p  lobby.Player
		m  *Model
		ts *tableScreen
	}
	var vs []viewer
	for _, p := range []lobby.Player{ps[0], watcher} {
		m := New(e.config(p, 80, 24)).(*Model)
		vs = append(vs, viewer{p, m, showTable(m, tbl, e.snapshot(tbl, p))})
	}
	var cups []cupSeen
	for moves := 0; ; moves++ {
		if moves > 3000 {
			t.Fatal("the game does not end")
		}
		spec := e.snapshot(tbl, watcher)
		if !spec.Playing {
			break
		}
		who := byName[spec.Name(spec.Game.Turn)]
		if r.IntN(40) == 0 {
			// the clock runs out
			n := len(spec.Events())
			e.clock.Advance(time.Duration(rules.TurnSeconds+1) * time.Second)
			e.until(tbl, watcher, "the timeout", func(s lobby.Snapshot) bool { return len(s.Events()) > n })
		} else if err := tbl.Act(ctxT(t), who, randomMove(r, e.snapshot(tbl, who).Game)); err != nil { // a deadline a move
			t.Fatalf("%s moves: %v", nameOf(who), err)
		}
		for _, v := range vs {
			before := v.ts.cup.n
			s := e.snapshot(tbl, v.p)
			v.ts.setSnapshot(s)
			if v.ts.cup.n == before {
				if s.Playing {
					frame := v.m.View()
					if claim := s.Narrator().ClaimWords(s.Game.Claim, s.Game.Claimant); !namesClaim(frame, claim) {
						t.Errorf("seat %d: the table does not name the claim %q:\n%s", s.You, claim, frame)
					}
				}
				continue
			}
			frame := v.m.View()
			assertFits(t, frame, 80, 24)
			evs := s.Events()
			i := v.ts.cup.at
			cups = append(cups, cupSeen{at: i, text: liftedText(t, v.ts, frame), events: evs, nar: s.Narrator(),
				log: v.ts.log, seat: s.You, frame: frame, view: s.Game, claim: evs[i].Claim, kind: evs[i].Type})
		}
	}
	g, stored, err := e.st.Game(ctxT(t), gameID) // the game may have outlasted ctx
	if err != nil {
		t.Fatal(err)
	}
	replay := words.ReplayNarrator(replaySeats(g), g.Rules.Ranking)
	if len(cups) == 0 {
		t.Fatal("no cup was lifted")
	}
	kinds := map[engine.EventType]bool{}
	over := false
	for _, c := range cups {
		kinds[c.kind] = true
		over = over || c.view.Phase == engine.PhaseOver
		told := c.nar.Told(c.events, c.at)
		if !strings.Contains(c.text, spaceRun.ReplaceAllString(told, " ")) {
			t.Errorf("seat %d: the cup does not tell %q whole:\n%s", c.seat, told, c.frame)
		}
		want := replay.Told(stored, c.at)
		hidden := c.kind == engine.EvLowClaim && c.view.Phase != engine.PhaseOver
		if hidden {
			want = replay.Line(stored, c.at) // the cup stays shut: its truth is the replay's to tell
			if c.seat >= 0 && stored[c.at].Seat == c.seat {
				want = told // the low claimer saw their own dice
			}
		}
		if c.seat < 0 && told != want {
			t.Errorf("the spectator's cup tells %q, the replay %q", told, want)
		}
		if c.seat >= 0 && !hidden {
			me := replay
			me.You = c.seat
			if mine := me.Told(stored, c.at); told != mine {
				t.Errorf("seat %d: the cup tells %q, the replay from that seat %q", c.seat, told, mine)
			}
		}
		if c.kind != engine.EvChallenge || c.claim == engine.NoValue {
			continue
		}
		name := g.Rules.Ranking.Name(c.claim)
		if !strings.Contains(c.text, "the claim: "+name+" by ") {
			t.Errorf("seat %d: the cup names the claim %s otherwise than %q:\n%s", c.seat, c.claim, name, c.frame)
		}
		// The log told the claim (or its pass) in the same words.
		j := c.at - 1
		for j >= 0 && c.events[j].Type != engine.EvClaim && c.events[j].Type != engine.EvPass {
			j--
		}
		line := c.nar.Line(c.events, j)
		if !strings.Contains(line, " "+name) || !containsLine(c.log, line) {
			t.Errorf("seat %d: the log's %q does not name the claim %q as the cup does (log %q)", c.seat, line, name, c.log)
		}
	}
	if !over {
		t.Error("no cup was read at the game's end")
	}
	t.Logf("%d cups read, ending rounds by %v", len(cups), kinds)
}

func containsLine(lines []string, l string) bool {
	for _, x := range lines {
		if x == l {
			return true
		}
	}
	return false
}

// randomMove is a legal move from v, chosen at random with some sense:
// a player who must announce announces; otherwise challenges now and
// then, rolls mostly, passes sometimes.
func randomMove(r *rand.Rand, v *engine.View) engine.Action {
	var opts []engine.Action
	if v.Can(engine.Claim) && len(v.Claims)+len(v.LowClaims) > 0 {
		vals := append(append([]engine.Value(nil), v.LowClaims...), v.Claims...)
		val := vals[r.IntN(len(vals))]
		if vals[len(vals)-1] == engine.Mia && r.IntN(5) == 0 {
			val = engine.Mia // a Mia now and then, to be passed round
		}
		for _, x := range vals {
			if v.Dice != engine.NoValue && v.Options.Ranking.Compare(x, v.Dice) == 0 && r.IntN(3) == 0 {
				val = x // the truth, now and then, when it may be told
			}
		}
		return engine.Action{Kind: engine.Claim, Value: val}
	}
	if v.Can(engine.Roll) {
		for range 3 {
			opts = append(opts, engine.Action{Kind: engine.Roll, Look: r.IntN(5) > 0})
		}
	}
	if v.Can(engine.Challenge) {
		opts = append(opts, engine.Action{Kind: engine.Challenge})
	}
	if v.Can(engine.GiveUp) {
		opts = append(opts, engine.Action{Kind: engine.GiveUp})
	}
	if v.Can(engine.Pass) && len(v.Passes) > 0 {
		if v.Claim == engine.Mia && r.IntN(8) > 0 {
			return engine.Action{Kind: engine.Pass, Value: engine.Mia} // round, until it comes back
		}
		opts = append(opts, engine.Action{Kind: engine.Pass, Value: v.Passes[r.IntN(len(v.Passes))]})
	}
	return opts[r.IntN(len(opts))]
}

// TestRenameReachesTheCup: a player renamed while the cup is lifted is
// named anew in it at once, as the log names them, and in the cups lifted
// after.
func TestRenameReachesTheCup(t *testing.T) {
	e := newEnvDice(t, lobbytest.NewDice(5))
	ctx := ctxT(t)
	alice, bob, carol := e.player("alice"), e.player("bob"), e.player("carol")
	o := engine.DefaultOptions()
	o.Lives = 3
	tbl := e.game("renamed", o, alice, bob)
	m := New(e.config(carol, 80, 24)).(*Model)
	ts := showTable(m, tbl, e.snapshot(tbl, carol))
	byID := map[string]lobby.Player{alice.ID: alice, bob.ID: bob}
	// liftNext plays until the cup is lifted again: a roll, a claim, a
	// challenge.
	liftNext := func() string {
		t.Helper()
		before := ts.cup.n
		for moves := 0; ts.cup.n == before; moves++ {
			if moves > 20 {
				t.Fatal("no cup was lifted")
			}
			spec := e.snapshot(tbl, carol)
			who := byID[spec.Table.Players[spec.Game.Turn].ID]
			v := e.snapshot(tbl, who).Game
			a := engine.Action{Kind: engine.Roll, Look: true}
			switch {
			case v.Can(engine.Challenge):
				a = engine.Action{Kind: engine.Challenge}
			case v.Can(engine.Claim):
				a = engine.Action{Kind: engine.Claim, Value: v.Claims[0]}
			}
			if err := tbl.Act(ctx, who, a); err != nil {
				t.Fatal(err)
			}
			ts.setSnapshot(e.snapshot(tbl, carol))
		}
		return liftedText(t, ts, m.View())
	}
	if cup := liftNext(); !strings.Contains(cup, "alice") {
		t.Fatalf("the cup does not name alice: %q", cup)
	}
	if _, err := e.st.SetName(ctx, alice.Key, "zelda"); err != nil {
		t.Fatal(err)
	}
	if err := e.lobby.Renamed(ctx, alice.ID); err != nil {
		t.Fatal(err)
	}
	ts.setSnapshot(e.snapshot(tbl, carol))
	if !ts.cup.shown() {
		t.Fatal("the cup was put back")
	}
	if cup := liftedText(t, ts, m.View()); !strings.Contains(cup, "zelda") || strings.Contains(cup, "alice") {
		t.Errorf("the cup lifted after the rename: %q", cup)
	}
	if cup := liftNext(); !strings.Contains(cup, "zelda") || strings.Contains(cup, "alice") {
		t.Errorf("the next cup: %q", cup)
	}
}
