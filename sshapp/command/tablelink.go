package command

import (
	"context"
	"fmt"
)

// runTableLink is `table link NAME [--revoke]`: the host's web link to a
// private table, which opens the table and its games on the web to
// whoever holds it until it is revoked; a public table's address needs no
// link.
func runTableLink(ctx context.Context, c *Call, args []string) int {
	fs := c.flagSet(usageTableLink)
	revoke := fs.Bool("revoke", false, "end the link: whoever holds it no longer sees the table or its games")
	words, err := parseFlags(fs, args)
	if err != nil {
		return ExitUsage
	}
	if len(words) != 1 {
		return c.usageError(fs, "table link takes one NAME")
	}
	if c.cfg.Web == nil {
		return c.Refuse("this server has no web window (the server's admin turns it on with mia --http-addr)")
	}
	t, info, ok := c.openTable(words[0])
	if !ok {
		return ExitRefused
	}
	if !info.Private && !*revoke {
		// Anyone may watch a public table: its address is the link.
		url := c.cfg.Web.Table(info.Name, info.Access())
		if c.JSON {
			return c.WriteJSON(TableDoc{Table: docOf(info), URL: url})
		}
		fmt.Fprintf(c.Stdout, "%s is public: anyone may watch it and its games on the web, no link needed:\n  %s\n", info.Name, url)
		return ExitOK
	}
	token, err := t.Link(ctx, c.lobbyPlayer(), *revoke)
	if err != nil {
		return c.fail("link the table", err)
	}
	if *revoke {
		c.cfg.Log.Info("web link revoked", "table", info.Name, "by", c.Person.ID)
		if c.JSON {
			return c.WriteJSON(TableDoc{Table: docOf(info), Revoked: true})
		}
		fmt.Fprintf(c.Stdout, "The web link to %s is ended: it opens neither the table nor its games any more.\n", info.Name)
		fmt.Fprintf(c.Stdout, "A new link (a new address):  %s\n", c.Hint("table link "+info.Name))
		return ExitOK
	}
	a := info.Access()
	a.Link = token
	url := c.cfg.Web.Table(info.Name, a)
	c.cfg.Log.Info("web link shown", "table", info.Name, "by", c.Person.ID)
	if c.JSON {
		return c.WriteJSON(TableDoc{Table: docOf(info), URL: url})
	}
	fmt.Fprintf(c.Stdout, "Web link to %s (private):\n  %s\n", info.Name, url)
	fmt.Fprintln(c.Stdout, "Whoever holds it may watch the table live and see its games, read-only, without a key.")
	fmt.Fprintf(c.Stdout, "It lasts until you end it:  %s\n", c.Hint("table link "+info.Name+" --revoke"))
	return ExitOK
}
