package command

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mia-game/mia/lobby/ident"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/store"
)

// UDPNames is what the maexchen command needs from storage: the names of
// the Mäxchen gateway's bots taken for the addresses they play from.
// *store.Store implements it.
type UDPNames interface {
	HeldUDPNames(ctx context.Context) ([]store.UDPName, error)
	FreeUDPName(ctx context.Context, name string) (store.UDPName, error)
}

// maexchenCommand is for server admins.
var maexchenCommand = Command{
	Name:    "maexchen",
	Args:    "names | free NAME",
	Summary: "server admins: the Mäxchen bots' names taken for their addresses; free NAME lets a bot from any address, or a person, take it",
	JSON:    true,
	More: func(c *Call) {
		for _, l := range words.Wrap("A Mäxchen bot's name is the address's it plays from while the bot is registered, "+
			"and, once it has played, while it is quiet, until --maexchen-name-hold (a day by default) after it was last heard, "+
			"so that no one else plays on under its record; no person may take it, nor a name that looks like it. "+
			"maexchen free NAME ends a hold at once (not while the bot is registered: ban it to drop it).", HelpWidth) {
			fmt.Fprintln(c.Stdout, l)
		}
	},
	Run: runMaexchen,
}

// UDPNameJSON is one name in `maexchen names --json`.
type UDPNameJSON struct {
	Name       string    `json:"name"`
	Person     string    `json:"person"` // the bot's id: maexchen:NAME
	Addr       string    `json:"addr"`
	Heard      time.Time `json:"last_heard"`
	Held       bool      `json:"held"`       // it has played: the name stays the address's after it leaves
	Registered bool      `json:"registered"` // the bot is registered now
}

func runMaexchen(ctx context.Context, c *Call) int {
	switch {
	case len(c.Args) == 1 && c.Args[0] == "names":
	case len(c.Args) == 2 && c.Args[0] == "free":
	default:
		return c.Usage()
	}
	if !c.Admin {
		return c.Refuse("only server admins may see or free the Mäxchen bots' names")
	}
	names := c.cfg.UDPNames
	if names == nil {
		return c.Refuse("%s is not available on this server", c.cmd.Name)
	}
	if c.Args[0] == "names" {
		return listUDPNames(ctx, c, names)
	}
	name := strings.TrimPrefix(c.Args[1], ident.UDPBotPrefix)
	n, err := names.FreeUDPName(ctx, name)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return c.Refuse("no address holds the name %s, nor one that looks like it", words.Echo(name))
	case errors.Is(err, store.ErrRegistered):
		return c.Refuse("the bot %s is registered now, from %s: its name is its own while it plays; ban it to drop it (%s)",
			words.Clean(n.Name, 40), words.Clean(n.Addr, 60), c.Hint("ban "+ident.UDPBotPrefix+words.Clean(n.Name, 40)))
	case err != nil:
		return c.fail("free the name", err)
	}
	name = n.Name
	c.cfg.Log.Warn("Mäxchen name freed", "name", name, "addr", n.Addr, "by", c.Key)
	if c.JSON {
		return c.WriteJSON(struct {
			Name  string `json:"name"`
			Freed bool   `json:"freed"`
		}{name, true})
	}
	writeWrapped(c.Stdout, "", "", fmt.Sprintf("Freed the name %s (held for %s): a bot from any address may register it now, or a person take it.",
		words.Clean(name, 40), words.Clean(n.Addr, 60)))
	return ExitOK
}

func listUDPNames(ctx context.Context, c *Call, names UDPNames) int {
	held, err := names.HeldUDPNames(ctx)
	if err != nil {
		return c.fail("read the names", err)
	}
	if c.JSON {
		out := struct {
			Names []UDPNameJSON `json:"names"`
		}{Names: []UDPNameJSON{}}
		for _, n := range held {
			out.Names = append(out.Names, UDPNameJSON{Name: n.Name, Person: ident.UDPBotPrefix + n.Name, Addr: n.Addr,
				Heard: n.Heard.UTC(), Held: n.Held, Registered: n.Registered})
		}
		return c.WriteJSON(out)
	}
	if len(held) == 0 {
		fmt.Fprintln(c.Stdout, "No Mäxchen bot's name is taken.")
		return ExitOK
	}
	rows := make([][]string, len(held))
	for i, n := range held {
		state := "held"
		switch {
		case n.Registered && n.Held:
			state = "registered, held"
		case n.Registered:
			state = "registered"
		}
		rows[i] = []string{words.Clean(n.Name, 40), n.Heard.UTC().Format("2006-01-02 15:04"), state, words.Clean(n.Addr, 60)}
	}
	writeTable(c.Stdout, []string{"NAME", "LAST HEARD (UTC)", "NOW", "ADDRESS"}, rows, "  ")
	return ExitOK
}
