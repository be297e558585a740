package command

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
)

// UDPNames is what the maexchen command needs from storage: the names of
// the Mäxchen gateway's bots held for the addresses they play from.
// *store.Store implements it.
type UDPNames interface {
	HeldUDPNames(ctx context.Context) ([]store.UDPName, error)
	FreeUDPName(ctx context.Context, name string) error
}

// maexchenCommand is for server admins.
var maexchenCommand = Command{
	Name:    "maexchen",
	Args:    "names | free NAME",
	Summary: "server admins: the Mäxchen bots' names held for their addresses; free NAME lets a bot from any address register it",
	JSON:    true,
	More: func(c *Call) {
		for _, l := range lobby.Wrap("A Mäxchen bot that has played keeps its name for the address it plays from while it is quiet, "+
			"until --maexchen-name-hold (a day by default) after it was last heard, so that no one else plays on under its record. "+
			"maexchen free NAME ends that at once.", HelpWidth) {
			fmt.Fprintln(c.Stdout, l)
		}
	},
	Run: runMaexchen,
}

// UDPNameJSON is one held name in `maexchen names --json`.
type UDPNameJSON struct {
	Name  string    `json:"name"`
	Addr  string    `json:"addr"`
	Heard time.Time `json:"last_heard"`
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
	name := strings.TrimPrefix(c.Args[1], lobby.UDPNamePrefix)
	err := names.FreeUDPName(ctx, name)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return c.Refuse("no address holds the name %s", lobby.Clean(name, 40))
	case err != nil:
		return c.serverError("free the name", err)
	}
	c.cfg.Log.Warn("Mäxchen name freed", "name", name, "by", c.Player.Name)
	if c.JSON {
		return c.WriteJSON(struct {
			Name  string `json:"name"`
			Freed bool   `json:"freed"`
		}{name, true})
	}
	fmt.Fprintf(c.Stdout, "Freed the name %s: a bot from any address may register it now.\n", lobby.Clean(name, 40))
	return ExitOK
}

func listUDPNames(ctx context.Context, c *Call, names UDPNames) int {
	held, err := names.HeldUDPNames(ctx)
	if err != nil {
		return c.serverError("read the names", err)
	}
	if c.JSON {
		out := struct {
			Names []UDPNameJSON `json:"names"`
		}{Names: []UDPNameJSON{}}
		for _, n := range held {
			out.Names = append(out.Names, UDPNameJSON{Name: n.Name, Addr: n.Addr, Heard: n.Heard.UTC()})
		}
		return c.WriteJSON(out)
	}
	if len(held) == 0 {
		fmt.Fprintln(c.Stdout, "No Mäxchen bot's name is held.")
		return ExitOK
	}
	tw := tabwriter.NewWriter(c.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tADDRESS\tLAST HEARD")
	for _, n := range held {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", lobby.Clean(n.Name, 40), lobby.Clean(n.Addr, 60), n.Heard.UTC().Format("2006-01-02 15:04 UTC"))
	}
	_ = tw.Flush()
	return ExitOK
}
