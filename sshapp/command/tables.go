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
	Coach   bool           `json:"coach,omitempty"` // a practice table: not rated, each player's moves judged
	Rules   engine.Options `json:"rules"`
	// Paused says why the table takes no moves while the server's
	// storage does not save ("the server's disk is full: moves wait");
	// absent while it plays. Resting: a table of bots nobody had open
	// that starts no game until someone opens it.
	Paused  string `json:"paused,omitempty"`
	Resting bool   `json:"resting,omitempty"`
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
		state := words.TableState(t.State, t.Paused != "", t.Resting)
		if t.Private {
			state += ", private"
		}
		if t.Coach {
			state += ", coached"
		}
		rows[i] = []string{t.Name, t.Host, fmt.Sprintf("%d/%d", t.Taken, t.Seats), state, words.RulesSummary(t.Rules)}
	}
	writeTable(c.Stdout, []string{"NAME", "HOST", "SEATS", "STATE", "RULES"}, rows, "  ")
	return ExitOK
}
