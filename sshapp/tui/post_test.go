package tui

import (
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
)

// posting is a Config.Post for a teatest program: every message goes to
// the program, and the table screen's are told on channels as they are
// posted.
type posting struct {
	tm                             chan *teatest.TestModel
	snaps, ticks, closing, notices chan struct{}
}

func newPosting() *posting {
	return &posting{tm: make(chan *teatest.TestModel, 1), snaps: make(chan struct{}, 64),
		ticks: make(chan struct{}, 64), closing: make(chan struct{}, 4), notices: make(chan struct{}, 64)}
}

func (p *posting) post(msg tea.Msg) {
	if _, ok := msg.(noticesMsg); ok {
		p.notices <- struct{}{}
	}
	if r, ok := msg.(reply); ok {
		var ch chan struct{}
		switch r.msg.(type) {
		case snapshotMsg:
			ch = p.snaps
		case tickMsg:
			ch = p.ticks
		case subClosedMsg, lobbyClosedMsg:
			ch = p.closing
		case lobbyWokeMsg:
			ch = p.snaps
		}
		if ch != nil {
			select {
			case ch <- struct{}{}:
			default:
			}
		}
	}
	go func() {
		tm := <-p.tm
		p.tm <- tm
		tm.Send(msg)
	}()
}

// posted waits for one message on ch.
func posted(t *testing.T, ch chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		t.Fatalf("no %s posted in 5 s", what)
	}
}

// TestTablePostedWithNoWait: with Config.Post (the server's screens) a
// spectator's table screen is woken by the table's snapshots and its turn
// clock's timer, with no goroutine waiting for them; a move is shown, the
// clock ticks; once the program stopped without quitting (the connection
// dropped), Ended closes the subscription.
func TestTablePostedWithNoWait(t *testing.T) {
	e := newEnv(t)
	alice, bob, carol := e.player("alice"), e.player("bob"), e.player("carol")
	den, _, other, _, _ := e.bluffing("den", alice, bob)
	cfg := e.config(carol, 80, 24)
	cfg.Table = "den"
	p := newPosting()
	cfg.Post = p.post
	m := New(cfg).(*Model)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24))
	p.tm <- tm
	waitOutput(t, tm, "den · classic")
	posted(t, p.snaps, "first snapshot")
	e.infoUntil(den, "carol watching", func(i lobby.TableInfo) bool { return i.Watching == 1 })
	posted(t, p.ticks, "turn clock's tick")
	posted(t, p.ticks, "turn clock's second tick")
	if err := den.Act(ctxT(t), other, engine.Action{Kind: engine.Roll, Look: true}); err != nil {
		t.Fatal(err)
	}
	posted(t, p.snaps, "snapshot of the roll")
	waitOutput(t, tm, nameOf(other)+" rolled")
	_ = tm.Quit() // the program stops, as when the connection drops: the screens do not quit
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	m.Ended()
	e.infoUntil(den, "carol gone", func(i lobby.TableInfo) bool { return i.Watching == 0 })
	posted(t, p.closing, "end of the subscription")
}

// TestNextTick: the turn clock is drawn again as the seconds left change,
// never without a game or without a deadline (a built-in bot's turn, a
// paused table).
func TestNextTick(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		snap lobby.Snapshot
		want time.Duration // from time.Now(); -1: none
	}{
		{"no game", lobby.Snapshot{}, -1},
		{"a turn just begun", lobby.Snapshot{Playing: true, Deadline: now.Add(30 * time.Second)}, time.Second},
		{"0.3 s to the next second", lobby.Snapshot{Playing: true, Deadline: now.Add(2300 * time.Millisecond)}, 300 * time.Millisecond},
		{"the deadline passed", lobby.Snapshot{Playing: true, Deadline: now.Add(-time.Second)}, time.Second},
		{"no deadline", lobby.Snapshot{Playing: true}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := time.Now()
			got := nextTick(tt.snap, now)
			after := time.Now()
			if tt.want < 0 {
				if !got.IsZero() {
					t.Fatalf("a tick at %v, want none", got)
				}
				return
			}
			if got.Before(before.Add(tt.want)) || got.After(after.Add(tt.want)) {
				t.Fatalf("tick %v after the call, want %v", got.Sub(before), tt.want)
			}
		})
	}
}

// TestLobbyPostedWithNoWait: with Config.Post the lobby screen is woken
// by the lobby's changes with no goroutine waiting for them: a table
// opened is listed; once the program stopped without quitting, Ended
// unsubscribes it.
func TestLobbyPostedWithNoWait(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.player("alice"), e.player("bob")
	cfg := e.config(alice, 80, 24)
	p := newPosting()
	cfg.Post = p.post
	m := New(cfg).(*Model)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24))
	p.tm <- tm
	waitOutput(t, tm, "lobby · 0 open tables")
	posted(t, p.snaps, "the lobby's first change")
	if _, err := e.lobby.CreateTable(ctxT(t), bob, lobby.TableConfig{Name: "den", Rules: engine.DefaultOptions(), Seats: 4}); err != nil {
		t.Fatal(err)
	}
	posted(t, p.snaps, "the lobby's change: a table opened")
	waitOutput(t, tm, "lobby · 1 open table")
	_ = tm.Quit() // the program stops, as when the connection drops: the screens do not quit
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	m.Ended()
	posted(t, p.closing, "the lobby's box closed")
}
