package command

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/ident"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/store"
)

// The Mäxchen gateway's bans: `ban maexchen:NAME` bans the bot NAME, the
// key-less person "maexchen:NAME" (it goes the way of every ban of a
// person, in ban.go; the name read by the one name rule,
// lobby.ParseUDPBan), and `ban udp:ADDRESS` (or udp:NETWORK in CIDR) the
// addresses bots write from, a ban of its own kind (store.Ban.UDP). The
// gateway reads them at its next heartbeat: a bot they cover is dropped
// and told REJECTED;BANNED, and so is every registration after.

// isUDPBot reports whether id is a bot of the Mäxchen gateway.
func isUDPBot(id string) bool {
	_, ok := ident.KeylessName(id)
	return ok && strings.HasPrefix(id, ident.UDPBotPrefix)
}

// gatewayTold is what a ban or unban of the gateway's senders says of
// when it applies.
const gatewayTold = "from the Mäxchen gateway's next heartbeat, within seconds, it is dropped if registered and its registrations are refused (REJECTED;BANNED)"

// banUDP is `ban udp:ADDRESS`.
func banUDP(ctx context.Context, c *Call, recs Records, b lobby.UDPBan) int {
	sb := store.Ban{UDP: b.Addresses(), By: c.Key, At: c.cfg.Now()}
	if err := recs.Ban(ctx, sb); err != nil {
		return c.fail("save the ban", err)
	}
	c.cfg.Log.Warn("banned", "udp", sb.UDP, "by", c.Key)
	if c.JSON {
		return c.WriteJSON(BanJSON{UDP: sb.UDP, At: sb.At.UTC(), Banned: true})
	}
	writeWrapped(c.Stdout, "", "", fmt.Sprintf("Banned %s: %s.", words.Clean(b.String(), 100), gatewayTold))
	writeHint(c.Stdout, "Lift it with:", c.Hint("unban "+words.Clean(sb.Target(), 100)))
	return ExitOK
}

// unbanUDP is `unban udp:ADDRESS`.
func unbanUDP(ctx context.Context, c *Call, recs Records, b lobby.UDPBan) int {
	err := recs.Unban(ctx, b.Target())
	switch {
	case errors.Is(err, store.ErrNotFound):
		return c.Refuse("%s is not banned", words.Clean(b.String(), 100))
	case err != nil:
		return c.fail("lift the ban", err)
	}
	c.cfg.Log.Warn("unbanned", "udp", b.Addresses(), "by", c.Key)
	if c.JSON {
		return c.WriteJSON(BanJSON{UDP: b.Addresses()})
	}
	writeWrapped(c.Stdout, "", "", upperFirst(words.Clean(b.String(), 100))+" may register again.")
	return ExitOK
}

// upperFirst capitalises the first letter of an ASCII sentence.
func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
