// Package web is the web window: a read-only HTTP side of the server
// (sshapp/web/README.md). Its pages show the lobby's public tables, a
// table live as a spectator sees it (and the same as a Server-Sent
// Events stream), every finished game move by move with its proof of fair
// dice checked in the reader's browser, the game as JSON (replay --json)
// and as a recording (replay --cast), players' stats and the leaderboard.
// A private table and its games are shown only to whoever holds the
// table's web link (table link).
//
// Its room: under sshapp, beside the SSH server and the Mäxchen gateway.
// It reads the lobby and the store through the interfaces it declares
// (Lobby, Records); who sees what is the lobby's (lobby.Viewer), the words
// of the game and the rules in words lobby/words' (words.Narrator,
// words.RuleWords), the replay's steps the engine's (engine.CutSteps, as
// the replay screen steps), and the recording the replay screen's, given
// in Config.Cast. It may import lobby (and lobby/words), engine (and
// engine/rating), store (record types)
// and store/lobbystore (the history filter of the lobby's access rule),
// never the screens
// beside it; cmd/mia wires it.
package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/log"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/sshapp/verdict"
	"github.com/mia-game/mia/store"
)

// Lobby is what the web window reads of the live tables (a *lobby.Lobby).
type Lobby interface {
	// Tables lists the open tables v may see.
	Tables(v lobby.Viewer) []lobby.TableInfo
	// TableFor finds the open table of that name for v: one that does not
	// show itself to v is not there (lobby.ErrNoTable), as one that does
	// not exist.
	TableFor(v lobby.Viewer, name string) (*lobby.Table, error)
}

// Records is what the web window reads of the stored games and players (a
// *store.Store).
type Records interface {
	// ShownGame reads a game the viewer may see; one they may not is not
	// found, by the same steps as one that does not exist.
	ShownGame(ctx context.Context, id string, keep store.GameFilter) (store.Game, []engine.Event, error)
	GameShown(ctx context.Context, g store.Game, keep store.GameFilter) (bool, error)
	History(ctx context.Context, q store.Query, keep store.GameFilter) ([]store.Game, error)
	Rounds(ctx context.Context, ids []string) ([]int, error)
	TableRecords(ctx context.Context, name string) ([]store.TableRecord, error)
	// PersonByName finds a person by a name that looks like theirs (the
	// store's index by ident.Skeleton), as the commands find a PLAYER.
	PersonByName(ctx context.Context, name string) (store.Person, error)
	// PublicTally is a person's counts over the games of public tables
	// only (store.GamePublic): what anyone may read. The web window shows
	// no other.
	PublicTally(ctx context.Context, person string) (store.Tally, error)
	// Rating, Leaderboard and Seasons read the boards: the overall one
	// holds public tables' games only; a table's board is shown only to
	// whoever may see that table (lobbystore.Visible).
	Rating(ctx context.Context, person string, b store.Board) (store.Rating, error)
	Leaderboard(ctx context.Context, q store.BoardQuery) ([]store.Rating, error)
	Trend(ctx context.Context, person string, table *store.TableRecord, n int) ([]store.Point, error)
}

// Config configures the web window. Lobby and Records are required.
type Config struct {
	Lobby   Lobby
	Records Records
	// Events is the server's events (/events); nil: none.
	Events Events
	// Links writes the addresses the pages link to (a Base of "" links
	// within the site the page came from).
	Links Links
	// SSHHost and SSHPort are where people play, which every page says
	// ("ssh -p 23234 mia.example.org"): an empty SSHHost is the host the
	// page was asked of; a zero SSHPort leaves the line out.
	SSHHost string
	SSHPort int
	// Log receives the web window's logs; a discarding logger if nil.
	Log *log.Logger
	// Limits protect the server from greedy clients.
	Limits Limits
	// Now is the clock of the turn countdown and of the season running;
	// time.Now if nil.
	Now func() time.Time
	// Season is how the boards are cut into seasons (the server's
	// --season): the leaderboard shows the season running by default, and
	// a player's page their rating in it (engine/rating).
	Season rating.Period
	// Cast writes a finished game as an asciicast v2 recording of the
	// replay screen (cmd/mia gives tui.WriteCast, as to the replay
	// command); nil: no recording, /games/ID.cast is not found and no
	// page offers one.
	Cast func(w io.Writer, g store.Game, evs []engine.Event) error
	// Judge gives the verdicts on finished games' moves (the game page,
	// /games/ID.json, a player's accuracy); nil: none are given.
	Judge *verdict.Judge
	// SourceOf is the source a client's IP address counts for in the
	// solver's budget (lobby.Solves), as the SSH server counts it
	// (cmd/mia gives sshapp/guard's SourceName: an IPv6 address's /64);
	// nil: the address itself.
	SourceOf func(ip string) string
}

// Limits bound what one address, and all of them, may take. A zero field
// takes its default.
type Limits struct {
	// MaxConnsPerAddr caps the open connections from one IP address;
	// more are closed as they come (default 64).
	MaxConnsPerAddr int
	// MaxStreamsPerAddr caps the live tables (event streams) one IP
	// address watches at once; more get 429 (default 32).
	MaxStreamsPerAddr int
	// MaxStreams caps the event streams of every address together; more
	// get 503 (default 20,000).
	MaxStreams int
	// Rate and Burst bound one address's requests: Rate a second on
	// average, Burst at once; more get 429 (defaults 20 and 100). An
	// event stream counts once, when it opens.
	Rate  float64
	Burst int
	// StallTimeout drops a watcher whose browser has not taken an event
	// (or a page its response) for this long: its connection is closed
	// (default 15 s).
	StallTimeout time.Duration
	// Ping is how often a stream with nothing new says it is alive, so
	// that proxies keep it open (default 25 s).
	Ping time.Duration
	// Linger keeps a table's feed this long after its last watcher left,
	// for the next page (default 30 s).
	Linger time.Duration
}

func (l Limits) withDefaults() Limits {
	num := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	dur := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	num(&l.MaxConnsPerAddr, 64)
	num(&l.MaxStreamsPerAddr, 32)
	num(&l.MaxStreams, 20000)
	num(&l.Burst, 100)
	if l.Rate <= 0 {
		l.Rate = 20
	}
	dur(&l.StallTimeout, 15*time.Second)
	dur(&l.Ping, 25*time.Second)
	dur(&l.Linger, 30*time.Second)
	return l
}

// Server is the web window.
type Server struct {
	cfg   Config
	lim   Limits
	log   *log.Logger
	pages templates
	hub   *hub
	addrs *addrs
	srv   *http.Server
	h     http.Handler

	frames  atomic.Uint64 // table fragments made (one per snapshot of a watched table)
	closing atomic.Bool
	quit    chan struct{} // closed by Shutdown: streams end
	once    sync.Once
}

// Stats is what the web window counts, for the server's metrics.
type Stats struct {
	Watchers int    // event streams open now
	Feeds    int    // tables followed for them
	Frames   uint64 // table fragments made: one per snapshot of a watched table, whatever its watchers
	Dropped  uint64 // watchers dropped for not reading
	Limited  uint64 // requests refused by a per-address limit
}

// New builds the web window. It does not listen yet.
func New(cfg Config) (*Server, error) {
	if cfg.Lobby == nil || cfg.Records == nil {
		return nil, errors.New("web: no lobby or no records")
	}
	if cfg.Log == nil {
		cfg.Log = log.New(io.Discard)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	pages, err := parsePages()
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	s := &Server{cfg: cfg, lim: cfg.Limits.withDefaults(), log: cfg.Log.WithPrefix("web"), pages: pages,
		quit: make(chan struct{})}
	s.addrs = newAddrs(s.lim)
	s.hub = newHub(s)
	s.h = s.routes()
	s.srv = &http.Server{
		Handler:           s.h,
		ReadHeaderTimeout: 5 * time.Second,  // (no ReadTimeout: GET has no body, and it would end streams)
		WriteTimeout:      30 * time.Second, // a stream moves its own deadline on
		IdleTimeout:       time.Minute,
		MaxHeaderBytes:    8 << 10,
		ErrorLog:          s.log.StandardLog(log.StandardLogOptions{ForceLevel: log.DebugLevel}),
	}
	return s, nil
}

// Handler is the whole web window as an http.Handler (its limits per
// address included, but the cap of connections, which Serve applies).
func (s *Server) Handler() http.Handler { return s.h }

// Serve answers the connections of ln until Shutdown; it returns
// http.ErrServerClosed then.
func (s *Server) Serve(ln net.Listener) error {
	return s.srv.Serve(s.addrs.listener(ln))
}

// Shutdown ends every event stream, then stops the server as
// http.Server.Shutdown does: no new connections, the requests under way
// finished, within ctx.
func (s *Server) Shutdown(ctx context.Context) error {
	s.once.Do(func() {
		s.closing.Store(true)
		close(s.quit)
	})
	err := s.srv.Shutdown(ctx)
	s.hub.close()
	return err
}

// Stats reports what the web window counts now.
func (s *Server) Stats() Stats {
	w, f := s.hub.counts()
	return Stats{Watchers: w, Feeds: f, Frames: s.frames.Load(), Dropped: s.hub.dropped.Load(), Limited: s.addrs.limited.Load()}
}
