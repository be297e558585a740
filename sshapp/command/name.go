package command

import (
	"context"
	"fmt"
)

// NameJSON is the document of `name NEW --json`.
type NameJSON struct {
	Name        string `json:"name"`
	Previous    string `json:"previous"` // "" for a new player
	Fingerprint string `json:"fingerprint"`
}

func runName(ctx context.Context, c *Call) int {
	if len(c.Args) != 1 {
		return c.Usage()
	}
	p, err := c.Session.Rename(ctx, c.Args[0])
	if err != nil {
		return c.Refuse("%v", err)
	}
	if c.JSON {
		return c.WriteJSON(NameJSON{Name: p.Name, Previous: c.Player.Name, Fingerprint: p.Fingerprint})
	}
	if c.Player.Name == "" || c.Player.Name == p.Name {
		fmt.Fprintf(c.Stdout, "You are %s. Play with:  %s\n", p.Name, c.Session.Hint("-t"))
	} else {
		fmt.Fprintf(c.Stdout, "You were %s; you are %s now.\n", c.Player.Name, p.Name)
	}
	return ExitOK
}
