package tui

// screenID names a screen of the list below.
type screenID int

// The screens of a session, in one place. Each is a Component; the root
// shows one at a time and makes them here.
const (
	screenPrompt  screenID = iota // the name prompt of a new key (prompt.go)
	screenLobby                   // the open tables and the lobby chat (lobbyscreen.go)
	screenForm                    // the create-table form (form.go)
	screenTable                   // one table, live (tableinput.go, tableview.go)
	screenHistory                 // finished games, a page at a time (historyscreen.go)
	screenReplay                  // one finished game, step by step (replayscreen.go)
	screenStats                   // the viewer's numbers and the leaderboard (statsscreen.go)
	screenEvent                   // one event: its clock, standings and tables (eventscreen.go)
)

// open makes the screen g asks for.
func (c *common) open(g goTo) Component {
	switch g.to {
	case screenPrompt:
		return newPrompt(c)
	case screenForm:
		return newCreateForm(c)
	case screenTable:
		t := newTableScreen(c, g.table, g.sit)
		t.event = g.event
		t.invite = g.invite
		return t
	case screenEvent:
		return newEventScreen(c, g.event, g.status, g.isErr)
	case screenHistory:
		return newHistoryScreen(c, g.table, 0)
	case screenReplay:
		return newReplayScreen(c, g.game, g.back)
	case screenStats:
		return newStatsScreen(c, g.table)
	}
	return newLobbyScreen(c, g.status, g.isErr)
}

// first is the first screen of a player with a name: the table they asked
// for (ssh -t HOST play TABLE), else the table where they are seated (a
// reconnect), else the lobby.
func (c *common) first() goTo {
	if c.cfg.Event != "" && c.cfg.Table == "" {
		return goTo{to: screenEvent, event: c.cfg.Event}
	}
	target := c.cfg.Table
	if target == "" {
		if seated := c.cfg.Lobby.SeatedAt(c.cfg.Player.ID); len(seated) > 0 {
			target = seated[0].Name
		}
	}
	if target != "" {
		return goTo{to: screenTable, table: target}
	}
	return goTo{to: screenLobby}
}
