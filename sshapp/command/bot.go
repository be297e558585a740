package command

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/sshapp/botline"
)

// botCallTimeout bounds the store call that marks the caller a bot.
const botCallTimeout = 10 * time.Second

// runBot is `bot [TABLE]`: PROTOCOL.md §2 on the session's stdin and
// stdout (package botline). It seats the caller at TABLE (or at the table
// where they are seated already, or at the first public table waiting for
// players) and plays until the bot closes its input or the table closes.
func runBot(_ context.Context, c *Call) int {
	if len(c.Args) > 1 {
		fmt.Fprintln(c.Stdout, botline.ErrorLine("usage: bot [TABLE]"))
		return c.Usage()
	}
	refuse := func(format string, args ...any) int {
		msg := fmt.Sprintf(format, args...)
		fmt.Fprintln(c.Stdout, botline.ErrorLine(msg))
		return c.Refuse("%s", msg)
	}
	if c.Player.Name == "" {
		return refuse("choose a name first:  %s", c.Hint("name NEW"))
	}
	if c.cfg.Lobby == nil {
		return refuse("tables are not available on this server")
	}
	// The command's own context ends after CommandTimeout; a bot plays as
	// long as its connection lasts.
	ctx := c.Session.Context()
	p := c.Player
	if !p.Bot {
		cctx, cancel := context.WithTimeout(ctx, botCallTimeout)
		np, err := c.cfg.Players.SetName(cctx, p.Fingerprint, p.Name, true)
		cancel()
		if err != nil {
			c.cfg.Log.Error("mark bot", "fingerprint", p.Fingerprint, "err", err)
			return refuse("the server could not save your profile; please try again later")
		}
		p = np
		c.Session.SetPlayer(np)
	}
	me := lobby.Player{Fingerprint: p.Fingerprint, Name: p.Name, Bot: true, Admin: c.Admin}
	table := ""
	if len(c.Args) == 1 {
		table = c.Args[0]
	}
	err := botline.Serve(ctx, c.cfg.Bots, c.Session, me, table)
	switch {
	case err == nil:
		return ExitOK
	case !errors.Is(err, botline.ErrEnded):
		fmt.Fprintf(c.Stderr, "mia: %v\n", err)
	}
	return ExitRefused
}
