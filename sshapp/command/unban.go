package command

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
)

// unbanCommand is for server admins.
var unbanCommand = Command{
	Name:    "unban",
	Args:    "PLAYER|FINGERPRINT|maexchen:NAME|udp:ADDRESS",
	Summary: "server admins: lifts a ban",
	JSON:    true,
	Run:     runUnban,
}

func runUnban(ctx context.Context, c *Call) int {
	if len(c.Args) != 1 || strings.HasPrefix(c.Args[0], "-") {
		return c.Usage()
	}
	if !c.Admin {
		return c.Refuse("only server admins may lift bans")
	}
	recs := c.records()
	if recs == nil {
		return ExitRefused
	}
	if b, udp, err := lobby.ParseUDPBan(c.Args[0]); udp {
		return unbanUDP(ctx, c, recs, b, err)
	}
	p, ok := c.player(ctx, c.Args[0])
	if !ok {
		return ExitRefused
	}
	err := recs.Unban(ctx, p.Fingerprint)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return c.Refuse("%s is not banned", displayName(p))
	case err != nil:
		return c.serverError("lift the ban", err)
	}
	c.cfg.Log.Warn("unbanned", "fingerprint", p.Fingerprint, "name", p.Name, "by", c.Player.Name)
	if c.JSON {
		return c.WriteJSON(BanJSON{Fingerprint: p.Fingerprint, Name: p.Name})
	}
	fmt.Fprintf(c.Stdout, "%s (%s) may connect again.\n", displayName(p), lobby.Clean(p.Fingerprint, 80))
	return ExitOK
}
