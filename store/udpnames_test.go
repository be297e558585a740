package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

// notHeld is the gateway's rule for tests: a stored name is taken while
// registered, or held by another address.
func notHeld(addr string) func(UDPName) bool {
	return func(n UDPName) bool { return n.Registered || n.Held && n.Addr != addr }
}

func TestUDPNames(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600))
	if _, err := s.HeldUDPName(ctx, "u1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a name never held: %v", err)
	}
	u1, err := s.ClaimUDPName(ctx, UDPName{Name: "u1", Addr: "127.0.0.30", Heard: at, Registered: true, Held: true}, notHeld("127.0.0.30"))
	if err != nil || u1.Held || !u1.Registered || u1.Heard.Location() != time.UTC {
		t.Fatalf("a first claim (Held is the store's to keep): %+v, %v", u1, err)
	}
	// Names alike are one name: from anywhere, while it is registered.
	for _, name := range []string{"u1", "U1", "ul"} {
		if _, err := s.ClaimUDPName(ctx, UDPName{Name: name, Addr: "::1", Registered: true}, notHeld("::1")); !errors.Is(err, ErrNameTaken) {
			t.Errorf("claim of %s beside u1: %v", name, err)
		}
	}
	// The bot played: its name is held; it leaves.
	if err := s.KeepUDPNames(ctx, UDPName{Name: "u1", Addr: "127.0.0.30", Heard: at, Held: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.FreeUDPName(ctx, "nobody"); !errors.Is(err, ErrNotFound) {
		t.Errorf("free a name not held: %v", err)
	}
	s = reopen(t, s)
	n, err := s.HeldUDPName(ctx, "U1")
	if err != nil || n.Name != "u1" || n.Addr != "127.0.0.30" || !n.Heard.Equal(at) || !n.Held || n.Registered {
		t.Errorf("U1 looks like %+v, %v", n, err)
	}
	if _, err := s.ClaimUDPName(ctx, UDPName{Name: "u1", Addr: "127.0.0.31"}, notHeld("127.0.0.31")); !errors.Is(err, ErrNameTaken) {
		t.Errorf("a held name from another address: %v", err)
	}
	// Its own address takes it back, held still.
	back, err := s.ClaimUDPName(ctx, UDPName{Name: "u1", Addr: "127.0.0.30", Heard: at.Add(time.Hour), Registered: true}, notHeld("127.0.0.30"))
	if err != nil || !back.Held {
		t.Errorf("back from its address: %+v, %v", back, err)
	}
	if _, err := s.FreeUDPName(ctx, "u1"); !errors.Is(err, ErrRegistered) {
		t.Errorf("freed while registered: %v", err)
	}
	// A bot registered that never played is dropped when it leaves.
	if _, err := s.ClaimUDPName(ctx, UDPName{Name: "tmp", Addr: "127.0.0.1", Registered: true}, notHeld("127.0.0.1")); err != nil {
		t.Fatal(err)
	}
	if err := s.KeepUDPNames(ctx, UDPName{Name: "tmp", Addr: "127.0.0.1"}, UDPName{Name: "u1", Addr: "127.0.0.30", Heard: at, Held: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.HeldUDPName(ctx, "tmp"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a name that never played, its bot gone: %v", err)
	}
	freed, err := s.FreeUDPName(ctx, "U1")
	if err != nil || freed.Name != "u1" {
		t.Fatalf("free: %+v, %v", freed, err)
	}
	if _, err := s.FreeUDPName(ctx, "u1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("freed twice: %v", err)
	}
	// A lookalike claims the freed place; the old name's late keep leaves
	// it alone.
	if _, err := s.ClaimUDPName(ctx, UDPName{Name: "U1", Addr: "::1", Registered: true}, notHeld("::1")); err != nil {
		t.Fatal(err)
	}
	if err := s.KeepUDPNames(ctx, UDPName{Name: "u1", Addr: "127.0.0.30", Held: true}); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.HeldUDPName(ctx, "u1"); n.Name != "U1" || n.Addr != "::1" {
		t.Errorf("after a late keep of u1: %+v", n)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}

// TestUDPNamesAndPeople: a person's name and a Mäxchen bot's never look
// alike, whichever comes first, each checked in the transaction that
// takes the name.
func TestUDPNamesAndPeople(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	if _, err := s.SetName(ctx, "SHA256:bob", "bob"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"bob", "B0B"} {
		if _, err := s.ClaimUDPName(ctx, UDPName{Name: name, Addr: "127.0.0.1", Registered: true}, notHeld("127.0.0.1")); !errors.Is(err, ErrNameTaken) {
			t.Errorf("a bot claims %s beside the person bob: %v", name, err)
		}
	}
	if _, err := s.ClaimUDPName(ctx, UDPName{Name: "deep", Addr: "127.0.0.1", Registered: true}, notHeld("127.0.0.1")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetName(ctx, "SHA256:eve", "DEEP"); !errors.Is(err, ErrNameTaken) || !errors.Is(err, ErrNameHeld) {
		t.Errorf("a person takes DEEP beside the bot deep: %v", err)
	}
	if _, err := s.SetName(ctx, "SHA256:bob", "dEEp"); !errors.Is(err, ErrNameHeld) {
		t.Errorf("bob renames himself dEEp: %v", err)
	}
	// Its bot gone, a name that never played is free for a person.
	if err := s.KeepUDPNames(ctx, UDPName{Name: "deep", Addr: "127.0.0.1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetName(ctx, "SHA256:eve", "deep"); err != nil {
		t.Errorf("deep once its bot left: %v", err)
	}
	// A late keep of the bot's name leaves the person's alone.
	if err := s.KeepUDPNames(ctx, UDPName{Name: "deep", Addr: "127.0.0.1", Held: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.HeldUDPName(ctx, "deep"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a keep over a person's name: %v", err)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}

// TestSweepUDPNames: a sweep drops what keep refuses and stores what it
// changes.
func TestSweepUDPNames(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, n := range []UDPName{
		{Name: "old", Addr: "127.0.0.1", Heard: at, Held: true},
		{Name: "new", Addr: "127.0.0.1", Heard: at.Add(time.Hour), Held: true, Registered: true},
		{Name: "left", Addr: "127.0.0.1", Heard: at.Add(time.Hour), Registered: true},
	} {
		if _, err := s.ClaimUDPName(ctx, n, notHeld(n.Addr)); err != nil {
			t.Fatal(err)
		}
		if err := s.KeepUDPNames(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	err := s.SweepUDPNames(ctx, func(n UDPName) (UDPName, bool) {
		n.Registered = false
		return n, n.Held && n.Heard.After(at)
	})
	if err != nil {
		t.Fatal(err)
	}
	all, err := s.HeldUDPNames(ctx)
	if err != nil || len(all) != 1 || all[0].Name != "new" || all[0].Registered || !all[0].Held {
		t.Errorf("after the sweep: %+v, %v", all, err)
	}
	if err := s.SweepUDPNames(ctx, func(n UDPName) (UDPName, bool) { n.Name = "x"; return n, true }); err == nil {
		t.Error("a sweep renamed a name")
	}
}
