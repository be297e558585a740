package web

import (
	"slices"
	"testing"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
)

// TestPanelSaysTheNextGameStartsByItself: after a game, the web's panel
// says the next game starts by itself where the table does, as the
// screens and the plain door say it, and nothing of it where it waits.
func TestPanelSaysTheNextGameStartsByItself(t *testing.T) {
	want := words.Sentence(words.NextGameByItself(lobby.RestBetweenGames))
	for _, full := range []bool{false, true} {
		// Before its first game here (a full table back after a restart):
		// the waiting panel says it too.
		waiting := panelOf(lobby.Snapshot{Table: lobby.TableInfo{StartsByItself: full}})
		if got := slices.Contains(waiting.Waiting, want); got != full {
			t.Errorf("StartsByItself %v: the waiting panel says %q", full, waiting.Waiting)
		}
		snap := lobby.Snapshot{Game: &engine.View{Winner: -1}, Table: lobby.TableInfo{StartsByItself: full}}
		p := panelOf(snap)
		if !p.Over {
			t.Fatalf("StartsByItself %v: the panel is not the last game's: %+v", full, p)
		}
		if got := p.Next == want; got != full {
			t.Errorf("StartsByItself %v: the panel says %q", full, p.Next)
		}
	}
}
