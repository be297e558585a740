package lobby

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby/lobbytest"
)

func TestQueueKeepsItsBound(t *testing.T) {
	for _, tc := range []struct {
		name        string
		bound, puts int
		takeAfter   int // Next this many before the rest are put (0: none)
	}{
		{"fewer than the bound", 8, 5, 0},
		{"the bound exactly", 8, 8, 0},
		{"past the bound", 8, 13, 0},
		{"ten thousand", 64, 10_000, 0},
		{"taken while it grows", 8, 20, 3},
		{"a bound of one", 1, 5, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := NewQueue[int](tc.bound)
			var want []int
			i := 0
			for ; i < tc.takeAfter; i++ {
				q.Put(i)
			}
			for range tc.takeAfter / 2 {
				if _, ok := q.Next(); !ok {
					t.Fatal("Next found nothing")
				}
			}
			for ; i < tc.puts; i++ {
				q.Put(i)
				if q.Len() > tc.bound {
					t.Fatalf("%d waiting, bound %d", q.Len(), tc.bound)
				}
			}
			// What is kept is the newest, in order.
			first := max(tc.takeAfter/2, tc.puts-tc.bound)
			for v := first; v < tc.puts; v++ {
				want = append(want, v)
			}
			got := q.Take()
			if !slices.Equal(got, want) {
				t.Fatalf("took %v, want %v", got, want)
			}
			if drops := q.Dropped(); drops != uint64(tc.puts-tc.takeAfter/2-len(want)) {
				t.Fatalf("%d dropped, want %d", drops, tc.puts-tc.takeAfter/2-len(want))
			}
			if q.Len() != 0 || q.Take() != nil {
				t.Fatal("not empty after Take")
			}
		})
	}
	t.Run("put together, taken together", func(t *testing.T) {
		q := NewQueue[int](3)
		q.PutAll(1, 2, 3, 4)
		if got := q.Take(); !slices.Equal(got, []int{2, 3, 4}) || q.Dropped() != 1 {
			t.Fatalf("took %v, %d dropped", got, q.Dropped())
		}
	})
	t.Run("closed", func(t *testing.T) {
		q := NewQueue[int](2)
		q.Put(1)
		q.Close()
		if q.Put(2) {
			t.Fatal("a closed queue took a value")
		}
		if got := q.Take(); !slices.Equal(got, []int{1}) {
			t.Fatalf("after close took %v", got)
		}
		<-q.Done()
	})
}

// hear waits for the next news of kind k on q, skipping others.
func hear(t *testing.T, q *Queue[News], k NewsKind) News {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		if n, ok := q.Next(); ok {
			if n.Kind == k {
				return n
			}
			continue
		}
		select {
		case <-q.Ready():
		case <-deadline:
			t.Fatalf("no %s news", k)
		}
	}
}

// heard is every news q holds now of kind k ("": of any kind), once the
// table has told all it had to.
func heard(t *testing.T, q *Queue[News], tbl *Table, k NewsKind) []News {
	t.Helper()
	if err := tbl.doEvenPaused(ctxT(t), func(context.Context) error { return nil }); err != nil {
		t.Fatal(err)
	}
	var out []News
	for _, n := range q.Take() {
		if n.Kind == k || k == "" {
			out = append(out, n)
		}
	}
	return out
}

// TestQueueOnReady: OnReady's function is called when values come to an
// empty queue, once until they are taken, at once if values wait as it is
// set, and never after the queue is closed.
func TestQueueOnReady(t *testing.T) {
	q := NewQueue[int](4)
	q.Put(1)
	calls := 0
	q.OnReady(func() { calls++ })
	if calls != 1 {
		t.Fatalf("values waited as OnReady was set: %d calls, want 1", calls)
	}
	q.Put(2)
	q.PutAll(3, 4, 5)
	if calls != 1 {
		t.Fatalf("values came to a queue not empty: %d calls, want 1", calls)
	}
	if got := q.Take(); !slices.Equal(got, []int{2, 3, 4, 5}) {
		t.Fatalf("took %v", got)
	}
	q.PutAll()
	if calls != 1 {
		t.Fatalf("nothing put: %d calls, want 1", calls)
	}
	q.Put(6)
	if calls != 2 {
		t.Fatalf("a value came to the emptied queue: %d calls, want 2", calls)
	}
	q.Take()
	q.Close()
	q.Put(7)
	if calls != 2 {
		t.Fatalf("a value put after Close: %d calls, want 2", calls)
	}
}

func TestTableNews(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	all := e.lobby.Follow()
	defer e.lobby.Unfollow(all)
	ps := []Player{e.player("alice"), e.player("bob"), e.player("carol")}
	tbl, err := e.lobby.CreateTable(ctx, ps[0], TableConfig{Name: "den", Rules: quickRules(), Seats: 4})
	if err != nil {
		t.Fatal(err)
	}
	opened := hear(t, all, NewsTableOpened)
	if opened.Table != "den" || opened.Host != ps[0].ID || opened.Seats != 4 || !opened.Public() {
		t.Fatalf("opened %+v", opened)
	}
	// Seats free: told once per change.
	for i, p := range ps {
		if err := tbl.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
		w := hear(t, all, NewsTableWaiting)
		if w.Taken != i+1 || w.Seats != 4 {
			t.Fatalf("waiting after %d sat: %d of %d", i+1, w.Taken, w.Seats)
		}
	}
	if err := tbl.SetRules(ctx, ps[0], quickRules(), 4); err != nil { // no change of seats
		t.Fatal(err)
	}
	if got := heard(t, all, tbl, NewsTableWaiting); len(got) != 0 {
		t.Fatalf("told waiting again without a change: %+v", got)
	}
	// alice and carol watch; bob is away (in the lobby, say).
	subs := watchAll(t, tbl, []Player{ps[0], ps[2]})
	bob := e.lobby.Notices(ps[1].ID)
	defer e.lobby.Unfollow(bob)
	if err := tbl.Start(ctx, ps[0]); err != nil {
		t.Fatal(err)
	}
	started := hear(t, all, NewsGameStarted)
	if started.Game == "" || len(started.Players) != 3 || !slices.Equal(started.To, []string{ps[1].ID}) {
		t.Fatalf("started %+v (to %v)", started, started.To)
	}
	if n := hear(t, bob, NewsGameStarted); n.Game != started.Game {
		t.Fatalf("bob heard %+v", n)
	}
	// Play to the end; bob is told each turn of his, and nobody else is.
	r := rand.New(rand.NewPCG(1, 2))
	turns := 0
	var told time.Time // the deadline of bob's turn he was told of
	for moves := 0; ; moves++ {
		if moves > 5000 {
			t.Fatal("the game does not end")
		}
		snap := latest(t, subs[ps[0].ID], tbl)
		if !snap.Playing {
			break
		}
		p := ps[slices.IndexFunc(ps, func(q Player) bool { return q.Name() == snap.Name(snap.Game.Turn) })]
		if p.ID == ps[1].ID && !snap.Deadline.Equal(told) { // a new turn of his (a roll keeps it)
			n := hear(t, bob, NewsTurn)
			told = n.Deadline
			if n.Table != "den" || !n.Deadline.Equal(snap.Deadline) {
				t.Fatalf("bob's turn news %+v, deadline %v", n, snap.Deadline)
			}
			turns++
		}
		var view *engine.View
		if p.ID == ps[1].ID {
			v, _ := tbl.viewOf(ctx, p)
			view = &v
		} else {
			view = latest(t, subs[p.ID], tbl).Game
		}
		if err := tbl.Act(ctx, p, lobbytest.Move(view, r)); err != nil {
			t.Fatal(err)
		}
	}
	if turns == 0 {
		t.Fatal("bob never had a turn")
	}
	ended := hear(t, all, NewsGameEnded)
	g, err := e.st.Game(ended.Game)
	if err != nil {
		t.Fatal(err)
	}
	if ended.Game != started.Game || ended.Winner != g.Players[g.Winner].ID || len(ended.Standings) != 3 {
		t.Fatalf("ended %+v, stored winner seat %d", ended, g.Winner)
	}
	re, _ := engine.Replay(g.Rules, len(g.Players), g.Events, nil)
	for i, s := range re.Standings() {
		if ended.Standings[i].ID != g.Players[s].ID {
			t.Fatalf("standings %+v, the game's %v", ended.Standings, re.Standings())
		}
	}
	// Who bluffed and who was caught, as the one rule judges each move.
	bluffs, caught := make(map[string]int), make(map[string]int)
	for i, ev := range g.Events {
		v := engine.Judge(g.Rules.Ranking, g.Events, i)
		roll, ok := engine.LastRoll(g.Events[:i])
		switch {
		case v == engine.Bluffed && engine.Announces(roll, ok, ev):
			bluffs[g.Players[ev.Seat].ID]++
		case v == engine.Caught && ev.Type == engine.EvChallenge:
			caught[g.Players[ev.Claimant].ID]++
		case v == engine.Caught && ev.Type == engine.EvReveal:
			caught[g.Players[ev.Seat].ID]++
		}
	}
	total := 0
	for _, s := range ended.Standings {
		if s.Bluffs != bluffs[s.ID] || s.Caught != caught[s.ID] {
			t.Fatalf("%s: %d bluffs %d caught, the rule says %d and %d", s.ID, s.Bluffs, s.Caught, bluffs[s.ID], caught[s.ID])
		}
		total += s.Bluffs + s.Caught
	}
	t.Logf("bluffs %v caught %v", bluffs, caught)
	if total == 0 {
		t.Log("no bluff in this game: the count is checked as zero")
	}
	// Between games, the seats as they were are no news.
	if got := heard(t, all, tbl, NewsTableWaiting); len(got) != 0 {
		t.Fatalf("told waiting after the game: %+v", got)
	}
	if err := tbl.Stand(ctx, ps[2]); err != nil {
		t.Fatal(err)
	}
	if w := hear(t, all, NewsTableWaiting); w.Taken != 2 {
		t.Fatalf("after carol stood: %+v", w)
	}
	// Nobody hears turns through the followers' queue.
	if st := e.lobby.NewsStats(); st.Followers != 1 || st.Noticed != 1 || st.Published == 0 {
		t.Fatalf("stats %+v", st)
	}
}

func TestRestartRetellsNothing(t *testing.T) {
	e := newEnv(t)
	ps := []Player{e.player("alice"), e.player("bob")}
	rules := quickRules()
	tbl, err := e.lobby.CreateTable(ctxT(t), ps[0], TableConfig{Name: "again", Rules: rules, Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if err := tbl.Sit(ctxT(t), p); err != nil {
			t.Fatal(err)
		}
	}
	if err := tbl.Start(ctxT(t), ps[0]); err != nil {
		t.Fatal(err)
	}
	waiting, err := e.lobby.CreateTable(ctxT(t), ps[0], TableConfig{Name: "waits", Rules: rules, Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := waiting.Sit(ctxT(t), ps[0]); err != nil {
		t.Fatal(err)
	}
	e.restart()
	all := e.lobby.Follow()
	defer e.lobby.Unfollow(all)
	tbl2, err := e.lobby.Table("again")
	if err != nil {
		t.Fatal(err)
	}
	s, err := tbl2.Watch(ctxT(t), ps[0]) // a change at the table: it tells what is new
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	waiting2, err := e.lobby.Table("waits")
	if err != nil {
		t.Fatal(err)
	}
	s2, err := waiting2.Watch(ctxT(t), ps[0]) // seated: a change at the table
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	for _, tbl := range []*Table{tbl2, waiting2} {
		if got := heard(t, all, tbl, ""); len(got) != 0 {
			t.Fatalf("after a restart, %s told %+v", tbl.Name(), got)
		}
	}
}

func TestNewsReachOnlyWhomTheTableAdmits(t *testing.T) {
	e := newEnv(t)
	ps := []Player{e.player("alice"), e.player("eve")}
	tbl, err := e.lobby.CreateTable(ctxT(t), ps[0], TableConfig{Name: "den", Rules: quickRules(), Private: true})
	if err != nil {
		t.Fatal(err)
	}
	eve := e.lobby.Notices(ps[1].ID)
	defer e.lobby.Unfollow(eve)
	alice := e.lobby.Notices(ps[0].ID)
	defer e.lobby.Unfollow(alice)
	n := tbl.newsOfNow(t)
	n.Kind, n.To = NewsSeatFree, []string{ps[0].ID, ps[1].ID}
	e.lobby.Publish(n)
	if got := hear(t, alice, NewsSeatFree); got.Public() || got.Table != "den" {
		t.Fatalf("alice heard %+v", got)
	}
	if got := eve.Take(); len(got) != 0 {
		t.Fatalf("eve, whom the private table does not admit, heard %+v", got)
	}
}

func TestPublishNeverWaitsOnAReader(t *testing.T) {
	e := newEnv(t)
	stuck := e.lobby.Follow() // never read
	defer e.lobby.Unfollow(stuck)
	person := e.lobby.Notices("p:1")
	defer e.lobby.Unfollow(person)
	for i := range 10_000 {
		e.lobby.Publish(News{Kind: NewsTableWaiting, Table: "t", Taken: i})
		e.lobby.Publish(News{Kind: NewsTurn, Table: "t", To: []string{"p:1"}})
	}
	if stuck.Len() != FollowBound || person.Len() != NoticeBound {
		t.Fatalf("waiting %d and %d, bounds %d and %d", stuck.Len(), person.Len(), FollowBound, NoticeBound)
	}
	if got := stuck.Take(); got[len(got)-1].Taken != 9_999 || got[0].Taken != 10_000-FollowBound {
		t.Fatalf("kept %d..%d, not the newest", got[0].Taken, got[len(got)-1].Taken)
	}
	st := e.lobby.NewsStats()
	if st.Dropped != 2*10_000-FollowBound-NoticeBound || st.Published != 20_000 {
		t.Fatalf("stats %+v", st)
	}
}

func TestTellSeasons(t *testing.T) {
	e := newEnv(t)
	all := e.lobby.Follow()
	defer e.lobby.Unfollow(all)
	stop := e.lobby.TellSeasons(rating.Monthly)
	defer stop()
	now := rating.Monthly.Of(e.clock.Now())
	e.clock.AdvanceWait(now.End().Sub(e.clock.Now()) + time.Second)
	if n := hear(t, all, NewsSeasonEnded); n.Season != now {
		t.Fatalf("season %v ended, want %v", n.Season, now)
	}
	e.clock.AdvanceWait(now.Next().End().Sub(e.clock.Now()))
	if n := hear(t, all, NewsSeasonEnded); n.Season != now.Next() {
		t.Fatalf("season %v ended, want %v", n.Season, now.Next())
	}
	stop()
	e.clock.AdvanceWait(62 * 24 * time.Hour)
	if got := all.Take(); len(got) != 0 {
		t.Fatalf("told after stop: %+v", got)
	}
}

// viewOf is p's view of the running game, read in the actor (p need not
// have the table open).
func (t *Table) viewOf(ctx context.Context, p Player) (engine.View, error) {
	return doValue(ctx, t, func(context.Context) (engine.View, error) { return t.game.g.View(t.gameSeat(p.ID)), nil })
}

// newsOfNow is the table's news as it would tell it now.
func (t *Table) newsOfNow(tt *testing.T) News {
	tt.Helper()
	n, err := doValue(ctxT(tt), t, func(context.Context) (News, error) { return t.newsOf(NewsTableWaiting), nil })
	if err != nil {
		tt.Fatal(err)
	}
	return n
}

// TestUnfollowOneScreen: a person's screens each hear their notices;
// Unfollow ends one screen's (twice is once) and leaves the other's.
func TestUnfollowOneScreen(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	q1, q2, qb := e.lobby.Notices(a.ID), e.lobby.Notices(a.ID), e.lobby.Notices(b.ID)
	e.lobby.Unfollow(q1)
	e.lobby.Unfollow(q1)
	if n := e.lobby.NewsStats().Noticed; n != 2 {
		t.Fatalf("%d people hear their notices, want 2", n)
	}
	e.lobby.Publish(News{Kind: NewsInvited, Table: "den", To: []string{a.ID}})
	if got := len(q2.Take()); got != 1 {
		t.Fatalf("the screen still following got %d news, want 1", got)
	}
	if got := len(q1.Take()); got != 0 {
		t.Fatalf("the screen that stopped got %d news", got)
	}
	e.lobby.Unfollow(q2)
	e.lobby.Unfollow(qb)
	if n := e.lobby.NewsStats().Noticed; n != 0 {
		t.Fatalf("%d people hear their notices, want 0", n)
	}
}
