package sshapp

import (
	"bytes"
	"io"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// A session writes to its SSH channel itself, not through ssh.Session's
// Write: for a session with a terminal that one copies the output twice
// at every write (two bytes.Replace, even when nothing changes), and a
// screen writes a frame at least every second.

// channelKey is the key of a session's own channel in its context.
type channelKey struct{}

// channelContext is the context of one session channel: the connection's
// context, which the ssh package shares between the connection's sessions,
// plus the channel.
type channelContext struct {
	ssh.Context
	ch *acceptedChannel
}

// Value is the channel for channelKey, else the connection's value.
func (c channelContext) Value(key any) any {
	if key == (channelKey{}) {
		return c.ch.ch
	}
	return c.Context.Value(key)
}

// acceptedChannel keeps the channel its Accept returned.
type acceptedChannel struct {
	gossh.NewChannel
	ch gossh.Channel
}

// Accept accepts the channel and keeps it.
func (a *acceptedChannel) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := a.NewChannel.Accept()
	a.ch = ch
	return ch, reqs, err
}

// outputs are where a session's output and error output go: straight to
// its channel, a terminal's with each "\n" written as "\r\n" as the ssh
// package's emulated terminal does; through s where the channel is not
// known.
func outputs(s ssh.Session, pty bool) (out, errOut io.Writer) {
	ch, ok := s.Context().Value(channelKey{}).(gossh.Channel)
	if !ok || ch == nil {
		return s, s.Stderr()
	}
	out, errOut = pieces{ch}, pieces{ch.Stderr()}
	if !pty {
		return out, errOut
	}
	return crlfWriter{out}, crlfWriter{errOut}
}

// maxPiece is the most a session writes to its channel at once. The ssh
// package keeps, for each channel, a buffer as long as the longest write
// it was given, and its cipher another as long as the longest packet, for
// as long as the connection lasts: a screen's first frame, whole (3 to 15
// KB, with colours), would be kept twice by every session, where the
// frames after it are the few lines that changed (some 500 bytes).
const maxPiece = 1024

// pieces writes to w at most maxPiece bytes at a time.
type pieces struct{ w io.Writer }

func (p pieces) Write(b []byte) (int, error) {
	n := 0
	for len(b) > 0 {
		piece := b[:min(len(b), maxPiece)]
		k, err := p.w.Write(piece)
		n += k
		if err == nil && k < len(piece) {
			err = io.ErrShortWrite
		}
		if err != nil {
			return n, err
		}
		b = b[k:]
	}
	return n, nil
}

// crlfWriter writes a "\r" before each "\n" that has none, as the ssh
// package's emulated terminal does (a write on its own: a "\n" that
// starts one gets its "\r"), without copying what needs no change.
type crlfWriter struct{ w io.Writer }

func (c crlfWriter) Write(p []byte) (int, error) {
	bare := 0
	for i, b := range p {
		if b == '\n' && (i == 0 || p[i-1] != '\r') {
			bare++
		}
	}
	if bare == 0 {
		return c.w.Write(p)
	}
	q := make([]byte, 0, len(p)+bare)
	for {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			q = append(q, p...)
			break
		}
		q = append(q, p[:i]...)
		if i == 0 || p[i-1] != '\r' {
			q = append(q, '\r')
		}
		q = append(q, '\n')
		p = p[i+1:]
	}
	n, err := c.w.Write(q)
	return min(n, len(q)-bare), err
}
