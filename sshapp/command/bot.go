package command

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/sshapp/botline"
)

// runBot is `bot [TABLE]`: PROTOCOL.md §2 on the session's stdin and
// stdout (package botline). It seats the caller at TABLE (or at the table
// where they are seated already, or at the first public table waiting for
// players) and plays until the bot closes its input or the table closes.
// The caller sits as a bot at that table: a fact of the seat, kept with
// the game, never a mark on the person, who may play by screen elsewhere;
// a refused bot command changes nothing.
func runBot(_ context.Context, c *Call) int {
	event := ""
	if len(c.Args) == 2 && (c.Args[0] == "--event" || c.Args[0] == "-event") {
		event = c.Args[1]
	}
	if len(c.Args) > 1 && event == "" || len(c.Args) == 1 && strings.HasPrefix(c.Args[0], "-") {
		fmt.Fprintln(c.Stdout, botline.ErrorLine("usage: bot [TABLE | --event NAME]"))
		return c.Usage()
	}
	refuse := func(format string, args ...any) int {
		msg := fmt.Sprintf(format, args...)
		fmt.Fprintln(c.Stdout, botline.ErrorLine(msg))
		return c.Refuse("%s", msg)
	}
	if c.Person.ID == "" {
		return refuse("choose a name first:  %s", c.Hint("name NEW"))
	}
	if c.cfg.Lobby == nil {
		return refuse("tables are not available on this server")
	}
	// The command's own context ends after CommandTimeout; a bot plays as
	// long as its connection lasts.
	ctx := c.Session.Context()
	me := c.lobbyPlayer()
	me.Bot = true
	var err error
	if event != "" {
		err = botline.ServeEvent(ctx, c.cfg.Bots, c.Session, me, event)
	} else {
		table := ""
		if len(c.Args) == 1 {
			table = c.Args[0]
		}
		err = botline.Serve(ctx, c.cfg.Bots, c.Session, me, table)
	}
	switch {
	case err == nil:
		return ExitOK
	case !errors.Is(err, botline.ErrEnded):
		// The bot was told in an ERROR line, and what it hides logged.
		return c.Refuse("%s", lobby.Shown(err))
	}
	return ExitRefused
}
