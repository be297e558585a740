package tui

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/sshapp/verdict"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// Records is the stored history the history, replay and stats screens
// read. *store.Store implements it; tests may pass a fake.
type Records interface {
	// History lists the finished games keep shows, newest first
	// (store.Store.History).
	History(ctx context.Context, q store.Query, keep store.GameFilter) ([]store.Game, error)
	// ShownGame returns a game keep shows with all its events and every
	// die; one it does not show is not found, by the same steps as one
	// that does not exist (store.Store.ShownGame).
	ShownGame(ctx context.Context, id string, keep store.GameFilter) (store.Game, []engine.Event, error)
	// Tally returns a person's running totals, over every game.
	Tally(ctx context.Context, person string) (store.Tally, error)
	// TableRecords lists the records of the tables of a name, oldest
	// first: the stats screen's "this table" is the newest the viewer
	// may see (lobbystore.Visible).
	TableRecords(ctx context.Context, name string) ([]store.TableRecord, error)
	// Rating returns a person's rating on a board in a season.
	Rating(ctx context.Context, person string, b store.Board) (store.Rating, error)
	// Leaderboard ranks players on a board in a season, best first.
	Leaderboard(ctx context.Context, q store.BoardQuery) ([]store.Rating, error)
	// Champion is the top of a board in a season.
	Champion(ctx context.Context, b store.Board) (store.Rating, bool, error)
	// Trend is a person's rating after each of their last rated games.
	Trend(ctx context.Context, person string, table *store.TableRecord, n int) ([]store.Point, error)
	// SeatRatings are the ratings of the people about to play at a table
	// and their chances to win.
	SeatRatings(ctx context.Context, table string, persons []string) (store.SeatRatings, error)
	// GameRatings is what a finished game did to its players' ratings.
	GameRatings(ctx context.Context, gameID string) (store.GameRatings, error)
}

// errNoRecords is shown when the session has no Records.
const errNoRecords = "history is not available"

// The answers of the records screens' loads; req is the screen's number
// of the load, and only the newest load's answer is taken.
type (
	historyLoaded struct {
		req   uint64
		games []store.Game
		next  string // Query.Before of the next page, "" if none
		err   error
	}
	replayLoaded struct {
		req uint64
		rp  *replayGame
		err error
	}
	statsLoaded struct {
		req  uint64
		data statsData
		err  error
	}
	careerLoaded struct {
		req    uint64
		career verdict.Career
		err    error
	}
)

// loadCareer is the command that sums up the viewer's moves over their
// last games they may see (verdict.Judge.Over, as the stats command
// does), waiting at most verdict.Wait: the stats screen shows the rest
// meanwhile.
func loadCareer(jd *verdict.Judge, rec Records, viewer lobby.Player, req uint64) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), verdict.Wait)
		defer cancel()
		shows := lobbystore.Shows(viewer.Viewer())
		gs, err := rec.History(ctx, store.Query{Player: viewer.ID, Limit: verdict.CareerGames}, shows)
		if err != nil {
			return careerLoaded{req: req, err: fmt.Errorf("could not read your games: %w", err)}
		}
		read := func(ctx context.Context, id string) ([]engine.Event, error) {
			_, evs, err := rec.ShownGame(ctx, id, shows)
			return evs, err
		}
		c, err := jd.Over(ctx, lobby.SolveSource(viewer), viewer.ID, gs, read)
		return careerLoaded{req: req, career: c, err: err}
	}
}

// visibleGames reads the page of finished games matching q that viewer
// may see (lobby.Viewer.SeesGame): up to q.Limit of them, newest first,
// skipping hidden ones, and the Before of the next page ("" when there
// are no more).
func visibleGames(ctx context.Context, rec Records, viewer lobby.Player, q store.Query) ([]store.Game, string, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = store.DefaultLimit
	}
	q.Limit = limit + 1 // one more: is there a next page?
	gs, err := rec.History(ctx, q, lobbystore.Shows(viewer.Viewer()))
	if err != nil || len(gs) <= limit {
		return gs, "", err
	}
	return gs[:limit], gs[limit-1].ID, nil
}

// loadGames is the command that reads one history page.
func loadGames(rec Records, viewer lobby.Player, q store.Query, req uint64) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		gs, next, err := visibleGames(ctx, rec, viewer, q)
		if err != nil {
			err = fmt.Errorf("could not read the history: %w", err)
		}
		return historyLoaded{req: req, games: gs, next: next, err: err}
	}
}

// errStillPlaying refuses the replay of a game in progress.
var errStillPlaying = lobby.NewError(lobby.Refused, "this game is still being played")

// loadReplay is the command that reads a game for the replay viewer: only
// a finished game the viewer may see.
func loadReplay(rec Records, viewer lobby.Player, id string, req uint64) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		rp, err := readReplay(ctx, rec, viewer, id)
		return replayLoaded{req: req, rp: rp, err: err}
	}
}

func readReplay(ctx context.Context, rec Records, viewer lobby.Player, id string) (*replayGame, error) {
	g, evs, err := rec.ShownGame(ctx, id, lobbystore.Shows(viewer.Viewer()))
	if errors.Is(err, store.ErrNotFound) { // or not the viewer's to see: as if it did not exist
		return nil, lobby.Errorf(lobby.NotFound, "there is no game %s", id)
	}
	if err != nil {
		return nil, fmt.Errorf("could not read game %s: %w", id, err)
	}
	switch {
	case g.Ended.IsZero():
		return nil, errStillPlaying
	case !g.Finished() && g.Abandoned == nil:
		return nil, lobby.Errorf(lobby.Refused, "game %s was cut short by the server and never resumed: there is nothing to replay", id)
	}
	return newReplay(g, evs)
}

// statsData is what the stats screen shows.
type statsData struct {
	tally  store.Tally
	rating store.Rating       // overall, all time
	season store.Rating       // overall, in the season of the board shown (none for all time)
	trend  []store.Point      // the viewer's overall rating after each of their last rated games
	board  []store.Rating     // the leaderboard shown
	table  *store.TableRecord // the table of the board shown, if any
	recent []store.Game       // the viewer's last games, oldest first
}

// Sizes of the stats screen's reads.
const (
	boardLimit  = 50 // players on the leaderboard
	recentGames = 60 // games in the win-rate sparkline
	trendGames  = 30 // rated games in the rating's trend
)

// loadStats is the command that reads the stats screen's data: the
// viewer's tally, rating (all time, in season and its trend), the
// leaderboard (overall, or at the newest table of that name the viewer
// may see) in season, and the viewer's recent games.
func loadStats(rec Records, viewer lobby.Player, table string, season rating.Season, req uint64) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		var d statsData
		err := func() error {
			var err error
			if d.tally, err = rec.Tally(ctx, viewer.ID); err != nil {
				return fmt.Errorf("your stats: %w", err)
			}
			if d.rating, err = rec.Rating(ctx, viewer.ID, store.Board{Season: rating.AllTime}); err != nil {
				return fmt.Errorf("your rating: %w", err)
			}
			if !season.IsAllTime() {
				if d.season, err = rec.Rating(ctx, viewer.ID, store.Board{Season: season}); err != nil {
					return fmt.Errorf("your rating: %w", err)
				}
			}
			if d.trend, err = rec.Trend(ctx, viewer.ID, nil, trendGames); err != nil {
				return fmt.Errorf("your rating: %w", err)
			}
			if table != "" {
				ts, err := rec.TableRecords(ctx, table)
				if err != nil {
					return fmt.Errorf("the table: %w", err)
				}
				if d.table = lobbystore.Visible(ts, viewer.Viewer()); d.table == nil {
					return lobby.Errorf(lobby.NotFound, "no table %s", table)
				}
			}
			q := store.BoardQuery{Board: store.Board{Table: d.table, Season: season}, Limit: boardLimit}
			if d.board, err = rec.Leaderboard(ctx, q); err != nil {
				return fmt.Errorf("the leaderboard: %w", err)
			}
			gs, err := rec.History(ctx, store.Query{Player: viewer.ID, Limit: recentGames}, lobbystore.Shows(viewer.Viewer()))
			if err != nil {
				return fmt.Errorf("your games: %w", err)
			}
			for i := len(gs) - 1; i >= 0; i-- {
				d.recent = append(d.recent, gs[i])
			}
			return nil
		}()
		if err != nil {
			err = fmt.Errorf("could not read %w", err)
		}
		return statsLoaded{req: req, data: d, err: err}
	}
}

// seasonInfo is the season line of the lobby: the season running and the
// champion of the one before.
type seasonInfo struct {
	season   rating.Season
	prev     rating.Season
	champion store.Rating
	crowned  bool // the season before has a champion
}

// seasonLoaded answers loadSeason.
type seasonLoaded struct {
	info seasonInfo
	err  error
}

// loadSeason reads the lobby's season line for the season running at now.
func loadSeason(rec Records, p rating.Period, now time.Time) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		in := seasonInfo{season: p.Of(now)}
		in.prev = in.season.Prev()
		if in.season.IsAllTime() {
			return seasonLoaded{info: in}
		}
		var err error
		in.champion, in.crowned, err = rec.Champion(ctx, store.Board{Season: in.prev})
		return seasonLoaded{info: in, err: err}
	}
}

// seatRatings is what the table screen shows of ratings: before a game,
// each seat's rating and chance to win; after one, each seat's change.
type seatRatings struct {
	key    string             // what they were read for (ratingsKey)
	seats  store.SeatRatings  // of the players seated for the next game
	game   *store.GameRatings // of the last game, once it is over
	failed bool
}

// ratingsLoaded answers loadRatings.
type ratingsLoaded struct{ r seatRatings }

// loadRatings reads the ratings of the people seated at a table for its
// next game, and what the game gameID did ("" for none).
func loadRatings(rec Records, key, table string, persons []string, gameID string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		out := seatRatings{key: key}
		var err error
		if out.seats, err = rec.SeatRatings(ctx, table, persons); err != nil {
			out.failed = true
		}
		if gameID != "" {
			if gr, err := rec.GameRatings(ctx, gameID); err == nil {
				out.game = &gr
			}
		}
		return ratingsLoaded{out}
	}
}

// ago says how long before now t was: "just now", "5m ago", "3h ago",
// "2d ago", or the date for more than a month.
func ago(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m ago"
	case d < 24*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h ago"
	case d < 31*24*time.Hour:
		return strconv.Itoa(int(d/(24*time.Hour))) + "d ago"
	}
	return t.UTC().Format("2 Jan 2006")
}
