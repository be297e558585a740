package store

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/engine"
)

func TestOpenCreatesDirAndFile(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "a", "b")
	path := filepath.Join(dir, "mia.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Path() != path {
		t.Errorf("Path = %q, want %q", s.Path(), path)
	}
	for _, c := range []struct {
		p    string
		mode os.FileMode
	}{{dir, 0o700}, {path, 0o600}} {
		st, err := os.Stat(c.p)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Mode().Perm(); got&^c.mode != 0 {
			t.Errorf("%s: mode %v, want at most %v", c.p, got, c.mode)
		}
	}
	if err := s.Check(context.Background()); err != nil {
		t.Error(err)
	}
}

func TestOpenLocked(t *testing.T) {
	t.Parallel()
	s, path := openTemp(t)
	_ = s
	start := time.Now()
	s2, err := Open(path)
	took := time.Since(start)
	if err == nil {
		s2.Close()
		t.Fatal("second Open of the same file succeeded")
	}
	t.Logf("refused after %v: %v", took, err)
	if !errors.Is(err, ErrLocked) {
		t.Errorf("err = %v, want ErrLocked", err)
	}
	if want := "another mia server holds " + path; !strings.Contains(err.Error(), want) {
		t.Errorf("err = %q, want it to say %q", err, want)
	}
	if took < 500*time.Millisecond || took > 2*time.Second {
		t.Errorf("gave up after %v, want about 1s", took)
	}
}

func TestOpenRefusesForeignFiles(t *testing.T) {
	t.Parallel()
	random := make([]byte, 10000)
	_, _ = rand.Read(random)
	cases := []struct {
		name    string
		content []byte
		want    error
	}{
		{"text", []byte("hello, this is not a database\n"), ErrCorrupt},
		{"random", random, ErrCorrupt},
		{"short", []byte{1}, ErrCorrupt},
		{"zeros", make([]byte, 8192), ErrCorrupt},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "mia.db")
			if err := os.WriteFile(path, c.content, 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := Open(path)
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
			t.Logf("refused: %v", err)
			if !errors.Is(err, c.want) {
				t.Errorf("err = %v, want %v", err, c.want)
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("err = %q does not name the file", err)
			}
			got, _ := os.ReadFile(path)
			if !bytes.Equal(got, c.content) {
				t.Error("the file was changed")
			}
		})
	}
}

// A mia file whose two meta pages are both damaged is refused, unchanged.
func TestOpenRefusesDamagedMeta(t *testing.T) {
	t.Parallel()
	s, path := openTemp(t)
	if _, err := s.SetName(context.Background(), "SHA256:a", "alice"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The meta's txid sits at 16 (page header) + 48; its checksum follows.
	for _, page := range []int{0, boltDefaultPgz} {
		b[page+16+48] ^= 0xff
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(path)
	if err == nil {
		s2.Close()
		t.Fatal("Open succeeded")
	}
	t.Logf("refused: %v", err)
	if !errors.Is(err, ErrCorrupt) {
		t.Errorf("err = %v, want ErrCorrupt", err)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(b, after) {
		t.Error("the file was changed")
	}
}

// A bbolt file of some other program is refused and left alone.
func TestOpenRefusesOtherBoltFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "other.db")
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket([]byte("theirs"))
		if err != nil {
			return err
		}
		return b.Put([]byte("k"), []byte("v"))
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	before, _ := os.ReadFile(path)
	s, err := Open(path)
	if err == nil {
		s.Close()
		t.Fatal("Open succeeded")
	}
	t.Logf("refused: %v", err)
	if !errors.Is(err, ErrSchema) {
		t.Errorf("err = %v, want ErrSchema", err)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Error("the file was changed")
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	t.Parallel()
	s, path := openTemp(t)
	ctx := context.Background()
	if _, err := s.SetName(ctx, "SHA256:a", "alice"); err != nil {
		t.Fatal(err)
	}
	if err := s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keySchema, u64(SchemaVersion+1))
	}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	before, _ := os.ReadFile(path)
	s2, err := Open(path)
	if err == nil {
		s2.Close()
		t.Fatal("Open of a newer schema succeeded")
	}
	t.Logf("refused: %v", err)
	if !errors.Is(err, ErrSchema) || !strings.Contains(err.Error(), "newer") {
		t.Errorf("err = %v, want ErrSchema saying newer", err)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Error("the file was changed")
	}
}

func TestCanceledContext(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	checks := map[string]error{}
	_, checks["PersonByKey"] = s.PersonByKey(ctx, "x")
	_, checks["Person"] = s.Person(ctx, "p:1")
	_, checks["PersonByName"] = s.PersonByName(ctx, "x")
	_, checks["SetName"] = s.SetName(ctx, "x", "x")
	checks["Touch"] = s.Touch(ctx, "x", time.Now())
	checks["AddKeyCode"] = s.AddKeyCode(ctx, "p:1", "c", time.Now())
	_, checks["JoinKey"] = s.JoinKey(ctx, "c", "x", time.Now())
	_, checks["RemoveKey"] = s.RemoveKey(ctx, "p:1", "x")
	_, checks["BanOf"] = s.BanOf(ctx, "x")
	_, checks["OpenTables"] = s.OpenTables(ctx)
	_, checks["CreateGame"] = s.CreateGame(ctx, Game{})
	checks["Append"] = s.Append(ctx, "1", nil, nil)
	_, checks["Games"] = s.Games(ctx, Query{})
	_, checks["InProgress"] = s.InProgress(ctx)
	_, checks["Tally"] = s.Tally(ctx, "x")
	for name, err := range checks {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: err = %v, want context.Canceled", name, err)
		}
	}
}

func TestBackupWhileWriting(t *testing.T) {
	t.Parallel()
	s, path := openTemp(t)
	ctx := context.Background()
	r := newRand(11)
	var want []string
	for range 5 {
		opts := engine.DefaultOptions()
		opts.Lives = 2
		g, chunks := playGame(t, r, opts, 3, 0)
		want = append(want, storeGame(t, s, "t", seats(3), opts, g, chunks).ID)
	}
	// Writers go on while the copy is made.
	stop := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		for {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			if _, err := s.CreateGame(ctx, Game{Table: "busy", Seats: seats(2), Rules: engine.DefaultOptions()}); err != nil {
				done <- err
				return
			}
		}
	}()
	copyPath := filepath.Join(filepath.Dir(path), "copy.db")
	f, err := os.Create(copyPath)
	if err != nil {
		t.Fatal(err)
	}
	n, err := s.Backup(ctx, f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	close(stop)
	if werr := <-done; werr != nil {
		t.Fatal(werr)
	}
	if err != nil || n == 0 {
		t.Fatalf("Backup = %d, %v", n, err)
	}
	c, err := Open(copyPath)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Check(ctx); err != nil {
		t.Fatal(err)
	}
	gs, err := c.Games(ctx, Query{Table: "t"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range gs {
		got = append([]string{g.ID}, got...)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("the copy holds games %v, want %v", got, want)
	}

	// A cancelled context stops the copy, before it starts or midway.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Backup(cancelled, io.Discard); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled backup: %v", err)
	}
	midway, cancel := context.WithCancel(ctx)
	var wrote int64
	n, err = s.Backup(midway, writerFunc(func(p []byte) (int, error) {
		wrote += int64(len(p))
		cancel()
		return len(p), nil
	}))
	if !errors.Is(err, context.Canceled) || n != wrote || n == 0 {
		t.Fatalf("backup cancelled midway: %d bytes (%d written), %v", n, wrote, err)
	}
}

func TestCommitLatency(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	before := s.CommitLatency()
	for _, n := range []string{"a", "b", "c"} {
		if err := s.CreateTable(ctx, table(n)); err != nil {
			t.Fatal(err)
		}
	}
	g, err := s.CreateGame(ctx, Game{Table: "a", Seats: seats(2), Rules: engine.DefaultOptions()})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, g.ID, nil, &engine.Result{Winner: 0, Standings: []int{0, 1}}); err != nil {
		t.Fatal(err)
	}
	after := s.CommitLatency()
	if got := after.Count - before.Count; got != 5 {
		t.Errorf("%d writes counted, want 5", got)
	}
	var sum uint64
	for _, c := range after.Counts {
		sum += c
	}
	if sum != after.Count || len(after.Counts) != len(after.Bounds)+1 || after.Sum <= 0 {
		t.Errorf("histogram %+v", after)
	}
	if !slices.IsSorted(after.Bounds) || after.Bounds[0] != 250*time.Microsecond {
		t.Errorf("bounds %v", after.Bounds)
	}
	l := newLatency()
	for _, d := range []time.Duration{0, 250 * time.Microsecond, 251 * time.Microsecond, time.Hour} {
		l.observe(d)
	}
	if l.counts[0].Load() != 2 || l.counts[1].Load() != 1 || l.counts[len(l.bounds)].Load() != 1 {
		t.Errorf("buckets: first %d, second %d, over %d", l.counts[0].Load(), l.counts[1].Load(), l.counts[len(l.bounds)].Load())
	}
}
