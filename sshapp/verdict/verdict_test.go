package verdict

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/store"
)

// cheap is a rule set the solver solves in a tenth of a second (seconds
// under -race): the tests' rules.
func cheap() engine.Options {
	o := engine.DefaultOptions()
	o.Pass, o.MiaPenalty = false, 1
	return o
}

// randSource draws the dice from r.
type randSource struct{ r *rand.Rand }

func (s randSource) Intn(n int) int { return s.r.IntN(n) }

// playGame plays a game of n random players (lobbytest.Move) to its end.
func playGame(t *testing.T, o engine.Options, n int, seed uint64) []engine.Event {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	g, evs, err := engine.New(o, n, randSource{r})
	if err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		v := g.View(g.Turn())
		more, err := g.Apply(func() engine.Action { a := lobbytest.Move(&v, r); a.Seat = g.Turn(); return a }())
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, more...)
	}
	return evs
}

func stored(o engine.Options, n int, evs []engine.Event, ended bool) store.Game {
	at := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	g := store.Game{ID: "7", Table: "club", Rules: o, Started: at, Winner: -1}
	for i := range n {
		g.Seats = append(g.Seats, store.Seat{Person: "p:" + string(rune('a'+i)), Name: string(rune('a' + i))})
	}
	if ended {
		g.Ended = at.Add(time.Minute)
		if last := evs[len(evs)-1]; last.Type == engine.EvEnd {
			g.Winner = last.Winner
		}
	}
	return g
}

func judged(t *testing.T, jd *Judge, g store.Game, evs []engine.Event) Analysis {
	t.Helper()
	a, err := jd.Of(context.Background(), "", g, evs)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestNoVerdictBeforeTheEnd: a game not ended has no verdict, whoever
// asks, and a nil Judge gives none.
func TestNoVerdictBeforeTheEnd(t *testing.T) {
	jd := New()
	t.Cleanup(jd.Drain)
	evs := playGame(t, cheap(), 2, 1)
	half := evs[:len(evs)/2]
	if _, err := jd.Of(context.Background(), "", stored(cheap(), 2, half, false), half); !errors.Is(err, ErrRunning) {
		t.Errorf("a game still played: %v, want ErrRunning", err)
	}
	if Shown(stored(cheap(), 2, half, false)) || !Shown(stored(cheap(), 2, evs, true)) {
		t.Error("Shown: a game is shown once it has ended, and only then")
	}
	var none *Judge
	if _, err := none.Of(context.Background(), "", stored(cheap(), 2, evs, true), evs); !errors.Is(err, ErrOff) {
		t.Errorf("a nil Judge: %v, want ErrOff", err)
	}
	if a := judged(t, jd, stored(cheap(), 2, evs, true), evs); len(a.Decisions) == 0 {
		t.Error("a finished game: no move judged")
	}
}

// TestHiddenDiceChangeNoVerdict: each move's verdict is the same when
// dice its player never saw (another's roll, or their own unlooked one)
// are changed: the game cut right after the move (as an abandoned game
// is), with such a roll of the round changed, judges it alike.
func TestHiddenDiceChangeNoVerdict(t *testing.T) {
	jd := New()
	t.Cleanup(jd.Drain)
	for _, players := range []int{2, 3} {
		evs := playGame(t, cheap(), players, uint64(players))
		a := judged(t, jd, stored(cheap(), players, evs, true), evs)
		changed := 0
		for _, d := range a.Decisions {
			at := d.Seq - 1 // seqs count from 1 without gaps
			end := at + 1   // the end of the move's action
			for end < len(evs) && !starts(evs[end]) {
				end++
			}
			cut := append([]engine.Event(nil), evs[:end]...)
			hidden := -1
			for i := at - 1; i >= 0 && cut[i].Type != engine.EvRound; i-- {
				if cut[i].Type == engine.EvRoll && (cut[i].Seat != d.Seat || !cut[i].Looked) {
					hidden = i
					break
				}
			}
			if hidden < 0 || cut[at].Type == engine.EvChallenge {
				continue // nothing hidden; a challenge's event shows the dice
			}
			for _, dice := range []engine.Value{21, 31, 65} {
				if dice == cut[hidden].Dice {
					continue
				}
				cut[hidden].Dice = dice
				g := stored(cheap(), players, cut, true)
				b := judged(t, jd, g, cut)
				e, ok := b.Of(d.Seq)
				if !ok {
					t.Fatalf("%d players, seq %d: no verdict in the cut game", players, d.Seq)
				}
				if e.Loss != d.Loss || e.Mark != d.Mark || e.Best != d.Best || !reflect.DeepEqual(e.Choices, d.Choices) {
					t.Errorf("%d players, seq %d: with hidden dice %s the verdict is %v %q, was %v %q",
						players, d.Seq, dice, e.Loss, e.Mark, d.Loss, d.Mark)
				}
				changed++
			}
		}
		if changed == 0 {
			t.Fatalf("%d players: no move had hidden dice to change", players)
		}
	}
}

// TestDocumentKeepsTheOldFields: the document with verdicts is the
// document of store.Replay.Encode with an "analysis" on judged events
// and "accuracy" added, nothing else changed; without verdicts it is
// that document byte for byte.
func TestDocumentKeepsTheOldFields(t *testing.T) {
	jd := New()
	t.Cleanup(jd.Drain)
	evs := playGame(t, cheap(), 3, 11)
	g := stored(cheap(), 3, evs, true)
	var old, plain, withV bytes.Buffer
	if err := g.Replay(evs).Encode(&old); err != nil {
		t.Fatal(err)
	}
	if err := Doc(g, evs, Analysis{}).Encode(&plain); err != nil {
		t.Fatal(err)
	}
	if plain.String() != old.String() {
		t.Errorf("without verdicts the document changed:\n%s\nwant\n%s", plain.String(), old.String())
	}
	a := judged(t, jd, g, evs)
	if err := Doc(g, evs, a).Encode(&withV); err != nil {
		t.Fatal(err)
	}
	var o, w map[string]any
	if err := json.Unmarshal(old.Bytes(), &o); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(withV.Bytes(), &w); err != nil {
		t.Fatal(err)
	}
	acc, ok := w["accuracy"].([]any)
	if !ok || len(acc) != 3 {
		t.Errorf("accuracy: %v, want one a player", w["accuracy"])
	}
	delete(w, "accuracy")
	n := 0
	for _, e := range w["events"].([]any) {
		if _, ok := e.(map[string]any)["analysis"]; ok {
			n++
			delete(e.(map[string]any), "analysis")
		}
	}
	if n != len(a.Decisions) || n == 0 {
		t.Errorf("%d events have an analysis, %d moves were judged", n, len(a.Decisions))
	}
	if !reflect.DeepEqual(o, w) {
		t.Errorf("the verdicts changed the old fields:\n%s", withV.String())
	}
	// The events read back as engine.Event, as an old reader reads them.
	var back struct{ Events []engine.Event }
	if err := json.Unmarshal(withV.Bytes(), &back); err != nil || !reflect.DeepEqual(normal(back.Events), normal(evs)) {
		t.Errorf("the events read back otherwise: %v", err)
	}
}

// starts reports whether e is the first event of an action.
func starts(e engine.Event) bool {
	switch e.Type {
	case engine.EvRoll, engine.EvClaim, engine.EvLowClaim, engine.EvPass, engine.EvChallenge,
		engine.EvGiveUp, engine.EvTimeout, engine.EvLeave:
		return true
	}
	return false
}

func normal(evs []engine.Event) []engine.Event {
	out := make([]engine.Event, len(evs))
	for i, e := range evs {
		e.At = time.Time{}
		if e.Losses != nil && len(e.Losses) == 0 {
			e.Losses = nil
		}
		out[i] = e
	}
	return out
}

// TestCoachAsTheReplay: during a game, the coach's verdict on each move,
// from the events as its player saw them, is the verdict the finished
// game's analysis gives it; at a table without a coach there is none.
func TestCoachAsTheReplay(t *testing.T) {
	jd := New()
	t.Cleanup(jd.Drain)
	for _, players := range []int{2, 3} {
		o := cheap()
		evs := playGame(t, o, players, uint64(10+players))
		a := judged(t, jd, stored(o, players, evs, true), evs)
		for _, d := range a.Decisions {
			seen := make([]engine.Event, len(evs))
			for i, e := range evs {
				seen[i] = e.Redacted(d.Seat)
			}
			if _, err := Coach(false, o, players, seen, d.Seat, d.Seq); !errors.Is(err, ErrNotCoached) {
				t.Fatalf("no coach: %v", err)
			}
			c, err := Coach(true, o, players, seen, d.Seat, d.Seq)
			if err != nil {
				t.Fatalf("%d players, seq %d: %v", players, d.Seq, err)
			}
			if c.Loss != d.Loss || c.Mark != d.Mark || c.Best != d.Best || !reflect.DeepEqual(c.Choices, d.Choices) {
				t.Errorf("%d players, seq %d: the coach says %v %q, the replay %v %q", players, d.Seq, c.Loss, c.Mark, d.Loss, d.Mark)
			}
			if _, err := Coach(true, o, players, seen, (d.Seat+1)%players, d.Seq); !errors.Is(err, ErrNoVerdict) {
				t.Errorf("seq %d judged as another seat's move: %v", d.Seq, err)
			}
		}
	}
}

// TestCoachBudgeted: the coach's verdict on a move under rules not
// solved yet needs the solver's budget to admit their solve for the
// table's source: refused, the error matches ErrUnsolved and the
// budget's rule, and nothing is solved; another source gets the verdict;
// then the solved rules cost the first source nothing. A Judge counts
// the coach's solves and the replays' in one budget.
func TestCoachBudgeted(t *testing.T) {
	os := lobbytest.Unsolved(2)
	if len(os) < 2 {
		t.Fatal("fewer than 2 cheap rule sets unsolved")
	}
	const here, there = "203.0.113.7", "198.51.100.1"
	jd := NewBudgeted(lobby.NewSolves(1, 0, nil))
	t.Cleanup(jd.Drain)
	first := playGame(t, os[0], 2, 21)
	if _, err := jd.Of(context.Background(), here, stored(os[0], 2, first, true), first); err != nil {
		t.Fatalf("the replay of %s's first new rule set: %v", here, err)
	}
	o := os[1]
	evs := playGame(t, o, 2, 22)
	move := evs[0]
	for _, e := range evs {
		if IsMove(e.Type) {
			move = e
			break
		}
	}
	seen := make([]engine.Event, len(evs))
	for i, e := range evs {
		seen[i] = e.Redacted(move.Seat)
	}
	_, err := jd.Coach(here, true, o, 2, seen, move.Seat, move.Seq)
	if !errors.Is(err, ErrUnsolved) || !errors.Is(err, lobby.ErrTooManySolvesHere) {
		t.Fatalf("the coach past %s's budget: %v", here, err)
	}
	if Solved(o) {
		t.Fatal("rules solved for a coach the budget refused")
	}
	if _, err := jd.Coach(here, false, o, 2, seen, move.Seat, move.Seq); !errors.Is(err, ErrNotCoached) {
		t.Fatalf("no coach: %v", err)
	}
	want, err := jd.Coach(there, true, o, 2, seen, move.Seat, move.Seq)
	if err != nil {
		t.Fatalf("the coach for another source: %v", err)
	}
	got, err := jd.Coach(here, true, o, 2, seen, move.Seat, move.Seq)
	if err != nil || got.Mark != want.Mark || got.Loss != want.Loss {
		t.Fatalf("solved rules for %s: %v %v, want %v", here, got.Mark, err, want.Mark)
	}
	var none *Judge
	if _, err := none.Coach(here, true, o, 2, seen, move.Seat, move.Seq); err != nil {
		t.Fatalf("a nil Judge coaches unbudgeted: %v", err)
	}
}

// TestErrorsHaveKinds: every error of the package has a kind the doors
// answer by (lobby.KindOf) and its own sentence (lobby.Shown), wrapped
// too, and still matches itself; wrapped with the budget's refusal, the
// budget's kind and sentence go first.
func TestErrorsHaveKinds(t *testing.T) {
	for _, c := range []struct {
		err  error
		kind lobby.ErrorKind
	}{
		{ErrRunning, lobby.Refused},
		{ErrNotReady, lobby.Unavailable},
		{ErrUnsolved, lobby.Unavailable},
		{ErrOff, lobby.Refused},
		{ErrNotCoached, lobby.Refused},
		{ErrNoVerdict, lobby.NotFound},
	} {
		wrapped := fmt.Errorf("verdict of game 7: %w", c.err)
		if got := lobby.KindOf(wrapped); got != c.kind {
			t.Errorf("%v: kind %v, want %v", c.err, got, c.kind)
		}
		if got := lobby.Shown(wrapped); got != c.err.Error() {
			t.Errorf("%v: shown as %q", c.err, got)
		}
		if lobby.Hides(wrapped) || !errors.Is(wrapped, c.err) {
			t.Errorf("%v: hidden, or no longer matched", c.err)
		}
	}
	budget := fmt.Errorf("coach: %w: %w", ErrUnsolved, lobby.ErrTooManySolvesHere)
	if lobby.KindOf(budget) != lobby.KindOf(lobby.ErrTooManySolvesHere) || lobby.Shown(budget) != lobby.Shown(lobby.ErrTooManySolvesHere) {
		t.Errorf("the budget's refusal wrapped: %v, %q", lobby.KindOf(budget), lobby.Shown(budget))
	}
}
