package command

import (
	"context"
	"fmt"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby/words"
)

// TableJSON is one table of `tables --json`.
type TableJSON struct {
	Name    string         `json:"name"`
	Host    string         `json:"host"` // the host's display name
	Seats   int            `json:"seats"`
	Taken   int            `json:"taken"`
	State   string         `json:"state"` // "waiting" or "playing"
	Private bool           `json:"private"`
	Rules   engine.Options `json:"rules"`
}

// TablesJSON is the document of `tables --json`.
type TablesJSON struct {
	Tables []TableJSON `json:"tables"`
}

func runTables(_ context.Context, c *Call) int {
	if len(c.Args) != 0 {
		return c.Usage()
	}
	if !c.needLobby() {
		return ExitRefused
	}
	out := TablesJSON{Tables: []TableJSON{}}
	for _, info := range c.cfg.Lobby.Tables(c.viewer()) { // the tables the caller may see, by name
		out.Tables = append(out.Tables, docOf(info))
	}
	if c.JSON {
		return c.WriteJSON(out)
	}
	if len(out.Tables) == 0 {
		fmt.Fprintln(c.Stdout, "No open tables.")
		return ExitOK
	}
	rows := make([][]string, len(out.Tables))
	for i, t := range out.Tables {
		state := t.State
		if t.Private {
			state += ", private"
		}
		rows[i] = []string{t.Name, t.Host, fmt.Sprintf("%d/%d", t.Taken, t.Seats), state, words.RulesSummary(t.Rules)}
	}
	writeTable(c.Stdout, []string{"NAME", "HOST", "SEATS", "STATE", "RULES"}, rows, "  ")
	return ExitOK
}
