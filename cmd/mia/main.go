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
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/charmbracelet/log"

	"github.com/mia-game/mia/hostkeys"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/sshapp"
	"github.com/mia-game/mia/sshapp/maexchen"
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

	st, err := store.Open(filepath.Join(o.data, "mia.db"))
	if err != nil {
		return err
	}
	botDelay := o.botDelay
	if botDelay == 0 {
		botDelay = -1 // the lobby's zero is its default
	}
	lob, err := lobby.New(ctx, lobby.Config{Store: lobbystore.New(st), Log: logger, BotDelay: botDelay, MaxTables: o.maxTables})
	if err != nil {
		st.Close()
		return err
	}
	var gw *maexchen.Gateway
	if o.maexchenUDP != "" {
		gw, err = maexchen.New(ctx, maexchen.Config{
			Addr: o.maexchenUDP, Lobby: lob, Records: maexchenRecords{st},
			Table: o.maexchenTable, Timeout: o.maexchenTimeout, Log: logger,
			MaxPlayers: o.maexchenPlayers, MaxPerAddress: o.maexchenPerAddress, NameHold: o.maexchenNameHold,
		})
		if err != nil {
			lob.Close()
			st.Close()
			return err
		}
		lg.Info("Mäxchen gateway listening", "udp", gw.Addr().String(), "table", o.maexchenTable, "timeout", o.maexchenTimeout)
	} else if err := maexchen.SweepNames(ctx, maexchenRecords{st}, time.Now(), o.maexchenNameHold); err != nil {
		// The bots' names it holds stay so; an admin frees them.
		lg.Warn("could not sweep the Mäxchen bots' names", "err", err)
	}
	var dbg *debugServer // the profiling endpoint, if asked for
	closeAll := func() error {
		if err := dbg.stop(); err != nil {
			lg.Warn("debug server", "err", err)
		}
		if gw != nil {
			gw.Close()
		}
		lob.Close()
		if err := st.Close(); err != nil {
			return fmt.Errorf("close store: %w", err)
		}
		return nil
	}
	srv, err := sshapp.New(sshapp.Config{
		HostKey: key.Signer,
		// The store in every role; each interface is declared by its user.
		Storage:   sshapp.Storage{Players: st, Bans: st, Commands: st, Records: st, Screens: st, Games: st, Backups: st, UDPNames: st},
		Lobby:     lob,
		Admins:    admins,
		Allow:     allow,
		Log:       logger,
		ProxyFrom: o.proxyFrom,
		Limits: sshapp.Limits{
			MaxPerSource:         o.maxPerSource,
			MaxUnauthenticated:   o.maxHandshakes,
			PenaltyExempt:        o.penaltyExempt,
			MaxSessionsPerPerson: o.maxSessions,
		},
	})
	if err != nil {
		closeAll()
		return err
	}
	if o.debugAddr != "" {
		if dbg, err = startDebug(o.debugAddr); err != nil {
			closeAll()
			return err
		}
		lg.Info("debug listening", "addr", dbg.addr.String())
	}
	stopMetrics := func(context.Context) error { return nil }
	if o.metrics != "" {
		if stopMetrics, err = serveMetrics(o.metrics, newMiaCollector(srv, lob, st), lg); err != nil {
			closeAll()
			return err
		}
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		_ = stopMetrics(context.Background())
		closeAll()
		return fmt.Errorf("listen: %w", err)
	}
	lg.Info("listening", "addr", ln.Addr().String(), "fingerprint", key.Fingerprint)
	if len(o.proxyFrom) > 0 {
		lg.Info("PROXY headers taken from", "proxies", o.proxyFrom)
	}

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
	case err := <-served:
		_ = stopMetrics(context.Background())
		closeAll()
		return err
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
	if err := stopMetrics(sctx); err != nil {
		lg.Warn("metrics shutdown incomplete", "err", err)
	}
	if err := closeAll(); err != nil {
		return err
	}
	lg.Info("stopped")
	return nil
}

// readKeys reads an authorized_keys file, or returns nil for no file.
func readKeys(path string) (sshapp.KeySet, error) {
	if path == "" {
		return nil, nil
	}
	return sshapp.ReadKeySet(path)
}
