package tui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
)

// callTimeout bounds every call from a screen into the lobby.
const callTimeout = 5 * time.Second

// snapshotMsg carries the newest snapshot of the table being shown.
type snapshotMsg struct {
	sub  *lobby.Subscription
	snap lobby.Snapshot
}

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

// openedMsg answers a request to open (and maybe create, and sit at) a
// table.
type openedMsg struct {
	gen    int
	name   string
	table  *lobby.Table
	sub    *lobby.Subscription
	err    error // the table could not be opened
	sitErr error // opened, but sitting down failed
}

// createFailedMsg says the create-table form's request was refused.
type createFailedMsg struct {
	gen int
	err error
}

// doneMsg answers an action at the table or a chat line.
type doneMsg struct {
	what string
	move bool // a move of the game, not a chat line or a seat
	err  error
}

// lobbySaidMsg answers a lobby chat line.
type lobbySaidMsg struct{ err error }

// tickMsg is the turn clock's once-a-second redraw.
type tickMsg struct{}

// waitSnapshot waits for the next snapshot of sub. Exactly one waits per
// open subscription; it is re-armed after each message. When done closes
// (the session ended) it closes the subscription itself.
func waitSnapshot(sub *lobby.Subscription, done <-chan struct{}) tea.Cmd {
	return func() tea.Msg {
		for {
			select {
			case <-sub.Ready():
				if snap, ok := sub.Take(); ok {
					return snapshotMsg{sub: sub, snap: snap}
				}
			case <-sub.Done():
				return subClosedMsg{sub: sub}
			case <-done:
				sub.Close()
				return nil
			}
		}
	}
}

// waitLobby waits for the next change of the lobby, then lists its tables
// and chat.
func waitLobby(l *lobby.Lobby, v lobby.Viewer, box *lobby.Mailbox[int], done <-chan struct{}) tea.Cmd {
	return func() tea.Msg {
		for {
			select {
			case <-box.Ready():
				if _, ok := box.Take(); ok {
					return lobbyMsg{box: box, tables: l.Tables(v), chat: l.Chat()}
				}
			case <-box.Done():
				return lobbyClosedMsg{box: box}
			case <-done:
				l.Unsubscribe(box)
				return nil
			}
		}
	}
}

// openTable watches the named table, and sits p down when sit is set.
func openTable(l *lobby.Lobby, p lobby.Player, name string, gen int, sit bool) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		t, err := l.Table(name)
		if err != nil {
			return openedMsg{gen: gen, name: name, err: err}
		}
		return watchAndSit(ctx, t, p, gen, sit)
	}
}

func watchAndSit(ctx context.Context, t *lobby.Table, p lobby.Player, gen int, sit bool) openedMsg {
	sub, err := t.Watch(ctx, p)
	if err != nil {
		return openedMsg{gen: gen, name: t.Name(), err: err}
	}
	msg := openedMsg{gen: gen, name: t.Name(), table: t, sub: sub}
	if sit {
		msg.sitErr = t.Sit(ctx, p)
	}
	return msg
}

// createTable opens a new table hosted by p, watches it and seats p.
func createTable(l *lobby.Lobby, p lobby.Player, tc lobby.TableConfig, gen int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		t, err := l.CreateTable(ctx, p, tc)
		if err != nil {
			return createFailedMsg{gen: gen, err: err}
		}
		return watchAndSit(ctx, t, p, gen, true)
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

// closeSub ends a table subscription off the event loop (it posts to the
// table's actor).
func closeSub(sub *lobby.Subscription) tea.Cmd {
	if sub == nil {
		return nil
	}
	return func() tea.Msg { sub.Close(); return nil }
}

// tick is the turn clock's next redraw.
func tick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{} })
}
