package command

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
)

// Seat is one player's place in a live game, as whoami reports it.
type Seat struct {
	Table string `json:"table"`
	Lives int    `json:"lives"`
}

// WhoamiJSON is the document of `whoami --json`.
type WhoamiJSON struct {
	Name        string `json:"name"` // "" until chosen
	Fingerprint string `json:"fingerprint"`
	Admin       bool   `json:"admin"`
	Bot         bool   `json:"bot"`
	Seats       []Seat `json:"seats"` // games in progress
	Games       int    `json:"games"` // games played
	Wins        int    `json:"wins"`
}

func runWhoami(ctx context.Context, c *Call) int {
	if len(c.Args) != 0 {
		return c.Usage()
	}
	var tally store.Tally
	if c.Player.Name != "" {
		t, err := c.cfg.Players.Tally(ctx, c.Player.Fingerprint)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			c.cfg.Log.Error("tally", "fingerprint", c.Player.Fingerprint, "err", err)
			return c.Refuse("could not read your games; please try again later")
		}
		tally = t
	}
	seats := []Seat{}
	if c.cfg.Lobby != nil {
		for _, info := range c.cfg.Lobby.SeatedAt(c.Player.Fingerprint) {
			if info.State != "playing" {
				continue
			}
			for _, p := range info.Players {
				if p.Fingerprint == c.Player.Fingerprint {
					seats = append(seats, Seat{Table: info.Name, Lives: p.Lives})
				}
			}
		}
	}
	if c.JSON {
		return c.WriteJSON(WhoamiJSON{
			Name: c.Player.Name, Fingerprint: c.Player.Fingerprint, Admin: c.Admin, Bot: c.Player.Bot,
			Seats: seats, Games: tally.Games, Wins: tally.Wins,
		})
	}
	tw := tabwriter.NewWriter(c.Stdout, 0, 4, 2, ' ', 0)
	name := c.Player.Name
	if name == "" {
		name = "(none yet; choose one:  " + c.Hint("name NEW") + ")"
	}
	fmt.Fprintf(tw, "name\t%s\n", name)
	fmt.Fprintf(tw, "fingerprint\t%s\n", c.Player.Fingerprint)
	if c.Admin {
		fmt.Fprintf(tw, "admin\tyes\n")
	}
	fmt.Fprintf(tw, "playing\t%s\n", describeSeats(seats))
	fmt.Fprintf(tw, "games\t%d played, %d won\n", tally.Games, tally.Wins)
	_ = tw.Flush()
	return ExitOK
}

func describeSeats(seats []Seat) string {
	if len(seats) == 0 {
		return "no game right now"
	}
	parts := make([]string, len(seats))
	for i, s := range seats {
		parts[i] = fmt.Sprintf("%s (%s)", lobby.Clean(s.Table, lobby.MaxNameLen), lobby.Plural(s.Lives, "1 life", "lives"))
	}
	return strings.Join(parts, ", ")
}
