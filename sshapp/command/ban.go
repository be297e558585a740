package command

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
)

// banCommand is for server admins.
var banCommand = Command{
	Name:    "ban",
	Args:    "[PLAYER|FINGERPRINT|maexchen:NAME|udp:ADDRESS]",
	Summary: "server admins: keeps a key off the server (closes its sessions), or a Mäxchen bot or UDP address off the gateway; alone, lists the bans",
	JSON:    true,
	Run:     runBan,
}

// BanJSON is the document of `ban --json` and `unban --json`.
type BanJSON struct {
	Fingerprint string    `json:"fingerprint"`
	Name        string    `json:"name"`
	At          time.Time `json:"at,omitzero"`
	Sessions    int       `json:"sessions_closed,omitempty"`
	Banned      bool      `json:"banned"`
}

func runBan(ctx context.Context, c *Call) int {
	if len(c.Args) > 1 || (len(c.Args) == 1 && strings.HasPrefix(c.Args[0], "-")) {
		return c.Usage()
	}
	if !c.Admin {
		return c.Refuse("only server admins may ban")
	}
	recs := c.records()
	if recs == nil {
		return ExitRefused
	}
	if len(c.Args) == 0 {
		return listBans(ctx, c, recs)
	}
	if b, udp, err := lobby.ParseUDPBan(c.Args[0]); udp {
		return banUDP(ctx, c, recs, b, err)
	}
	p, ok := c.player(ctx, c.Args[0])
	if !ok {
		return ExitRefused
	}
	switch {
	case p.Fingerprint == c.Player.Fingerprint:
		return c.Refuse("you cannot ban yourself")
	case c.cfg.IsAdmin(p.Fingerprint):
		return c.Refuse("%s is a server admin; take the key out of the admin keys first", displayName(p))
	}
	b := store.Ban{Fingerprint: p.Fingerprint, Name: p.Name, By: c.Player.Fingerprint, At: c.cfg.Now()}
	if err := recs.Ban(ctx, b); err != nil {
		return c.serverError("save the ban", err)
	}
	closed := c.cfg.EndSessions(p.Fingerprint, "this key is banned from this server")
	c.cfg.Log.Warn("banned", "fingerprint", p.Fingerprint, "name", p.Name, "by", c.Player.Name, "sessions", closed)
	if c.JSON {
		return c.WriteJSON(BanJSON{Fingerprint: p.Fingerprint, Name: p.Name, At: b.At.UTC(), Sessions: closed, Banned: true})
	}
	fmt.Fprintf(c.Stdout, "Banned %s (%s): the key is refused from now on", displayName(p), lobby.Clean(p.Fingerprint, 80))
	if closed > 0 {
		fmt.Fprintf(c.Stdout, "; %d open session(s) closed", closed)
	}
	fmt.Fprintf(c.Stdout, ".\nLift it with:  %s\n", c.Hint("unban "+lobby.Clean(p.Fingerprint, 80)))
	return ExitOK
}

func listBans(ctx context.Context, c *Call, recs Records) int {
	bans, err := recs.Bans(ctx)
	if err != nil {
		return c.serverError("read the bans", err)
	}
	if c.JSON {
		out := struct {
			Bans []BanJSON `json:"bans"`
		}{Bans: []BanJSON{}}
		for _, b := range bans {
			out.Bans = append(out.Bans, BanJSON{Fingerprint: b.Fingerprint, Name: b.Name, At: b.At, Banned: true})
		}
		return c.WriteJSON(out)
	}
	if len(bans) == 0 {
		fmt.Fprintln(c.Stdout, "No key is banned.")
		return ExitOK
	}
	tw := tabwriter.NewWriter(c.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "FINGERPRINT\tNAME\tSINCE")
	for _, b := range bans {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", lobby.Clean(b.Fingerprint, 80), lobby.Clean(b.Name, lobby.MaxNameLen), b.At.UTC().Format("2006-01-02 15:04 UTC"))
	}
	_ = tw.Flush()
	return ExitOK
}
