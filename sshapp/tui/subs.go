package tui

import (
	"context"
	"errors"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
)

// callTimeout bounds every call from a screen into the lobby.
const callTimeout = 5 * time.Second

// snapshotMsg says a new snapshot of the table being shown waits in sub.
// The screen takes it in Update: the goroutine that waited for it stays
// small (a snapshot is some 600 bytes, copied twice in taking it).
type snapshotMsg struct{ sub *lobby.Subscription }

// subClosedMsg says a table subscription ended (left, or the table closed).
type subClosedMsg struct{ sub *lobby.Subscription }

// lobbyMsg carries the table list and the lobby chat after a change.
type lobbyMsg struct {
	box    *lobby.Mailbox[int]
	tables []lobby.TableInfo
	chat   []lobby.ChatLine
}

// lobbyClosedMsg says the lobby's mailbox was closed (shutdown).
type lobbyClosedMsg struct{ box *lobby.Mailbox[int] }

// openedMsg answers the table screen's request to open (and maybe sit
// at) its table.
type openedMsg struct {
	table  *lobby.Table
	sub    *lobby.Subscription
	err    error // the table could not be opened
	sitErr error // opened, but sitting down failed
}

// doneMsg answers an action at the table or a chat line.
type doneMsg struct {
	what string
	move bool // a move of the game, not a chat line or a seat
	err  error
	line string // the chat line sent, to be kept if it was refused
}

// tickMsg is the turn clock's once-a-second redraw, from the wait on sub.
type tickMsg struct{ sub *lobby.Subscription }

// waitSnapshot waits for the next snapshot of sub, and until tick at most
// when tick is set (the turn clock's next redraw: a tickMsg). Exactly one
// waits per open subscription; it is re-armed after each of its messages,
// so a screen at a table waits on one goroutine, not one for the table and
// one for the clock. When done closes (the session ended) it closes the
// subscription itself.
func waitSnapshot(sub *lobby.Subscription, done <-chan struct{}, tick time.Time) tea.Cmd {
	return func() tea.Msg {
		var alarm <-chan time.Time
		if !tick.IsZero() {
			t := time.NewTimer(time.Until(tick))
			defer t.Stop()
			alarm = t.C
		}
		for {
			select {
			case <-sub.Ready():
				return snapshotMsg{sub: sub}
			case <-sub.Done():
				return subClosedMsg{sub: sub}
			case <-alarm:
				return tickMsg{sub: sub}
			case <-done:
				sub.Close()
				return nil
			}
		}
	}
}

// openTable watches the named table, and sits p down when sit is set.
func openTable(l *lobby.Lobby, p lobby.Player, name string, sit bool) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		t, err := l.TableFor(p.Viewer(), name)
		if err != nil {
			return openedMsg{err: err}
		}
		sub, err := t.Watch(ctx, p)
		if err != nil {
			return openedMsg{err: err}
		}
		msg := openedMsg{table: t, sub: sub}
		if sit {
			msg.sitErr = t.Sit(ctx, p)
		}
		return msg
	}
}

// takeInvitation spends an invitation to the table of that name (joins a
// private table with its code), then opens it as open does. An
// invitation the table no longer takes is dropped all the same: the
// table says why it does not open.
func takeInvitation(l *lobby.Lobby, al Alerts, p lobby.Player, name, code string, open tea.Cmd) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		var err error
		if code != "" {
			if _, err = l.Redeem(ctx, p, name, code); errors.Is(err, lobby.ErrMember) {
				err = nil
			}
		}
		if al != nil {
			_ = al.DropInvitation(ctx, p.ID, name) // spent, or no longer good
		}
		if err != nil {
			return openedMsg{err: err}
		}
		return open()
	}
}

// act plays a move at the table.
func act(t *lobby.Table, p lobby.Player, a engine.Action) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		return doneMsg{what: a.Kind.String(), move: true, err: t.Act(ctx, p, a)}
	}
}

// tableCall runs one call to the table with its own timeout.
func tableCall(what string, fn func(ctx context.Context) error) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		return doneMsg{what: what, err: fn(ctx)}
	}
}

// chatCall sends a chat line at the table; the answer carries the line.
func chatCall(t *lobby.Table, p lobby.Player, text string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		return doneMsg{what: "chat", err: t.Say(ctx, p, text), line: text}
	}
}

// closeSub ends a table subscription off the event loop (it posts to the
// table's actor).
func closeSub(sub *lobby.Subscription) tea.Cmd {
	if sub == nil {
		return nil
	}
	return func() tea.Msg { sub.Close(); return nil }
}
