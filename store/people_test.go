package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
)

// errAny stands for any error in a table of steps.
var errAny = errors.New("any error")

func TestPeople(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	const a, b = "SHA256:alice", "SHA256:bob"

	if _, err := s.PersonByKey(ctx, a); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown key: err = %v, want ErrNotFound", err)
	}
	if err := s.Touch(ctx, a, time.Now()); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Touch unknown: err = %v, want ErrNotFound", err)
	}
	before := time.Now()
	p, err := s.SetName(ctx, a, "Alice")
	if err != nil {
		t.Fatal(err)
	}
	if p.ID != "p:1" || p.Name != "Alice" || len(p.Keys) != 1 || p.Keys[0].Fingerprint != a ||
		p.Created.Before(before.Add(-time.Second)) || p.Keys[0].LastSeen.IsZero() {
		t.Fatalf("SetName gave %+v", p)
	}

	steps := []struct {
		name    string
		fp, nm  string
		wantErr error
	}{
		{"taken, other case", b, "ALICE", ErrNameTaken},
		{"taken, looks alike", b, "a1ice", ErrNameTaken},
		{"taken, capital i", b, "AIice", ErrNameTaken},
		{"empty", b, "", errAny},
		{"a NUL byte", b, "nul\x00", errAny},
		{"bob ok", b, "bob", nil},
		{"alice renames", a, "Alicia", nil},
		{"old name is free", b, "alice", nil},
		{"case change only", a, "ALICIA", nil},
		{"a look of one's own", a, "AL1CIA", nil},
		{"taken again", a, "Alice", ErrNameTaken},
	}
	for _, st := range steps {
		_, err := s.SetName(ctx, st.fp, st.nm)
		if st.wantErr == errAny && err != nil {
			continue
		}
		if !errors.Is(err, st.wantErr) || (st.wantErr == nil) != (err == nil) {
			t.Fatalf("%s: err = %v, want %v", st.name, err, st.wantErr)
		}
	}
	s = reopen(t, s)
	for _, c := range []struct{ name, id, shown string }{
		{"alicia", "p:1", "AL1CIA"}, {"Alice", "p:2", "alice"}, {"ALlCE", "p:2", "alice"}, {"BOB", "", ""},
	} {
		p, err := s.PersonByName(ctx, c.name)
		if c.id == "" {
			if !errors.Is(err, ErrNotFound) {
				t.Errorf("PersonByName(%q): err = %v, want ErrNotFound (bob renamed)", c.name, err)
			}
			continue
		}
		if err != nil || p.ID != c.id || p.Name != c.shown {
			t.Errorf("PersonByName(%q) = %+v, %v", c.name, p, err)
		}
	}
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := s.Touch(ctx, a, at); err != nil {
		t.Fatal(err)
	}
	pa, _ := s.PersonByKey(ctx, a)
	if !pa.Keys[0].LastSeen.Equal(at) || !pa.Created.Equal(p.Created) {
		t.Errorf("after Touch: %+v", pa)
	}
	if got, err := s.Person(ctx, pa.ID); err != nil || got.Name != pa.Name {
		t.Errorf("Person(%s) = %+v, %v", pa.ID, got, err)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}

// TestKeys attaches keys to a person with one-time codes, refuses a key
// whose person has games, merges one whose person has none, and removes
// keys but the last.
func TestKeys(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	name := func(fp, n string) Person {
		t.Helper()
		p, err := s.SetName(ctx, fp, n)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	alice := name("SHA256:a1", "alice")
	bob := name("SHA256:b1", "bob")   // will play a game
	erin := name("SHA256:e1", "erin") // a profile without games, host of a table
	code := func(c string, ttl time.Duration) {
		t.Helper()
		if err := s.AddKeyCode(ctx, alice.ID, c, now.Add(ttl)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateTable(ctx, TableRecord{Name: "erins", Host: erin.ID, Rules: engine.DefaultOptions(), Seats: 4, Private: true,
		Members: []string{bob.ID}, Seated: []Seat{{Person: erin.ID, Fingerprint: "SHA256:e1"}}}); err != nil {
		t.Fatal(err)
	}
	g, err := s.CreateGame(ctx, Game{Table: "erins", Rules: engine.DefaultOptions(),
		Seats: []Seat{{Person: bob.ID, Fingerprint: "SHA256:b1", PlayedAs: "bob"}, {Person: "bot:easy:ada", Fingerprint: "bot:easy:ada", PlayedAs: "ada", Bot: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, g.ID, nil, &engine.Result{Winner: 0, Standings: []int{0, 1}}); err != nil {
		t.Fatal(err)
	}

	code("laptop", 10*time.Minute)
	// A stranger's key is added.
	j, err := s.JoinKey(ctx, "laptop", "SHA256:a2", now)
	if err != nil || j.Merged != "" || len(j.Person.Keys) != 2 || j.Person.ID != alice.ID {
		t.Fatalf("JoinKey a stranger: %+v, %v", j, err)
	}
	if p, err := s.PersonByKey(ctx, "SHA256:a2"); err != nil || p.ID != alice.ID {
		t.Fatalf("the new key is %+v, %v", p, err)
	}
	// Once only.
	if _, err := s.JoinKey(ctx, "laptop", "SHA256:a3", now); !errors.Is(err, ErrBadCode) {
		t.Fatalf("a used code: %v", err)
	}
	// Expired.
	code("stale", time.Minute)
	if _, err := s.JoinKey(ctx, "stale", "SHA256:a3", now.Add(2*time.Minute)); !errors.Is(err, ErrBadCode) {
		t.Fatalf("an expired code: %v", err)
	}
	if _, err := s.JoinKey(ctx, "stale", "SHA256:a3", now); !errors.Is(err, ErrBadCode) {
		t.Fatalf("an expired code is gone: %v", err)
	}
	// A key of a person with games is refused, the code not spent.
	code("desk", 10*time.Minute)
	_, err = s.JoinKey(ctx, "desk", "SHA256:b1", now)
	var ge *GamesError
	if !errors.Is(err, ErrHasGames) || !errors.As(err, &ge) || ge.Games != 1 || ge.Name != "bob" {
		t.Fatalf("bob's key: %v", err)
	}
	if _, err := s.JoinKey(ctx, "desk", "SHA256:a1", now); !errors.Is(err, ErrOwnKey) {
		t.Fatalf("alice's own key: %v", err)
	}
	// erin has no games: her key moves and she is merged into alice.
	j, err = s.JoinKey(ctx, "desk", "SHA256:e1", now)
	if err != nil || j.Merged != erin.ID || j.Left != "erin" || len(j.Person.Keys) != 3 {
		t.Fatalf("erin's key: %+v, %v", j, err)
	}
	if _, err := s.Person(ctx, erin.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("erin is still there: %v", err)
	}
	if _, err := s.PersonByName(ctx, "erin"); !errors.Is(err, ErrNotFound) {
		t.Errorf("erin's name is still taken: %v", err)
	}
	tb, err := s.Table(ctx, "erins")
	if err != nil || tb.Host != alice.ID || len(tb.Seated) != 1 || tb.Seated[0].Person != alice.ID || tb.Seated[0].Fingerprint != "SHA256:e1" {
		t.Errorf("erin's table is %+v, %v", tb, err)
	}
	// Keys are removed, never the last.
	p, err := s.RemoveKey(ctx, alice.ID, "SHA256:a2")
	if err != nil || len(p.Keys) != 2 {
		t.Fatalf("RemoveKey: %+v, %v", p, err)
	}
	if _, err := s.PersonByKey(ctx, "SHA256:a2"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a removed key is still someone's: %v", err)
	}
	if _, err := s.RemoveKey(ctx, alice.ID, "SHA256:b1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("removing another's key: %v", err)
	}
	if _, err := s.RemoveKey(ctx, alice.ID, "SHA256:e1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RemoveKey(ctx, alice.ID, "SHA256:a1"); !errors.Is(err, ErrLastKey) {
		t.Errorf("the last key: %v", err)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}

// TestConcurrentNames: people naming themselves at once (their commits
// are batched) each get their own name, and a name wanted by many goes to
// exactly one of them.
func TestConcurrentNames(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	const n = 24
	tests := []struct {
		name    string
		nameFor func(i int) string
		wantOK  int
	}{
		{"distinct names", func(i int) string { return fmt.Sprintf("p%d", i) }, n},
		{"one name wanted by all", func(int) string { return "Popular" }, 1},
	}
	for ti, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var wg sync.WaitGroup
			errs := make([]error, n)
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, errs[i] = s.SetName(ctx, fmt.Sprintf("SHA256:k%d-%d", ti, i), tt.nameFor(i))
				}()
			}
			wg.Wait()
			ok := 0
			for i, err := range errs {
				switch {
				case err == nil:
					ok++
				case !errors.Is(err, ErrNameTaken):
					t.Errorf("session %d: %v", i, err)
				}
			}
			if ok != tt.wantOK {
				t.Errorf("%d named, want %d", ok, tt.wantOK)
			}
			for i := range n {
				p, err := s.PersonByName(ctx, tt.nameFor(i))
				if err != nil {
					t.Fatalf("%s: %v", tt.nameFor(i), err)
				}
				if errs[i] == nil && !p.HasKey(fmt.Sprintf("SHA256:k%d-%d", ti, i)) {
					t.Errorf("%s belongs to %+v, not to the session told it has it", tt.nameFor(i), p)
				}
			}
		})
	}
}
