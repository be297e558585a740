package command

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/store"
)

const usageLeaderboard = "leaderboard [--table T] [--season S | --all-time] [--people | --bots] [--limit N] [--json]"

// leaderboardCommand is `leaderboard`.
var leaderboardCommand = Command{
	Name:    "leaderboard",
	Args:    argsOf(usageLeaderboard),
	Summary: "players ranked by rating, this season or any, overall or at a table; people or bots",
	JSON:    true,
	Run:     runLeaderboard,
}

// LeaderboardJSON is the document of `leaderboard --json`.
type LeaderboardJSON struct {
	Table   string       `json:"table"` // "" overall
	Season  SeasonJSON   `json:"season"`
	Kind    string       `json:"kind"` // store.BoardKind.String: "everyone", "people" or "bots"
	Players []RatingJSON `json:"players"`
}

func runLeaderboard(ctx context.Context, c *Call) int {
	fs := c.flagSet(usageLeaderboard)
	bf := addBoardFlags(fs, "the board of table `T`: its own games only")
	people := fs.Bool("people", false, "people only: players not every game of whose was in a bot's seat")
	bots := fs.Bool("bots", false, "bots only: players every game of whose was in a bot's seat")
	limit := fs.Int("limit", 20, "players to list, `N` from 1 to 1000")
	rest, err := parseFlags(fs, c.Args)
	if err != nil {
		return ExitUsage
	}
	if len(rest) != 0 {
		return c.usageError(fs, "unexpected %q", words.Echo(rest[0]))
	}
	if *limit < 1 || *limit > 1000 {
		return c.usageError(fs, "--limit is 1 to 1000")
	}
	kind := store.Everyone
	switch {
	case *people && *bots:
		return c.usageError(fs, "--people and --bots do not go together")
	case *people:
		kind = store.People
	case *bots:
		kind = store.Bots
	}
	now := c.now()
	season, err := bf.chosen(c.cfg.Season, now)
	if err != nil {
		return c.usageError(fs, "%s", err)
	}
	recs := c.records()
	if recs == nil {
		return ExitRefused
	}
	q := store.BoardQuery{Board: store.Board{Season: season}, Kind: kind, Limit: *limit}
	if *bf.table != "" {
		var ok bool
		if q.Table, ok = c.tableRecord(ctx, recs, *bf.table); !ok {
			return ExitRefused
		}
	}
	rs, err := recs.Leaderboard(ctx, q)
	if err != nil {
		return c.fail("read the leaderboard", err)
	}
	out := LeaderboardJSON{Season: seasonDoc(season, now), Kind: kind.String(), Players: []RatingJSON{}}
	if q.Table != nil {
		out.Table = q.Table.Name
	}
	for i, r := range rs {
		d := ratingDoc(r)
		d.Rank = i + 1
		if err := c.maexchenPoints(ctx, &d); err != nil {
			return c.fail("read the leaderboard", err)
		}
		out.Players = append(out.Players, d)
	}
	if c.JSON {
		return c.WriteJSON(out)
	}
	writeLeaderboard(c, out, season, now)
	return ExitOK
}

func writeLeaderboard(c *Call, out LeaderboardJSON, season rating.Season, now time.Time) {
	w := c.Stdout
	where := "overall"
	if out.Table != "" {
		where = "at " + words.Clean(out.Table, lobby.MaxNameLen)
	}
	who := map[string]string{"people": "people only, ", "bots": "bots only, "}[out.Kind]
	when := words.SeasonWords(season)
	if !season.IsAllTime() {
		when = "season " + season.String() + ", " + when
		if left := words.SeasonLeft(season, now); left != "" {
			when += ", " + left
		}
	}
	writeWrapped(w, "", "  ", fmt.Sprintf("Leaderboard %s · %s%s (UTC):", where, who, when))
	if len(out.Players) == 0 {
		fmt.Fprintln(w, "No rated games yet.")
		return
	}
	if out.Season.Ended {
		top := out.Players[0]
		fmt.Fprintf(w, "The season is over; its champion: %s, %s.\n", botLabel(top.Name, top.Person, top.Bot), figure(top))
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RANK\tPLAYER\tRATING\tGAMES\tWINS\tμ\tσ")
	provisional := false
	for _, r := range out.Players {
		name := botLabel(r.Name, r.Person, r.Bot)
		if r.Name == "" {
			name = words.Clean(r.Person, 40)
		}
		if r.MaexchenPoints != nil {
			name += fmt.Sprintf(" %d pts", *r.MaexchenPoints)
		}
		provisional = provisional || r.Provisional
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%d%s\t%.1f\t%.1f\n", r.Rank, name, figure(r), r.Games, r.Wins, pct(r.Wins, r.Games), r.Mu, r.Sigma)
	}
	_ = tw.Flush()
	if provisional {
		fmt.Fprintln(w, words.ProvisionalNote)
	}
}

// figure is the rating shown, "1412?" while provisional (words.Figure).
func figure(r RatingJSON) string {
	return words.Figure(rating.Rating{Mu: r.Mu, Sigma: r.Sigma, Games: r.Games})
}
