// Package sshapp is the SSH front door of the Mia server.
//
// Room: the server itself — the wish server and its middleware, sessions
// and their output, the screens' frames, identity from the authenticated
// key, and the config. Everything else lives in the rooms beside it:
// sshapp/guard (the door: handshake limits, penalties, the PROXY
// protocol, per-source and per-person caps, bans), sshapp/command (the
// command router and one file per command), sshapp/botline (the bot line
// protocol), sshapp/tui (every screen), sshapp/plain (the plain mode,
// a door of lines) and sshapp/maexchen (the Mäxchen UDP gateway, wired by
// cmd/mia).
//
// It may import lobby (and lobby/words), store (record types and errors only: the storage
// itself comes through the interfaces of Config.Storage, each declared by
// the room that uses it), its rooms guard, command, botline, tui and plain, and
// sshapp/internal/outbox (each session's output queue), and engine for
// a finished game's events, which the plain door reads. Only cmd/mia
// imports it.
package sshapp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/log"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	"github.com/charmbracelet/wish/recover"
	gossh "golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/sshapp/botline"
	"github.com/mia-game/mia/sshapp/command"
	"github.com/mia-game/mia/sshapp/guard"
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
	gate     *guard.Gate   // the door: connections and their limits
	people   *guard.People // the sessions each person holds

	handlers   sync.WaitGroup // running session handlers
	styles     tui.StyleCache // the screens' styles, one per kind of terminal
	frameShare *frameShare    // what the screens' frames share
	drawers    *drawers       // the goroutines the screens draw on

	// closing is set by Shutdown. Each registry below checks it under its
	// own lock before it adds anything, and Shutdown takes each lock after
	// setting it: nothing is added that Shutdown does not see.
	closing atomic.Bool

	lnMu      sync.Mutex // guards the listeners
	addr      net.Addr
	listeners map[net.Listener]struct{}

	sessMu     sync.Mutex // guards the sessions
	sessions   map[*session]struct{}
	noSessions chan struct{} // closed once closing and no session is left
	noneLeft   sync.Once

	// Sessions dropped for not reading, by reason (Stats); the map is made
	// by New with every key and never changes: only the counters do.
	dropped map[string]*atomic.Uint64
}

// counters is a counter for each key.
func counters(keys ...string) map[string]*atomic.Uint64 {
	m := make(map[string]*atomic.Uint64, len(keys))
	for _, k := range keys {
		m[k] = new(atomic.Uint64)
	}
	return m
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
		cfg:        cfg,
		lim:        cfg.Limits.withDefaults(),
		log:        cfg.Log.WithPrefix("sshapp"),
		dropped:    counters(dropStalled, dropFlush),
		listeners:  make(map[net.Listener]struct{}),
		sessions:   make(map[*session]struct{}),
		noSessions: make(chan struct{}),
		drawers:    newDrawers(drawersFor()),
		frameShare: newFrameShare(),
	}
	srv.gate = guard.New(guard.Config{Limits: srv.lim.Limits, ProxyFrom: cfg.ProxyFrom,
		Version: "SSH-2.0-" + serverVersion, Log: srv.log})
	srv.people = guard.NewPeople(srv.lim.MaxSessionsPerPerson)
	srv.commands = command.New(command.Config{
		Lobby:       cfg.Lobby,
		Events:      cfg.Events,
		Players:     cfg.Storage.Commands,
		Records:     cfg.Storage.Records,
		Backups:     cfg.Storage.Backups,
		UDPNames:    cfg.Storage.UDPNames,
		Log:         srv.log,
		Now:         cfg.Now,
		Season:      cfg.Season,
		IsAdmin:     srv.IsAdmin,
		EndSessions: srv.endSessionsOf,
		Web:         cfg.Web,
		Cast:        tui.WriteCast,
		Judge:       cfg.Judge,
		Alerts:      commandAlerts(cfg.Alerts),
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
		wish.WithVersion(serverVersion),
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

// commandAlerts is a as the commands take it: nil stays nil.
func commandAlerts(a Alerts) command.Alerts {
	if a == nil {
		return nil
	}
	return a
}

// Handle adds a command to the router, or replaces the one of the same
// name (keeping its place in help). Call it before Serve.
func (srv *Server) Handle(cmd command.Command) {
	srv.commands.Handle(cmd)
}

// serverVersion is the software version in the server's SSH version line.
const serverVersion = "mia"

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
			srv.gate.Authenticated(ctx)
			srv.log.Debug("authenticated", "remote", guard.RemoteIP(md.RemoteAddr()), "method", method)
		},
	}
}

// sessionChannel is the "session" channel handler: it caps sessions per
// connection (the guard counts them) and refuses new ones during
// shutdown.
func (srv *Server) sessionChannel(s *ssh.Server, sc *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
	if srv.isClosing() {
		_ = nc.Reject(gossh.ResourceShortage, "the server is shutting down")
		return
	}
	c := guard.ConnOf(ctx)
	if c == nil {
		_ = nc.Reject(gossh.ConnectionFailed, "internal error")
		return
	}
	if !c.OpenSession() {
		_ = nc.Reject(gossh.ResourceShortage, fmt.Sprintf("at most %d sessions per connection", srv.lim.MaxSessions))
		return
	}
	defer c.CloseSession()
	ac := &acceptedChannel{NewChannel: nc}
	ssh.DefaultSessionHandler(s, sc, ac, channelContext{Context: ctx, ch: ac})
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
	srv.lnMu.Lock()
	if srv.closing.Load() {
		srv.lnMu.Unlock()
		ln.Close()
		return ErrServerClosed
	}
	srv.addr = ln.Addr()
	srv.listeners[ln] = struct{}{}
	srv.lnMu.Unlock()
	err := srv.ssh.Serve(ln)
	srv.lnMu.Lock()
	delete(srv.listeners, ln)
	srv.lnMu.Unlock()
	if errors.Is(err, ssh.ErrServerClosed) || srv.closing.Load() {
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
	srv.lnMu.Lock()
	defer srv.lnMu.Unlock()
	return srv.addr
}

func (srv *Server) isClosing() bool { return srv.closing.Load() }

// Shutdown stops accepting connections, tells every session the server is
// going down (a goodbye message to each screen, a line on stderr for each
// command), gives them ShutdownGrace to finish, then closes every
// connection and waits for the session handlers to return, or for ctx.
// The drawers stop whichever way it returns.
func (srv *Server) Shutdown(ctx context.Context) error {
	defer srv.drawers.stop()
	// From here on no listener, connection, session or handler is added:
	// Serve, the gate, sessionChannel and newSession check closing.
	srv.closing.Store(true)
	srv.gate.Shutdown()
	var lnErr error
	srv.lnMu.Lock()
	for ln := range srv.listeners {
		if err := ln.Close(); err != nil && lnErr == nil {
			lnErr = err
		}
	}
	srv.lnMu.Unlock()
	srv.sessMu.Lock()
	sessions := make([]*session, 0, len(srv.sessions))
	for s := range srv.sessions {
		sessions = append(sessions, s)
	}
	if len(sessions) == 0 {
		srv.noneLeft.Do(func() { close(srv.noSessions) })
	}
	srv.sessMu.Unlock()
	// (ssh.Server.Shutdown is not used: its WaitGroup races with
	// connections that finish their handshake while it waits.)

	for _, s := range sessions {
		s.goodbye("the server is shutting down")
	}
	grace := time.NewTimer(srv.lim.ShutdownGrace)
	defer grace.Stop()
	select {
	case <-srv.noSessions:
	case <-ctx.Done():
	case <-grace.C:
	}

	// Close every connection, those still in their handshake included.
	_ = srv.ssh.Close()
	srv.gate.CloseAll()

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
	// (authenticated), "timeout" (ran out of time), "evicted" (closed to
	// make room for a newcomer), "noauth" (closed before authenticating).
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

// Reasons as Stats names them.
const (
	dropStalled = "stalled"
	dropFlush   = "flush"
)

// Stats reports what the server counts now.
func (srv *Server) Stats() Stats {
	gs := srv.gate.Stats()
	st := Stats{Sessions: map[string]int{"screen": 0, "bot": 0, "command": 0},
		Connections: gs.Connections, Unauthenticated: gs.Unauthenticated,
		Handshakes: gs.Handshakes, Refusals: gs.Refusals, Dropped: map[string]uint64{}}
	srv.sessMu.Lock()
	for ss := range srv.sessions {
		st.Sessions[ss.kind]++
	}
	srv.sessMu.Unlock()
	for k, n := range srv.dropped {
		st.Dropped[k] = n.Load()
	}
	return st
}

// count adds one to m[key], a key New made.
func (srv *Server) count(m map[string]*atomic.Uint64, key string) { m[key].Add(1) }

func (srv *Server) sessionCount() int {
	srv.sessMu.Lock()
	defer srv.sessMu.Unlock()
	return len(srv.sessions)
}
