package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/ident"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// RatingJSON is a rating in the documents of stats and leaderboard: the
// figure shown (Rating: μ − 3σ scaled to read like Elo, engine/rating),
// whether it is provisional, and the model's numbers behind it, exact. A
// person has one rating whether they played by screen or as a bot: Bot is
// true when every game counted was played in a bot's seat, and BotGames
// counts those that were. A Mäxchen bot's points stand beside its rating.
type RatingJSON struct {
	Rank           int     `json:"rank,omitempty"`
	Name           string  `json:"name"`
	Person         string  `json:"person"`
	Bot            bool    `json:"bot"`
	Rating         int     `json:"rating"`
	Provisional    bool    `json:"provisional"`
	Mu             float64 `json:"mu"`
	Sigma          float64 `json:"sigma"`
	Conservative   float64 `json:"conservative"` // μ − 3σ
	Games          int     `json:"games"`
	Wins           int     `json:"wins"`
	BotGames       int     `json:"bot_games"`
	MaexchenPoints *int    `json:"maexchen_points,omitempty"`
}

func ratingDoc(r store.Rating) RatingJSON {
	return RatingJSON{Name: r.Name, Person: r.Person, Bot: r.Bot(), Rating: r.Points(), Provisional: r.Provisional(),
		Mu: r.Mu, Sigma: r.Sigma, Conservative: r.Conservative(), Games: r.Games, Wins: r.Wins, BotGames: r.BotGames}
}

// SeasonJSON is the season of a board: its name ("2026-11", "2026-W48",
// "all-time"), its first instant and the first after it (none for all
// time), and whether it has ended.
type SeasonJSON struct {
	Name  string    `json:"name"`
	Start time.Time `json:"start,omitzero"`
	End   time.Time `json:"end,omitzero"`
	Ended bool      `json:"ended"`
}

func seasonDoc(s rating.Season, now time.Time) SeasonJSON {
	return SeasonJSON{Name: s.String(), Start: s.Start(), End: s.End(), Ended: !s.IsAllTime() && !now.Before(s.End())}
}

// maexchenPoints sets a Mäxchen bot's points beside its rating.
func (c *Call) maexchenPoints(ctx context.Context, d *RatingJSON) error {
	if !strings.HasPrefix(d.Person, ident.UDPBotPrefix) {
		return nil
	}
	t, err := c.cfg.Players.Tally(ctx, d.Person)
	if err != nil {
		return err
	}
	pts := lobby.MaexchenPoints(t.Games, t.LivesLost)
	d.MaexchenPoints = &pts
	return nil
}

// boardFlags are the flags that choose a board: the table (its record the
// caller may see, never merely its name) and the season.
type boardFlags struct {
	table   *string
	season  *string
	allTime *bool
}

func addBoardFlags(fs *flag.FlagSet, table string) boardFlags {
	return boardFlags{
		table:   fs.String("table", "", table),
		season:  fs.String("season", "", "the season `S`: a month (2026-11) or an ISO week (2026-W48); the current one by default"),
		allTime: fs.Bool("all-time", false, "every game, all time"),
	}
}

// chosen is the season the flags choose: --season, --all-time, or the
// season of period running at now (all time when seasons are off). The
// error is a usage error's sentence.
func (f boardFlags) chosen(p rating.Period, now time.Time) (rating.Season, error) {
	switch {
	case *f.season != "" && *f.allTime:
		return rating.AllTime, errors.New("--season and --all-time do not go together")
	case *f.allTime:
		return rating.AllTime, nil
	case *f.season != "":
		s, err := rating.ParseSeason(*f.season)
		if err != nil {
			return rating.AllTime, errors.New(seasonError(err, *f.season))
		}
		return s, nil
	}
	return p.Of(now), nil
}

// seasonError is the sentence of a season that does not parse.
func seasonError(err error, arg string) string {
	if errors.Is(err, rating.ErrSeason) {
		return fmt.Sprintf("%q is not a season: %s", words.Echo(arg), words.SeasonForms)
	}
	return err.Error()
}

// now is the command's clock.
func (c *Call) now() time.Time {
	if c.cfg.Now != nil {
		return c.cfg.Now()
	}
	return time.Now()
}

// tableRecord is the record a --table NAME means to the caller: the
// newest table of that name they may see (lobbystore.Visible), so that a
// closed private table's board never stands for a new table of its name.
// A name the caller may see no table of gets the one answer of a table
// that is not there (noTable), as history's --table does.
// ok is false after a refusal.
func (c *Call) tableRecord(ctx context.Context, recs Records, name string) (*store.TableRecord, bool) {
	ts, err := recs.TableRecords(ctx, name)
	if err != nil {
		c.fail("read the table", err)
		return nil, false
	}
	t := lobbystore.Visible(ts, c.viewer())
	if t == nil {
		c.noTable(name)
		return nil, false
	}
	return t, true
}

// ratingsCommand is `ratings rebuild`, for server admins.
var ratingsCommand = Command{
	Name:    "ratings",
	Args:    "rebuild",
	Summary: "server admins: make every rating again from the finished games, in the order they finished",
	JSON:    true,
	More: func(c *Call) {
		for _, l := range words.Wrap("Ratings are a function of the games: the boards, their seasons and each game's "+
			"changes are made from the finished games in the order they finished, and a rebuild gives the same "+
			"figures byte for byte. The server rebuilds them itself when it starts with another model; a rebuild "+
			"holds every other write until it is done (seconds for 100,000 games).", HelpWidth) {
			fmt.Fprintln(c.Stdout, l)
		}
	},
	Run: runRatings,
}

// RebuiltJSON is the document of `ratings rebuild --json`.
type RebuiltJSON struct {
	Games    int     `json:"games"`    // finished games rated
	Numbered int     `json:"numbered"` // of them, games given a finishing number now
	Seconds  float64 `json:"seconds"`
	Model    string  `json:"model"` // store.RatingsStamp
}

func runRatings(ctx context.Context, c *Call) int {
	if len(c.Args) != 1 || c.Args[0] != "rebuild" {
		return c.Usage()
	}
	if !c.Admin {
		return c.Refuse("only server admins may rebuild the ratings")
	}
	recs := c.records()
	if recs == nil {
		return ExitRefused
	}
	rb, err := recs.RebuildRatings(ctx)
	if err != nil {
		return c.fail("rebuild the ratings", err)
	}
	c.cfg.Log.Warn("ratings rebuilt", "games", rb.Games, "took", rb.Took, "by", c.Key)
	if c.JSON {
		return c.WriteJSON(RebuiltJSON{Games: rb.Games, Numbered: rb.Numbered, Seconds: rb.Took.Seconds(), Model: rb.Stamp})
	}
	fmt.Fprintf(c.Stdout, "Rebuilt the ratings from %s in %.1f s.\n", words.Plural(rb.Games, "1 finished game", "finished games"), rb.Took.Seconds())
	fmt.Fprintln(c.Stdout, words.Clean(rb.Stamp, 200))
	return ExitOK
}
