package command

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/sshapp/verdict"
	"github.com/mia-game/mia/store"
)

const usageStats = "stats [PLAYER] [--table T] [--season S | --all-time] [--json]"

// Form: the win rate over formWindow games, after each of the last
// formPoints games.
const (
	formPoints = 20
	formWindow = 10
)

// trendPoints is how many rated games the trend of the figure shows.
const trendPoints = 30

// statsCommand is `stats`.
var statsCommand = Command{
	Name:    "stats",
	Args:    argsOf(usageStats),
	Summary: "games, wins, rating (μ, σ, this season, the trend), bluffs, caught bluffing, challenges, recent form",
	JSON:    true,
	Run:     runStats,
}

// RecentJSON is one recent game of `stats --json`.
type RecentJSON struct {
	Game  string `json:"game"`
	Table string `json:"table"`
	Won   bool   `json:"won"`
}

// StatsJSON is the document of `stats --json`. The counters are over
// every table, every seat of the person's alike (by screen or as a bot),
// for the person themselves and server admins ("counted": "all"); for
// anyone else over the games of public tables only ("public"): a private
// table's games are its players' own. Rates are 0 when there is nothing
// to divide by. Rating is overall and all time; Season the season asked
// for (the current one by default; absent when seasons are off and none
// was asked for); Trend the figure after each of the last rated games,
// oldest first, on the board shown (the table's with --table);
// Champion the ended seasons the person topped overall, newest first.
type StatsJSON struct {
	Name           string       `json:"name"`
	Person         string       `json:"person"`
	Bot            bool         `json:"bot"`       // every rated game played in a bot's seat
	BotGames       int          `json:"bot_games"` // rated games played in a bot's seat
	Counted        string       `json:"counted"`   // "all" or "public"
	PrivateGames   int          `json:"private_games,omitempty"`
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
	Season         *SeasonStats `json:"season,omitempty"`
	Trend          []int        `json:"trend"`
	Champion       []string     `json:"champion"`
	Table          string       `json:"table,omitempty"`
	TableRating    *RatingJSON  `json:"table_rating,omitempty"`
	Recent         []RecentJSON `json:"recent"` // newest first, the games the caller may see
	Form           []float64    `json:"form"`   // oldest first
	// Accuracy is the verdicts on the person's moves over the same
	// recent games (absent on a server without verdicts).
	Accuracy *AccuracyJSON `json:"accuracy,omitempty"`
}

// AccuracyJSON is a person's moves over their recent games, judged
// against the solved strategy (sshapp/verdict): Games the games judged,
// Pending those not worked out in time (asked again, they count).
type AccuracyJSON struct {
	Games        int     `json:"games"`
	Pending      int     `json:"pending"`
	Decisions    int     `json:"decisions"`
	Lost         float64 `json:"lives_given_away"`
	PerDecision  float64 `json:"per_decision"`
	Accuracy     float64 `json:"accuracy"`
	Inaccuracies int     `json:"inaccuracies"`
	Mistakes     int     `json:"mistakes"`
	Blunders     int     `json:"blunders"`
}

// SeasonStats is a person's rating in one season of the overall board.
type SeasonStats struct {
	Season SeasonJSON `json:"season"`
	Rating RatingJSON `json:"rating"`
}

func rate(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}

func runStats(ctx context.Context, c *Call) int {
	fs := c.flagSet(usageStats)
	bf := addBoardFlags(fs, "also the rating at table `T`, its trend and the form there")
	rest, err := parseFlags(fs, c.Args)
	if err != nil {
		return ExitUsage
	}
	if len(rest) > 1 {
		return c.usageError(fs, "stats takes at most one PLAYER")
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
	p := target{ID: c.Person.ID, Name: c.Person.Name}
	if len(rest) == 1 {
		var ok bool
		if p, ok = c.person(ctx, rest[0]); !ok {
			return ExitRefused
		}
	}
	var table *store.TableRecord
	if *bf.table != "" {
		var ok bool
		if table, ok = c.tableRecord(ctx, recs, *bf.table); !ok {
			return ExitRefused
		}
	}
	// What one may count of another's games: the public ones.
	own := c.Admin || p.ID == c.Person.ID
	tally, err := c.cfg.Players.PublicTally(ctx, p.ID)
	if err != nil {
		return c.fail("read the stats", err)
	}
	counted, private := "public", 0
	if own {
		all, err := c.cfg.Players.Tally(ctx, p.ID)
		if err != nil {
			return c.fail("read the stats", err)
		}
		counted, private, tally = "all", all.Games-tally.Games, all
	}
	overall, err := recs.Rating(ctx, p.ID, store.Board{Season: rating.AllTime})
	if err != nil {
		return c.fail("read the rating", err)
	}
	out := StatsJSON{
		Name: p.Name, Person: p.ID, Bot: overall.Bot(), BotGames: overall.BotGames, Counted: counted, PrivateGames: private,
		Games: tally.Games, Wins: tally.Wins, WinRate: rate(tally.Wins, tally.Games), LivesLost: tally.LivesLost,
		Claims: tally.Claims, Bluffs: tally.Bluffs, BluffRate: rate(tally.Bluffs, tally.Claims),
		Understated: tally.Understated, CaughtBluffing: tally.BluffsCaught, Challenges: tally.Challenges, ChallengesWon: tally.ChallengesWon,
		ChallengeRate: rate(tally.ChallengesWon, tally.Challenges), Rating: ratingDoc(overall),
		Trend: []int{}, Champion: []string{}, Recent: []RecentJSON{}, Form: []float64{},
	}
	if err := c.maexchenPoints(ctx, &out.Rating); err != nil {
		return c.fail("read the stats", err)
	}
	if !season.IsAllTime() {
		sr, err := recs.Rating(ctx, p.ID, store.Board{Season: season})
		if err != nil {
			return c.fail("read the rating", err)
		}
		out.Season = &SeasonStats{Season: seasonDoc(season, now), Rating: ratingDoc(sr)}
	}
	if table != nil {
		tr, err := recs.Rating(ctx, p.ID, store.Board{Table: table, Season: rating.AllTime})
		if err != nil {
			return c.fail("read the rating", err)
		}
		d := ratingDoc(tr)
		out.Table, out.TableRating = table.Name, &d
	}
	trend, err := recs.Trend(ctx, p.ID, table, trendPoints)
	if err != nil {
		return c.fail("read the rating", err)
	}
	for _, pt := range trend {
		out.Trend = append(out.Trend, pt.After.Points())
	}
	if out.Champion, err = c.championships(ctx, recs, p.ID, now); err != nil {
		return c.fail("read the seasons", err)
	}
	q := store.Query{Player: p.ID, Limit: formPoints + formWindow - 1}
	if table != nil {
		q.Table = table.Name
	}
	recent, err := recs.History(ctx, q, c.shows())
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
	career, judged := c.career(ctx, recs, p.ID, recent)
	if judged {
		out.Accuracy = &AccuracyJSON{Games: career.Games, Pending: career.Pending, Decisions: career.Decisions,
			Lost: round4(career.Lost), PerDecision: round4(career.PerDecision()), Accuracy: round4(career.Accuracy()),
			Inaccuracies: career.Marks[verdict.Inaccuracy], Mistakes: career.Marks[verdict.Mistake], Blunders: career.Marks[verdict.Blunder]}
	}
	if c.JSON {
		return c.WriteJSON(out)
	}
	changes := make([]rating.Change, len(trend))
	for i, pt := range trend {
		changes[i] = pt.Change
	}
	acc := ""
	if judged {
		acc = words.AccuracyOver(career.Summary, career.Games)
		if career.Pending > 0 {
			acc += words.AccuracyPending(career.Pending, lobby.Shown(career.Refused))
		}
	}
	writeStats(c, out, words.TrendWords(changes), acc)
	return ExitOK
}

// career sums up the person's moves over their recent games, the games
// shown (verdict.Judge.Over), waiting at most verdict.Wait; judged is
// false on a server without verdicts. The verdicts are computed on
// demand and kept in memory, not stored: they follow from the stored
// games and the solved strategy, which a new solver may change, and a
// person's recent games are few.
func (c *Call) career(ctx context.Context, recs Records, person string, recent []store.Game) (verdict.Career, bool) {
	if c.cfg.Judge == nil {
		return verdict.Career{}, false
	}
	jctx, cancel := context.WithTimeout(ctx, verdict.Wait)
	defer cancel()
	read := func(_ context.Context, id string) ([]engine.Event, error) {
		_, evs, err := recs.ShownGame(ctx, id, c.shows())
		return evs, err
	}
	career, err := c.cfg.Judge.Over(jctx, lobby.SolveSource(c.lobbyPlayer()), person, recent, read)
	if err != nil {
		c.cfg.Log.Warn("judge a person's moves", "person", person, "err", err)
		return career, false
	}
	return career, true
}

// round4 keeps four decimals of a figure of the documents.
func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// championships lists the ended seasons of the server's period whose
// overall board the person topped, newest first.
func (c *Call) championships(ctx context.Context, recs Records, person string, now time.Time) ([]string, error) {
	out := []string{}
	if c.cfg.Season == rating.Off {
		return out, nil
	}
	seasons, err := recs.Seasons(ctx, nil, c.cfg.Season)
	if err != nil {
		return nil, err
	}
	for _, s := range seasons {
		if now.Before(s.End()) {
			continue
		}
		top, ok, err := recs.Champion(ctx, store.Board{Season: s})
		if err != nil {
			return nil, err
		}
		if ok && top.Person == person {
			out = append(out, s.String())
		}
	}
	return out, nil
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

// writeStats writes the stats; trend says how the figure moved over the
// last rated games (words.TrendWords), which s.Trend draws, and accuracy
// the verdicts on the recent games' moves ("": none).
func writeStats(c *Call, s StatsJSON, trend, accuracy string) {
	w := c.Stdout
	fmt.Fprintf(w, "%s  %s\n", botLabel(s.Name, s.Person, s.Bot), words.Clean(s.Person, 40))
	row := func(label, value string) { writeColumns(w, label, value, statsColumn) }
	games := fmt.Sprintf("%d played, %d won%s", s.Games, s.Wins, pct(s.Wins, s.Games))
	switch {
	case s.Counted == "public":
		games += "; counted at public tables only"
	case s.PrivateGames > 0:
		games += fmt.Sprintf("; %d at private tables", s.PrivateGames)
	}
	row("games", games)
	row("rating", ratingLine(s.Rating, "overall, all time"))
	row("", fmt.Sprintf("μ %.2f, σ %.2f, μ − 3σ %.2f%s", s.Rating.Mu, s.Rating.Sigma, s.Rating.Conservative, provisional(s.Rating)))
	if s.Rating.MaexchenPoints != nil {
		row("Mäxchen points", fmt.Sprintf("%d (rounds played − lives lost, the gateway's SCORE)", *s.Rating.MaexchenPoints))
	}
	if s.BotGames > 0 && !s.Bot {
		row("as a bot", fmt.Sprintf("%d of those games (the bot protocol); the rest by screen", s.BotGames))
	}
	if s.Season != nil {
		row("season "+s.Season.Season.Name, ratingLine(s.Season.Rating, "from its own games"))
	}
	if s.TableRating != nil {
		row("at "+words.Clean(s.Table, lobby.MaxNameLen), ratingLine(*s.TableRating, "its own games"))
	}
	switch {
	case len(s.Trend) > 0 && c.plain:
		row("trend", trend) // said, not drawn
	case len(s.Trend) > 0:
		row("trend", trendline(s.Trend)+"  "+trend+" (oldest left)")
	}
	if len(s.Champion) > 0 {
		row("champion", "of "+strings.Join(s.Champion, ", "))
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
		return fmt.Sprintf("%d of %s%s", n, words.Plural(s.Claims, "1 claim", "claims"), pct(n, s.Claims))
	}
	row("bluffs", ofClaims(s.Bluffs))
	row("understated", ofClaims(s.Understated))
	row("caught bluffing", words.Plural(s.CaughtBluffing, "1 time", "times"))
	row("challenges", percent(s.ChallengesWon, s.Challenges, "right"))
	if accuracy != "" {
		row("accuracy", accuracy)
	}
	switch {
	case len(s.Form) > 1 && c.plain:
		// said by the last games below: a drawing only
	case len(s.Form) > 1:
		row("form", fmt.Sprintf("%s  the win rate of %d games at a time, over the last %d games (oldest left; ▁ 0%%, █ 100%%)",
			sparkline(s.Form), formWindow, len(s.Form)))
	case len(s.Recent) == 1 && s.Recent[0].Won:
		row("form", "one game so far, won")
	case len(s.Recent) == 1:
		row("form", "one game so far, lost")
	}
	if len(s.Recent) > 1 && c.plain {
		won := make([]string, 0, len(s.Recent))
		for _, r := range slices.Backward(s.Recent) {
			won = append(won, map[bool]string{true: "won", false: "lost"}[r.Won])
		}
		row("last games", strings.Join(won, ", ")+" (newest last)")
	} else if len(s.Recent) > 1 {
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

// ratingLine is a rating in words: "1466? overall, all time, after 12
// rated games, 5 won", or that there is none yet.
func ratingLine(r RatingJSON, where string) string {
	if r.Games == 0 {
		return "no rated game yet (" + where + ")"
	}
	return fmt.Sprintf("%s %s, after %s, %d won", figure(r), where, words.Plural(r.Games, "1 rated game", "rated games"), r.Wins)
}

// provisional says why a figure is marked "?".
func provisional(r RatingJSON) string {
	if !r.Provisional {
		return ""
	}
	return fmt.Sprintf("; ? provisional while σ > %.2f", rating.ProvisionalSigma)
}

// trendline draws figures as a sparkline, from the lowest (▁) to the
// highest (█) of them.
func trendline(vs []int) string {
	lo, hi := slices.Min(vs), slices.Max(vs)
	fs := make([]float64, len(vs))
	for i, v := range vs {
		if hi > lo {
			fs[i] = float64(v-lo) / float64(hi-lo)
		}
	}
	return sparkline(fs)
}

// pct is " (P%)" of n/of (words.Percent), or "" when of is 0.
func pct(n, of int) string {
	if of == 0 {
		return ""
	}
	return " (" + words.Percent(n, of) + ")"
}
