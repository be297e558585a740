package engine

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestDefaultOptionsAreClassic(t *testing.T) {
	o := DefaultOptions()
	want := Options{Ranking: Classic, Lives: 6, Pass: true, EqualClaims: false, MiaPenalty: 2,
		MiaPenaltyBoth: false, MiaPass: MiaPassOff, MiaReveal: MiaRevealChallenge, LowClaim: LowClaimRefused,
		NextOpener: AfterLoser, End: LastStanding, TurnSeconds: 60}
	if o != want {
		t.Errorf("DefaultOptions() = %+v, want %+v", o, want)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("the defaults do not validate: %v", err)
	}
}

func TestOptionsValidate(t *testing.T) {
	tests := []struct {
		name   string
		mod    func(*Options)
		option string // "" when valid
	}{
		{"defaults", nil, ""},
		{"every ranking", func(o *Options) { o.Ranking = LittleMia }, ""},
		{"numeric", func(o *Options) { o.Ranking = Numeric }, ""},
		{"ascending-doubles", func(o *Options) { o.Ranking = AscendingDoubles }, ""},
		{"min lives", func(o *Options) { o.Lives = 1 }, ""},
		{"max lives", func(o *Options) { o.Lives = 9 }, ""},
		{"no pass", func(o *Options) { o.Pass = false }, ""},
		{"equal claims without pass", func(o *Options) { o.Pass, o.EqualClaims = false, true }, ""},
		{"mia penalty 1", func(o *Options) { o.MiaPenalty = 1 }, ""},
		{"mia penalty both", func(o *Options) { o.MiaPenaltyBoth = true }, ""},
		{"loser opens", func(o *Options) { o.NextOpener = Loser }, ""},
		{"first out", func(o *Options) { o.End = FirstOut }, ""},
		{"min turn", func(o *Options) { o.TurnSeconds = MinTurnSeconds }, ""},
		{"max turn", func(o *Options) { o.TurnSeconds = MaxTurnSeconds }, ""},
		{"pips", func(o *Options) { o.Ranking = Pips }, ""},
		{"before-loser opens", func(o *Options) { o.NextOpener = BeforeLoser }, ""},
		{"mia-pass reroll", func(o *Options) { o.MiaPass = MiaPassReroll }, ""},
		{"mia-pass wins", func(o *Options) { o.MiaPass = MiaPassWins }, ""},
		{"mia-reveal at-once", func(o *Options) { o.MiaReveal = MiaRevealAtOnce }, ""},
		{"mia-reveal at-once without pass", func(o *Options) { o.MiaReveal, o.Pass = MiaRevealAtOnce, false }, ""},
		{"low-claim loses", func(o *Options) { o.LowClaim = LowClaimLoses }, ""},
		{"low-claim loses with equal claims", func(o *Options) { o.LowClaim, o.Pass, o.EqualClaims = LowClaimLoses, false, true }, ""},
		{"mia-penalty-both with mia-penalty 1", func(o *Options) { o.MiaPenaltyBoth, o.MiaPenalty = true, 1 }, ""},
		{"empty mia-pass is off", func(o *Options) { o.MiaPass = "" }, ""},
		{"empty mia-reveal is challenge", func(o *Options) { o.MiaReveal = "" }, ""},
		{"empty low-claim is refused", func(o *Options) { o.LowClaim = "" }, ""},
		{"preset classic", func(o *Options) { o.Preset = PresetClassic }, ""},
		{"preset maexchen", func(o *Options) { o.Preset = PresetMaexchen }, ""},

		{"empty ranking", func(o *Options) { o.Ranking = "" }, "ranking"},
		{"unknown ranking", func(o *Options) { o.Ranking = "standard" }, "ranking"},
		{"ranking in capitals", func(o *Options) { o.Ranking = "Classic" }, "ranking"},
		{"zero lives", func(o *Options) { o.Lives = 0 }, "lives"},
		{"negative lives", func(o *Options) { o.Lives = -3 }, "lives"},
		{"ten lives", func(o *Options) { o.Lives = 10 }, "lives"},
		{"equal claims with pass", func(o *Options) { o.EqualClaims = true }, "equal-claims"},
		{"mia penalty 0", func(o *Options) { o.MiaPenalty = 0 }, "mia-penalty"},
		{"mia penalty 3", func(o *Options) { o.MiaPenalty = 3 }, "mia-penalty"},
		{"mia penalty -1", func(o *Options) { o.MiaPenalty = -1 }, "mia-penalty"},
		{"empty next opener", func(o *Options) { o.NextOpener = "" }, "next-opener"},
		{"unknown next opener", func(o *Options) { o.NextOpener = "winner" }, "next-opener"},
		{"empty end", func(o *Options) { o.End = "" }, "end"},
		{"unknown end", func(o *Options) { o.End = "sudden-death" }, "end"},
		{"zero turn", func(o *Options) { o.TurnSeconds = 0 }, "turn-seconds"},
		{"short turn", func(o *Options) { o.TurnSeconds = MinTurnSeconds - 1 }, "turn-seconds"},
		{"long turn", func(o *Options) { o.TurnSeconds = MaxTurnSeconds + 1 }, "turn-seconds"},
		{"zero Options", func(o *Options) { *o = Options{} }, "ranking"},
		{"unknown mia-pass", func(o *Options) { o.MiaPass = "on" }, "mia-pass"},
		{"mia-pass in capitals", func(o *Options) { o.MiaPass = "Wins" }, "mia-pass"},
		{"mia-pass without pass", func(o *Options) { o.MiaPass, o.Pass = MiaPassReroll, false }, "mia-pass"},
		{"mia-pass wins without pass", func(o *Options) { o.MiaPass, o.Pass = MiaPassWins, false }, "mia-pass"},
		{"mia-pass with equal claims", func(o *Options) { o.MiaPass, o.Pass, o.EqualClaims = MiaPassWins, false, true }, "mia-pass"},
		{"mia-pass with mia-reveal at-once", func(o *Options) { o.MiaPass, o.MiaReveal = MiaPassWins, MiaRevealAtOnce }, "mia-pass"},
		{"unknown mia-reveal", func(o *Options) { o.MiaReveal = "never" }, "mia-reveal"},
		{"unknown low-claim", func(o *Options) { o.LowClaim = "wins" }, "low-claim"},
		{"unknown next opener before", func(o *Options) { o.NextOpener = "before" }, "next-opener"},
		{"unknown preset", func(o *Options) { o.Preset = "meyer" }, "preset"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := rules(tt.mod)
			err := o.Validate()
			if tt.option == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				if _, _, err := New(o, 3, newPCG(1)); err != nil {
					t.Fatalf("New refuses valid options: %v", err)
				}
				return
			}
			var oe *OptionError
			if !errors.As(err, &oe) {
				t.Fatalf("Validate() = %v (%T), want *OptionError", err, err)
			}
			if oe.Option != tt.option {
				t.Errorf("OptionError.Option = %q, want %q", oe.Option, tt.option)
			}
			if !errors.Is(err, ErrBadOptions) {
				t.Errorf("errors.Is(%v, ErrBadOptions) = false", err)
			}
			if !strings.Contains(err.Error(), tt.option) || oe.Reason == "" {
				t.Errorf("error %q does not name option %q or give a reason", err, tt.option)
			}
			if g, evs, err2 := New(o, 3, newPCG(1)); !errors.Is(err2, ErrBadOptions) || g != nil || evs != nil {
				t.Errorf("New with bad options = %v, %v, %v", g, evs, err2)
			}
		})
	}
}

func TestNewSeats(t *testing.T) {
	for _, n := range []int{-1, 0, 1, MaxSeats + 1, 100} {
		if g, _, err := New(DefaultOptions(), n, newPCG(1)); !errors.Is(err, ErrBadSeats) || g != nil {
			t.Errorf("New with %d players: %v, %v; want ErrBadSeats", n, g, err)
		}
	}
	for n := MinSeats; n <= MaxSeats; n++ {
		g, evs, err := New(DefaultOptions(), n, script(n-1))
		if err != nil {
			t.Fatalf("New with %d players: %v", n, err)
		}
		if g.Players() != n || len(evs) != 1 || !reflect.DeepEqual(evs[0], Event{Seq: 1, Type: EvRound, Round: 1, Opener: n - 1}) {
			t.Errorf("%d players: Players %d, events %+v", n, g.Players(), evs)
		}
		for s := range n {
			if g.Lives(s) != 6 {
				t.Errorf("seat %d starts with %d lives", s, g.Lives(s))
			}
		}
		if g.Turn() != n-1 || g.Phase() != PhaseOpen || g.Round() != 1 || g.Seq() != 1 || g.Over() || g.Winner() != -1 {
			t.Errorf("fresh game: turn %d phase %v round %d seq %d winner %d", g.Turn(), g.Phase(), g.Round(), g.Seq(), g.Winner())
		}
		if v, c := g.CurrentClaim(); v != NoValue || c != -1 {
			t.Errorf("fresh game has claim %v by %d", v, c)
		}
		if g.Options() != DefaultOptions() || g.Standings() != nil {
			t.Error("fresh game: wrong options or standings")
		}
	}
	// A nil Source means crypto/rand.
	g, evs, err := New(DefaultOptions(), 4, nil)
	if err != nil || evs[0].Opener < 0 || evs[0].Opener >= 4 {
		t.Fatalf("New with nil source: %v %v", evs, err)
	}
	if _, err := g.Apply(roll(g.Turn())); err != nil {
		t.Fatalf("rolling with crypto dice: %v", err)
	}
}

// TestOptionsJSON checks the names of PROTOCOL.md §3 "rules".
func TestOptionsJSON(t *testing.T) {
	b, err := json.Marshal(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"ranking":"classic","lives":6,"pass":true,"equal_claims":false,"mia_penalty":2,"mia_penalty_both":false,` +
		`"mia_pass":"off","mia_reveal":"challenge","low_claim":"refused","next_opener":"after-loser","end":"last-standing","turn_seconds":60}`
	if string(b) != want {
		t.Errorf("json = %s\nwant   %s", b, want)
	}
	var back Options
	if err := json.Unmarshal(b, &back); err != nil || back != DefaultOptions() {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	if got := keys(t, b); !reflect.DeepEqual(got, []string{"end", "equal_claims", "lives", "low_claim", "mia_pass",
		"mia_penalty", "mia_penalty_both", "mia_reveal", "next_opener", "pass", "ranking", "turn_seconds"}) {
		t.Errorf("keys %v", got)
	}
	m, _ := Preset(PresetMaexchen)
	b, _ = json.Marshal(m)
	const wantM = `{"ranking":"classic","lives":1,"pass":false,"equal_claims":false,"mia_penalty":2,"mia_penalty_both":false,` +
		`"mia_pass":"off","mia_reveal":"at-once","low_claim":"loses","next_opener":"after-loser","end":"first-out","turn_seconds":60,"preset":"maexchen"}`
	if string(b) != wantM {
		t.Errorf("json = %s\nwant   %s", b, wantM)
	}
	back = Options{}
	if err := json.Unmarshal(b, &back); err != nil || back != m {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	o := rules(func(o *Options) { o.Ranking, o.MiaPass, o.NextOpener = Pips, MiaPassWins, BeforeLoser })
	b, _ = json.Marshal(o)
	if back = (Options{}); json.Unmarshal(b, &back) != nil || back != o ||
		!strings.Contains(string(b), `"ranking":"pips"`) || !strings.Contains(string(b), `"mia_pass":"wins"`) ||
		!strings.Contains(string(b), `"next_opener":"before-loser"`) {
		t.Errorf("%s came back as %+v", b, back)
	}
}

// TestOptionsStoredBefore reads a rules object stored before mia-pass,
// mia-reveal and low-claim existed: it means the defaults, validates, and
// plays as before; an Options value built without them does too.
func TestOptionsStoredBefore(t *testing.T) {
	const old = `{"ranking":"numeric","lives":3,"pass":true,"equal_claims":false,"mia_penalty":1,` +
		`"mia_penalty_both":true,"next_opener":"loser","end":"first-out","turn_seconds":20}`
	var o Options
	if err := json.Unmarshal([]byte(old), &o); err != nil {
		t.Fatal(err)
	}
	want := Options{Ranking: Numeric, Lives: 3, Pass: true, MiaPenalty: 1, MiaPenaltyBoth: true,
		MiaPass: MiaPassOff, MiaReveal: MiaRevealChallenge, LowClaim: LowClaimRefused,
		NextOpener: Loser, End: FirstOut, TurnSeconds: 20}
	if o != want {
		t.Fatalf("old rules read as %+v, want %+v", o, want)
	}
	if err := o.Validate(); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(o)
	if !strings.Contains(string(b), `"mia_pass":"off","mia_reveal":"challenge","low_claim":"refused"`) {
		t.Errorf("written again as %s", b)
	}
	// In Go, the zero values of the new options are their defaults.
	bare := want
	bare.MiaPass, bare.MiaReveal, bare.LowClaim = "", "", ""
	if err := bare.Validate(); err != nil {
		t.Fatal(err)
	}
	g, _, err := New(bare, 3, script(0, 21))
	if err != nil || g.Options() != want {
		t.Fatalf("New(%+v) = options %+v, %v", bare, g.Options(), err)
	}
	tb := &table{t: t, g: g}
	tb.do(roll(0))
	tb.do(claim(0, Mia))
	tb.refuse(pass(1), ErrMustAnswerMia) // mia-pass off
	lost(t, tb.do(challenge(1)), 1, 1)   // mia-penalty 1, the Mia was there
	// A bad rules object is an error, not a half-read value.
	if err := json.Unmarshal([]byte(`{"lives":"six"}`), &o); err == nil {
		t.Error("lives as a string accepted")
	}
}

// TestPresets checks RULES.md "Presets".
func TestPresets(t *testing.T) {
	if got := PresetNames(); !reflect.DeepEqual(got, []string{"classic", "maexchen"}) {
		t.Errorf("PresetNames() = %v", got)
	}
	c, err := Preset("classic")
	want := DefaultOptions()
	want.Preset = "classic"
	if err != nil || c != want {
		t.Errorf("Preset(classic) = %+v, %v", c, err)
	}
	m, err := Preset("maexchen")
	want = DefaultOptions()
	want.Lives, want.Pass, want.MiaReveal, want.LowClaim, want.End, want.Preset = 1, false, MiaRevealAtOnce, LowClaimLoses, FirstOut, "maexchen"
	if err != nil || m != want || m.Ranking != Classic {
		t.Errorf("Preset(maexchen) = %+v, %v", m, err)
	}
	for _, p := range PresetNames() {
		o, _ := Preset(p)
		if err := o.Validate(); err != nil {
			t.Errorf("preset %s does not validate: %v", p, err)
		}
	}
	for _, bad := range []string{"", "Maexchen", "mäxchen", "meyer"} {
		var oe *OptionError
		if o, err := Preset(bad); !errors.As(err, &oe) || oe.Option != "preset" || o != (Options{}) {
			t.Errorf("Preset(%q) = %+v, %v", bad, o, err)
		}
	}
}

func TestCryptoSource(t *testing.T) {
	var seen [6]int
	var src Source = CryptoSource{}
	for range 600 {
		seen[src.Intn(6)]++
	}
	for i, n := range seen {
		if n == 0 {
			t.Errorf("crypto dice never showed %d in 600 rolls", i+1)
		}
	}
	if src.Intn(1) != 0 {
		t.Error("Intn(1) != 0")
	}
	defer func() {
		if recover() == nil {
			t.Error("Intn(0) did not panic")
		}
	}()
	src.Intn(0)
}
