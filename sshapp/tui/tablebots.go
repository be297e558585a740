package tui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/ai"
)

// addBotLevel is the level of the built-in bots a host adds with +; press
// + again for more.
const addBotLevel = ai.Normal

// syncBotKeys enables + and - for the host between games: + while a seat
// is free, - while a built-in bot is seated.
func (m *tableScreen) syncBotKeys(playing bool) {
	host := m.isHost() && !playing
	m.keys.AddBot.SetEnabled(host && m.snap.Table.Taken < m.snap.Table.Seats)
	m.keys.RemoveBot.SetEnabled(host && m.lastBot() != "")
}

// lastBot is the name of the built-in bot seated last, or "".
func (m *tableScreen) lastBot() string {
	ps := m.snap.Table.Players
	for i := len(ps) - 1; i >= 0; i-- {
		if ps[i].Bot && lobby.IsBuiltinBot(ps[i].ID) {
			return ps[i].Name
		}
	}
	return ""
}

// addBot seats a built-in bot (host only, between games).
func (m *tableScreen) addBot() tea.Cmd {
	t := m.table
	return m.call("add bot", func(ctx context.Context, me lobby.Player) error {
		_, err := t.AddBot(ctx, me, addBotLevel)
		return err
	})
}

// removeBot takes the last built-in bot off its seat.
func (m *tableScreen) removeBot() tea.Cmd {
	t, bot := m.table, m.lastBot()
	if bot == "" {
		return nil
	}
	return m.call("remove bot", func(ctx context.Context, me lobby.Player) error { return t.RemoveBot(ctx, me, bot) })
}
