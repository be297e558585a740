package command

import (
	"context"
	"errors"
	"fmt"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
)

// The Mäxchen gateway's bans: `ban maexchen:NAME` bans a UDP bot's name,
// `ban udp:ADDRESS` (or udp:NETWORK in CIDR) the addresses it writes from
// (lobby.ParseUDPBan reads both). They are stored as a key's ban is, under
// that form, and the gateway reads them at its next heartbeat: a bot they
// cover is dropped and told REJECTED;BANNED, and so is every registration
// after.

// banUDP is `ban` of a Mäxchen name or UDP address.
func banUDP(ctx context.Context, c *Call, recs Records, b lobby.UDPBan, bad error) int {
	if bad != nil {
		return c.Refuse("%v", bad)
	}
	target := b.Target()
	sb := store.Ban{Fingerprint: target, Name: b.Name, By: c.Player.Fingerprint, At: c.cfg.Now()}
	if err := recs.Ban(ctx, sb); err != nil {
		return c.serverError("save the ban", err)
	}
	c.cfg.Log.Warn("banned", "target", target, "by", c.Player.Name)
	if c.JSON {
		return c.WriteJSON(BanJSON{Fingerprint: target, Name: b.Name, At: sb.At.UTC(), Banned: true})
	}
	fmt.Fprintf(c.Stdout, "Banned %s: from the Mäxchen gateway's next heartbeat, within seconds, it is dropped if registered and its registrations are refused (REJECTED;BANNED).\nLift it with:  %s\n",
		lobby.Clean(b.String(), 100), c.Hint("unban "+lobby.Clean(target, 100)))
	return ExitOK
}

// unbanUDP is `unban` of a Mäxchen name or UDP address.
func unbanUDP(ctx context.Context, c *Call, recs Records, b lobby.UDPBan, bad error) int {
	if bad != nil {
		return c.Refuse("%v", bad)
	}
	target := b.Target()
	err := recs.Unban(ctx, target)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return c.Refuse("%s is not banned", lobby.Clean(b.String(), 100))
	case err != nil:
		return c.serverError("lift the ban", err)
	}
	c.cfg.Log.Warn("unbanned", "target", target, "by", c.Player.Name)
	if c.JSON {
		return c.WriteJSON(BanJSON{Fingerprint: target, Name: b.Name})
	}
	fmt.Fprintf(c.Stdout, "%s may register again.\n", upperFirst(lobby.Clean(b.String(), 100)))
	return ExitOK
}

// upperFirst capitalises the first letter of an ASCII sentence.
func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
