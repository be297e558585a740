package command

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
)

const usageStats = "stats [PLAYER] [--table T] [--json]"

// Form: the win rate over formWindow games, after each of the last
// formPoints games.
const (
	formPoints = 20
	formWindow = 10
)

// statsCommand is `stats`.
var statsCommand = Command{
	Name:    "stats",
	Args:    "[PLAYER] [--table T]",
	Summary: "games, wins, rating, bluffs, caught bluffing, challenges won/lost, recent form",
	JSON:    true,
	Run:     runStats,
}

// RatingJSON is a rating in the documents of stats and leaderboard. A
// person has one rating whether they played by screen or as a bot: Bot is
// true when every game counted was played in a bot's seat, and BotGames
// counts those that were.
type RatingJSON struct {
	Rank     int     `json:"rank,omitempty"`
	Name     string  `json:"name"`
	Person   string  `json:"person"`
	Bot      bool    `json:"bot"`
	Rating   float64 `json:"rating"`
	Games    int     `json:"games"`
	Wins     int     `json:"wins"`
	BotGames int     `json:"bot_games"`
}

func ratingDoc(r store.Rating) RatingJSON {
	return RatingJSON{Name: r.Name, Person: r.Person, Bot: r.Bot(), Rating: math.Round(r.Rating*10) / 10,
		Games: r.Games, Wins: r.Wins, BotGames: r.BotGames}
}

// RecentJSON is one recent game of `stats --json`.
type RecentJSON struct {
	Game  string `json:"game"`
	Table string `json:"table"`
	Won   bool   `json:"won"`
}

// StatsJSON is the document of `stats --json`. The counters are over
// every table, every seat of the person's alike (by screen or as a bot);
// rates are 0 when there is nothing to divide by.
type StatsJSON struct {
	Name           string       `json:"name"`
	Person         string       `json:"person"`
	Bot            bool         `json:"bot"`       // every rated game played in a bot's seat
	BotGames       int          `json:"bot_games"` // rated games played in a bot's seat
	Games          int          `json:"games"`
	Wins           int          `json:"wins"`
	WinRate        float64      `json:"win_rate"`
	LivesLost      int          `json:"lives_lost"`
	Claims         int          `json:"claims"`
	Bluffs         int          `json:"bluffs"`
	BluffRate      float64      `json:"bluff_rate"`
	Understated    int          `json:"understated"`
	CaughtBluffing int          `json:"caught_bluffing"`
	Challenges     int          `json:"challenges"`
	ChallengesWon  int          `json:"challenges_won"`
	ChallengeRate  float64      `json:"challenge_rate"`
	Rating         RatingJSON   `json:"rating"`
	Table          string       `json:"table,omitempty"`
	TableRating    *RatingJSON  `json:"table_rating,omitempty"`
	Recent         []RecentJSON `json:"recent"` // newest first, the games the caller may see
	Form           []float64    `json:"form"`   // oldest first
}

func rate(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}

func runStats(ctx context.Context, c *Call) int {
	fs := c.flagSet(usageStats)
	table := fs.String("table", "", "also the rating at table `T`, and the form there")
	words, err := parseFlags(fs, c.Args)
	if err != nil {
		return ExitUsage
	}
	if len(words) > 1 {
		return c.usageError(fs, "stats takes at most one PLAYER")
	}
	recs := c.records()
	if recs == nil {
		return ExitRefused
	}
	p := target{ID: c.Person.ID, Name: c.Person.Name}
	if len(words) == 1 {
		var ok bool
		if p, ok = c.person(ctx, words[0]); !ok {
			return ExitRefused
		}
	}
	if *table != "" && !c.tableVisible(ctx, recs, *table) {
		return ExitRefused
	}
	tally, err := c.cfg.Players.Tally(ctx, p.ID)
	if err != nil {
		return c.fail("read the stats", err)
	}
	overall, err := recs.Rating(ctx, p.ID, "")
	if err != nil {
		return c.fail("read the rating", err)
	}
	out := StatsJSON{
		Name: p.Name, Person: p.ID, Bot: overall.Bot(), BotGames: overall.BotGames,
		Games: tally.Games, Wins: tally.Wins, WinRate: rate(tally.Wins, tally.Games), LivesLost: tally.LivesLost,
		Claims: tally.Claims, Bluffs: tally.Bluffs, BluffRate: rate(tally.Bluffs, tally.Claims),
		Understated: tally.Understated, CaughtBluffing: tally.BluffsCaught, Challenges: tally.Challenges, ChallengesWon: tally.ChallengesWon,
		ChallengeRate: rate(tally.ChallengesWon, tally.Challenges), Rating: ratingDoc(overall),
		Table: *table, Recent: []RecentJSON{}, Form: []float64{},
	}
	if *table != "" {
		tr, err := recs.Rating(ctx, p.ID, *table)
		if err != nil {
			return c.fail("read the rating", err)
		}
		d := ratingDoc(tr)
		out.TableRating = &d
	}
	recent, err := recs.History(ctx, store.Query{Player: p.ID, Table: *table, Limit: formPoints + formWindow - 1}, c.shows())
	if err != nil {
		return c.fail("read the games", err)
	}
	won := make([]bool, len(recent)) // oldest first
	for i, g := range recent {
		w := g.Winner >= 0 && g.Winner < len(g.Seats) && g.Seats[g.Winner].Person == p.ID
		won[len(recent)-1-i] = w
		if i < formPoints {
			out.Recent = append(out.Recent, RecentJSON{Game: g.ID, Table: g.Table, Won: w})
		}
	}
	out.Form = form(won)
	if c.JSON {
		return c.WriteJSON(out)
	}
	writeStats(c, out)
	return ExitOK
}

// form is the win rate over the last formWindow games (fewer at the
// start), after each of the last formPoints games; won is oldest first.
func form(won []bool) []float64 {
	out := []float64{}
	for j := max(0, len(won)-formPoints); j < len(won); j++ {
		from := max(0, j-formWindow+1)
		n := 0
		for _, w := range won[from : j+1] {
			if w {
				n++
			}
		}
		out = append(out, rate(n, j+1-from))
	}
	return out
}

// sparkBlocks draw a sparkline, from 0 to 1.
var sparkBlocks = []rune("▁▂▃▄▅▆▇█")

// sparkline draws values between 0 and 1 on a fixed scale: ▁ is 0, █ is 1.
func sparkline(vs []float64) string {
	var b strings.Builder
	for _, v := range vs {
		i := int(math.Round(min(max(v, 0), 1) * float64(len(sparkBlocks)-1)))
		b.WriteRune(sparkBlocks[i])
	}
	return b.String()
}

// percent writes n/of as "n of M (P%)", or "none" when of is 0.
func percent(n, of int, what string) string {
	if of == 0 {
		return "none yet"
	}
	return fmt.Sprintf("%d of %d %s%s", n, of, what, pct(n, of))
}

// statsColumn is where the values of the stats start.
const statsColumn = 17

func writeStats(c *Call, s StatsJSON) {
	w := c.Stdout
	fmt.Fprintf(w, "%s  %s\n", botLabel(s.Name, s.Person, s.Bot), lobby.Clean(s.Person, 40))
	row := func(label, value string) { writeColumns(w, label, value, statsColumn) }
	row("games", fmt.Sprintf("%d played, %d won%s", s.Games, s.Wins, pct(s.Wins, s.Games)))
	row("rating", fmt.Sprintf("%.0f overall after %s", s.Rating.Rating, lobby.Plural(s.Rating.Games, "1 rated game", "rated games")))
	if s.BotGames > 0 && !s.Bot {
		row("as a bot", fmt.Sprintf("%d of those games (the bot protocol); the rest by screen", s.BotGames))
	}
	if s.TableRating != nil {
		row("at "+lobby.Clean(s.Table, lobby.MaxNameLen), fmt.Sprintf("%.0f after %s, %d won",
			s.TableRating.Rating, lobby.Plural(s.TableRating.Games, "1 game", "games"), s.TableRating.Wins))
	}
	perGame := ""
	if s.Games > 0 {
		perGame = fmt.Sprintf(" (%.1f a game)", float64(s.LivesLost)/float64(s.Games))
	}
	row("lives lost", fmt.Sprintf("%d%s", s.LivesLost, perGame))
	ofClaims := func(n int) string {
		if s.Claims == 0 {
			return "none yet"
		}
		return fmt.Sprintf("%d of %s%s", n, lobby.Plural(s.Claims, "1 claim", "claims"), pct(n, s.Claims))
	}
	row("bluffs", ofClaims(s.Bluffs))
	row("understated", ofClaims(s.Understated))
	row("caught bluffing", lobby.Plural(s.CaughtBluffing, "1 time", "times"))
	row("challenges", percent(s.ChallengesWon, s.Challenges, "right"))
	switch {
	case len(s.Form) > 1:
		row("form", fmt.Sprintf("%s  the win rate of %d games at a time, over the last %d games (oldest left; ▁ 0%%, █ 100%%)",
			sparkline(s.Form), formWindow, len(s.Form)))
	case len(s.Recent) == 1 && s.Recent[0].Won:
		row("form", "one game so far, won")
	case len(s.Recent) == 1:
		row("form", "one game so far, lost")
	}
	if len(s.Recent) > 1 {
		marks := make([]string, 0, len(s.Recent))
		for _, r := range slices.Backward(s.Recent) {
			if r.Won {
				marks = append(marks, "W")
			} else {
				marks = append(marks, "·")
			}
		}
		row("last games", strings.Join(marks, "")+"  (W won; newest right)")
	}
	writeWrapped(w, "", "", store.BluffsNote)
	if s.Games > 0 && len(s.Form) == 0 {
		fmt.Fprintln(w, "(no recent games you may see)")
	}
}

// pct is " (P%)" of n/of (lobby.Percent), or "" when of is 0.
func pct(n, of int) string {
	if of == 0 {
		return ""
	}
	return " (" + lobby.Percent(n, of) + ")"
}
