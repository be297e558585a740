package command

import (
	"context"
	"strings"

	"github.com/mia-game/mia/lobby/words"
)

// runPlay is `play [TABLE]`: the game screen, straight to TABLE if given.
func runPlay(_ context.Context, c *Call) int {
	if len(c.Args) > 1 {
		return c.Usage()
	}
	if _, _, ok := c.Session.Pty(); !ok && WantsPlain(c.Session, c.Person) {
		c.Session.Plain(strings.Join(c.Args, ""))
		return ExitOK
	}
	if _, _, ok := c.Session.Pty(); !ok {
		line := "play"
		if len(c.Args) == 1 {
			line += " " + c.Args[0]
		}
		return c.Refuse("the game screen needs a terminal:  %s %s (or, for a screen reader or a simple terminal, the plain mode:  %s)",
			c.Session.Hint("-t"), words.Clean(line, 64), c.Hint("plain "+words.Clean(line, 64)))
	}
	table := ""
	if len(c.Args) == 1 {
		table = c.Args[0]
	}
	c.Session.Play(table)
	return ExitOK
}
