package sshapp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/sshapp/command"
	"github.com/mia-game/mia/sshapp/guard"
	"github.com/mia-game/mia/sshapp/internal/outbox"
	"github.com/mia-game/mia/sshapp/tui"
	"github.com/mia-game/mia/store"
)

// session is an ssh.Session as the rest of the server sees it: its output
// goes through its outbox (bounded, never blocking), its terminal size is
// clamped (in the pty request here, in window changes as the screen gets
// them: sendWindows), reads of the person's input are timed for the idle
// timeout, and the server can say goodbye to it. It does not embed the
// ssh.Session: every method of one is written out below (sessionraw.go),
// so that nothing reaches the output or the window another way.
type session struct {
	raw     ssh.Session // only through session's own methods
	srv     *Server
	fp      string
	args    []string // the command line (command.Split)
	kind    string   // "screen", "bot" or "command" (Stats)
	started time.Time

	pty    ssh.Pty
	hasPty bool
	winch  <-chan ssh.Window // the client's window changes, not clamped: sendWindows reads them

	lastInput atomic.Int64 // unix nanoseconds of the last byte read
	out       *outbox.Box  // what the session writes, bounded by MaxOwed
	errOut    *outbox.Box  // and on stderr

	mu       sync.Mutex
	person   store.Person // who the key belongs to, as last read or changed; ID "" for nobody yet
	idle     *time.Timer
	program  *tea.Program
	running  chan struct{} // closed when the program returns
	finished bool          // the program returned
	bye      string        // why the server ends the session
	byeSaid  chan struct{} // closed when bye is set
	plain    bool          // the plain mode runs: it says bye itself
}

// newSession wraps s, whose command is args, and registers it, or returns
// nil during shutdown.
func (srv *Server) newSession(s ssh.Session, fp string, args []string) *session {
	ss := &session{raw: s, srv: srv, fp: fp, args: args, started: srv.cfg.Now(), byeSaid: make(chan struct{})}
	pty, winch, ok := s.Pty()
	ss.kind = sessionKind(args, ok)
	ss.lastInput.Store(time.Now().UnixNano())
	if ok {
		pty.Window = srv.lim.clampWindow(pty.Window)
		ss.pty, ss.hasPty, ss.winch = pty, true, winch
	}

	srv.sessMu.Lock()
	if srv.closing.Load() {
		srv.sessMu.Unlock()
		return nil
	}
	srv.sessions[ss] = struct{}{}
	srv.handlers.Add(1)
	srv.sessMu.Unlock()
	over := func(owed int) {
		srv.count(srv.dropped, dropStalled)
		ss.drop("its client stopped reading", "owed", owed, "bound", srv.lim.MaxOwed)
	}
	out, errOut := outputs(s, ok)
	ss.out = outbox.New(out, srv.lim.MaxOwed, over)
	ss.errOut = outbox.New(errOut, srv.lim.MaxOwed, over)

	if d := srv.lim.IdleTimeout; d > 0 {
		ss.mu.Lock()
		ss.idle = time.AfterFunc(d, ss.checkIdle)
		ss.mu.Unlock()
	}
	return ss
}

// release unregisters the session once its handler is done, after its
// client took the output still owed (or FlushTimeout passed).
func (ss *session) release() {
	ss.flush()
	ss.mu.Lock()
	if ss.idle != nil {
		ss.idle.Stop()
	}
	ss.mu.Unlock()
	srv := ss.srv
	srv.people.Leave(ss)
	srv.sessMu.Lock()
	delete(srv.sessions, ss)
	if len(srv.sessions) == 0 && srv.closing.Load() {
		srv.noneLeft.Do(func() { close(srv.noSessions) })
	}
	srv.sessMu.Unlock()
	srv.handlers.Done()
}

// Write queues output for the client (see package outbox).
func (ss *session) Write(p []byte) (int, error) { return ss.out.Write(p) }

// Owed is the output written and not yet taken by the client.
func (ss *session) Owed() int { return ss.out.Owed() }

// Taken gets a token after the client took some of the output owed.
func (ss *session) Taken() <-chan struct{} { return ss.out.Taken() }

// Stderr is the session's stderr, its output queued as Write's is.
func (ss *session) Stderr() io.ReadWriter {
	return struct {
		io.Reader
		io.Writer
	}{ss.raw.Stderr(), ss.errOut}
}

// Exit sends the exit status once the client took the output owed.
func (ss *session) Exit(code int) error {
	ss.flush()
	return ss.raw.Exit(code)
}

// Close closes the session once the client took the output owed.
func (ss *session) Close() error {
	ss.flush()
	return ss.raw.Close()
}

// CloseWrite ends the output once the client took what is owed.
func (ss *session) CloseWrite() error {
	ss.flush()
	return ss.raw.CloseWrite()
}

// flush waits up to FlushTimeout for the client to take the output owed,
// and drops the connection of a client that does not.
func (ss *session) flush() {
	deadline := time.Now().Add(ss.srv.lim.FlushTimeout)
	for _, o := range []*outbox.Box{ss.out, ss.errOut} {
		if !o.Close(time.Until(deadline)) {
			ss.srv.count(ss.srv.dropped, dropFlush)
			ss.drop("its client did not take the end of its output", "owed", ss.out.Owed()+ss.errOut.Owed(),
				"waited", ss.srv.lim.FlushTimeout)
			return
		}
	}
}

// drop closes the session's connection, with a log line saying why.
func (ss *session) drop(why string, kv ...any) {
	ss.srv.log.Warn("dropping a session: "+why, append([]any{"fingerprint", ss.fp, "remote", guard.RemoteIP(ss.RemoteAddr())}, kv...)...)
	if c := guard.ConnOf(ss.Context()); c != nil {
		_ = c.Close()
		return
	}
	_ = ss.raw.Close()
}

// Read reads the person's input and notes when it came. An end of input
// (the client closed its side) quits the screen.
func (ss *session) Read(p []byte) (int, error) {
	n, err := ss.raw.Read(p)
	if n > 0 {
		ss.lastInput.Store(time.Now().UnixNano())
	}
	if err != nil {
		ss.mu.Lock()
		p := ss.program
		ss.mu.Unlock()
		if p != nil {
			p.Quit()
		}
	}
	return n, err
}

// Pty is the client's pty request with its window clamped. Its window
// changes go to the screen (sendWindows), clamped, and to no one else.
func (ss *session) Pty() (ssh.Pty, <-chan ssh.Window, bool) {
	return ss.pty, nil, ss.hasPty
}

// sendWindows gives the screen the window's size and every change of it,
// clamped, and quits the screen when the session ends. A client sending
// window changes faster than its screen takes them waits, as its TCP
// connection then does: no one else does.
func (ss *session) sendWindows(ctx context.Context, p *tea.Program) {
	winch := ss.winch
	for {
		select {
		case <-ctx.Done():
			p.Quit()
			return
		case w, ok := <-winch:
			if !ok { // the session's requests ended; its context ends next
				winch = nil
				continue
			}
			w = ss.srv.lim.clampWindow(w)
			p.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
		}
	}
}

// checkIdle ends the session if the person typed nothing for IdleTimeout.
func (ss *session) checkIdle() {
	d := ss.srv.lim.IdleTimeout
	left := d - time.Since(time.Unix(0, ss.lastInput.Load()))
	if left > 0 {
		ss.mu.Lock()
		ss.idle.Reset(left)
		ss.mu.Unlock()
		return
	}
	ss.srv.log.Info("closing idle session", "fingerprint", ss.fp, "idle", d)
	ss.goodbye(fmt.Sprintf("closed after %s without input", d))
	ss.mu.Lock()
	interactive := ss.program != nil
	ss.mu.Unlock()
	if !interactive {
		_ = ss.Exit(1)
	}
}

// goodbye tells the person why the server ends their session: a screen
// gets tui.GoodbyeMsg (and is killed if it has not quit after
// ShutdownGrace), a command gets the reason on stderr. The reason is
// printed again after the screen closes.
func (ss *session) goodbye(reason string) {
	ss.mu.Lock()
	if ss.bye != "" {
		ss.mu.Unlock()
		return
	}
	ss.bye = reason
	close(ss.byeSaid)
	p, running, finished, plain := ss.program, ss.running, ss.finished, ss.plain
	ss.mu.Unlock()
	if finished || plain {
		return // the plain mode says it, seeing byeSaid closed
	}
	if p == nil {
		fmt.Fprintf(ss.Stderr(), "mia: %s\n", reason)
		return
	}
	p.Send(tui.GoodbyeMsg{Reason: reason})
	go func() {
		t := time.NewTimer(ss.srv.lim.ShutdownGrace)
		defer t.Stop()
		select {
		case <-running:
		case <-t.C:
			p.Kill()
		}
	}()
}

// Owner is whom the session counts for under the cap per person
// (guard.People): its person, or its key while the key is nobody's yet.
func (ss *session) Owner() string {
	if id := ss.Person().ID; id != "" {
		return id
	}
	return "key " + ss.fp
}

// Source is the source the session's connection counts for: the client's
// IPv4 address or IPv6 /64 (guard.SourceName), the real client's behind a
// trusted proxy; every limit per source keys on it. It is "" for a source
// the lobby's caps by address do not count (guard.Conn.Uncounted): a
// loopback one, or one --penalty-exempt names.
func (ss *session) Source() string {
	if c := guard.ConnOf(ss.Context()); c == nil || c.Uncounted() {
		return ""
	}
	return guard.Source(ss.Context())
}

// Key is the fingerprint of the key the session logged in with.
func (ss *session) Key() string { return ss.fp }

// Person is who the session's key belongs to, as last read or changed;
// ID "" until a name is chosen (or the key joined to someone).
func (ss *session) Person() store.Person {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.person
}

// SetPerson records the session's person after a change.
func (ss *session) SetPerson(p store.Person) {
	ss.mu.Lock()
	ss.person = p
	ss.mu.Unlock()
}

// GoodbyeReason is the reason given to goodbye, or "".
func (ss *session) GoodbyeReason() string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.bye
}

// Touch counts as input for the idle timeout.
func (ss *session) Touch() {
	ss.lastInput.Store(time.Now().UnixNano())
}

// Rename validates and stores the session's name. Its errors are fit to
// show the person.
func (ss *session) Rename(ctx context.Context, name string) (store.Person, error) {
	p, err := ss.srv.setName(ctx, ss.fp, ss.Person(), name)
	if err != nil {
		return store.Person{}, err
	}
	ss.SetPerson(p)
	return p, nil
}

// Hint is the ssh command line that reaches the server, with extra flags.
func (ss *session) Hint(flags string) string { return ss.srv.hint(ss, flags) }

// Play runs the game screen on the session, straight to table or to the
// event's screen if named: the plain mode for a session that wants it
// (command.WantsPlain).
func (ss *session) Play(table, event string) {
	if command.WantsPlain(ss, ss.Person()) {
		ss.srv.plain(ss, table, event)
		return
	}
	ss.srv.interactive(ss, first{table: table, event: event})
}

// Plain runs the plain mode on the session, straight to table or to the
// event if named.
func (ss *session) Plain(table, event string) { ss.srv.plain(ss, table, event) }

// setProgram records the session's Bubble Tea program, so that goodbye
// and the end of input reach it.
func (ss *session) setProgram(p *tea.Program) {
	ss.mu.Lock()
	ss.program = p
	ss.running = make(chan struct{})
	bye := ss.bye
	ss.mu.Unlock()
	if bye != "" {
		p.Send(tui.GoodbyeMsg{Reason: bye})
	}
}

// programDone marks the program returned.
func (ss *session) programDone() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.running != nil && !ss.finished {
		close(ss.running)
	}
	ss.finished = true
}

// handle runs one session: who is it, then a command, the screen, or a
// hint to use ssh -t.
func (srv *Server) handle(s ssh.Session) {
	fp, ok := sessionIdentity(s)
	if !ok || (srv.cfg.Allow != nil && !srv.cfg.Allow.Has(fp)) {
		fmt.Fprintln(s.Stderr(), "mia: this server only admits known SSH keys")
		_ = s.Exit(command.ExitRefused)
		return
	}
	// The command line, split here once (the ssh package's Command splits
	// it afresh at each call, in time that grows with the square of its
	// length), its length checked before it is read.
	args, err := command.Split(s.RawCommand())
	if err != nil {
		srv.log.Info("command line refused", "fingerprint", fp, "remote", guard.RemoteIP(s.RemoteAddr()),
			"bytes", len(s.RawCommand()), "err", err)
		fmt.Fprintf(s.Stderr(), "mia: %s\n", err)
		_ = s.Exit(command.ExitUsage)
		return
	}
	ss := srv.newSession(s, fp, args)
	if ss == nil {
		fmt.Fprintln(s.Stderr(), "mia: the server is shutting down")
		_ = s.Exit(command.ExitRefused)
		return
	}
	defer ss.release()
	// From here on the session is reached through ss only: its output
	// through its outbox, its end once the client took it.
	if srv.refuseBanned(ss, fp) {
		return
	}

	ctx, cancel := context.WithTimeout(ss.Context(), 10*time.Second)
	p, err := srv.identify(ctx, fp)
	cancel()
	if err != nil {
		srv.log.Error("player lookup failed", "fingerprint", fp, "err", err)
		fmt.Fprintln(ss.Stderr(), "mia: the server could not read your profile; please try again later")
		_ = ss.Exit(command.ExitRefused)
		return
	}
	ss.SetPerson(p)
	if err := srv.admitPerson(ss); err != nil {
		srv.log.Info("session refused", "fingerprint", fp, "person", p.ID, "remote", guard.RemoteIP(s.RemoteAddr()), "err", err)
		fmt.Fprintf(s.Stderr(), "mia: %s\n", lobby.Shown(err))
		_ = ss.Exit(command.ExitRefused)
		return
	}

	code := command.ExitOK
	switch {
	case len(args) > 0:
		code = srv.commands.Run(ss, args)
		_ = ss.Exit(code)
	case ss.hasPty || command.WantsPlain(ss, p):
		ss.Play("", "")
	default:
		fmt.Fprintf(ss.Stderr(), "mia: the game screen needs a terminal. Connect with:\n  %s\nor run a command, for example:\n  %s help\n"+
			"or, for a screen reader or a simple terminal, the plain mode:\n  %s plain\n",
			srv.hint(ss, "-t"), srv.hint(ss, ""), srv.hint(ss, "-t"))
		code = command.ExitRefused
		_ = ss.Exit(code)
	}
	srv.log.Info("session",
		"fingerprint", fp, "person", ss.Person().ID, "remote", guard.RemoteIP(ss.RemoteAddr()),
		"command", commandName(args), "pty", ss.hasPty, "exit", code,
		"duration", time.Since(ss.started).Round(time.Millisecond))
}

// admitPerson counts ss among its person's sessions, or refuses it when
// they hold Limits.MaxSessionsPerPerson already (guard.People). A server
// admin's key is exempt, and its sessions are not counted.
func (srv *Server) admitPerson(ss *session) error {
	if srv.IsAdmin(ss.fp) {
		return nil
	}
	return srv.people.Admit(ss)
}

// seenEvery is how often a key's "last seen" is noted at most: a person
// who opens several sessions in a minute (a command, then the screen) is
// noted once.
const seenEvery = time.Minute

// identify finds the person a key belongs to (none, ID "", for a key that
// is nobody's yet), and notes that the key was seen unless that was noted
// less than seenEvery ago. The note is committed beside the session, not
// before it: nothing waits for its fsync (Shutdown waits for it, as for a
// handler).
func (srv *Server) identify(ctx context.Context, fp string) (store.Person, error) {
	p, err := srv.cfg.Storage.Players.PersonByKey(ctx, fp)
	if errors.Is(err, store.ErrNotFound) {
		return store.Person{}, nil
	}
	if err != nil {
		return store.Person{}, fmt.Errorf("identify %s: %w", fp, err)
	}
	at := srv.cfg.Now()
	var seen time.Time
	for _, k := range p.Keys {
		if k.Fingerprint == fp {
			seen = k.LastSeen
		}
	}
	if since := at.Sub(seen); since >= 0 && since < seenEvery {
		return p, nil
	}
	srv.handlers.Add(1) // within this session's handler: the count is above zero
	go func() {
		defer srv.handlers.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := srv.cfg.Storage.Players.Touch(ctx, fp, at); err != nil {
			srv.log.Warn("could not note last seen", "fingerprint", fp, "err", err)
		}
	}()
	return p, nil
}

// sessionKind is what a session is, as Stats counts them: the game
// screen (no command, or play, with a terminal), a bot on the line
// protocol, or any other command.
func sessionKind(args []string, pty bool) string {
	switch {
	case len(args) == 0 && pty, len(args) > 0 && args[0] == "play" && pty, len(args) > 0 && args[0] == "plain":
		return "screen"
	case len(args) > 0 && args[0] == "bot":
		return "bot"
	}
	return "command"
}

func commandName(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return words.Clean(args[0], 32)
}
