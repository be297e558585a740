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
			// a usage error, as an unknown command is (Router.Run)
			fmt.Fprintf(c.Stderr, "mia: no command %q; run help for the list\n", words.Echo(c.Args[0]))
			return ExitUsage
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
