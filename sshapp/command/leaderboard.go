package command

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
)

const usageLeaderboard = "leaderboard [--table T] [--limit N] [--json]"

// leaderboardCommand is `leaderboard`.
var leaderboardCommand = Command{
	Name:    "leaderboard",
	Args:    "[--table T] [--limit N]",
	Summary: "players ranked by rating (multiplayer Elo), overall or at a table",
	JSON:    true,
	Run:     runLeaderboard,
}

// LeaderboardJSON is the document of `leaderboard --json`.
type LeaderboardJSON struct {
	Table   string       `json:"table"` // "" overall
	Players []RatingJSON `json:"players"`
}

func runLeaderboard(ctx context.Context, c *Call) int {
	fs := c.flagSet(usageLeaderboard)
	table := fs.String("table", "", "ratings at table `T` only")
	limit := fs.Int("limit", 20, "players to list, `N` from 1 to 1000")
	words, err := parseFlags(fs, c.Args)
	if err != nil {
		return ExitUsage
	}
	if len(words) != 0 {
		return c.usageError(fs, "unexpected %q", lobby.Clean(words[0], 32))
	}
	if *limit < 1 || *limit > 1000 {
		return c.usageError(fs, "--limit is 1 to 1000")
	}
	recs := c.records()
	if recs == nil {
		return ExitRefused
	}
	if *table != "" && !c.tableVisible(ctx, recs, *table) {
		return ExitRefused
	}
	rs, err := recs.Leaderboard(ctx, *table, *limit)
	if err != nil {
		return c.fail("read the leaderboard", err)
	}
	out := LeaderboardJSON{Table: *table, Players: []RatingJSON{}}
	for i, r := range rs {
		d := ratingDoc(r)
		d.Rank = i + 1
		out.Players = append(out.Players, d)
	}
	if c.JSON {
		return c.WriteJSON(out)
	}
	where := "overall"
	if *table != "" {
		where = "at " + lobby.Clean(*table, lobby.MaxNameLen)
	}
	if len(rs) == 0 {
		fmt.Fprintf(c.Stdout, "No rated games %s yet.\n", where)
		return ExitOK
	}
	fmt.Fprintf(c.Stdout, "Leaderboard %s (multiplayer Elo from %.0f):\n", where, store.StartRating)
	tw := tabwriter.NewWriter(c.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RANK\tPLAYER\tRATING\tGAMES\tWINS")
	for _, r := range out.Players {
		name := botLabel(r.Name, r.Person, r.Bot)
		if r.Name == "" {
			name = lobby.Clean(r.Person, 40)
		}
		fmt.Fprintf(tw, "%d\t%s\t%.0f\t%d\t%d%s\n", r.Rank, name, r.Rating, r.Games, r.Wins, pct(r.Wins, r.Games))
	}
	_ = tw.Flush()
	return ExitOK
}
