package command

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
)

// joinCommand is `join NAME CODE`.
var joinCommand = Command{
	Name:    "join",
	Args:    "NAME CODE",
	Summary: "joins a private table with an invite code",
	JSON:    true,
	Run:     runJoin,
}

// JoinJSON is the document of `join --json`.
type JoinJSON struct {
	Table string `json:"table"`
	Play  string `json:"play"`
}

func runJoin(ctx context.Context, c *Call) int {
	if len(c.Args) != 2 || strings.HasPrefix(c.Args[0], "-") || strings.HasPrefix(c.Args[1], "-") {
		return c.Usage()
	}
	if !c.needLobby() {
		return ExitRefused
	}
	name, code := c.Args[0], strings.ToLower(strings.TrimSpace(c.Args[1]))
	// An unknown table and a wrong code get the same answer (Lobby.Redeem),
	// so that nobody learns the names of private tables by guessing.
	refuse := func() int {
		return c.Refuse("no private table %s takes that invite code (unknown, used or expired)", words.Echo(name))
	}
	t, err := c.cfg.Lobby.Redeem(ctx, c.lobbyPlayer(), name, code)
	switch {
	case errors.Is(err, lobby.ErrBadInvite):
		c.cfg.Log.Info("invite refused", "table", words.Clean(name, lobby.MaxNameLen), "person", c.Person.ID)
		return refuse()
	case errors.Is(err, lobby.ErrMember):
		return c.Refuse("you are a member of %s already (this code was not spent)", t.Name())
	case err != nil:
		return c.fail("join the table", err)
	}
	c.cfg.Log.Info("joined", "table", t.Name(), "person", c.Person.ID)
	play := c.Session.Hint("-t") + " play " + t.Name()
	if c.JSON {
		return c.WriteJSON(JoinJSON{Table: t.Name(), Play: play})
	}
	fmt.Fprintf(c.Stdout, "You are a member of %s now. Sit down with:\n  %s\n", t.Name(), play)
	return ExitOK
}
