package lobby

import (
	"context"
	"crypto/rand"
	"encoding/base64"
)

// ErrPublicLink: a public table needs no web link, anyone may watch it.
var ErrPublicLink = NewError(Refused, "the table is public: anyone may watch it on the web, no link needed")

// linkBytes is the randomness of a web link's token: 128 bits, written
// as 22 characters of URL-safe base64.
const linkBytes = 16

// newLinkToken draws a fresh web link token (crypto/rand's Read never
// fails: it crashes the program rather than return weak randomness).
func newLinkToken() string {
	b := make([]byte, linkBytes)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// NewLinkToken draws a fresh web link token, as a table's: for an
// event's (lobby/events).
func NewLinkToken() string { return newLinkToken() }

// Link returns the token of the private table's web link, made and
// stored on first use and kept until revoked (host or admin only): the
// web window opens the table and its games to whoever holds it. revoke
// ends the link (it returns ""): the web watchers it let in are dropped
// at once, and a later Link makes a new token. A public table has no link
// (ErrPublicLink).
func (t *Table) Link(ctx context.Context, p Player, revoke bool) (string, error) {
	return doValue(ctx, t, func(actx context.Context) (string, error) {
		if p.ID != t.rec.Host && !p.Admin {
			return "", ErrNotHost
		}
		if !t.rec.Private {
			return "", ErrPublicLink
		}
		switch {
		case revoke && t.rec.Link == "":
			return "", nil
		case !revoke && t.rec.Link != "":
			return t.rec.Link, nil
		}
		next := ""
		if !revoke {
			next = newLinkToken()
		}
		err := t.update(actx, func(r *TableRecord) error { r.Link = next; return nil }, func(context.Context) error {
			// The info first: a web watcher dropped here finds the link
			// ended in it (and says so), not the link it came by.
			listed := t.publishInfo()
			t.dropUnseen()
			t.changed(false)
			if listed {
				t.lobby.notify()
			}
			return nil
		})
		if err != nil {
			return "", err
		}
		return next, nil
	})
}

// Spectate subscribes someone who is no player to the table as a
// spectator: the web window, whose viewers hold at most a table's link
// (v). The table must show itself to v (Viewer.Sees): to anyone else it
// is ErrNoTable, as at every door (Lobby.TableFor). The subscription ends
// when it no longer does (the link revoked).
func (t *Table) Spectate(ctx context.Context, v Viewer) (*Subscription, error) {
	s := &Subscription{box: NewMailbox[*Snapshot]().counted(&t.lobby.drops), table: t, viewer: &v}
	err := t.doEvenPaused(ctx, func(context.Context) error {
		if !v.Sees(t.rec.Access) {
			return ErrNoTable
		}
		t.addSub(s)
		t.watchersChanged(s.player, s)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// dropUnseen ends the subscriptions of Spectate whose viewer the table no
// longer shows itself to.
func (t *Table) dropUnseen() {
	for s := range t.subs {
		if s.viewer != nil && !s.viewer.Sees(t.rec.Access) {
			t.removeSub(s)
			s.box.Close()
		}
	}
}
