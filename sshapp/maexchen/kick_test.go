package maexchen

import (
	"context"
	"slices"
	"testing"

	"github.com/mia-game/mia/lobby"
)

// TestKickedBot: an admin removes a registered bot from the gateway's
// table (`table kick maexchen maexchen:NAME`) while its round runs: it
// leaves the round (PLAYER LOST;NAME;LEFT…), is unregistered and told so
// (UNREGISTERED), and the others play on; the table being public, it may
// register again and play the next round. Closing the gateway's table is
// refused: only a server without the gateway closes it.
func TestKickedBot(t *testing.T) {
	e := newEnv(t)
	bots, tokens := e.table("p1", "p2", "p3")
	e.dice.push(0, 0)
	order := e.join(bots, tokens)
	first := order[0]
	first.expect("YOUR TURN")
	kicked := order[1]
	admin := lobby.Player{ID: "p:admin", Key: "SHA256:root", Admin: true}
	if err := e.gw.Table().Kick(context.Background(), admin, IDPrefix+kicked.name); err != nil {
		t.Fatal(err)
	}
	kicked.until("UNREGISTERED")
	for _, c := range order {
		if c != kicked {
			c.until("PLAYER LOST;" + kicked.name + ";" + lostNoTurn)
		}
	}
	if slices.Contains(e.registered(), kicked.name) {
		t.Fatal("the kicked bot is still registered")
	}
	if err := e.gw.Table().Close(context.Background(), admin); err == nil {
		t.Fatal("the gateway's table was closed")
	}
	kicked.send("REGISTER;" + kicked.name)
	kicked.until("REGISTERED")
}
