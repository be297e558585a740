package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
)

// seedCommand is `seed TABLE [TEXT…|--none]`.
var seedCommand = Command{
	Name: "seed",
	Args: "TABLE [TEXT…|--none]",
	Summary: "adds your seed to the dice of a table's next game (--none takes it back); " +
		"without TEXT, the server's commitment and the seeds given",
	JSON: true,
	Run:  runSeed,
}

// SeedJSON is the document of `seed --json`: the table's dice as everyone
// there may know them.
type SeedJSON struct {
	Table      string          `json:"table"`
	Game       string          `json:"game"` // "next", or "running" while a game runs
	Commitment string          `json:"commitment"`
	Seeds      []SeedGivenJSON `json:"seeds"`
	Yours      *string         `json:"yours"` // null: none given
}

// SeedGivenJSON is one seed given at a table, by the person who gave it
// (their name now); it counts when they are seated for the game.
type SeedGivenJSON struct {
	Name   string `json:"name"`
	Person string `json:"person"`
	Seed   string `json:"seed"`
	Seated bool   `json:"seated"`
}

func runSeed(ctx context.Context, c *Call) int {
	if len(c.Args) == 0 || strings.HasPrefix(c.Args[0], "-") {
		return c.Usage()
	}
	words, none := stripFlag(c.Args[1:], "--none")
	if none && len(words) > 0 {
		return c.usageSaying(c.cmd.usage(), "--none and a TEXT do not go together")
	}
	t, _, ok := c.openTable(c.Args[0])
	if !ok {
		return ExitRefused
	}
	if none || len(words) > 0 {
		if _, err := t.SetSeed(ctx, c.lobbyPlayer(), strings.Join(words, " ")); err != nil {
			return c.fail("save the seed", err)
		}
	}
	info := t.Info()
	f := info.Fair
	doc := SeedJSON{Table: info.Name, Game: "next", Commitment: f.Commitment, Seeds: []SeedGivenJSON{}}
	if !f.Next {
		doc.Game = "running"
	}
	for _, s := range f.Seeds {
		doc.Seeds = append(doc.Seeds, SeedGivenJSON{Name: s.Name, Person: s.ID, Seed: s.Seed, Seated: s.Seated})
	}
	if s, ok := f.Seed(c.Person.ID); ok {
		doc.Yours = &s
	}
	if c.JSON {
		return c.WriteJSON(doc)
	}
	writeTableDice(c, info.Name, f, doc.Yours)
	return ExitOK
}

// writeTableDice tells a table's dice as `seed` shows them.
func writeTableDice(c *Call, table string, f lobby.FairInfo, yours *string) {
	if f.Commitment == "" {
		fmt.Fprintf(c.Stdout, "The game running at %s was dealt before this server committed to its dice.\n", table)
		return
	}
	which := "the next game"
	if !f.Next {
		which = "the game running now"
	}
	fmt.Fprintf(c.Stdout, "Dice of %s at %s:\n", which, table)
	writeColumns(c.Stdout, "  commitment", f.Commitment+" (SHA-256 of the server's secret seed)", diceColumn)
	list := "none given yet"
	if len(f.Seeds) > 0 {
		parts := make([]string, len(f.Seeds))
		for i, s := range f.Seeds {
			parts[i] = fmt.Sprintf("%s %q", s.Name, s.Seed)
			if !s.Seated {
				parts[i] += " (not seated yet)" // it counts only if they sit down
			}
		}
		list = strings.Join(parts, ", ")
	}
	writeColumns(c.Stdout, "  seeds", list, diceColumn)
	mine, _ := f.Yours(c.Person.ID)
	switch {
	case yours != nil:
		writeColumns(c.Stdout, "  yours", fmt.Sprintf("%q: %s", *yours, words.SeedSays(f.Next, mine.Seated)), diceColumn)
	case f.Next:
		writeColumns(c.Stdout, "  yours", "none given (allowed); add one:", diceColumn)
		fmt.Fprintf(c.Stdout, "%s%s\n", strings.Repeat(" ", diceColumn), c.Hint("seed "+table+" TEXT"))
	default:
		writeColumns(c.Stdout, "  yours", "none given", diceColumn)
	}
	fmt.Fprintf(c.Stdout, "When the game ends its seed is revealed:  %s\n", c.Hint("verify GAME"))
}
