package guard

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
)

// owned is a session of a person (or of a key that is nobody's yet).
type owned struct {
	mu    sync.Mutex
	owner string
}

func (o *owned) Owner() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.owner
}

func (o *owned) become(owner string) {
	o.mu.Lock()
	o.owner = owner
	o.mu.Unlock()
}

// TestPeople: a person holds at most the limit of sessions at once;
// another person is untouched, a session that leaves frees its place, and
// a session whose key joins a person counts for the person from then on.
func TestPeople(t *testing.T) {
	t.Parallel()
	p := NewPeople(2)
	a1, a2, a3 := &owned{owner: "p:1"}, &owned{owner: "p:1"}, &owned{owner: "p:1"}
	for _, s := range []*owned{a1, a2} {
		if err := p.Admit(s); err != nil {
			t.Fatal(err)
		}
	}
	err := p.Admit(a3)
	var se *SessionsError
	if !errors.As(err, &se) || se.Limit != 2 || !errors.Is(err, ErrTooManySessions) || lobby.KindOf(err) != lobby.Refused {
		t.Fatalf("a third session of p:1: %v (kind %v)", err, lobby.KindOf(err))
	}
	if err := p.Admit(&owned{owner: "p:2"}); err != nil {
		t.Errorf("another person: %v", err)
	}
	stranger := &owned{owner: "key SHA256:x"}
	if err := p.Admit(stranger); err != nil {
		t.Fatal(err)
	}
	p.Leave(a1)
	if err := p.Admit(a3); err != nil {
		t.Errorf("after one left: %v", err)
	}
	stranger.become("p:1") // keys join: the key is p:1's now
	if err := p.Admit(&owned{owner: "p:1"}); err == nil {
		t.Error("p:1 holds three sessions once its new key's counts")
	}
	if err := NewPeople(-1).Admit(a1); err != nil {
		t.Errorf("no cap: %v", err)
	}
}

// bans is a fake store of bans.
type bans struct {
	ban store.Ban
	err error
}

func (b bans) Banned(context.Context, string) (store.Ban, error) { return b.ban, b.err }

func TestBanned(t *testing.T) {
	t.Parallel()
	broken := errors.New("disk on fire")
	tests := []struct {
		name string
		bans Bans
		says string
		err  error
	}{
		{"no bans", nil, "", nil},
		{"not banned", bans{err: store.ErrNotFound}, "", nil},
		{"the key", bans{ban: store.Ban{}}, "this key is banned from this server", nil},
		{"the person", bans{ban: store.Ban{Person: "p:1"}}, "you are banned from this server", nil},
		{"a lookup that fails lets in", bans{err: broken}, "", broken},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			says, err := Banned(context.Background(), tt.bans, "SHA256:x")
			if says != tt.says || !errors.Is(err, tt.err) || (tt.err == nil && err != nil) {
				t.Errorf("Banned = %q, %v; want %q, %v", says, err, tt.says, tt.err)
			}
		})
	}
}
