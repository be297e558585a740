package command

import (
	"bytes"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/sshapp/verdict"
	"github.com/mia-game/mia/store"
)

func TestRulesFlags(t *testing.T) {
	def := engine.DefaultOptions()
	noPass := def
	noPass.Pass = false
	cases := []struct {
		name   string
		base   engine.Options
		args   []string
		check  func(o engine.Options, seats int) bool
		err    bool // a usage error
		option string
	}{
		{name: "nothing changes nothing", base: def, args: nil,
			check: func(o engine.Options, s int) bool { return o == def && s == 6 }},
		{name: "every option", base: def,
			args: []string{"--lives", "3", "--seats", "4", "--ranking", "numeric", "--no-pass", "--mia-penalty", "1",
				"--mia-penalty-both", "--next-opener", "loser", "--end", "first-out", "--turn-seconds", "20"},
			check: func(o engine.Options, s int) bool {
				return o == engine.Options{Ranking: engine.Numeric, Lives: 3, MiaPenalty: 1, MiaPenaltyBoth: true,
					MiaPass: engine.MiaPassOff, MiaReveal: engine.MiaRevealChallenge, LowClaim: engine.LowClaimRefused,
					NextOpener: engine.Loser, End: engine.FirstOut, TurnSeconds: 20} && s == 4
			}},
		{name: "equal claims turn passing off", base: def, args: []string{"--equal-claims"},
			check: func(o engine.Options, _ int) bool { return o.EqualClaims && !o.Pass && o.Validate() == nil }},
		{name: "equal claims with --pass is the engine's to refuse", base: def, args: []string{"--equal-claims", "--pass"},
			option: "equal-claims"},
		{name: "--pass turns passing back on", base: noPass, args: []string{"--pass"},
			check: func(o engine.Options, _ int) bool { return o.Pass }},
		{name: "--no-pass=false too", base: noPass, args: []string{"--no-pass=false"},
			check: func(o engine.Options, _ int) bool { return o.Pass }},
		{name: "both", base: def, args: []string{"--pass", "--no-pass"}, err: true},
		{name: "flags keep the base", base: noPass, args: []string{"--lives", "2"},
			check: func(o engine.Options, _ int) bool { return !o.Pass && o.Lives == 2 }},
		{name: "lives out of range", base: def, args: []string{"--lives", "10"}, option: "lives"},
		{name: "unknown ranking", base: def, args: []string{"--ranking", "x"}, option: "ranking"},
		{name: "unknown end", base: def, args: []string{"--end", "never"}, option: "end"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			rf := addRulesFlags(fs, c.base, 6)
			if _, err := parseFlags(fs, c.args); err != nil {
				t.Fatal(err)
			}
			o, seats, err := rf.rules()
			if (err != nil) != c.err {
				t.Fatalf("err = %v", err)
			}
			if c.err {
				return
			}
			if c.option != "" {
				var oe *engine.OptionError
				if err := o.Validate(); err == nil || !strings.Contains(err.Error(), "option "+c.option+":") {
					t.Fatalf("Validate = %v, want option %s (%T)", err, c.option, oe)
				}
				return
			}
			if !c.check(o, seats) {
				t.Errorf("rules %+v, seats %d", o, seats)
			}
		})
	}
}

func TestParseFlagsAnywhere(t *testing.T) {
	cases := []struct {
		args  []string
		words []string
		n     int
	}{
		{[]string{"club", "--n", "3"}, []string{"club"}, 3},
		{[]string{"--n", "3", "club"}, []string{"club"}, 3},
		{[]string{"a", "--n=2", "b"}, []string{"a", "b"}, 2},
		{[]string{"a", "--", "--n"}, []string{"a", "--n"}, 0},
	}
	for _, c := range cases {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		n := fs.Int("n", 0, "")
		words, err := parseFlags(fs, c.args)
		if err != nil || !slices.Equal(words, c.words) || *n != c.n {
			t.Errorf("parseFlags(%q) = %q, n %d, %v", c.args, words, *n, err)
		}
	}
}

func TestFormAndSparkline(t *testing.T) {
	W, L := true, false
	cases := []struct {
		won   []bool
		form  []float64
		spark string
	}{
		{nil, []float64{}, ""},
		{[]bool{W}, []float64{1}, "█"},
		{[]bool{L, W, W, L}, []float64{0, 0.5, 2.0 / 3, 0.5}, "▁▅▆▅"},
		// Past formWindow games, the window slides.
		{slices.Concat(slices.Repeat([]bool{L}, 10), []bool{W}), []float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.1}, "▁▁▁▁▁▁▁▁▁▁▂"},
	}
	for _, c := range cases {
		got := form(c.won)
		if len(got) != len(c.form) {
			t.Fatalf("form(%v) = %v, want %v", c.won, got, c.form)
		}
		for i := range got {
			if d := got[i] - c.form[i]; d > 1e-9 || d < -1e-9 {
				t.Fatalf("form(%v) = %v, want %v", c.won, got, c.form)
			}
		}
		if s := sparkline(got); s != c.spark {
			t.Errorf("sparkline(%v) = %q, want %q", got, s, c.spark)
		}
	}
	// At most formPoints points, from formPoints+formWindow-1 games.
	if got := form(make([]bool, 40)); len(got) != formPoints {
		t.Errorf("form of 40 games has %d points", len(got))
	}
	if s := sparkline([]float64{-1, 0, 0.5, 1, 2}); s != "▁▁▅██" {
		t.Errorf("sparkline clamps: %q", s)
	}
}

// TestWriteReplay tells a scripted game of three: a bluff caught after a
// pass, a blind raise, a Mia given up, a timeout.
func TestWriteReplay(t *testing.T) {
	const A, B, C = 0, 1, 2
	opts := engine.DefaultOptions()
	opts.Lives = 2
	src := &queue{q: []int{A}}
	g, evs, err := engine.New(opts, 3, src)
	if err != nil {
		t.Fatal(err)
	}
	play := func(a engine.Action, dice ...engine.Value) {
		t.Helper()
		for _, d := range dice {
			hi, lo := d.Dice()
			src.q = append(src.q, hi-1, lo-1)
		}
		more, err := g.Apply(a)
		if err != nil {
			t.Fatalf("%+v: %v", a, err)
		}
		evs = append(evs, more...)
	}
	play(engine.Action{Kind: engine.Roll, Seat: A, Look: true}, 43)
	play(engine.Action{Kind: engine.Claim, Seat: A, Value: 52})
	play(engine.Action{Kind: engine.Pass, Seat: B})
	play(engine.Action{Kind: engine.Challenge, Seat: C}) // B answers for 52: caught; C opens
	play(engine.Action{Kind: engine.Roll, Seat: C, Look: false}, 65)
	play(engine.Action{Kind: engine.Claim, Seat: C, Value: 31})
	play(engine.Action{Kind: engine.Pass, Seat: A, Value: 21}) // a blind raise to Mia
	play(engine.Action{Kind: engine.GiveUp, Seat: B})          // B is out
	play(engine.Action{Kind: engine.Timeout, Seat: C})
	play(engine.Action{Kind: engine.Roll, Seat: A, Look: true}, 66)
	play(engine.Action{Kind: engine.Claim, Seat: A, Value: 66})
	play(engine.Action{Kind: engine.Challenge, Seat: C}) // C wrong: out; A wins
	if !g.Over() {
		t.Fatal("the game goes on")
	}
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	sg := store.Game{ID: "7", Table: "club", Rules: opts, Started: at, Ended: at.Add(time.Minute),
		Seats:  []store.Seat{{Name: "alice"}, {Name: "bob"}, {Name: "carol"}},
		Winner: g.Winner(), Standings: g.Standings()}
	var b bytes.Buffer
	writeReplay(&b, sg, evs, verdict.Analysis{})
	want := `Game 7 at club: classic, 2 lives, 60s a turn
Started 2026-03-01 12:00:00, ended 2026-03-01 12:01:00 (UTC).
Players: alice, bob, carol
Round 1: alice opens
  alice rolled 43
  alice announced 52 to bob — bluff!
  bob passed 52 to carol — the dice were below the claim
  carol called bob a liar: 43, bob loses a life — caught bluffing!
Round 2: carol opens
  carol rolled 65 without looking
  carol announced 31 to alice — blind
  alice raised blind to Mia and passed to bob — the dice were below the claim
  bob gave up against Mia and loses a life
  bob is out
Round 3: carol opens
  carol ran out of time and loses a life
Round 4: alice opens
  alice rolled 66
  alice announced 66 to carol
  carol called alice a liar: 66, carol loses a life — the claim stood
  carol is out
  alice wins the game

Standings: 1. alice, 2. carol, 3. bob
Lives after each round:
  alice ♥♥ → 2 2 2 2
  bob   ♥♥ → 1 0 0 0
  carol ♥♥ → 2 2 1 0
`
	if got := b.String(); got != want {
		t.Errorf("replay text:\n%s\nwant:\n%s", got, want)
	}
}

// queue is an engine.Source of queued draws.
type queue struct{ q []int }

func (s *queue) Intn(int) int {
	v := s.q[0]
	s.q = s.q[1:]
	return v
}

// TestOptionFlagsSayWholeSentences: help table tells each option in the
// rules' words, whole, with its default: switches on or off, as the rules
// say (never "default true"); the mia-pass sentence is finished.
func TestOptionFlagsSayWholeSentences(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	addRulesFlags(fs, engine.DefaultOptions(), 6)
	var b bytes.Buffer
	printFlags(&b, fs, "default")
	text := strings.Join(strings.Fields(b.String()), " ")
	for _, want := range []string{
		"--pass a claim may be passed on without rolling (default on)",
		"--mia-pass off|reroll|wins whether a Mia may be passed on, and what happens when it comes back to its roller: " +
			"off, it may not; reroll, they roll again; wins, everyone else loses a life (default off)",
		"--lives N the lives each player starts with, N from 1 to 9 (default 6)",
		"--mia-penalty-both every life lost in a round whose claim is Mia costs the Mia penalty --mia-reveal",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("help lacks %q:\n%s", want, b.String())
		}
	}
	for _, bad := range []string{"(default true)", "(default false)", "roller (default"} {
		if strings.Contains(text, bad) {
			t.Errorf("help says %q:\n%s", bad, b.String())
		}
	}
	for _, l := range strings.Split(b.String(), "\n") {
		if len([]rune(l)) > HelpWidth {
			t.Errorf("a help line of %d columns: %q", len([]rune(l)), l)
		}
	}
}

// TestStatsOfOneGameInWords: a form of one game is said in words, not
// drawn as a one-bar sparkline; the rates round as the screen's do.
func TestStatsOfOneGameInWords(t *testing.T) {
	var b bytes.Buffer
	writeStats(&Call{Stdout: &b}, StatsJSON{Name: "alice", Person: "p:1", Games: 8, Wins: 5, Claims: 8,
		Bluffs: 5, Understated: 1, Recent: []RecentJSON{{Game: "1", Table: "t", Won: true}}, Form: []float64{1}}, "", "")
	out := b.String()
	for _, want := range []string{"form             one game so far, won", "8 played, 5 won (63%)", "understated      1 of 8 claims (13%)"} {
		if !strings.Contains(out, want) {
			t.Errorf("stats lack %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "▁") || strings.Contains(out, "last games") {
		t.Errorf("a one-game sparkline:\n%s", out)
	}
}
