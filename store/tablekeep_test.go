package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/fair"
)

// TestTableKeeps: an open table keeps its next dice and the last lines of
// its chat, oldest dropped first; a game created with the next dice
// replaces them in the same write; a closed table, or none, keeps nothing
// and refuses; Check finds what no open table owns.
func TestTableKeeps(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	if err := s.CreateTable(ctx, TableRecord{Name: "Club", Host: "SHA256:h", Rules: engine.DefaultOptions(), Seats: 4}); err != nil {
		t.Fatal(err)
	}
	alice, err := s.SetName(ctx, "SHA256:a", "alice")
	if err != nil {
		t.Fatal(err)
	}
	seed := fair.NewSeed()
	d := fair.NextDice{Seed: seed, Given: []fair.GivenSeed{{Person: alice.ID, Seed: "a seed"}}}
	if err := s.SetNextDice(ctx, "club", d); err != nil {
		t.Fatal(err)
	}
	if got, err := s.NextDice(ctx, "CLUB"); err != nil || got.Seed != seed || len(got.Given) != 1 {
		t.Fatalf("next dice %+v %v", got, err)
	}
	// A seed that does not parse, as a damaged file could hold it.
	if err := s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketNextDice).Put([]byte("club"), []byte(`{"seed":"not hex"}`))
	}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.NextDice(ctx, "club"); !errors.Is(err, fair.ErrBadSeed) {
		t.Errorf("a bad seed read back: %+v %v", got, err)
	}
	if err := s.SetNextDice(ctx, "club", d); err != nil {
		t.Fatal(err)
	}
	for i := range 7 {
		if err := s.AddChat(ctx, "club", ChatRecord{Person: alice.ID, Text: fmt.Sprint("line ", i)}, 5); err != nil {
			t.Fatal(err)
		}
	}
	ls, err := s.Chat(ctx, "Club")
	if err != nil || len(ls) != 5 || ls[0].Text != "line 2" || ls[4].Text != "line 6" {
		t.Fatalf("chat %+v %v, want lines 2 to 6", ls, err)
	}
	next := fair.NewSeed()
	g, err := s.CreateGameWithNext(ctx, Game{Table: "club", Seats: seats(2), Rules: engine.DefaultOptions()}, fair.NextDice{Seed: next})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := s.NextDice(ctx, "club"); got.Seed != next || len(got.Given) != 0 {
		t.Errorf("after game %s the next dice are %+v", g.ID, got)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
	// Something no open table owns, as a damaged file could hold it.
	if err := s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bucketNextDice).Put([]byte("gone"), []byte(`{"seed":"`+seed.Reveal()+`"}`)); err != nil {
			return err
		}
		if err := tx.Bucket(bucketChat).Put(append([]byte("club\x00"), u64(99)...), []byte(`{"person":"p:404","text":"x"}`)); err != nil {
			return err
		}
		return tx.Bucket(bucketChat).Put(append([]byte("gone\x00"), u64(1)...), []byte(`{}`))
	}); err != nil {
		t.Fatal(err)
	}
	err = s.Check(ctx)
	for _, want := range []string{`next dice of "gone"`, `chat of "gone"`, `unknown person "p:404"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("check finds no %s: %v", want, err)
		}
	}
	if err := s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketChat).Delete(append([]byte("club\x00"), u64(99)...))
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.db.Update(func(tx *bolt.Tx) error { return dropKept(tx, "gone") }); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateTable(ctx, "club", func(tb *TableRecord) error { tb.Closed = tb.Created.Add(1); return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.NextDice(ctx, "club"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a closed table's next dice: %v", err)
	}
	if ls, _ := s.Chat(ctx, "club"); len(ls) != 0 {
		t.Errorf("a closed table's chat: %+v", ls)
	}
	for _, err := range []error{
		s.SetNextDice(ctx, "club", d), s.AddChat(ctx, "club", ChatRecord{Text: "x"}, 5),
		s.SetNextDice(ctx, "none", d),
	} {
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("kept at a closed or missing table: %v", err)
		}
	}
	if _, err := s.CreateGameWithNext(ctx, Game{Table: "club", Seats: seats(2), Rules: engine.DefaultOptions()}, fair.NextDice{Seed: next}); !errors.Is(err, ErrNotFound) {
		t.Errorf("a game with next dice at a closed table: %v", err)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}

// TestJoinKeyMovesKept: a key joined from a person without games, their
// last, merges them into the code's person: their lines in open tables'
// chats and the seeds they gave are the person's now (where the person
// gave a seed at that table too, theirs stays); Check is clean.
func TestJoinKeyMovesKept(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	now := time.Now()
	alice, err := s.SetName(ctx, "SHA256:alice", "alice")
	if err != nil {
		t.Fatal(err)
	}
	laptop, err := s.SetName(ctx, "SHA256:laptop", "laptop")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"one", "two"} {
		if err := s.CreateTable(ctx, TableRecord{Name: name, Host: alice.ID, Rules: engine.DefaultOptions(), Seats: 4}); err != nil {
			t.Fatal(err)
		}
	}
	seed := fair.NewSeed()
	if err := s.SetNextDice(ctx, "one", fair.NextDice{Seed: seed, Given: []fair.GivenSeed{{Person: laptop.ID, Seed: "laptop's"}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetNextDice(ctx, "two", fair.NextDice{Seed: seed, Given: []fair.GivenSeed{
		{Person: laptop.ID, Seed: "laptop's"}, {Person: alice.ID, Seed: "alice's"}}}); err != nil {
		t.Fatal(err)
	}
	for _, who := range []string{laptop.ID, alice.ID, laptop.ID} {
		if err := s.AddChat(ctx, "one", ChatRecord{At: now, Person: who, Text: "from " + who}, 50); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddKeyCode(ctx, alice.ID, "joincode", now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	j, err := s.JoinKey(ctx, "joincode", "SHA256:laptop", now)
	if err != nil || j.Merged != laptop.ID {
		t.Fatalf("join: %+v, %v", j, err)
	}
	lines, err := s.Chat(ctx, "one")
	if err != nil || len(lines) != 3 {
		t.Fatalf("chat %+v, %v", lines, err)
	}
	for _, l := range lines {
		if l.Person != alice.ID {
			t.Errorf("a line of the merged person's is %q's", l.Person)
		}
	}
	for table, want := range map[string]string{"one": "laptop's", "two": "alice's"} {
		d, err := s.NextDice(ctx, table)
		if err != nil || len(d.Given) != 1 || d.Given[0].Person != alice.ID || d.Given[0].Seed != want {
			t.Errorf("seeds at %s after the merge: %+v, %v; want alice's %q", table, d.Given, err, want)
		}
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}
