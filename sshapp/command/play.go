package command

import (
	"context"

	"github.com/mia-game/mia/lobby/words"
)

// runPlay is `play [TABLE]`: the game screen, straight to TABLE if given.
func runPlay(_ context.Context, c *Call) int {
	if len(c.Args) > 1 {
		return c.Usage()
	}
	if _, _, ok := c.Session.Pty(); !ok {
		line := "play"
		if len(c.Args) == 1 {
			line += " " + c.Args[0]
		}
		return c.Refuse("the game screen needs a terminal:  %s %s", c.Session.Hint("-t"), words.Clean(line, 64))
	}
	table := ""
	if len(c.Args) == 1 {
		table = c.Args[0]
	}
	c.Session.Play(table)
	return ExitOK
}
