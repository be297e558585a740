package sshapp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/charmbracelet/ssh"

	"github.com/mia-game/mia/store"
)

// banCommand and unbanCommand are for server admins.
var (
	banCommand = Command{
		Name:    "ban",
		Args:    "[PLAYER|FINGERPRINT]",
		Summary: "server admins: keeps a key off the server (closes its sessions); alone, lists the bans",
		JSON:    true,
		Run:     runBan,
	}
	unbanCommand = Command{
		Name:    "unban",
		Args:    "PLAYER|FINGERPRINT",
		Summary: "server admins: lifts a ban",
		JSON:    true,
		Run:     runUnban,
	}
)

// banJSON is the document of `ban --json` and `unban --json`.
type banJSON struct {
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
	p, ok := c.player(ctx, c.Args[0])
	if !ok {
		return ExitRefused
	}
	switch {
	case p.Fingerprint == c.Player.Fingerprint:
		return c.Refuse("you cannot ban yourself")
	case c.srv.IsAdmin(p.Fingerprint):
		return c.Refuse("%s is a server admin; take the key out of the admin keys first", displayName(p))
	}
	b := store.Ban{Fingerprint: p.Fingerprint, Name: p.Name, By: c.Player.Fingerprint, At: c.srv.cfg.Now()}
	if err := recs.Ban(ctx, b); err != nil {
		return c.serverError("save the ban", err)
	}
	closed := c.srv.endSessionsOf(p.Fingerprint, "this key is banned from this server")
	c.srv.log.Warn("banned", "fingerprint", p.Fingerprint, "name", p.Name, "by", c.Player.Name, "sessions", closed)
	if c.JSON {
		return c.WriteJSON(banJSON{Fingerprint: p.Fingerprint, Name: p.Name, At: b.At.UTC(), Sessions: closed, Banned: true})
	}
	fmt.Fprintf(c.Stdout, "Banned %s (%s): the key is refused from now on", displayName(p), clean(p.Fingerprint, 80))
	if closed > 0 {
		fmt.Fprintf(c.Stdout, "; %d open session(s) closed", closed)
	}
	fmt.Fprintf(c.Stdout, ".\nLift it with:  %s\n", c.Hint("unban "+clean(p.Fingerprint, 80)))
	return ExitOK
}

func listBans(ctx context.Context, c *Call, recs Records) int {
	bans, err := recs.Bans(ctx)
	if err != nil {
		return c.serverError("read the bans", err)
	}
	if c.JSON {
		out := struct {
			Bans []banJSON `json:"bans"`
		}{Bans: []banJSON{}}
		for _, b := range bans {
			out.Bans = append(out.Bans, banJSON{Fingerprint: b.Fingerprint, Name: b.Name, At: b.At, Banned: true})
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
		fmt.Fprintf(tw, "%s\t%s\t%s\n", clean(b.Fingerprint, 80), clean(b.Name, store.MaxNameLen), b.At.UTC().Format("2006-01-02 15:04 UTC"))
	}
	_ = tw.Flush()
	return ExitOK
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
	c.srv.log.Warn("unbanned", "fingerprint", p.Fingerprint, "name", p.Name, "by", c.Player.Name)
	if c.JSON {
		return c.WriteJSON(banJSON{Fingerprint: p.Fingerprint, Name: p.Name})
	}
	fmt.Fprintf(c.Stdout, "%s (%s) may connect again.\n", displayName(p), clean(p.Fingerprint, 80))
	return ExitOK
}

// endSessionsOf says goodbye to every open session of a key, and returns
// how many there were.
func (srv *Server) endSessionsOf(fp, reason string) int {
	srv.mu.Lock()
	var of []*session
	for ss := range srv.sessions {
		if ss.fp == fp {
			of = append(of, ss)
		}
	}
	srv.mu.Unlock()
	for _, ss := range of {
		ss.goodbye(reason)
		ss.mu.Lock()
		interactive := ss.program != nil
		ss.mu.Unlock()
		if !interactive {
			_ = ss.Exit(ExitRefused)
		}
	}
	return len(of)
}

// refuseBanned ends a session of a banned key at its start, with a
// message, and reports whether it did. Admin keys are never refused; if
// the bans cannot be read, the key is let in (and the failure logged).
func (srv *Server) refuseBanned(s ssh.Session, fp string) bool {
	recs := srv.records()
	if recs == nil || srv.IsAdmin(fp) {
		return false
	}
	ctx, cancel := context.WithTimeout(s.Context(), 10*time.Second)
	defer cancel()
	_, err := recs.Banned(ctx, fp)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return false
	case err != nil:
		srv.log.Error("ban lookup failed", "fingerprint", fp, "err", err)
		return false
	}
	srv.log.Info("banned key refused", "fingerprint", fp, "remote", remoteIP(s.RemoteAddr()))
	fmt.Fprintln(s.Stderr(), "mia: this key is banned from this server")
	_ = s.Exit(ExitRefused)
	return true
}
