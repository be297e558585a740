package command

import (
	"context"
	"fmt"
)

// NameJSON is the document of `name NEW --json`.
type NameJSON struct {
	Name        string `json:"name"`
	Previous    string `json:"previous"` // "" for a new player
	Person      string `json:"person"`
	Fingerprint string `json:"fingerprint"` // the key in use
}

func runName(ctx context.Context, c *Call) int {
	if len(c.Args) != 1 {
		return c.Usage()
	}
	p, err := c.Session.Rename(ctx, c.Args[0])
	if err != nil {
		return c.fail("save your name", err)
	}
	if c.JSON {
		return c.WriteJSON(NameJSON{Name: p.Name, Previous: c.Person.Name, Person: p.ID, Fingerprint: c.Key})
	}
	if c.Person.Name == "" || c.Person.Name == p.Name {
		fmt.Fprintf(c.Stdout, "You are %s. Play with:  %s\n", p.Name, c.Session.Hint("-t"))
	} else {
		writeWrapped(c.Stdout, "", "", fmt.Sprintf("You were %s; you are %s now, at every table and in every game you played.", c.Person.Name, p.Name))
	}
	return ExitOK
}
