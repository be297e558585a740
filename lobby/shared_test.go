package lobby

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/lobby/words"
)

func TestViewersShareWhatTheyDerive(t *testing.T) {
	e := newEnv(t)
	ps := []Player{e.player("alice"), e.player("bob")}
	tbl := seatPlayers(t, e, "shared", quickRules(), ps...)
	subs := watchAll(t, tbl, ps)
	eve, mal := mustWatch(t, tbl, e.player("eve")), mustWatch(t, tbl, e.player("mallory"))
	r := rand.New(rand.NewPCG(5, 6))
	move := func() {
		t.Helper()
		s := latest(t, subs[ps[0].ID], tbl)
		p := ps[0]
		if s.Name(s.Game.Turn) == ps[1].Name() {
			p = ps[1]
		}
		mine := latest(t, subs[p.ID], tbl)
		if err := tbl.Act(ctxT(t), p, lobbytest.Move(mine.Game, r)); err != nil {
			t.Fatal(err)
		}
	}
	move()
	a, b, own := latest(t, eve, tbl), latest(t, mal, tbl), latest(t, subs[ps[0].ID], tbl)
	if a.Version != b.Version || a.You != -1 {
		t.Fatalf("spectators at versions %d and %d, seat %d", a.Version, b.Version, a.You)
	}

	la, lb := a.CleanLogLines(60, 200), b.CleanLogLines(60, 200)
	if len(la) == 0 || &la[0] != &lb[0] {
		t.Errorf("two spectators of one snapshot got the log made twice (%d lines)", len(la))
	}
	want := a.LogLines(60)
	for i := range want {
		want[i] = words.Clean(want[i], 200)
	}
	if fmt.Sprint(la) != fmt.Sprint(want) {
		t.Errorf("shared log %q, want %q", la, want)
	}
	if lo := own.CleanLogLines(60, 200); len(lo) > 0 && &lo[0] == &la[0] {
		t.Error("a seated player shares the spectators' log")
	}

	draws := 0
	draw := func(k string) func() string {
		return func() string { draws++; return fmt.Sprintf("%s#%d", k, draws) }
	}
	tests := []struct {
		name  string
		snap  Snapshot
		key   string
		want  string
		draws int
	}{
		{"first spectator draws", a, "80x24", "80x24#1", 1},
		{"second spectator, same key, shares it", b, "80x24", "80x24#1", 1},
		{"another window size draws", b, "100x30", "100x30#2", 2},
		{"the seated player draws their own", own, "80x24", "80x24#3", 3},
		{"the seated player again shares with no one but themselves", own, "80x24", "80x24#3", 3},
		{"a snapshot of no table draws each time", Snapshot{}, "80x24", "80x24#4", 4},
		{"... each time", Snapshot{}, "80x24", "80x24#5", 5},
	}
	for _, tt := range tests {
		if got := tt.snap.Shared(tt.key, draw(tt.key)); got != tt.want || draws != tt.draws {
			t.Errorf("%s: got %q after %d draws, want %q after %d", tt.name, got, draws, tt.want, tt.draws)
		}
	}

	// The next move publishes new snapshots: nothing carries over.
	move()
	c := latest(t, eve, tbl)
	if c.Version == a.Version {
		t.Fatal("no new snapshot after a move")
	}
	if got := c.Shared("80x24", draw("80x24")); got != "80x24#6" {
		t.Errorf("a new snapshot reused the old frame: %q", got)
	}
}

func TestSharedIsBounded(t *testing.T) {
	s := Snapshot{shared: &shared{}}
	for i := range 3 * maxShared {
		s.Shared(i, func() string { return "x" })
	}
	if n := len(s.shared.memo); n > maxShared {
		t.Errorf("%d frames kept, at most %d", n, maxShared)
	}
}

// TestSharedMadeOnceWhileAsked: the spectators of a table get its
// snapshot at the same moment; those who ask for a frame while the first
// is drawing it wait for that one instead of drawing it again.
func TestSharedMadeOnceWhileAsked(t *testing.T) {
	s := Snapshot{shared: &shared{}}
	var builds atomic.Int32
	started, release := make(chan struct{}), make(chan struct{})
	draw := func() string {
		if builds.Add(1) == 1 {
			close(started)
		}
		<-release
		return "frame"
	}
	const viewers = 8
	got := make(chan string, viewers)
	go func() { got <- s.Shared("k", draw) }()
	<-started
	for range viewers - 1 {
		go func() { got <- s.Shared("k", draw) }()
	}
	time.Sleep(20 * time.Millisecond) // the others ask meanwhile
	close(release)
	for range viewers {
		if f := <-got; f != "frame" {
			t.Errorf("a viewer got %q", f)
		}
	}
	if n := builds.Load(); n != 1 {
		t.Errorf("the frame was drawn %d times for %d viewers asking at once, want once", n, viewers)
	}
}

// TestSharedAfterAPanic: a draw that panics leaves nothing behind; the
// next viewer draws for themselves.
func TestSharedAfterAPanic(t *testing.T) {
	s := Snapshot{shared: &shared{}}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the draw's panic did not reach its viewer")
			}
		}()
		s.Shared("k", func() string { panic("drawn badly") })
	}()
	if f := s.Shared("k", func() string { return "frame" }); f != "frame" {
		t.Errorf("after a panic, the next viewer got %q", f)
	}
}

// TestWatchersComeAndGoQuietly: a spectator opening or leaving a table is
// sent the table themselves but wakes no one else there (only the count of
// watchers changed); a player's coming and going shows at their seat, so
// everyone is told.
func TestWatchersComeAndGoQuietly(t *testing.T) {
	e := newEnv(t)
	ps := []Player{e.player("alice"), e.player("bob")}
	tbl := seatPlayers(t, e, "quiet", quickRules(), ps...)
	alice := mustWatch(t, tbl, ps[0])
	eve := mustWatch(t, tbl, e.player("eve"))
	latest(t, alice, tbl)
	latest(t, eve, tbl)
	woken := func(s *Subscription) bool {
		t.Helper()
		if err := tbl.do(ctxT(t), func(context.Context) error { return nil }); err != nil {
			t.Fatal(err)
		}
		snap, ok := s.Take()
		if ok { // as latest would have seen it
			lastMu.Lock()
			lastSeen[s] = snap
			lastMu.Unlock()
		}
		return ok
	}
	steps := []struct {
		name        string
		do          func() *Subscription
		watching    int
		wakesOthers bool
	}{
		{"a spectator opens the table", func() *Subscription { return mustWatch(t, tbl, e.player("mallory")) }, 3, false},
		{"a player opens it", func() *Subscription { return mustWatch(t, tbl, ps[1]) }, 4, true},
	}
	for _, st := range steps {
		s := st.do()
		if !woken(s) {
			t.Errorf("%s: the newcomer got no snapshot", st.name)
		}
		if got := woken(eve); got != st.wakesOthers {
			t.Errorf("%s: the other spectator woken = %v, want %v", st.name, got, st.wakesOthers)
		}
		if got := woken(alice); got != st.wakesOthers {
			t.Errorf("%s: alice woken = %v, want %v", st.name, got, st.wakesOthers)
		}
		if w := tbl.Info().Watching; w != st.watching {
			t.Errorf("%s: %d watching, want %d", st.name, w, st.watching)
		}
	}
	// A spectator coming in is sent the snapshot the others hold: they
	// share its frame.
	held := latest(t, eve, tbl)
	zoe := mustWatch(t, tbl, e.player("zoe"))
	first := next(t, zoe, 0)
	if first.Version != held.Version {
		t.Errorf("the newcomer got version %d, the others hold %d", first.Version, held.Version)
	}
	held.Shared("frame", func() string { return "eve drew it" })
	if got := first.Shared("frame", func() string { return "zoe drew it again" }); got != "eve drew it" {
		t.Errorf("the newcomer's frame: %q", got)
	}

	// bob's session leaving shows his seat away: everyone is told.
	latest(t, eve, tbl)
	bob := mustWatch(t, tbl, ps[1])
	latest(t, eve, tbl)
	latest(t, alice, tbl)
	bob.Close()
	if !woken(eve) {
		t.Error("a player leaving did not show")
	}
}

// TestWatcherCounts: the table counts people watching, not sessions: two
// sessions of one key count once, and a seat shows away only when the last
// of its player's sessions closes.
func TestWatcherCounts(t *testing.T) {
	e := newEnv(t)
	ps := []Player{e.player("alice"), e.player("bob")}
	tbl := seatPlayers(t, e, "counted", quickRules(), ps...)
	connected := func(name string) bool {
		for _, si := range tbl.Info().Players {
			if si.Name == name {
				return si.Connected
			}
		}
		t.Fatalf("%s not seated", name)
		return false
	}
	settle := func() {
		t.Helper()
		if err := tbl.do(ctxT(t), func(context.Context) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	a1, err := tbl.Watch(ctxT(t), ps[0])
	if err != nil {
		t.Fatal(err)
	}
	a2, err := tbl.Watch(ctxT(t), ps[0])
	if err != nil {
		t.Fatal(err)
	}
	mustWatch(t, tbl, e.player("eve"))
	steps := []struct {
		name      string
		do        func()
		watching  int
		aliceHere bool
	}{
		{"alice twice, eve once", func() {}, 2, true},
		{"one of alice's sessions closes", a1.Close, 2, true},
		{"the same closes again", a1.Close, 2, true},
		{"her last closes", a2.Close, 1, false},
	}
	for _, st := range steps {
		st.do()
		settle()
		if w := tbl.Info().Watching; w != st.watching {
			t.Errorf("%s: %d watching, want %d", st.name, w, st.watching)
		}
		if got := connected("alice"); got != st.aliceHere {
			t.Errorf("%s: alice connected = %v, want %v", st.name, got, st.aliceHere)
		}
	}
}
