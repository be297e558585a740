package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/store"
)

// Seat is one player's place in a live game, as whoami reports it.
type Seat struct {
	Table string `json:"table"`
	Lives int    `json:"lives"`
}

// WhoamiJSON is the document of `whoami --json`: the person the key in
// use belongs to (empty person and name for a key that is nobody's yet).
type WhoamiJSON struct {
	Name        string `json:"name"`        // "" until chosen
	Person      string `json:"person"`      // the person's id; "" until a name is chosen
	Fingerprint string `json:"fingerprint"` // the key in use
	Keys        int    `json:"keys"`        // the person's keys (keys lists them)
	Admin       bool   `json:"admin"`       // the key in use is a server admin's
	Seats       []Seat `json:"seats"`       // games in progress
	Games       int    `json:"games"`       // games played
	Wins        int    `json:"wins"`
	Rating      int    `json:"rating"`      // overall, all time: the figure shown (engine/rating)
	Provisional bool   `json:"provisional"` // the model is not sure yet
	RatedGames  int    `json:"rated_games"` // the games the rating counts
}

func runWhoami(ctx context.Context, c *Call) int {
	if len(c.Args) != 0 {
		return c.Usage()
	}
	doc := WhoamiJSON{Name: c.Person.Name, Person: c.Person.ID, Fingerprint: c.Key, Keys: len(c.Person.Keys),
		Admin: c.Admin, Seats: []Seat{}, Rating: rating.Newcomer().Points(), Provisional: true}
	mine := rating.Newcomer()
	if c.Person.ID != "" {
		t, err := c.cfg.Players.Tally(ctx, c.Person.ID)
		if err != nil {
			return c.fail("read your games", err)
		}
		doc.Games, doc.Wins = t.Games, t.Wins
		if recs := c.cfg.Records; recs != nil {
			r, err := recs.Rating(ctx, c.Person.ID, store.Board{Season: rating.AllTime})
			if err != nil {
				return c.fail("read your rating", err)
			}
			mine = r.Rating
			doc.Rating, doc.Provisional, doc.RatedGames = r.Points(), r.Provisional(), r.Games
		}
		if c.cfg.Lobby != nil {
			for _, info := range c.cfg.Lobby.SeatedAt(c.Person.ID) {
				if info.State != "playing" {
					continue
				}
				for _, p := range info.Players {
					if p.ID == c.Person.ID {
						doc.Seats = append(doc.Seats, Seat{Table: info.Name, Lives: p.Lives})
					}
				}
			}
		}
	}
	if c.JSON {
		return c.WriteJSON(doc)
	}
	row := func(label, value string) { writeColumns(c.Stdout, label, value, whoamiColumn) }
	if doc.Person == "" {
		row("name", "(none yet; choose one:  "+c.Hint("name NEW")+")")
		row("key", c.Key)
		row("", "playing from another machine already? There:")
		row("", "  "+c.Hint("keys add"))
		row("", "then here:  "+c.Hint("keys join CODE"))
	} else {
		row("name", fmt.Sprintf("%s (%s)", words.Clean(doc.Name, lobby.MaxNameLen), doc.Person))
		if doc.Keys == 1 {
			row("key", c.Key+" (your only key)")
		} else {
			row("key", fmt.Sprintf("%s (one of your %d)", c.Key, doc.Keys))
			row("", "your keys:  "+c.Hint("keys"))
		}
	}
	if c.Admin {
		row("admin", "yes")
	}
	row("playing", describeSeats(doc.Seats))
	row("games", fmt.Sprintf("%d played, %d won", doc.Games, doc.Wins))
	if c.cfg.Records != nil {
		row("rating", fmt.Sprintf("%s overall, after %s", words.Figure(mine), words.Plural(doc.RatedGames, "1 rated game", "rated games")))
	}
	return ExitOK
}

// whoamiColumn is where whoami's values start.
const whoamiColumn = 9

func describeSeats(seats []Seat) string {
	if len(seats) == 0 {
		return "no game right now"
	}
	parts := make([]string, len(seats))
	for i, s := range seats {
		parts[i] = fmt.Sprintf("%s (%s)", words.Clean(s.Table, lobby.MaxNameLen), words.Plural(s.Lives, "1 life", "lives"))
	}
	return strings.Join(parts, ", ")
}
