package plain

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
)

// TestNamePrompt: a key that is nobody's yet is asked for a name; a name
// refused is said and asked again; a name taken leads to the lobby.
func TestNamePrompt(t *testing.T) {
	t.Parallel()
	e := newEnv(t, lobbytest.NewDice(1))
	e.player("bob")
	var named lobby.Player
	d := e.open(lobby.Player{Key: "SHA256:new-key"}, true, func(c *Config) {
		c.SetName = func(ctx context.Context, name string) (string, string, error) {
			if err := lobby.CheckName(name); err != nil {
				return "", "", err
			}
			p, err := e.st.SetName(ctx, "SHA256:new-key", name)
			if err != nil {
				return "", "", lobby.NewError(lobby.Refused, "that name is taken; choose another")
			}
			named = lobby.Player{ID: p.ID, Key: "SHA256:new-key"}
			return p.ID, p.Name, nil
		}
	})
	d.next("Choose a name: 1 to 16")
	d.send("tables")
	d.next("You are tables.")
	if named.ID == "" {
		t.Fatal("the name was not stored")
	}
	d.next("Lobby. No open tables.")

	d2 := e.open(lobby.Player{Key: "SHA256:other-key"}, false, func(c *Config) {
		c.SetName = func(ctx context.Context, name string) (string, string, error) {
			if err := lobby.CheckName(name); err != nil {
				return "", "", err
			}
			return "", "", errors.New("the disk is on fire") // hidden: a fault is never shown
		}
	})
	d2.next("Choose a name")
	d2.send("ada")
	d2.next("Not saved: ada is the name of a built-in bot; choose another. Type another.")
	d2.send("zed")
	d2.next("Not saved: something went wrong on the server; please try again later. Type another.")
	d2.send("quit")
	d2.next("Goodbye.")
	if !d2.ended() {
		t.Fatal("quit did not end the door")
	}
}

// TestLobbyTables: the tables as a numbered list, open by number or by
// name, and what a wrong one says; the lobby chat, said once each line,
// muted and unmuted.
func TestLobbyTables(t *testing.T) {
	t.Parallel()
	e := newEnv(t, lobbytest.NewDice(1))
	ann, bob := e.player("ann"), e.player("bob")
	e.table(bob, "bobs", 4, engine.DefaultOptions())
	pips := engine.DefaultOptions()
	pips.Ranking = engine.Pips
	e.table(bob, "club", 2, pips)
	d := e.open(ann, true, nil)
	d.next("Lobby. 2 open tables: say a number to open one, create for a new one.")
	d.next("1: bobs, hosted by bob: 0 of 4 seats taken, waiting; classic, 6 lives, 60s a turn.")
	d.next("2: club, hosted by bob: 0 of 2 seats taken, waiting; pips, 6 lives, 60s a turn.")
	d.send("status")
	d.next("In the lobby; you have no seat at any table. Say tables for the open tables.")
	d.send("open 3")
	d.next("There is no table 3 in the list; say tables for it.")
	d.send("open nosuch")
	d.next("Could not open nosuch: no such table.")

	if err := e.lobby.Say(bob, "hello lobby"); err != nil {
		t.Fatal(err)
	}
	d.next("bob says: hello lobby")
	d.send("mute chat")
	d.next("Chat muted")
	if err := e.lobby.Say(bob, "muted line"); err != nil {
		t.Fatal(err)
	}
	d.send("unmute chat")
	d.next("Chat unmuted.")
	if err := e.lobby.Say(bob, "heard again"); err != nil {
		t.Fatal(err)
	}
	d.next("bob says: heard again")
	if strings.Contains(d.text(), "muted line") {
		t.Error("a line said while muted was said")
	}
	if n := strings.Count(d.text(), "hello lobby"); n != 1 {
		t.Errorf("a chat line said %d times", n)
	}
	d.send("chat " + strings.Repeat("x", lobby.MaxChatRunes+1))
	d.next("A chat line holds 200 characters; yours has 201. Nothing was sent.")
	d.send("chat hi all")
	d.next("ann says: hi all")

	d.send("2")
	d.next("At table club, pips, 6 lives, 60s a turn.")
	d.next("Waiting for a game: 0 of 2 seats taken. Say sit to take a seat.")
	d.send("sit")
	d.next("You are seated for the next game.")
	d.send("lobby")
	d.next("Lobby. 2 open tables")
	d.next("Your seat for the next game stays; stand gives it up.")
	d.send("status")
	d.next("In the lobby; you have a seat at club, waiting. Say open and its name to go there.")
	d.send("dance")
	d.next("Not understood: dance. You may say a number from 1 to 2, tables, open and a number, create, status,")
	d.send("open BOBS")
	d.next("At table bobs")
}

// TestCreate: a new table one question at a time, each default said and
// taken by enter; a wrong answer is said and asked again, and changes
// nothing; the table opens with its host seated. cancel makes none.
func TestCreate(t *testing.T) {
	t.Parallel()
	e := newEnv(t, lobbytest.NewDice(1))
	ann := e.player("ann")
	d := e.open(ann, true, nil)
	d.next("Lobby. No open tables.")
	d.send("create")
	d.next("The table's name? Enter for ann-table.")
	d.send("cancel")
	d.next("No table was made.")
	if len(e.lobby.Tables(ann.Viewer())) != 0 {
		t.Fatal("cancel made a table")
	}
	d.send("create")
	d.next("The table's name? Enter for ann-table.")
	d.send("-bad")
	d.next("A table name may not begin with - (it would read as a flag).")
	d.next("The table's name? Enter for ann-table.")
	d.send("club")
	d.next("The rules to start from: classic or maexchen? Enter for classic.")
	d.send("")
	d.next("Seats, 2 to 12? Enter for 6.")
	d.send("13")
	d.next("A table has 2 to 12 seats. Seats, 2 to 12? Enter for 6.")
	d.send("3")
	d.next("Lives each, 1 to 9? Enter for 6.")
	d.send("0")
	d.next("Lives each, 1 to 9? Enter for 6.")
	d.send("2")
	d.next("The ranking, classic, ascending-doubles, numeric, little-mia, pips? Enter for classic.")
	d.send("Little Mia")
	d.next("Seconds a turn, 5 to 3600? Enter for 60.")
	d.send("")
	d.next("Private, yes or no? Enter for no.")
	d.send("maybe")
	d.next("Say yes or no. Private, yes or no?")
	d.send("")
	d.next("Table club is open, 3 seats: little-mia, 2 lives, 60s a turn.")
	d.next("Waiting for a game: 1 of 3 seats taken, by you.")
	tbl, err := e.lobby.Table("club")
	if err != nil {
		t.Fatal(err)
	}
	info := tbl.Info()
	if info.Seats != 3 || info.Rules.Lives != 2 || info.Rules.Ranking != engine.LittleMia || info.Rules.TurnSeconds != 60 ||
		info.Private || info.Taken != 1 || info.Players[0].ID != ann.ID {
		t.Fatalf("the table made: %+v", info)
	}
}
