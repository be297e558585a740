package tui

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// Records is the stored history the history, replay and stats screens
// read. *store.Store implements it; tests may pass a fake.
type Records interface {
	// History lists the finished games keep shows, newest first
	// (store.Store.History).
	History(ctx context.Context, q store.Query, keep store.GameFilter) ([]store.Game, error)
	// GameShown reports whether keep shows a game (store.Store.GameShown).
	GameShown(ctx context.Context, g store.Game, keep store.GameFilter) (bool, error)
	// Game returns a game with all its events and every die.
	Game(ctx context.Context, id string) (store.Game, []engine.Event, error)
	// Tally returns a person's running totals.
	Tally(ctx context.Context, person string) (store.Tally, error)
	// Rating returns a person's rating overall (table "") or at a table.
	Rating(ctx context.Context, person, table string) (store.Rating, error)
	// Leaderboard ranks players overall (table "") or at a table, best
	// first, at most limit of them.
	Leaderboard(ctx context.Context, table string, limit int) ([]store.Rating, error)
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
)

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
var errStillPlaying = errors.New("this game is still being played")

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
	g, evs, err := rec.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("there is no game %s", id)
	}
	if err != nil {
		return nil, fmt.Errorf("could not read game %s: %w", id, err)
	}
	shown, err := rec.GameShown(ctx, g, lobbystore.Shows(viewer.Viewer()))
	if err != nil {
		return nil, fmt.Errorf("could not read game %s: %w", id, err)
	}
	switch {
	case !shown:
		return nil, fmt.Errorf("there is no game %s", id) // as if it did not exist
	case g.Ended.IsZero():
		return nil, errStillPlaying
	case !g.Finished() && g.Abandoned == nil:
		return nil, fmt.Errorf("game %s was cut short by the server and never resumed: there is nothing to replay", id)
	}
	return newReplay(g, evs)
}

// statsData is what the stats screen shows.
type statsData struct {
	tally  store.Tally
	rating store.Rating
	board  []store.Rating
	recent []store.Game // the viewer's last games, oldest first
}

// Sizes of the stats screen's reads.
const (
	boardLimit  = 50 // players on the leaderboard
	recentGames = 60 // games in the win-rate sparkline
)

// loadStats is the command that reads the stats screen's data: the
// viewer's tally and rating, the leaderboard (overall, or at table) and
// the viewer's recent games.
func loadStats(rec Records, viewer lobby.Player, table string, req uint64) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		var d statsData
		err := func() error {
			var err error
			if d.tally, err = rec.Tally(ctx, viewer.ID); err != nil {
				return fmt.Errorf("your stats: %w", err)
			}
			if d.rating, err = rec.Rating(ctx, viewer.ID, ""); err != nil {
				return fmt.Errorf("your rating: %w", err)
			}
			if d.board, err = rec.Leaderboard(ctx, table, boardLimit); err != nil {
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
