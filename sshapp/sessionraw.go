package sshapp

import (
	"net"

	"github.com/charmbracelet/ssh"
)

// The methods of ssh.Session that session passes on to the raw session
// as they are: none of them writes output or reads the window. (Read,
// Write, Stderr, Exit, Close, CloseWrite and Pty are session's own, in
// session.go, and Command answers the line split once.) A method the ssh package adds to its Session fails this
// assertion until it is written here, thought through.
var _ ssh.Session = (*session)(nil)

// User is the user name the client logged in with (never an identity:
// that is the key, sessionIdentity).
func (ss *session) User() string { return ss.raw.User() }

// RemoteAddr is the client's address.
func (ss *session) RemoteAddr() net.Addr { return ss.raw.RemoteAddr() }

// LocalAddr is the server's address of the connection.
func (ss *session) LocalAddr() net.Addr { return ss.raw.LocalAddr() }

// Environ is the environment the client set.
func (ss *session) Environ() []string { return ss.raw.Environ() }

// Command is the command line, split as a shell would (command.Split,
// once, when the session began).
func (ss *session) Command() []string { return ss.args }

// RawCommand is the command line as sent.
func (ss *session) RawCommand() string { return ss.raw.RawCommand() }

// Subsystem is the subsystem asked for (none is served).
func (ss *session) Subsystem() string { return ss.raw.Subsystem() }

// PublicKey is the key the client authenticated with.
func (ss *session) PublicKey() ssh.PublicKey { return ss.raw.PublicKey() }

// Context is the connection's context.
func (ss *session) Context() ssh.Context { return ss.raw.Context() }

// Permissions are those of the connection.
func (ss *session) Permissions() ssh.Permissions { return ss.raw.Permissions() }

// EmulatedPty reports whether the ssh package emulates the terminal.
func (ss *session) EmulatedPty() bool { return ss.raw.EmulatedPty() }

// Signals registers c for the client's signals.
func (ss *session) Signals(c chan<- ssh.Signal) { ss.raw.Signals(c) }

// Break registers c for the client's break requests.
func (ss *session) Break(c chan<- bool) { ss.raw.Break(c) }

// SendRequest sends a channel request, out of band: it does not wait for
// the output owed (Exit does).
func (ss *session) SendRequest(name string, wantReply bool, payload []byte) (bool, error) {
	return ss.raw.SendRequest(name, wantReply, payload)
}
