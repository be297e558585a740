package tui

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
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
	// Table returns a table's record, open or closed (store.ErrNotFound if
	// there is none).
	Table(ctx context.Context, name string) (store.Table, error)
	// Tally returns a player's running totals.
	Tally(ctx context.Context, fingerprint string) (store.Tally, error)
	// Rating returns a player's rating overall (table "") or at a table.
	Rating(ctx context.Context, fingerprint, table string) (store.Rating, error)
	// Leaderboard ranks players overall (table "") or at a table, best
	// first, at most limit of them.
	Leaderboard(ctx context.Context, table string, limit int) ([]store.Rating, error)
}

// The screens of the records, beside those of tui.go.
const (
	screenHistory screen = iota + 100
	screenReplay
	screenStats
)

// errNoRecords is shown when the session has no Records.
const errNoRecords = "history is not available"

// recordsMsg is every message of the history, replay and stats screens:
// requests to change screen and answers of their loads. The root hands
// them all to Model.records.
type recordsMsg interface{ isRecordsMsg() }

type (
	// openHistory asks for the history list; table is the table the
	// "this table" filter shows ("" for none).
	openHistory struct{ table string }
	// openStats asks for the stats and leaderboard.
	openStats struct{ table string }
	// openReplay asks for the replay viewer of a game.
	openReplay struct{ id string }
	// recordsBack leaves a records screen: the replay goes back to the
	// list, the list and the stats to the lobby.
	recordsBack struct{}

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

func (openHistory) isRecordsMsg()   {}
func (openStats) isRecordsMsg()     {}
func (openReplay) isRecordsMsg()    {}
func (recordsBack) isRecordsMsg()   {}
func (historyLoaded) isRecordsMsg() {}
func (replayLoaded) isRecordsMsg()  {}
func (statsLoaded) isRecordsMsg()   {}

// reqSeq numbers the loads of the records screens; a screen keeps only the
// answer to its newest request.
var reqSeq atomic.Uint64

func nextReq() uint64 { return reqSeq.Add(1) }

// records handles a message of the records screens.
func (m *Model) records(msg recordsMsg) tea.Cmd {
	switch msg := msg.(type) {
	case openHistory:
		if m.cfg.Records == nil {
			m.lobby.setStatus(errNoRecords, true)
			return nil
		}
		cmd := m.leave()
		m.screen = screenHistory
		m.history = newHistoryScreen(m.cfg.Player, msg.table, m.pageSize())
		return tea.Batch(cmd, m.history.load(m.cfg.Records))
	case openStats:
		if m.cfg.Records == nil {
			m.lobby.setStatus(errNoRecords, true)
			return nil
		}
		cmd := m.leave()
		m.screen = screenStats
		m.stats = newStatsScreen(m.cfg.Player, msg.table)
		return tea.Batch(cmd, m.stats.load(m.cfg.Records))
	case openReplay:
		if m.cfg.Records == nil {
			return nil
		}
		m.screen = screenReplay
		m.replay = newReplayScreen(m.cfg.Player, msg.id)
		return m.replay.load(m.cfg.Records)
	case recordsBack:
		if m.screen == screenReplay && m.history.pages != nil { // opened from the list
			m.screen = screenHistory
			return nil
		}
		return m.toLobby("", false)
	case historyLoaded:
		if m.screen == screenHistory || m.screen == screenReplay {
			m.history.loaded(msg)
		}
	case replayLoaded:
		if m.screen == screenReplay {
			m.replay.loaded(msg)
		}
	case statsLoaded:
		if m.screen == screenStats {
			m.stats.loaded(msg)
		}
	}
	return nil
}

// pageSize is how many games a history page holds at the window's height.
func (m *Model) pageSize() int {
	h := m.height
	if h <= 0 {
		h = MinHeight
	}
	return clamp(min(h, MaxHeight)-historyChrome, 1, store.DefaultLimit)
}

// recordsKey routes a key press to the records screen shown.
func (m *Model) recordsKey(msg tea.KeyMsg) tea.Cmd {
	var cmd tea.Cmd
	switch m.screen {
	case screenHistory:
		m.history, cmd = m.history.update(msg, m.cfg.Records)
	case screenReplay:
		m.replay, cmd = m.replay.update(msg)
	case screenStats:
		m.stats, cmd = m.stats.update(msg, m.cfg.Records)
	}
	return cmd
}

// recordsView draws the records screen shown in w×h cells.
func (m *Model) recordsView(w, h int) string {
	now := m.cfg.Now()
	switch m.screen {
	case screenHistory:
		return m.history.view(m.s, &m.help, now, w, h)
	case screenReplay:
		return m.replay.view(m.s, &m.help, now, w, h)
	}
	return m.stats.view(m.s, &m.help, w, h)
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
	case !g.Finished():
		return nil, fmt.Errorf("game %s was abandoned without a result", id)
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
			if d.tally, err = rec.Tally(ctx, viewer.Fingerprint); err != nil {
				return fmt.Errorf("your stats: %w", err)
			}
			if d.rating, err = rec.Rating(ctx, viewer.Fingerprint, ""); err != nil {
				return fmt.Errorf("your rating: %w", err)
			}
			if d.board, err = rec.Leaderboard(ctx, table, boardLimit); err != nil {
				return fmt.Errorf("the leaderboard: %w", err)
			}
			gs, err := rec.History(ctx, store.Query{Player: viewer.Fingerprint, Limit: recentGames}, lobbystore.Shows(viewer.Viewer()))
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
