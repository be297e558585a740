package lobby

import (
	"context"
	"testing"
)

// TestMailboxNotify: ready is called when a value comes to the empty
// mailbox, not again until it is taken, at once if a value waits as
// Notify is called; ended once as it closes, and at once if it is closed.
func TestMailboxNotify(t *testing.T) {
	m := NewMailbox[int]()
	m.Put(1)
	ready, ended := 0, 0
	m.Notify(func() { ready++ }, func() { ended++ })
	if ready != 1 {
		t.Fatalf("a value waited as Notify was called: ready %d times, want 1", ready)
	}
	m.Put(2)
	if ready != 1 {
		t.Fatalf("a value replaced one not taken: ready %d times, want 1", ready)
	}
	if v, ok := m.Take(); !ok || v != 2 {
		t.Fatalf("took %d, %v", v, ok)
	}
	m.Put(3)
	if ready != 2 {
		t.Fatalf("a value came to the emptied mailbox: ready %d times, want 2", ready)
	}
	m.Close()
	m.Close()
	m.Put(4)
	if ready != 2 || ended != 1 {
		t.Fatalf("after Close: ready %d, ended %d times, want 2 and 1", ready, ended)
	}
	late := 0
	m.Notify(func() {}, func() { late++ })
	if late != 1 {
		t.Fatalf("Notify on a closed mailbox: ended %d times, want 1", late)
	}
}

// TestSpectatorsHoldOneSnapshot: the spectators of a table hold one
// snapshot between them until they take it, not a copy each (a
// snapshot is some 650 bytes; thousands of spectators wait on one).
func TestSpectatorsHoldOneSnapshot(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := seatPlayers(t, e, "den", quickRules(), a, b)
	s1, s2 := mustSub(t, tbl, e.player("carol")), mustSub(t, tbl, e.player("dave"))
	err := tbl.do(ctxT(t), func(context.Context) error {
		tbl.publish()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s1.box.mu.Lock()
	p1 := s1.box.val
	s1.box.mu.Unlock()
	s2.box.mu.Lock()
	p2 := s2.box.val
	s2.box.mu.Unlock()
	if p1 == nil || p1 != p2 {
		t.Fatalf("the spectators hold %p and %p, want one snapshot", p1, p2)
	}
	if snap, ok := s1.Take(); !ok || snap.Table.Name != "den" {
		t.Fatalf("taken: %v, %+v", ok, snap.Table)
	}
}
