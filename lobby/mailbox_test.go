package lobby

import "testing"

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
