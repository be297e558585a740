package command

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/store"
)

// unbanCommand is for server admins.
var unbanCommand = Command{
	Name:    "unban",
	Args:    "PLAYER|FINGERPRINT|udp:ADDRESS",
	Summary: "server admins: lifts a ban (of a player: theirs and their keys')",
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
	if ub, udp, err := lobby.ParseUDPBan(c.Args[0]); udp {
		switch {
		case err != nil:
			return c.fail("read the ban", err)
		case ub.Name == "":
			return unbanUDP(ctx, c, recs, ub)
		}
		// A Mäxchen bot is a person: its ban lifted as one's, below.
	}
	w, ok := c.player(ctx, c.Args[0])
	if !ok {
		return ExitRefused
	}
	// A fingerprint lifts that key's ban; a player's name or id lifts
	// theirs and the bans of each of their keys.
	targets := []string{w.Key}
	if w.Key == "" {
		targets = []string{w.ID}
		for _, k := range w.Keys {
			targets = append(targets, k.Fingerprint)
		}
	}
	lifted := 0
	for _, t := range targets {
		err := recs.Unban(ctx, t)
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return c.fail("lift the ban", err)
		default:
			lifted++
		}
	}
	if lifted == 0 {
		if w.Key != "" && w.ID != "" {
			if _, err := recs.BanOf(ctx, w.ID); err == nil {
				return c.Refuse("the key is %s's, who is banned: lift that with  %s", w.shown(), c.Hint("unban "+w.ID))
			}
		}
		return c.Refuse("%s is not banned", w.shown())
	}
	c.cfg.Log.Warn("unbanned", "person", w.ID, "key", w.Key, "name", w.Name, "by", c.Key)
	if c.JSON {
		doc := BanJSON{Name: w.Name}
		if w.Key != "" {
			doc.Key = w.Key
		} else {
			doc.Person = w.ID
		}
		return c.WriteJSON(doc)
	}
	switch {
	case isUDPBot(w.ID):
		writeWrapped(c.Stdout, "", "", fmt.Sprintf("The Mäxchen bot %s may register again.", w.shown()))
	case w.Key != "":
		writeWrapped(c.Stdout, "", "", fmt.Sprintf("The key %s may connect again.", words.Clean(w.Key, 80)))
	default:
		writeWrapped(c.Stdout, "", "", fmt.Sprintf("%s (%s) may connect again, with every key of theirs.", w.shown(), words.Clean(w.ID, 40)))
	}
	return ExitOK
}
