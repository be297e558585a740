package command

import (
	"context"

	"github.com/mia-game/mia/lobby/words"
)

// runPlay is `play [TABLE | --event NAME]`: the game screen, straight to
// TABLE or to the event's screen if given.
func runPlay(_ context.Context, c *Call) int {
	table, event := "", ""
	switch {
	case len(c.Args) == 2 && (c.Args[0] == "--event" || c.Args[0] == "-event"):
		event = c.Args[1]
	case len(c.Args) == 1 && c.Args[0] != "" && c.Args[0][0] != '-':
		table = c.Args[0]
	case len(c.Args) != 0:
		return c.Usage()
	}
	if _, _, ok := c.Session.Pty(); !ok && WantsPlain(c.Session, c.Person) {
		c.Session.Plain(table, event)
		return ExitOK
	}
	if _, _, ok := c.Session.Pty(); !ok {
		line := "play"
		switch {
		case table != "":
			line += " " + table
		case event != "":
			line += " --event " + event
		}
		return c.Refuse("the game screen needs a terminal:  %s %s (or, for a screen reader or a simple terminal, the plain mode:  %s)",
			c.Session.Hint("-t"), words.Clean(line, 64), c.Hint("plain "+words.Clean(line, 64)))
	}
	c.Session.Play(table, event)
	return ExitOK
}
