package command

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
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

func runTables(ctx context.Context, c *Call) int {
	if len(c.Args) != 0 {
		return c.Usage()
	}
	open, err := c.cfg.Players.OpenTables(ctx)
	if err != nil {
		c.cfg.Log.Error("open tables", "err", err)
		return c.Refuse("could not read the tables; please try again later")
	}
	hosts := map[string]string{}
	out := TablesJSON{Tables: []TableJSON{}}
	for _, t := range open {
		if !t.IsOpen() || !(c.Admin || visibleTo(t, c.Player.Fingerprint)) {
			continue
		}
		host, ok := hosts[t.Host]
		if !ok {
			host = "?"
			switch p, err := c.cfg.Players.Player(ctx, t.Host); {
			case err == nil:
				host = p.Name
			case !errors.Is(err, store.ErrNotFound):
				c.cfg.Log.Warn("table host lookup", "table", t.Name, "err", err)
			}
			hosts[t.Host] = host
		}
		taken, state := 0, "waiting"
		if c.cfg.Lobby != nil {
			if lt, err := c.cfg.Lobby.Table(t.Name); err == nil {
				info := lt.Info()
				taken, state = info.Taken, info.State
			}
		}
		out.Tables = append(out.Tables, TableJSON{
			Name: lobby.Clean(t.Name, lobby.MaxNameLen), Host: lobby.Clean(host, lobby.MaxNameLen),
			Seats: t.Seats, Taken: taken, State: lobby.Clean(state, 16), Private: t.Private, Rules: t.Rules,
		})
	}
	slices.SortFunc(out.Tables, func(a, b TableJSON) int {
		return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
	})
	if c.JSON {
		return c.WriteJSON(out)
	}
	if len(out.Tables) == 0 {
		fmt.Fprintln(c.Stdout, "No open tables.")
		return ExitOK
	}
	tw := tabwriter.NewWriter(c.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tHOST\tSEATS\tSTATE\tRULES")
	for _, t := range out.Tables {
		state := t.State
		if t.Private {
			state += ", private"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%s\t%s\n", t.Name, t.Host, t.Taken, t.Seats, state, rulesSummary(t.Rules))
	}
	_ = tw.Flush()
	return ExitOK
}

// visibleTo reports whether fp may see the table: public tables are seen
// by all, private ones by their host and members.
func visibleTo(t store.Table, fp string) bool {
	return !t.Private || t.Host == fp || slices.Contains(t.Members, fp)
}

// rulesSummary names the ranking, lives and turn time, and every option
// that differs from the classic rule set.
func rulesSummary(o engine.Options) string {
	parts := []string{lobby.Clean(string(o.Ranking), 32), countLives(o.Lives)}
	if !o.Pass {
		parts = append(parts, "no pass")
	}
	if o.EqualClaims {
		parts = append(parts, "equal claims")
	}
	if o.MiaPenalty != 2 {
		parts = append(parts, fmt.Sprintf("mia-penalty %d", o.MiaPenalty))
	}
	if o.MiaPenaltyBoth {
		parts = append(parts, "mia-penalty-both")
	}
	if o.NextOpener == engine.Loser {
		parts = append(parts, "loser opens")
	}
	if o.End == engine.FirstOut {
		parts = append(parts, "first out")
	}
	parts = append(parts, fmt.Sprintf("%ds a turn", o.TurnSeconds))
	return strings.Join(parts, ", ")
}

// countLives is "1 life" or "N lives".
func countLives(n int) string {
	if n == 1 {
		return "1 life"
	}
	return fmt.Sprintf("%d lives", n)
}
