package store

import (
	"context"
	"errors"
	"testing"
)

// TestChangeSettings: a setting changed is kept with the person, the same
// from each of their keys and after a reopen; the rest of the person is
// untouched; a person who is not there is ErrNotFound.
func TestChangeSettings(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	const a, b = "SHA256:alice", "SHA256:other"
	p, err := s.SetName(ctx, a, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if p.Settings != (Settings{}) {
		t.Fatalf("a new person's settings: %+v, want all off", p.Settings)
	}
	if err := s.AddKeyCode(ctx, p.ID, "code", p.Created.Add(3600e9)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.JoinKey(ctx, "code", b, p.Created); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		set  bool
	}{{"on", true}, {"on again", true}, {"off", false}, {"on once more", true}}
	for _, st := range steps {
		got, err := s.ChangeSettings(ctx, p.ID, func(v *Settings) { v.Plain = st.set })
		if err != nil || got.Settings.Plain != st.set || got.Name != "alice" || len(got.Keys) != 2 {
			t.Fatalf("%s: %+v, %v", st.name, got, err)
		}
		for _, fp := range []string{a, b} {
			if q, err := s.PersonByKey(ctx, fp); err != nil || q.Settings.Plain != st.set {
				t.Fatalf("%s: the person of %s has %+v, %v", st.name, fp, q.Settings, err)
			}
		}
	}
	s = reopen(t, s)
	if q, err := s.Person(ctx, p.ID); err != nil || !q.Settings.Plain {
		t.Fatalf("after a reopen: %+v, %v", q.Settings, err)
	}
	if _, err := s.ChangeSettings(ctx, "p:99", func(v *Settings) { v.Plain = true }); !errors.Is(err, ErrNotFound) {
		t.Fatalf("no such person: err = %v, want ErrNotFound", err)
	}
}
