package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
)

// TestSitKeyAtADrivenTable: at a table whose games a program deals (the
// Mäxchen gateway's), a spectator may sit down while a game runs, for the
// next deal, and nobody is offered start; elsewhere sitting waits for the
// game's end.
func TestSitKeyAtADrivenTable(t *testing.T) {
	me := lobby.Player{ID: "p:3", Key: "SHA256:carol"}
	cases := []struct {
		name            string
		driven, playing bool
		seated          bool
		sit, start      bool
		sitHelp         string
	}{
		{"driven, a game running", true, true, false, true, false, "sit"},
		{"driven, between games", true, false, false, true, false, "sit"},
		{"driven, seated for the next deal", true, true, true, true, false, "stand"},
		{"a table of people, a game running", false, true, false, false, false, ""},
		{"a table of people, between games", false, false, true, true, true, "stand"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := NewStyles(asciiRenderer())
			m := newTableScreen(&common{cfg: Config{Player: me}, s: s}, "maexchen", false)
			state, players := "waiting", []lobby.SeatInfo{{ID: "p:98"}, {ID: "p:99"}}
			if tc.playing {
				state = "playing"
			}
			if tc.seated {
				players[0].ID = me.ID
			}
			m.setSnapshot(lobby.Snapshot{You: -1, Playing: tc.playing, Seated: tc.seated,
				Table: lobby.TableInfo{Name: "maexchen", Driven: tc.driven, Seats: 6, Taken: 2, State: state,
					Players: players}})
			if got := m.keys.Sit.Enabled(); got != tc.sit {
				t.Errorf("sit key enabled %v, want %v", got, tc.sit)
			}
			if tc.sit && m.keys.Sit.Help().Desc != tc.sitHelp {
				t.Errorf("sit key says %q, want %q", m.keys.Sit.Help().Desc, tc.sitHelp)
			}
			if got := m.keys.Start.Enabled(); got != tc.start {
				t.Errorf("start key enabled %v, want %v", got, tc.start)
			}
		})
	}
}

// TestEventTableAfterItsGame: an event's table, its game over, says who
// played it, not who is seated for a next game (the event deals each
// game at a table of its own).
func TestEventTableAfterItsGame(t *testing.T) {
	me := lobby.Player{ID: "p:3", Key: "SHA256:carol"}
	for _, c := range []struct{ event, want string }{{"spring", "Played this game"}, {"", "Seated for the next game"}} {
		s := NewStyles(asciiRenderer())
		m := newTableScreen(&common{cfg: Config{Player: me}, s: s}, "t", false)
		m.setSnapshot(lobby.Snapshot{You: 0, Seated: true, Game: &engine.View{Lives: []int{0, 2}},
			Table: lobby.TableInfo{Name: "t", Driven: c.event != "", Event: c.event, Taken: 2,
				Players: []lobby.SeatInfo{{ID: me.ID}, {ID: "p:99"}}}})
		if got := strings.Join(m.seatLines(s, time.Now()), "\n"); !strings.Contains(got, c.want) {
			t.Errorf("event %q: the seats say\n%s\nwant %q", c.event, got, c.want)
		}
	}
}
