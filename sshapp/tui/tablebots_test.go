package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
)

// TestTableScreenBots: between games the host adds built-in bots with +
// and takes the last one off with -; a guest has neither key.
func TestTableScreenBots(t *testing.T) {
	e := newEnv(t)
	host := e.player("alice")
	tbl, err := e.lobby.CreateTable(ctxT(t), host, lobby.TableConfig{Name: "botty", Rules: engine.DefaultOptions(), Seats: 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.Sit(ctxT(t), host); err != nil {
		t.Fatal(err)
	}

	tm := teatest.NewTestModel(t, New(e.config(host, 100, 24)), teatest.WithInitialTermSize(100, 24))
	waitOutput(t, tm, "Waiting for players", "+ add normal bot")
	tm.Send(keyRunes("+"))
	e.infoUntil(tbl, "a bot seated", func(i lobby.TableInfo) bool { return i.Taken == 2 })
	tm.Send(keyRunes("+"))
	info := e.infoUntil(tbl, "two bots seated", func(i lobby.TableInfo) bool { return i.Taken == 3 })
	for _, p := range info.Players[1:] {
		if !p.Bot || !strings.HasPrefix(p.ID, lobby.BotIDPrefix+"normal:") {
			t.Errorf("seat %+v is not a normal built-in bot", p)
		}
	}
	waitOutput(t, tm, "[bot]", "- remove bot")
	tm.Send(keyRunes("-"))
	info = e.infoUntil(tbl, "a bot removed", func(i lobby.TableInfo) bool { return i.Taken == 2 })
	if info.Players[1].Name == "" || !info.Players[1].Bot {
		t.Errorf("the first bot should stay: %+v", info.Players)
	}
	// + fills the last seats and the game starts; then neither key works.
	tm.Send(keyRunes("+"))
	tm.Send(keyRunes("+"))
	e.infoUntil(tbl, "the game started", func(i lobby.TableInfo) bool { return i.State == "playing" })
	waitOutput(t, tm, "round 1") // the screen has the game too
	tm.Send(keyRunes("-"))
	frame := finalView(t, tm)
	assertLacks(t, frame, "+ add normal bot", "- remove bot")
	if got := tbl.Info(); got.State != "playing" || got.Taken != 4 {
		t.Errorf("after - in a game: %+v", got)
	}
}

// TestTableScreenBotsGuest: a guest sees no bot keys, and + does nothing.
func TestTableScreenBotsGuest(t *testing.T) {
	e := newEnv(t)
	host, guest := e.player("alice"), e.player("bob")
	tbl, err := e.lobby.CreateTable(ctxT(t), host, lobby.TableConfig{Name: "botty", Rules: engine.DefaultOptions(), Seats: 4})
	if err != nil {
		t.Fatal(err)
	}
	cfg := e.config(guest, 100, 24)
	cfg.Table = "botty"
	tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(100, 24))
	waitOutput(t, tm, "Waiting for players", "s sit")
	tm.Send(keyRunes("+"))
	frame := finalView(t, tm)
	assertLacks(t, frame, "add normal bot", "remove bot")
	if n := tbl.Info().Taken; n != 0 {
		t.Errorf("a guest's + seated %d", n)
	}
}
