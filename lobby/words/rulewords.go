package words

import (
	"fmt"
	"strings"

	"github.com/mia-game/mia/engine"
)

// The rules of a table in words. This is their one home: the tables
// list, the rules command, the replay's heading and the screens say a
// rule set the way these functions do.

// RuleWords names a rule set in short phrases: its preset (other than
// classic), ranking and lives, every option that differs from the
// classic rule set, and the turn clock: "classic", "6 lives", "no pass",
// "Mia shown at once", "60s a turn".
func RuleWords(o engine.Options) []string {
	var parts []string
	add := func(on bool, words string) {
		if on {
			parts = append(parts, words)
		}
	}
	add(o.Preset != "" && o.Preset != engine.PresetClassic, "preset "+Clean(o.Preset, 16))
	parts = append(parts, Clean(string(o.Ranking), 32), Plural(o.Lives, "1 life", "lives"))
	add(!o.Pass, "no pass")
	add(o.EqualClaims, "equal claims")
	add(o.MiaPenalty != 2, fmt.Sprintf("mia-penalty %d", o.MiaPenalty))
	add(o.MiaPenaltyBoth, "mia-penalty-both")
	add(o.MiaPass == engine.MiaPassReroll, "Mia may pass (rerolled when back)")
	add(o.MiaPass == engine.MiaPassWins, "Mia may pass (wins when back)")
	add(o.MiaReveal == engine.MiaRevealAtOnce, "Mia shown at once")
	add(o.LowClaim == engine.LowClaimLoses, "low claims lose")
	add(o.NextOpener == engine.Loser, "loser opens")
	add(o.NextOpener == engine.BeforeLoser, "the one before the loser opens")
	add(o.End == engine.FirstOut, "first out")
	return append(parts, fmt.Sprintf("%ds a turn", o.TurnSeconds))
}

// RuleTags names a rule set in as few letters as a list's column allows
// (the turn clock left to the caller): the preset (whose rules it then
// is) or the ranking, the lives, and a tag for each option that differs
// from classic: "pips", "6♥", "Mia wins".
func RuleTags(o engine.Options) []string {
	if o.Preset != "" && o.Preset != engine.PresetClassic {
		return []string{Clean(o.Preset, 16)}
	}
	tags := []string{Clean(string(o.Ranking), 32), fmt.Sprintf("%d♥", o.Lives)}
	add := func(on bool, tag string) {
		if on {
			tags = append(tags, tag)
		}
	}
	add(!o.Pass && !o.EqualClaims, "no pass")
	add(o.EqualClaims, "equal")
	add(o.LowClaim == engine.LowClaimLoses, "low loses")
	add(o.MiaReveal == engine.MiaRevealAtOnce, "Mia at once")
	add(o.MiaPass == engine.MiaPassReroll, "Mia reroll")
	add(o.MiaPass == engine.MiaPassWins, "Mia wins")
	add(o.MiaPenalty != 2, fmt.Sprintf("Mia −%d", o.MiaPenalty))
	add(o.MiaPenaltyBoth, "Mia both")
	add(o.NextOpener == engine.Loser, "loser opens")
	add(o.NextOpener == engine.BeforeLoser, "before-loser")
	add(o.End == engine.FirstOut, "first out")
	return tags
}

// PresetKept is o with its preset's name kept only while its rules are
// the preset's, the turn clock aside: a preset with other options on top
// is no longer that preset.
func PresetKept(o engine.Options) engine.Options {
	if o.Preset == "" {
		return o
	}
	p, err := engine.Preset(o.Preset)
	if err != nil {
		return o // an unknown name, for Validate to refuse
	}
	p.TurnSeconds = o.TurnSeconds
	if p != o {
		o.Preset = ""
	}
	return o
}

// RulesSummary is RuleWords in one line: "pips, 6 lives, Mia may pass
// (wins when back), 60s a turn".
func RulesSummary(o engine.Options) string { return strings.Join(RuleWords(o), ", ") }

// OptionWords say an option where it is chosen: Hint, a few words beside
// it in the create form (at most MaxHintLen characters), and Help, what
// its flag of table create and table rules sets, whole (the flag lists
// the values apart). What each value does is ExplainRules'.
type OptionWords struct {
	Hint, Help string
}

// MaxHintLen is the longest OptionWords.Hint, the room beside a row of
// the create form at 80 columns.
const MaxHintLen = 38

// optionWords are OptionWords by option, as RULES.md and the flags name
// the options ("seats", not an option of the rules, is here too: it is
// chosen with them).
var optionWords = map[string]OptionWords{
	"preset":           {"a named rule set; change any on top", "start from a preset's rules, the other options given going on top"},
	"seats":            {"2–12 players; starts when all sit", "the seats at the table"},
	"lives":            {"lives each, 1–9", "the lives each player starts with"},
	"ranking":          {"the order of the rolls (below)", "the order of the values"},
	"pass":             {"hand the cup on without rolling", "a claim may be passed on without rolling"},
	"equal-claims":     {"a claim may equal the last (no pass)", "a claim may equal the last one (passing is then off)"},
	"low-claim":        {"a too-low claim: refused, or loses", "a claim not above the last is refused, or stands and costs its announcer a life"},
	"mia-reveal":       {"Mia shown when challenged, or at once", "a Mia is looked at when challenged, or at once when announced"},
	"mia-penalty":      {"a wrong challenge of a true Mia costs", "the lives a wrong challenge of a true Mia costs"},
	"mia-penalty-both": {"any loss in a Mia round costs as much", "every life lost in a round whose claim is Mia costs the Mia penalty"},
	"mia-pass": {"a Mia passed on, back at its roller", "whether a Mia may be passed on, and what happens when it comes back to " +
		"its roller: off, it may not; reroll, they roll again; wins, everyone else loses a life"},
	"next-opener":  {"who opens the next round", "who opens the round after a life is lost"},
	"end":          {"when the game ends", "when the game ends: with the last one standing, or the first one out"},
	"turn-seconds": {"per turn; out of time loses a life", "the seconds each turn lasts; a player out of time loses a life"},
}

// OptionSays is the words of an option where it is chosen; the zero
// OptionWords for a name that is no option.
func OptionSays(option string) OptionWords { return optionWords[option] }

// RuleText is one rule of a rule set explained: the option's name as
// RULES.md and the flags write it ("" for the rules every table plays),
// its value, and what it means at this table.
type RuleText struct {
	Option string `json:"option,omitempty"`
	Value  string `json:"value,omitempty"`
	Text   string `json:"text"`
}

// ExplainRules explains a rule set, the game first and then every option
// with its value, in sentences.
func ExplainRules(o engine.Options) []RuleText {
	rk := o.Ranking
	order := make([]string, 0, 21)
	for _, v := range rk.Claims() {
		order = append(order, rk.Name(v))
	}
	ranking := "Values, highest first: " + strings.Join(order, " > ") + "."
	switch rk {
	case engine.Pips:
		ranking += " Mia and the doubles rank as in classic; every other roll counts the sum of its dice:" +
			" 63 and 54 are both 9 pips."
	case engine.LittleMia:
		ranking += " 31 is Little Mia, second only to Mia."
	}
	out := []RuleText{
		{Text: gameText(o)},
		{"ranking", string(rk), ranking},
		{"lives", fmt.Sprint(o.Lives), fmt.Sprintf("Each player starts with %s; at 0 a player is out.",
			Plural(o.Lives, "1 life", "lives"))},
	}
	add := func(option, value, text string) { out = append(out, RuleText{option, value, text}) }
	if o.Pass {
		add("pass", "on", "Instead of rolling, a player may hand the cup on, announcing the same value "+
			"or a higher one (a blind raise); the passer answers for the claim from then on. "+
			"Who rolled the dice in the cup may not pass them at the same value.")
	} else {
		add("pass", "off", "No passing: each player challenges, or rolls and announces.")
	}
	if o.EqualClaims {
		add("equal-claims", "on", "An announcement may equal the claim before it.")
	} else {
		add("equal-claims", "off", "An announcement must beat the claim before it.")
	}
	if o.LowClaim == engine.LowClaimLoses {
		add("low-claim", "loses", "An announcement that does not beat the claim stands and costs its "+
			"announcer a life at once, ending the round; so does a challenge before anything is claimed.")
	} else {
		add("low-claim", "refused", "An announcement that does not beat the claim is refused; "+
			"the player announces again.")
	}
	if o.MiaReveal == engine.MiaRevealAtOnce {
		add("mia-reveal", "at-once", "A Mia is revealed the moment it is announced: if the dice show Mia, "+
			"every other player loses a life; if not, the announcer does. The round ends.")
	} else {
		add("mia-reveal", "challenge", "A Mia is looked at only when someone challenges it.")
	}
	add("mia-penalty", fmt.Sprint(o.MiaPenalty), fmt.Sprintf("Challenging a Mia that is there costs %s.",
		Plural(o.MiaPenalty, "1 life", "lives")))
	if o.MiaPenaltyBoth {
		add("mia-penalty-both", "on", fmt.Sprintf("Every life lost in a round whose claim is Mia costs %s: "+
			"a wrong challenge, a caught Mia bluff, giving up, running out of time.", Plural(o.MiaPenalty, "1 life", "lives")))
	} else {
		add("mia-penalty-both", "off", "Other losses in a round whose claim is Mia cost 1 life.")
	}
	switch o.MiaPass {
	case engine.MiaPassReroll:
		add("mia-pass", "reroll", "A Mia may be passed on unchanged, blind. If it comes back to the player "+
			"who rolled it, that player challenges the last passer or rolls again and announces anew; "+
			"nobody loses a life.")
	case engine.MiaPassWins:
		add("mia-pass", "wins", "A Mia may be passed on unchanged. If it comes back to the player who "+
			"rolled it, every other player loses a life and that player opens the next round.")
	default:
		add("mia-pass", "off", "A Mia may not be passed on.")
	}
	opener := map[engine.NextOpener]string{
		engine.AfterLoser:  "the next living player after the one who lost a life",
		engine.Loser:       "the player who lost a life (or, if out, the next living player)",
		engine.BeforeLoser: "the living player before the one who lost a life",
	}[o.NextOpener]
	text := "The first opener is drawn at random; each next round is opened by " + opener + "."
	if o.MiaReveal == engine.MiaRevealAtOnce || o.MiaPass == engine.MiaPassWins {
		text += " After a Mia that made several players lose, its roller opens."
	}
	add("next-opener", string(o.NextOpener), text)
	if o.End == engine.FirstOut {
		add("end", "first-out", "The game ends when the first player has no lives left; the player "+
			"with the most lives wins (ties: the lower seat).")
	} else {
		add("end", "last-standing", "The game goes on until one player has lives left: the winner.")
	}
	add("turn-seconds", fmt.Sprint(o.TurnSeconds), fmt.Sprintf("Each turn has %d seconds; a player whose "+
		"time runs out loses a life as if giving up. A player who leaves a game is out.", o.TurnSeconds))
	if o.Preset != "" {
		out = append(out[:1], append([]RuleText{{"preset", o.Preset, presetText(o.Preset)}}, out[1:]...)...)
	}
	return out
}

// gameText is the game in a few sentences, as o plays it.
func gameText(o engine.Options) string {
	higher := "higher than"
	if o.EqualClaims {
		higher = "at least as high as"
	}
	moves := "rolls, looks (or not) and announces a value, true or not, " + higher + " the claim before"
	if o.Pass {
		moves += "; or passes the cup on with the claim"
	}
	mia := "the next player challenges it or gives up a life."
	switch {
	case o.MiaReveal == engine.MiaRevealAtOnce:
		mia = "it is shown the moment it is announced."
	case o.MiaPass == engine.MiaPassWins:
		mia = "the next player challenges it, gives up a life, or passes it on; a Mia passed all the way back to " +
			"its roller costs everyone else a life."
	case o.MiaPass == engine.MiaPassReroll:
		mia = "the next player challenges it, gives up a life, or passes it on; a Mia passed all the way back to " +
			"its roller is rolled again."
	}
	return "Two dice are rolled under a cup and read higher die first (4 and 6 is 64). Each player in turn " + moves +
		"; or calls the last announcer a liar. A challenge lifts the cup: dice lower than the claim cost the " +
		"claimant a life, equal or higher cost the challenger one. Nothing beats Mia (21): " + mia
}

// RulesApart is ExplainRules of only what sets o apart from the classic
// rule set: its preset and each option whose value differs (the turn
// clock included).
func RulesApart(o engine.Options) []RuleText {
	def := map[string]string{}
	for _, r := range ExplainRules(engine.DefaultOptions()) {
		def[r.Option] = r.Value
	}
	var out []RuleText
	for _, r := range ExplainRules(o) {
		if v, ok := def[r.Option]; r.Option != "" && (!ok || v != r.Value) {
			out = append(out, r)
		}
	}
	return out
}

// presetText says where a preset's rules come from.
func presetText(name string) string {
	switch name {
	case engine.PresetMaexchen:
		return "The rules of the Mäxchen bot server: one life, no passing, a Mia shown at once, " +
			"low claims lose, the game ends with the first player out (one round is one game)."
	case engine.PresetClassic:
		return "The default rule set."
	}
	return ""
}

// FormatRules writes ExplainRules as text of at most width columns:
// each option and its value, then its text, indented.
func FormatRules(o engine.Options, width int) string {
	var b strings.Builder
	for _, r := range ExplainRules(o) {
		indent := ""
		if r.Option != "" {
			fmt.Fprintf(&b, "%s: %s\n", r.Option, r.Value)
			indent = "  "
		}
		for _, l := range Wrap(r.Text, width-len(indent)) {
			b.WriteString(indent + l + "\n")
		}
		if r.Option == "" {
			b.WriteString("\n") // the game stands apart from its options
		}
	}
	return b.String()
}

// Wrap breaks text into lines of at most width runes, at spaces (a word
// longer than width stands alone).
func Wrap(text string, width int) []string {
	var lines []string
	line, n := "", 0
	for _, w := range strings.Fields(text) {
		wn := len([]rune(w))
		switch {
		case n == 0:
			line, n = w, wn
		case n+1+wn <= width:
			line, n = line+" "+w, n+1+wn
		default:
			lines = append(lines, line)
			line, n = w, wn
		}
	}
	if n > 0 {
		lines = append(lines, line)
	}
	return lines
}
