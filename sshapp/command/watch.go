package command

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/sshapp/alerts"
)

const usageTableWatch = "table watch [NAME] [--off] [--json]"

// WatchDoc is the document of `table watch --json`: the tables the caller
// watches now, by name.
type WatchDoc struct {
	Watching []string `json:"watching"`
}

// runTableWatch is `table watch [NAME] [--off]`: be told, on any screen of
// yours, when a table has a seat free; alone, the tables you watch.
func runTableWatch(ctx context.Context, c *Call, args []string) int {
	fs := c.flagSet(usageTableWatch)
	off := fs.Bool("off", false, "stop watching the table")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return ExitUsage
	}
	if len(rest) > 1 || *off && len(rest) == 0 {
		return c.usageError(fs, "table watch takes one table NAME (none to list the tables you watch)")
	}
	if !c.needLobby() || !c.needAlerts() {
		return ExitRefused
	}
	p := c.lobbyPlayer()
	name := ""
	switch {
	case len(rest) == 0:
	case *off:
		if err := c.cfg.Alerts.Unwatch(ctx, p, rest[0]); err != nil {
			return c.fail("stop watching", err)
		}
		name = rest[0]
	default:
		t, err := c.cfg.Alerts.Watch(ctx, p, rest[0])
		if err != nil {
			if errors.Is(err, lobby.ErrNoTable) {
				return c.noTable(rest[0])
			}
			return c.fail("watch the table", err)
		}
		name = t.Name()
	}
	watching, err := c.cfg.Alerts.Watches(ctx, p)
	if err != nil {
		return c.fail("read the tables you watch", err)
	}
	if c.JSON {
		return c.WriteJSON(WatchDoc{Watching: append([]string{}, watching...)})
	}
	switch {
	case name != "" && *off:
		fmt.Fprintf(c.Stdout, "You no longer watch %s.\n", words.Clean(name, 64))
	case name != "":
		writeWrapped(c.Stdout, "", "  ", fmt.Sprintf("You will be told when a seat is free at %s: a notice and a bell on any screen of yours (the lobby's w does the same).", name))
		fmt.Fprintf(c.Stdout, "Stop:  %s\n", c.Hint("table watch "+name+" --off"))
	}
	switch {
	case len(watching) == 0 && name == "":
		fmt.Fprintf(c.Stdout, "You watch no table. Watch one:  %s\n", c.Hint("table watch NAME"))
	case len(watching) > 0:
		writeWrapped(c.Stdout, "", "  ", fmt.Sprintf("You watch %d of at most %d: %s.", len(watching), alerts.MaxWatches, strings.Join(watching, ", ")))
	}
	return ExitOK
}
