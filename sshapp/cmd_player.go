package sshapp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/mia-game/mia/store"
)

// whoamiJSON is the document of `whoami --json`.
type whoamiJSON struct {
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
		t, err := c.srv.cfg.Players.Tally(ctx, c.Player.Fingerprint)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			c.srv.log.Error("tally", "fingerprint", c.Player.Fingerprint, "err", err)
			return c.Refuse("could not read your games; please try again later")
		}
		tally = t
	}
	seats := []Seat{}
	if c.srv.cfg.Lobby != nil {
		for _, info := range c.srv.cfg.Lobby.SeatedAt(c.Player.Fingerprint) {
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
		return c.WriteJSON(whoamiJSON{
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
		lives := "lives"
		if s.Lives == 1 {
			lives = "life"
		}
		parts[i] = fmt.Sprintf("%s (%d %s)", clean(s.Table, 64), s.Lives, lives)
	}
	return strings.Join(parts, ", ")
}

// nameJSON is the document of `name NEW --json`.
type nameJSON struct {
	Name        string `json:"name"`
	Previous    string `json:"previous"` // "" for a new player
	Fingerprint string `json:"fingerprint"`
}

func runName(ctx context.Context, c *Call) int {
	if len(c.Args) != 1 {
		return c.Usage()
	}
	p, err := c.srv.setName(ctx, c.Player, c.Args[0])
	if err != nil {
		return c.Refuse("%v", err)
	}
	if c.ss != nil {
		c.ss.setPlayer(p)
	}
	if c.JSON {
		return c.WriteJSON(nameJSON{Name: p.Name, Previous: c.Player.Name, Fingerprint: p.Fingerprint})
	}
	if c.Player.Name == "" || c.Player.Name == p.Name {
		fmt.Fprintf(c.Stdout, "You are %s. Play with:  %s\n", p.Name, c.srv.hint(c.Session, "-t"))
	} else {
		fmt.Fprintf(c.Stdout, "You were %s; you are %s now.\n", c.Player.Name, p.Name)
	}
	return ExitOK
}

// errNameTaken is what a person sees for store.ErrNameTaken.
var errNameTaken = errors.New("that name is taken; choose another")

// setName validates and stores a display name. Its errors are fit to show
// the person: the name rule, a taken name, or a server error.
func (srv *Server) setName(ctx context.Context, p store.Player, name string) (store.Player, error) {
	if !store.ValidName(name) {
		return store.Player{}, store.ErrBadName
	}
	np, err := srv.cfg.Players.SetName(ctx, p.Fingerprint, name, p.Bot)
	switch {
	case errors.Is(err, store.ErrNameTaken):
		return store.Player{}, errNameTaken
	case errors.Is(err, store.ErrBadName):
		return store.Player{}, store.ErrBadName
	case err != nil:
		srv.log.Error("set name", "fingerprint", p.Fingerprint, "err", err)
		return store.Player{}, errors.New("the server could not save your name; please try again later")
	}
	srv.log.Info("name set", "fingerprint", p.Fingerprint, "name", np.Name, "previous", p.Name)
	return np, nil
}
