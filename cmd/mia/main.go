// Command mia serves the dice bluffing game Mia over SSH:
//
//	go run ./cmd/mia            # then: ssh -p 23234 localhost
//
// Settings are flags or MIA_* environment variables (PROTOCOL.md §0);
// mia -h lists them. --debug-addr 127.0.0.1:6060 serves Go's profiles
// (net/http/pprof) on a loopback address, for measuring. SIGINT or SIGTERM stops it: every connected person is
// told, sessions close, the database is closed, and it exits 0.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/charmbracelet/log"

	"github.com/mia-game/mia/hostkeys"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/sshapp"
	"github.com/mia-game/mia/sshapp/alerts"
	sshcmd "github.com/mia-game/mia/sshapp/command"
	"github.com/mia-game/mia/sshapp/guard"
	"github.com/mia-game/mia/sshapp/maexchen"
	"github.com/mia-game/mia/sshapp/tui"
	"github.com/mia-game/mia/sshapp/verdict"
	"github.com/mia-game/mia/sshapp/web"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// shutdownTimeout bounds the goodbye to every session; the whole stop
// stays under five seconds.
const shutdownTimeout = 4 * time.Second

func main() {
	tuneGC(os.Getenv)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // a second signal kills at once
	}()
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	var ue *usageError
	switch {
	case err == nil:
	case errors.As(err, &ue):
		fmt.Fprintln(os.Stderr, "mia:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "mia:", err)
		os.Exit(1)
	}
}

// run is the whole server: it returns nil after a clean stop once ctx is
// cancelled.
func run(ctx context.Context, args []string, env func(string) string, stdout, stderr io.Writer) error {
	o, err := parseOptions(args, env, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	logger := log.NewWithOptions(stderr, log.Options{
		Level: o.logLevel, Formatter: o.logFormat, ReportTimestamp: true, TimeFormat: time.RFC3339,
	})
	lg := logger.WithPrefix("mia")

	if err := os.MkdirAll(o.data, 0o700); err != nil {
		return fmt.Errorf("data folder: %w", err)
	}
	key, err := hostkeys.LoadOrCreate(o.hostKey)
	if err != nil {
		return err
	}
	if key.Created {
		lg.Info("created a host key", "path", key.Path)
	}
	admins, err := readKeys(o.adminKeys)
	if err != nil {
		return fmt.Errorf("admin keys: %w", err)
	}
	allow, err := readKeys(o.allowKeys)
	if err != nil {
		return fmt.Errorf("allowed keys: %w", err)
	}
	if allow != nil {
		lg.Info("only listed keys may connect", "file", o.allowKeys, "keys", len(allow))
		if len(allow) == 0 {
			lg.Warn("the allow-list is empty: nobody can connect")
		}
	}

	// What run starts is stopped on its way out, the last first (stops).
	var stop stops
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		_ = stop.run(ctx) // on an error's way out: that error is returned
	}()

	st, err := store.Open(filepath.Join(o.data, "mia.db"))
	if err != nil {
		return err
	}
	stop.push(func(context.Context) error {
		if err := st.Close(); err != nil {
			return fmt.Errorf("close store: %w", err)
		}
		return nil
	})
	// the solver's budget by source, one for every door that solves: the
	// verdicts on moves, the coach, the expert bots
	solves := lobby.NewSolves(o.maxSolvesPerAddress, 0, nil)
	lob, err := lobby.New(ctx, lobby.Config{Store: lobbystore.New(st), Log: logger, BotDelay: o.botDelay, MaxTables: o.maxTables,
		MaxTablesPerSource: o.maxTablesPerAddress, MaxBotTablesPerSource: o.maxBotTablesPerAddress, MaxBotTables: o.maxBotTables,
		BotTableIdle: o.botTableIdle, Solves: solves})
	if err != nil {
		return err
	}
	stop.push(func(context.Context) error { lob.Close(); return nil })
	evs, err := events.Open(ctx, events.Config{Lobby: lob, Store: lobbystore.NewEvents(st), Log: logger,
		MaxPerPerson: o.maxEventsPerPerson, MaxPerSource: o.maxEventsPerAddress})
	if err != nil {
		return err
	}
	stop.push(func(context.Context) error { evs.Close(); return nil })
	if o.maexchenUDP != "" {
		gw, err := maexchen.New(ctx, maexchen.Config{
			Addr: o.maexchenUDP, Lobby: lob, Records: maexchenRecords{st},
			Table: o.maexchenTable, Timeout: o.maexchenTimeout, Log: logger,
			MaxPlayers: o.maexchenPlayers, NameHold: o.maexchenNameHold, Exempt: o.penaltyExempt,
			Finished: doorOf(evs, o.maexchenEvent, o.maexchenTable),
		})
		if err != nil {
			return err
		}
		stop.push(func(context.Context) error { gw.Close(); return nil })
		lg.Info("Mäxchen gateway listening", "udp", gw.Addr().String(), "table", o.maexchenTable, "timeout", o.maexchenTimeout, "event", o.maexchenEvent)
	} else if err := maexchen.SweepNames(ctx, maexchenRecords{st}, time.Now(), o.maexchenNameHold); err != nil {
		// The bots' names it holds stay so; an admin frees them.
		lg.Warn("could not sweep the Mäxchen bots' names", "err", err)
	}
	// The web window listens first: its address is in the links the SSH
	// side prints.
	var (
		webLn    net.Listener
		webLinks web.Links
		links    sshcmd.WebLinks // nil: no web window
	)
	if o.httpAddr != "" {
		if webLn, err = net.Listen("tcp", o.httpAddr); err != nil {
			return fmt.Errorf("web window: listen: %w", err)
		}
		stop.push(func(context.Context) error { webLn.Close(); return nil }) // (closed already if it served)
		base := o.httpURL
		if base == "" {
			base = "http://" + reachable(webLn.Addr())
		}
		webLinks = web.NewLinks(base, o.httpURL != "")
		links = webLinks
	}
	// the verdicts on moves (finished games', the coach's), one for every
	// door, their new solves budgeted by source as the expert bots' are
	judge := verdict.NewBudgeted(solves)
	// The SSH port listens before the alerts start: their messages name
	// it ("ssh -t -p PORT HOST play TABLE").
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	stop.push(func(context.Context) error { ln.Close(); return nil }) // (closed already if it served)
	al, err := startAlerts(ctx, o, lob, st, ln.Addr(), webLinks, logger)
	if err != nil {
		return err
	}
	stop.push(func(context.Context) error { al.Close(); return nil })
	stopSeasons := lob.TellSeasons(o.season)
	stop.push(func(context.Context) error { stopSeasons(); return nil })
	srv, err := sshapp.New(sshapp.Config{
		HostKey: key.Signer,
		// The store in every role; each interface is declared by its user.
		Storage:   sshapp.Storage{Players: st, Bans: st, Commands: st, Records: st, Screens: st, Games: st, Backups: st, UDPNames: st},
		Lobby:     lob,
		Events:    evs,
		Admins:    admins,
		Allow:     allow,
		Log:       logger,
		ProxyFrom: o.proxyFrom,
		Web:       links,
		Season:    o.season,
		Judge:     judge,
		Alerts:    al,
		Limits: sshapp.Limits{Limits: guard.Limits{
			MaxPerSource:         o.maxPerSource,
			MaxUnauthenticated:   o.maxHandshakes,
			PenaltyExempt:        o.penaltyExempt,
			MaxSessionsPerPerson: o.maxSessions,
		}},
	})
	if err != nil {
		return err
	}
	// Its drawers run from New on. (A server that served is shut down
	// below, its errors logged there; this one then finds nothing left.)
	stop.push(func(ctx context.Context) error { _ = srv.Shutdown(ctx); return nil })
	if o.debugAddr != "" {
		dbg, err := startDebug(o.debugAddr)
		if err != nil {
			return err
		}
		stop.push(func(context.Context) error {
			if err := dbg.stop(); err != nil {
				lg.Warn("debug server", "err", err)
			}
			return nil
		})
		lg.Info("debug listening", "addr", dbg.addr.String())
	}
	collector := newMiaCollector(srv, lob, st, al)
	if o.metrics != "" {
		stopMetrics, err := serveMetrics(o.metrics, collector, lg)
		if err != nil {
			return err
		}
		stop.push(func(ctx context.Context) error {
			if err := stopMetrics(ctx); err != nil {
				lg.Warn("metrics shutdown incomplete", "err", err)
			}
			return nil
		})
	}

	lg.Info("listening", "addr", ln.Addr().String(), "fingerprint", key.Fingerprint)
	if len(o.proxyFrom) > 0 {
		lg.Info("PROXY headers taken from", "proxies", o.proxyFrom)
	}

	var (
		ws        *web.Server
		webServed = make(chan error, 1)
	)
	if webLn != nil {
		ws, err = web.New(web.Config{Lobby: lob, Events: evs, Records: st, Links: webLinks, SSHHost: publicHost(o.httpURL),
			SSHPort: ln.Addr().(*net.TCPAddr).Port, Log: logger, Cast: tui.WriteCast, Season: o.season,
			Judge: judge, SourceOf: guard.SourceName})
		if err != nil {
			return err
		}
		collector.web.Store(ws)
		go func() { webServed <- ws.Serve(webLn) }()
		stop.push(func(ctx context.Context) error {
			if err := ws.Shutdown(ctx); err != nil {
				lg.Warn("web window shutdown incomplete", "err", err)
			}
			return nil
		})
		lg.Info("web window listening", "addr", webLn.Addr().String(), "url", webLinks.Base)
	}

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
	case err := <-served:
		return err
	case err := <-webServed:
		lg.Error("web window stopped", "err", err)
		return fmt.Errorf("web window: %w", err)
	}

	lg.Info("shutting down")
	lob.Broadcast("the server is shutting down; your games are saved")
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		lg.Warn("shutdown incomplete", "err", err)
	}
	select {
	case <-served:
	case <-sctx.Done():
	}
	if err := stop.run(sctx); err != nil {
		return err
	}
	lg.Info("stopped")
	return nil
}

// startAlerts starts the alerts: the server's webhooks, a table's own,
// fed by the lobby's news. Their messages name the table's ssh command
// line at the web window's public host (else the listening address) and
// the SSH port, and a game's page when the web window has a public
// address.
func startAlerts(ctx context.Context, o options, lob *lobby.Lobby, st *store.Store, sshAddr net.Addr, links web.Links,
	logger *log.Logger) (*alerts.Alerts, error) {
	host, port, _ := net.SplitHostPort(reachable(sshAddr))
	if h := publicHost(o.httpURL); h != "" {
		host = h
	}
	cfg := alerts.Config{Lobby: lob, Storage: st, Hooks: o.webhooks, Secret: o.webhookSecret, Allow: o.webhookAllow,
		Play: sshapp.Hint(net.JoinHostPort(host, port), "-t") + " play", Log: logger}
	if o.httpURL != "" {
		cfg.Links = links
	}
	al, err := alerts.New(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if len(o.webhooks) > 0 {
		logger.WithPrefix("mia").Info("webhooks", "server", len(o.webhooks), "signed", o.webhookSecret != "", "table hooks to", o.webhookAllow.String())
	}
	return al, nil
}

// reachable is a listening address as a link may name it: an address
// that listens on every interface is named localhost.
func reachable(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}

// publicHost is the host of the web window's public address, where the
// pages tell people to ssh; "" (the host each page was asked of) without
// one.
func publicHost(base string) string {
	u, err := url.Parse(base)
	if err != nil || base == "" {
		return ""
	}
	return u.Hostname()
}

// stops is what run has started and stops on its way out.
type stops []func(ctx context.Context) error

// push adds the stop of something just started.
func (s *stops) push(stop func(ctx context.Context) error) { *s = append(*s, stop) }

// run stops everything pushed, the last first, once, and returns the
// first error.
func (s *stops) run(ctx context.Context) error {
	var first error
	for i := len(*s) - 1; i >= 0; i-- {
		if err := (*s)[i](ctx); err != nil && first == nil {
			first = err
		}
	}
	*s = nil
	return first
}

// readKeys reads an authorized_keys file, or returns nil for no file.
func readKeys(path string) (sshapp.KeySet, error) {
	if path == "" {
		return nil, nil
	}
	return sshapp.ReadKeySet(path)
}

// doorOf makes the Mäxchen gateway a door of the event named: each game
// that ends at its table counts there (events.Registry.DoorGame); nil for
// no event.
func doorOf(evs *events.Registry, event, table string) func(game string, players []lobby.Player) {
	if event == "" {
		return nil
	}
	return func(game string, players []lobby.Player) { _ = evs.DoorGame(event, table, game, players) }
}
