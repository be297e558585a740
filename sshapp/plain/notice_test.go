package plain

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/sshapp/plain/plaintest"
)

// TestNoticesSaid: a plain session in the lobby is told, in one line of
// the screens' words, that its game started, with one BEL unless the bell
// is off, and nothing drawn; go takes it to the table. A notice of the
// table open is not said.
func TestNoticesSaid(t *testing.T) {
	for _, bellOff := range []bool{false, true} {
		t.Run(map[bool]string{false: "bell on", true: "bell off"}[bellOff], func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, lobbytest.NewDice(1))
			ann, bob := e.player("ann"), e.player("bob")
			den := e.table(bob, "den", 2, engine.DefaultOptions())
			d := e.open(ann, true, func(c *Config) { c.BellOff = func() bool { return bellOff } })
			d.next("Lobby.")
			ctx := ctxT(t)
			for _, p := range []lobby.Player{bob, ann} {
				if err := den.Sit(ctx, p); err != nil {
					t.Fatal(err)
				}
			}
			// the table full, its game starts
			line := d.next("Say go to go there.")
			said := e.lobby.Noticed(lobby.News{Kind: lobby.NewsGameStarted, Table: "den"}, true, e.clock.Now())
			if !strings.Contains(line, said) {
				t.Fatalf("the notice %q is not the screens' %q", line, said)
			}
			bells := strings.Count(line, bel)
			if wantBells := map[bool]int{false: 1, true: 0}[bellOff]; bells != wantBells {
				t.Fatalf("%d bells, want %d: %q", bells, wantBells, line)
			}
			d.send("go")
			d.next("At table den")
			d.next("bob's turn.")
			e.lobby.Publish(lobby.News{Kind: lobby.NewsSeatFree, Table: "den", Access: den.Info().Access(), To: []string{ann.ID}, Seats: 2, Taken: 2})
			d.send("status")
			d.next("bob's turn") // the notice published before it was taken first
			out := d.out.Bytes()
			if bad := plaintest.Forbidden(out); bad != "" {
				t.Fatalf("the session received %s", bad)
			}
			if n := bytes.Count(out, []byte(bel)); n != map[bool]int{false: 1, true: 0}[bellOff] {
				t.Fatalf("%d bells in the session", n)
			}
			if strings.Contains(d.text(), "A seat is free at den") {
				t.Fatal("a notice of the table open was said")
			}
		})
	}
}
