package words

import (
	"strings"
	"testing"

	"github.com/mia-game/mia/engine"
)

// TestRuleWords holds the rules summary: the preset, ranking and lives,
// every option that differs from classic, in words, and the turn clock.
func TestRuleWords(t *testing.T) {
	maex, _ := engine.Preset(engine.PresetMaexchen)
	tests := []struct {
		name string
		o    engine.Options
		edit func(*engine.Options)
		want string
	}{
		{"classic", engine.DefaultOptions(), nil, "classic, 6 lives, 60s a turn"},
		{"every older option", engine.DefaultOptions(), func(o *engine.Options) {
			o.Ranking, o.Lives, o.Pass, o.EqualClaims = engine.Numeric, 1, false, true
			o.MiaPenalty, o.MiaPenaltyBoth, o.NextOpener, o.End, o.TurnSeconds = 1, true, engine.Loser, engine.FirstOut, 5
		}, "numeric, 1 life, no pass, equal claims, mia-penalty 1, mia-penalty-both, loser opens, first out, 5s a turn"},
		{"maexchen", maex, nil, "preset maexchen, classic, 1 life, no pass, Mia shown at once, low claims lose, first out, 60s a turn"},
		{"pips, mia-pass wins, before-loser", engine.DefaultOptions(), func(o *engine.Options) {
			o.Ranking, o.MiaPass, o.NextOpener = engine.Pips, engine.MiaPassWins, engine.BeforeLoser
		}, "pips, 6 lives, Mia may pass (wins when back), the one before the loser opens, 60s a turn"},
		{"mia-pass reroll", engine.DefaultOptions(), func(o *engine.Options) { o.MiaPass = engine.MiaPassReroll },
			"classic, 6 lives, Mia may pass (rerolled when back), 60s a turn"},
		{"the classic preset is not named", engine.DefaultOptions(), func(o *engine.Options) { o.Preset = engine.PresetClassic },
			"classic, 6 lives, 60s a turn"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := tt.o
			if tt.edit != nil {
				tt.edit(&o)
			}
			if got := RulesSummary(o); got != tt.want {
				t.Errorf("RulesSummary = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestExplainRules: every option of RULES.md is explained with its value,
// in sentences that change with it, and FormatRules fits the width.
func TestExplainRules(t *testing.T) {
	options := []string{"ranking", "lives", "pass", "equal-claims", "low-claim", "mia-reveal", "mia-penalty",
		"mia-penalty-both", "mia-pass", "next-opener", "end", "turn-seconds"}
	maex, _ := engine.Preset(engine.PresetMaexchen)
	wins := engine.DefaultOptions()
	wins.Ranking, wins.MiaPass, wins.NextOpener = engine.Pips, engine.MiaPassWins, engine.BeforeLoser
	reroll := engine.DefaultOptions()
	reroll.MiaPass, reroll.Ranking = engine.MiaPassReroll, engine.LittleMia
	tests := []struct {
		name  string
		o     engine.Options
		has   map[string]string // option -> value
		words []string
	}{
		{"classic", engine.DefaultOptions(), map[string]string{"ranking": "classic", "pass": "on", "mia-pass": "off",
			"mia-reveal": "challenge", "low-claim": "refused", "next-opener": "after-loser", "end": "last-standing"},
			[]string{"Mia > 66 > 55", "> 32 > 31.", "may not be passed", "looked at only when someone challenges",
				"the next living player after"}},
		{"maexchen", maex, map[string]string{"preset": "maexchen", "lives": "1", "pass": "off", "mia-reveal": "at-once",
			"low-claim": "loses", "end": "first-out"},
			[]string{"Mäxchen bot server", "every other player loses a life", "stands and costs its announcer",
				"No passing", "first player has no lives left", "its roller opens"}},
		{"pips, mia-pass wins", wins, map[string]string{"ranking": "pips", "mia-pass": "wins", "next-opener": "before-loser"},
			[]string{"double 1s > 11 pips > 10 pips > 9 pips", "> 4 pips.", "63 and 54 are both 9 pips", "comes back to the player who rolled it, every other player",
				"the living player before"}},
		{"little-mia, mia-pass reroll", reroll, map[string]string{"ranking": "little-mia", "mia-pass": "reroll"},
			[]string{"Little Mia", "Mia > 31 > 66", "rolls again and announces anew"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := map[string]string{}
			var all strings.Builder
			for _, r := range ExplainRules(tt.o) {
				if r.Option != "" {
					got[r.Option] = r.Value
				}
				all.WriteString(r.Text + " ")
			}
			for _, opt := range options {
				if _, ok := got[opt]; !ok {
					t.Errorf("option %s is not explained", opt)
				}
			}
			for k, v := range tt.has {
				if got[k] != v {
					t.Errorf("%s: %q, want %q", k, got[k], v)
				}
			}
			for _, w := range tt.words {
				if !strings.Contains(all.String(), w) {
					t.Errorf("the explanation lacks %q:\n%s", w, all.String())
				}
			}
			for _, width := range []int{80, 40} {
				for _, l := range strings.Split(FormatRules(tt.o, width), "\n") {
					if n := len([]rune(l)); n > width {
						t.Errorf("a line of %d runes at width %d: %q", n, width, l)
					}
				}
			}
		})
	}
}

// TestRulesApart explains only what differs from the classic rules.
func TestRulesApart(t *testing.T) {
	maex, _ := engine.Preset(engine.PresetMaexchen)
	wins := engine.DefaultOptions()
	wins.Ranking, wins.MiaPass = engine.Pips, engine.MiaPassWins
	tests := []struct {
		name string
		o    engine.Options
		want []string // option value
	}{
		{"classic", engine.DefaultOptions(), nil},
		{"pips, mia-pass wins", wins, []string{"ranking pips", "mia-pass wins"}},
		{"maexchen", maex, []string{"preset maexchen", "lives 1", "pass off", "low-claim loses", "mia-reveal at-once", "end first-out"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, r := range RulesApart(tt.o) {
				got = append(got, r.Option+" "+r.Value)
			}
			if strings.Join(got, ", ") != strings.Join(tt.want, ", ") {
				t.Errorf("RulesApart = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestRulesToldWhereChosen: the game in words follows the options (a
// table of mia-pass wins does not say that Mia must be challenged or
// given up), and every option has its few words for the form (they fit
// beside its row) and its whole sentence for its flag.
func TestRulesToldWhereChosen(t *testing.T) {
	d := engine.DefaultOptions()
	wins, reroll, atOnce, equal := d, d, d, d
	wins.MiaPass, reroll.MiaPass, atOnce.MiaReveal = engine.MiaPassWins, engine.MiaPassReroll, engine.MiaRevealAtOnce
	equal.EqualClaims, equal.Pass = true, false
	for _, c := range []struct {
		name      string
		o         engine.Options
		want, not []string
	}{
		{"classic", d, []string{"the next player challenges it or gives up a life.", "passes the cup on"}, nil},
		{"mia-pass wins", wins, []string{"or passes it on; a Mia passed all the way back to its roller costs everyone else a life"},
			[]string{"challenges it or gives up a life."}},
		{"mia-pass reroll", reroll, []string{"is rolled again"}, []string{"challenges it or gives up a life."}},
		{"mia-reveal at-once", atOnce, []string{"it is shown the moment it is announced"}, []string{"challenges it or gives up"}},
		{"equal claims", equal, []string{"at least as high as the claim before"}, []string{"passes the cup on"}},
	} {
		game := ExplainRules(c.o)[0].Text
		for _, w := range c.want {
			if !strings.Contains(game, w) {
				t.Errorf("%s: the game in words lacks %q: %s", c.name, w, game)
			}
		}
		for _, w := range c.not {
			if strings.Contains(game, w) {
				t.Errorf("%s: the game in words says %q: %s", c.name, w, game)
			}
		}
	}
	maex, _ := engine.Preset(engine.PresetMaexchen)
	for _, r := range append(ExplainRules(d), ExplainRules(maex)...) {
		if r.Option == "" {
			continue
		}
		w := OptionSays(r.Option)
		if w.Hint == "" || len([]rune(w.Hint)) > MaxHintLen || w.Help == "" || strings.HasSuffix(w.Help, ";") {
			t.Errorf("option %s is said %+v", r.Option, w)
		}
	}
}
