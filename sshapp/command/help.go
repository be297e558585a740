package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/mia-game/mia/lobby/words"
)

// runHelp is `help [COMMAND]`.
func runHelp(_ context.Context, c *Call) int {
	switch len(c.Args) {
	case 0:
		c.r.writeHelp(c.Stdout, c.Session)
		return ExitOK
	case 1:
		if strings.HasPrefix(c.Args[0], "-") {
			return c.Usage()
		}
		cmd := c.r.byName[c.Args[0]]
		if cmd == nil {
			return noCommand(c.Session, c.Args[0])
		}
		writeUsage(c.Stdout, c.Session.Hint(""), cmd.usage())
		for _, l := range words.Wrap(cmd.Summary, HelpWidth-2) {
			fmt.Fprintln(c.Stdout, "  "+l)
		}
		if cmd.More != nil {
			fmt.Fprintln(c.Stdout)
			cmd.More(c)
		}
		return ExitOK
	}
	return c.Usage()
}
