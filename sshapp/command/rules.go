package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby/words"
)

// rulesCommand is `rules [TABLE]`.
var rulesCommand = Command{
	Name:      "rules",
	Args:      "[TABLE]",
	Summary:   "the rules a table plays, every option in words; without TABLE the default rules and the presets",
	JSON:      true,
	Anonymous: true,
	Run:       runRules,
}

// RulesDoc is the document of `rules --json`: the rules object of
// PROTOCOL.md §3 and each rule explained; without a table, the default
// rules and every preset's.
type RulesDoc struct {
	Table     string                    `json:"table,omitempty"`
	Seats     int                       `json:"seats,omitempty"`
	Rules     engine.Options            `json:"rules"`
	Explained []words.RuleText          `json:"explained"`
	Presets   map[string]engine.Options `json:"presets,omitempty"`
}

func runRules(_ context.Context, c *Call) int {
	if len(c.Args) > 1 || (len(c.Args) == 1 && strings.HasPrefix(c.Args[0], "-")) {
		return c.Usage()
	}
	if len(c.Args) == 1 {
		_, info, ok := c.openTable(c.Args[0])
		if !ok {
			return ExitRefused
		}
		if c.JSON {
			return c.WriteJSON(RulesDoc{Table: info.Name, Seats: info.Seats, Rules: info.Rules, Explained: words.ExplainRules(info.Rules)})
		}
		writeWrapped(c.Stdout, "", "", fmt.Sprintf("Rules of %s, %d seats: %s.", info.Name, info.Seats, words.RulesSummary(info.Rules)))
		fmt.Fprintln(c.Stdout)
		fmt.Fprint(c.Stdout, words.FormatRules(info.Rules, HelpWidth))
		return ExitOK
	}
	def := engine.DefaultOptions()
	presets := map[string]engine.Options{}
	for _, name := range engine.PresetNames() {
		presets[name], _ = engine.Preset(name)
	}
	if c.JSON {
		return c.WriteJSON(RulesDoc{Rules: def, Explained: words.ExplainRules(def), Presets: presets})
	}
	writeWrapped(c.Stdout, "", "", fmt.Sprintf("The default rules (%s): %s.", engine.PresetClassic, words.RulesSummary(def)))
	fmt.Fprintln(c.Stdout)
	fmt.Fprint(c.Stdout, words.FormatRules(def, HelpWidth))
	fmt.Fprintln(c.Stdout, "\nPresets: table create NAME --preset P, other options on top.")
	for _, name := range engine.PresetNames() {
		if name == engine.PresetClassic {
			continue
		}
		writeColumns(c.Stdout, "  "+name, words.RulesSummary(presets[name])+".", 12)
	}
	fmt.Fprintln(c.Stdout, "\nEvery option is a flag of table create and table rules:")
	fmt.Fprintf(c.Stdout, "  %s\n", c.Hint("help table"))
	return ExitOK
}
