package plain

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

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

// TestInvitationGoJoins: go on an invitation's notice joins the private
// table with its code, opens it, and the invitation is spent (dropped
// from the list the screens show).
func TestInvitationGoJoins(t *testing.T) {
	e := newEnv(t, lobbytest.NewDice(1))
	ann, bob := e.player("ann"), e.player("bob")
	ctx := ctxT(t)
	den, err := e.lobby.CreateTable(ctx, bob, lobby.TableConfig{Name: "den", Rules: engine.DefaultOptions(), Seats: 2, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	expires := e.clock.Now().Add(time.Hour)
	if err := den.Invite(ctx, bob, "secret-code", expires); err != nil {
		t.Fatal(err)
	}
	dropped := make(chan string, 1)
	d := e.open(ann, true, func(c *Config) {
		c.DropInvitation = func(_ context.Context, table string) error { dropped <- table; return nil }
	})
	d.next("Lobby.")
	e.lobby.Publish(lobby.News{Kind: lobby.NewsInvited, Table: "den", Access: den.Info().Access(), To: []string{ann.ID},
		By: bob.ID, Code: "secret-code", Expires: expires})
	d.next("Say go to join.")
	d.send("go")
	d.next("At table den")
	select {
	case table := <-dropped:
		if table != "den" {
			t.Fatalf("dropped the invitation to %q", table)
		}
	default:
		t.Fatal("the invitation taken is still listed")
	}
	if !den.Info().Access().Admits(ann.ID) {
		t.Fatal("ann is not a member of den")
	}
}

// fakeAttendance is an event's attendance that never seats.
type fakeAttendance struct{ ready, done chan struct{} }

func (a fakeAttendance) Ready() <-chan struct{}              { return a.ready }
func (a fakeAttendance) Seat() (table, over string, ok bool) { return "", "", false }
func (a fakeAttendance) Done() <-chan struct{}               { return a.done }
func (a fakeAttendance) Close()                              {}

// TestNoGoToAnEventsTable: a person who follows an event is not told to
// say go to a game at one of its tables (the event takes them there
// itself); a game elsewhere is told as ever.
func TestNoGoToAnEventsTable(t *testing.T) {
	t.Parallel()
	e := newEnv(t, lobbytest.NewDice(1))
	ann, bob := e.player("ann"), e.player("bob")
	den := e.table(bob, "den", 2, engine.DefaultOptions())
	cup, err := e.lobby.CreateEventTable(ctxT(t), lobby.EventTable{Event: "cup", Name: "cup-1", Rules: engine.DefaultOptions(), Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	doc := `{"event": {"name": "cup", "host": "bob", "format": "arena", "state": "running"},
		"standings": [{"place": 1, "person": "` + ann.ID + `", "name": "ann", "where": "waiting"}]}`
	d := e.open(ann, true, func(c *Config) {
		c.Event = "cup"
		c.Command = func(_ context.Context, out, _ io.Writer, args []string) int {
			if strings.Join(args, " ") != "event cup --json" {
				return 1
			}
			_, _ = io.WriteString(out, doc)
			return 0
		}
		c.Attend = func(context.Context, string) (Attendance, error) {
			return fakeAttendance{make(chan struct{}), make(chan struct{})}, nil
		}
	})
	d.next("You are there:")
	e.lobby.Publish(
		lobby.News{Kind: lobby.NewsGameStarted, Table: "cup-1", Access: cup.Info().Access(), To: []string{ann.ID}},
		lobby.News{Kind: lobby.NewsGameStarted, Table: "den", Access: den.Info().Access(), To: []string{ann.ID}},
	)
	d.next("Your game at den has started. Say go to go there.")
	if strings.Contains(d.text(), "cup-1") {
		t.Errorf("a game at the event's table was told to go to:\n%s", d.text())
	}
}
