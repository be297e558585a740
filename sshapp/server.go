// Package sshapp is the SSH front door of the Mia server.
//
// Room: the server itself — the wish server and its middleware, the limits
// that keep slow and greedy clients in check, sessions, identity from the
// authenticated key, and the config. Everything else a session does lives
// in the rooms beside it: sshapp/command (the command router and one file
// per command), sshapp/botline (the bot line protocol), sshapp/tui (every
// screen) and sshapp/maexchen (the Mäxchen UDP gateway, wired by cmd/mia).
//
// It may import lobby, store (record types and errors only: the storage
// itself comes through the interfaces of Config.Storage, each declared by
// the room that uses it), its rooms command, botline and tui, and
// sshapp/internal/outbox (each session's output queue). Only cmd/mia
// imports it.
package sshapp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"sync"
	"time"

	"github.com/charmbracelet/log"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	"github.com/charmbracelet/wish/recover"
	gossh "golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/sshapp/botline"
	"github.com/mia-game/mia/sshapp/command"
	"github.com/mia-game/mia/sshapp/internal/netsource"
	"github.com/mia-game/mia/sshapp/tui"
)

// ErrServerClosed is returned by Serve and ListenAndServe after Shutdown.
var ErrServerClosed = ssh.ErrServerClosed

// Server is the Mia SSH server.
type Server struct {
	cfg      Config
	lim      Limits
	log      *log.Logger
	ssh      *ssh.Server
	commands *command.Router
	botSeats botline.Seats // the bot sessions of each key at each table

	handlers   sync.WaitGroup // running session handlers
	styles     tui.StyleCache // the screens' styles, one per kind of terminal
	frameShare *frameShare    // what the screens' frames share
	drawers    *drawers       // the goroutines the screens draw on

	mu          sync.Mutex
	closing     bool
	addr        net.Addr
	listeners   map[net.Listener]struct{}
	perIP       map[string]int
	handshaking map[*conn]struct{} // connections not yet authenticated
	unauthBySrc map[string]int     // of them, by source
	penalties   *penalties
	exempt      netsource.List    // sources never penalised
	proxyFrom   netsource.List    // addresses whose PROXY header is taken
	roll        func(n int) int   // random early drop's dice: [0, n)
	refusals    map[string]uint64 // connections refused before their handshake, by reason (Stats)
	handshakes  map[string]uint64 // connections that authenticated or did not, by result
	dropped     map[string]uint64 // sessions dropped for not reading, by reason
	conns       map[*conn]struct{}
	sessions    map[*session]struct{}
}

// New builds a server from cfg. It does not listen yet.
func New(cfg Config) (*Server, error) {
	if cfg.HostKey == nil {
		return nil, errors.New("sshapp: no host key")
	}
	if cfg.Storage.Players == nil || cfg.Storage.Commands == nil {
		return nil, errors.New("sshapp: no player store")
	}
	if cfg.Log == nil {
		cfg.Log = log.New(io.Discard)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	srv := &Server{
		cfg:         cfg,
		lim:         cfg.Limits.withDefaults(),
		log:         cfg.Log.WithPrefix("sshapp"),
		perIP:       make(map[string]int),
		roll:        rand.IntN,
		refusals:    make(map[string]uint64),
		handshakes:  make(map[string]uint64),
		dropped:     make(map[string]uint64),
		listeners:   make(map[net.Listener]struct{}),
		conns:       make(map[*conn]struct{}),
		handshaking: make(map[*conn]struct{}),
		unauthBySrc: make(map[string]int),
		sessions:    make(map[*session]struct{}),
		drawers:     newDrawers(drawersFor()),
		frameShare:  newFrameShare(),
	}
	srv.penalties = newPenalties(srv.lim.PenaltyMin, srv.lim.PenaltyMax)
	srv.exempt = netsource.List(srv.lim.PenaltyExempt)
	srv.proxyFrom = netsource.List(cfg.ProxyFrom)
	srv.commands = command.New(command.Config{
		Lobby:       cfg.Lobby,
		Players:     cfg.Storage.Commands,
		Records:     cfg.Storage.Records,
		Backups:     cfg.Storage.Backups,
		UDPNames:    cfg.Storage.UDPNames,
		Log:         srv.log,
		Now:         cfg.Now,
		Season:      cfg.Season,
		IsAdmin:     srv.IsAdmin,
		EndSessions: srv.endSessionsOf,
		Bots: botline.Config{
			Games:       cfg.Storage.Games,
			Seats:       &srv.botSeats,
			IdleTimeout: srv.lim.IdleTimeout,
			Closing:     srv.isClosing,
		},
	})
	panicLog := srv.log.StandardLog(log.StandardLogOptions{ForceLevel: log.ErrorLevel})
	s, err := wish.NewServer(
		hostKey(cfg.HostKey),
		wish.WithVersion("mia"),
		wish.WithPublicKeyAuth(srv.allowedKey),
		wish.WithKeyboardInteractiveAuth(srv.keylessMessage),
		wish.WithMiddleware(recover.MiddlewareWithLogger(panicLog, srv.middleware)),
	)
	if err != nil {
		return nil, fmt.Errorf("sshapp: %w", err)
	}
	s.ConnCallback = srv.accept
	s.ServerConfigCallback = srv.serverConfig
	s.ChannelHandlers = map[string]ssh.ChannelHandler{"session": srv.sessionChannel}
	s.RequestHandlers = map[string]ssh.RequestHandler{}     // no port forwarding
	s.SubsystemHandlers = map[string]ssh.SubsystemHandler{} // no sftp
	srv.ssh = s
	return srv, nil
}

// Handle adds a command to the router, or replaces the one of the same
// name (keeping its place in help). Call it before Serve.
func (srv *Server) Handle(cmd command.Command) {
	srv.commands.Handle(cmd)
}

func hostKey(signer gossh.Signer) ssh.Option {
	return func(s *ssh.Server) error {
		s.AddHostKey(signer)
		return nil
	}
}

// serverConfig is the ServerConfigCallback: the gossh config of one
// connection, whose AuthLogCallback tells the connection it authenticated.
func (srv *Server) serverConfig(ctx ssh.Context) *gossh.ServerConfig {
	return &gossh.ServerConfig{
		MaxAuthTries: 6,
		AuthLogCallback: func(md gossh.ConnMetadata, method string, err error) {
			if err != nil {
				return
			}
			if c := connOf(ctx); c != nil {
				c.authenticated(ctx)
			}
			srv.log.Debug("authenticated", "remote", remoteIP(md.RemoteAddr()), "method", method)
		},
	}
}

// middleware is the session handler inside wish's recover middleware.
func (srv *Server) middleware(next ssh.Handler) ssh.Handler {
	return func(s ssh.Session) {
		srv.handle(s)
		next(s)
	}
}

// Serve accepts connections on ln until Shutdown. It always returns an
// error, ErrServerClosed after Shutdown.
func (srv *Server) Serve(ln net.Listener) error {
	srv.mu.Lock()
	if srv.closing {
		srv.mu.Unlock()
		ln.Close()
		return ErrServerClosed
	}
	srv.addr = ln.Addr()
	srv.listeners[ln] = struct{}{}
	srv.mu.Unlock()
	err := srv.ssh.Serve(ln)
	srv.mu.Lock()
	delete(srv.listeners, ln)
	closing := srv.closing
	srv.mu.Unlock()
	if errors.Is(err, ssh.ErrServerClosed) || closing {
		return ErrServerClosed
	}
	return fmt.Errorf("sshapp: serve: %w", err)
}

// ListenAndServe listens on the TCP address addr and serves.
func (srv *Server) ListenAndServe(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("sshapp: %w", err)
	}
	return srv.Serve(ln)
}

// Addr is the address Serve listens on, nil before Serve.
func (srv *Server) Addr() net.Addr {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	return srv.addr
}

func (srv *Server) isClosing() bool {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	return srv.closing
}

// Shutdown stops accepting connections, tells every session the server is
// going down (a goodbye message to each screen, a line on stderr for each
// command), gives them ShutdownGrace to finish, then closes every
// connection and waits for the session handlers to return, or for ctx.
func (srv *Server) Shutdown(ctx context.Context) error {
	// From here on no connection, session or handler is added: accept,
	// sessionChannel and newSession check closing under srv.mu.
	srv.mu.Lock()
	srv.closing = true
	sessions := make([]*session, 0, len(srv.sessions))
	for s := range srv.sessions {
		sessions = append(sessions, s)
	}
	var lnErr error
	for ln := range srv.listeners {
		if err := ln.Close(); err != nil && lnErr == nil {
			lnErr = err
		}
	}
	srv.mu.Unlock()
	// (ssh.Server.Shutdown is not used: its WaitGroup races with
	// connections that finish their handshake while it waits.)

	for _, s := range sessions {
		s.goodbye("the server is shutting down")
	}
	grace := time.NewTimer(srv.lim.ShutdownGrace)
	defer grace.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
wait:
	for srv.sessionCount() > 0 {
		select {
		case <-ctx.Done():
			break wait
		case <-grace.C:
			break wait
		case <-tick.C:
		}
	}

	// Close every connection, those still in their handshake included.
	_ = srv.ssh.Close()
	srv.mu.Lock()
	conns := make([]*conn, 0, len(srv.conns))
	for c := range srv.conns {
		conns = append(conns, c)
	}
	srv.mu.Unlock()
	for _, c := range conns {
		_ = c.Close()
	}

	done := make(chan struct{})
	go func() {
		srv.handlers.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		return fmt.Errorf("sshapp: shutdown: %w", ctx.Err())
	}
	srv.drawers.stop()
	if lnErr != nil && !errors.Is(lnErr, net.ErrClosed) {
		return fmt.Errorf("sshapp: shutdown: %w", lnErr)
	}
	return nil
}

// Stats is what the server counts, for its metrics. The counters run
// from the server's start.
type Stats struct {
	// Sessions is the open sessions by kind: "screen", "bot", "command".
	Sessions map[string]int
	// Connections is the TCP connections open; Unauthenticated of them
	// are still in their handshake.
	Connections, Unauthenticated int
	// Handshakes is the connections by how their handshake ended: "ok"
	// (authenticated), "timeout" (ran out of time), "evicted" (closed,
	// silent, to make room for a newcomer), "noauth" (closed before
	// authenticating).
	Handshakes map[string]uint64
	// Refusals is the connections refused before their handshake, by
	// reason: "shutdown", "penalised", "per_source", "busy", "proxy" (a
	// PROXY header from an address not trusted to send one, or none from
	// one that is).
	Refusals map[string]uint64
	// Dropped is the sessions dropped because their client stopped
	// reading: "stalled" (it owed MaxOwed), "flush" (it did not take the
	// end of its output in FlushTimeout).
	Dropped map[string]uint64
}

// Reasons and results as Stats names them.
const (
	handshakeOK      = "ok"
	handshakeTimeout = "timeout"
	handshakeNoAuth  = "noauth"
	handshakeEvicted = "evicted"
	dropStalled      = "stalled"
	dropFlush        = "flush"
)

// Stats reports what the server counts now.
func (srv *Server) Stats() Stats {
	st := Stats{Sessions: map[string]int{"screen": 0, "bot": 0, "command": 0},
		Handshakes: map[string]uint64{}, Refusals: map[string]uint64{}, Dropped: map[string]uint64{}}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	for ss := range srv.sessions {
		st.Sessions[ss.kind]++
	}
	st.Connections, st.Unauthenticated = len(srv.conns), len(srv.handshaking)
	for _, r := range []string{handshakeOK, handshakeTimeout, handshakeEvicted, handshakeNoAuth} {
		st.Handshakes[r] = srv.handshakes[r]
	}
	for _, r := range refusals {
		st.Refusals[string(r)] = srv.refusals[string(r)]
	}
	for _, r := range []string{dropStalled, dropFlush} {
		st.Dropped[r] = srv.dropped[r]
	}
	return st
}

// count adds one to m[key] under the server's lock.
func (srv *Server) count(m map[string]uint64, key string) {
	srv.mu.Lock()
	m[key]++
	srv.mu.Unlock()
}

func (srv *Server) sessionCount() int {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	return len(srv.sessions)
}
