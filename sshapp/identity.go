package sshapp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync/atomic"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/sshapp/guard"
	"github.com/mia-game/mia/store"
)

// KeySet is a set of SSH public keys, by SHA256 fingerprint.
type KeySet map[string]struct{}

// Has reports whether the key with this fingerprint is in the set.
func (k KeySet) Has(fingerprint string) bool {
	_, ok := k[fingerprint]
	return ok
}

// ReadKeySet reads a file in OpenSSH authorized_keys format.
func ReadKeySet(path string) (KeySet, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read keys: %w", err)
	}
	ks, err := ParseKeySet(data)
	if err != nil {
		return nil, fmt.Errorf("read keys %s: %w", path, err)
	}
	return ks, nil
}

// ParseKeySet parses authorized_keys text: one key a line, blank lines and
// # comments skipped. Key options are ignored, except cert-authority,
// which is refused: the server identifies people by plain keys only. The
// result is never nil.
func ParseKeySet(data []byte) (KeySet, error) {
	ks := KeySet{}
	for n, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		key, _, opts, _, err := gossh.ParseAuthorizedKey(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		for _, o := range opts {
			if strings.EqualFold(o, "cert-authority") {
				return nil, fmt.Errorf("line %d: cert-authority keys are not supported", n+1)
			}
		}
		ks[Fingerprint(key)] = struct{}{}
	}
	return ks, nil
}

// Fingerprint is the identity of a key: its SHA256 fingerprint as
// ssh-keygen -l prints it.
func Fingerprint(key gossh.PublicKey) string {
	return gossh.FingerprintSHA256(key)
}

// IsAdmin reports whether the key with this fingerprint is a server admin.
func (srv *Server) IsAdmin(fingerprint string) bool {
	return srv.cfg.Admins.Has(fingerprint)
}

// sessionIdentity is the fingerprint of the key the session's connection
// authenticated with. It reads s.PublicKey(), which the ssh package takes
// from the permissions of the authenticated key, never a key that was only
// offered in the auth callback, and never s.User() (CVE-2024-45337).
func sessionIdentity(s ssh.Session) (string, bool) {
	key := s.PublicKey()
	if key == nil {
		return "", false
	}
	return Fingerprint(key), true
}

// keyNotes is what the key callbacks of one connection note for the
// keyless message.
type keyNotes struct {
	refused atomic.Bool // a key was refused by the allow-list
	told    atomic.Bool // the keyless message was shown
}

// keyNotesKey finds a connection's *keyNotes in its ssh.Context.
var keyNotesKey = &struct{ name string }{"mia-key-notes"}

// notesOf is the *keyNotes of a connection, nil if it has none.
func notesOf(ctx ssh.Context) *keyNotes {
	n, _ := ctx.Value(keyNotesKey).(*keyNotes)
	return n
}

// accept is the ConnCallback: the guard's (sshapp/guard), which refuses a
// connection or tracks it, and the connection's key notes.
func (srv *Server) accept(ctx ssh.Context, raw net.Conn) net.Conn {
	c := srv.gate.Accept(ctx, raw)
	if c != nil {
		ctx.SetValue(keyNotesKey, &keyNotes{})
	}
	return c
}

// allowedKey is the public key callback: any plain key may try, unless an
// allow-list is set. It only admits a key; identity comes later from the
// session.
func (srv *Server) allowedKey(ctx ssh.Context, key ssh.PublicKey) bool {
	srv.log.Debug("key offered", "fingerprint", Fingerprint(key), "remote", guard.RemoteIP(ctx.RemoteAddr()))
	if _, cert := key.(*gossh.Certificate); cert {
		return false
	}
	if srv.cfg.Allow != nil && !srv.cfg.Allow.Has(Fingerprint(key)) {
		if n := notesOf(ctx); n != nil {
			n.refused.Store(true)
		}
		srv.log.Debug("key not on the allow-list", "fingerprint", Fingerprint(key), "remote", guard.RemoteIP(ctx.RemoteAddr()))
		return false
	}
	return true
}

// keylessMessage explains a refused login. Keyboard-interactive exists
// only to show it: it always fails.
func (srv *Server) keylessMessage(ctx ssh.Context, challenge gossh.KeyboardInteractiveChallenge) bool {
	n := notesOf(ctx)
	if n != nil && n.told.Swap(true) {
		return false // say it once per connection
	}
	msg := "This server identifies players by their SSH key, and your client offered none.\n" +
		"Make one with:   ssh-keygen -t ed25519\n" +
		"then connect again (ssh picks up ~/.ssh/id_ed25519 by itself).\n"
	if n != nil && n.refused.Load() {
		msg = "Your SSH key is not on this server's list of allowed keys.\n" +
			"Ask the server's admin to add it. (No key yet? Make one with:   ssh-keygen -t ed25519)\n"
	}
	_, _ = challenge("", msg, nil, nil)
	return false
}

// errNameTaken is what a person sees for store.ErrNameTaken; errNameHeld
// for a Mäxchen bot's (store.ErrNameHeld).
var (
	errNameTaken = lobby.NewError(lobby.Refused, "that name is taken, or looks too much like one that is (case, _ . -, I/l/1, O/0, digits for letters); choose another")
	errNameHeld  = lobby.NewError(lobby.Refused, "that name is a Mäxchen bot's (a bot of the UDP gateway plays under it, or did lately), or looks too much like it (case, _ . -, I/l/1, O/0, digits for letters); choose another")
)

// setName checks a name by the name rule (lobby.CheckName: the
// characters, the dash, the length, no built-in bot's or the server's own
// name, but that an admin may take the server's own words; one's own name
// as it is passes unchecked, as it was taken) and
// stores it for the person of key (a new person for a key that
// is nobody's), where no one else's name may look like it; it is the one
// door to a name, for the name command and the name prompt alike. The
// lobby is told, so that every screen showing the person shows the new
// name at once. Its errors have kinds (lobby.ErrorKind): the name rule, a
// taken name (a person's, or a Mäxchen bot's: store.UDPName), both
// Refused, or the store's failure, which the door that shows it logs.
func (srv *Server) setName(ctx context.Context, key string, p store.Person, name string) (store.Person, error) {
	if p.ID != "" && name == p.Name {
		return p, nil // one's own name as it is, though the rule grew since it was taken
	}
	if err := lobby.CheckName(name); err != nil && !(srv.IsAdmin(key) && errors.Is(err, lobby.ErrReservedName)) {
		// (A server admin may take the server's own words, "root" or
		// "admin": they are the one they stand for. No one else may take
		// a name that looks like theirs then.)
		return store.Person{}, err
	}
	np, err := srv.cfg.Storage.Players.SetName(ctx, key, name)
	switch {
	case errors.Is(err, store.ErrNameHeld):
		return store.Person{}, errNameHeld
	case errors.Is(err, store.ErrNameTaken):
		return store.Person{}, errNameTaken
	case err != nil:
		return store.Person{}, fmt.Errorf("set name: %w", err)
	}
	if srv.cfg.Lobby != nil {
		if err := srv.cfg.Lobby.Renamed(ctx, np.ID); err != nil {
			srv.log.Warn("the lobby could not read the new name", "person", np.ID, "err", err)
		}
	}
	srv.log.Info("name set", "person", np.ID, "key", key, "name", np.Name, "previous", p.Name)
	return np, nil
}
