package maexchen

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/fair"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
)

// gated is the lobby's storage with the writes a table makes held at a
// gate while it is shut, as by a disk that stopped answering. Only the
// gate holds them: behind it the store writes without a deadline, so that
// a slow fsync on a busy machine pauses no table.
type gated struct {
	lobby.Storage
	*lobbytest.Gate
}

func (g gated) UpdateTable(ctx context.Context, name string, fn func(*lobby.TableRecord) error) error {
	return g.Write(ctx, func(context.Context) error { return g.Storage.UpdateTable(context.Background(), name, fn) })
}

func (g gated) CreateGame(ctx context.Context, rec lobby.GameRecord) (id string, err error) {
	err = g.Write(ctx, func(context.Context) error {
		var err error
		id, err = g.Storage.CreateGame(context.Background(), rec)
		return err
	})
	return id, err
}

func (g gated) Append(ctx context.Context, gameID string, evs []engine.Event, res *engine.Result) error {
	return g.Write(ctx, func(context.Context) error { return g.Storage.Append(context.Background(), gameID, evs, res) })
}

func (g gated) SaveNextDice(ctx context.Context, table string, d fair.NextDice) error {
	return g.Write(ctx, func(context.Context) error { return g.Storage.SaveNextDice(context.Background(), table, d) })
}

func (g gated) AddChat(ctx context.Context, table string, l lobby.ChatLine) error {
	return g.Write(ctx, func(context.Context) error { return g.Storage.AddChat(context.Background(), table, l) })
}

func (g gated) Abandon(ctx context.Context, gameID string, at time.Time, by string) error {
	return g.Write(ctx, func(context.Context) error { return g.Storage.Abandon(context.Background(), gameID, at, by) })
}

// newGatedEnv is newEnv with the lobby's storage behind a gate and a
// SaveTimeout short enough for a test: a write held at the gate pauses
// the table at once.
func newGatedEnv(t *testing.T) *env {
	t.Helper()
	// A write hung for saveTimeout pauses the table: long enough for a
	// loaded machine to open it (20 ms was not, under -race).
	e := &env{t: t, path: filepath.Join(t.TempDir(), "mia.db"), clock: lobbytest.NewClock(), dice: &script{},
		gate: &lobbytest.Gate{}, saveTimeout: 250 * time.Millisecond}
	e.cfg = Config{Addr: "127.0.0.1:0", Clock: e.clock, Rand: &script{}, Pause: -1}
	e.open()
	t.Cleanup(func() {
		e.gate.Open(nil) // no write is left waiting
		e.close()
	})
	return e
}

// waitPaused waits until the gateway's table is paused (paused) or not.
func (e *env) waitPaused(paused bool) {
	e.t.Helper()
	tbl, err := e.lobby.Table(DefaultTable)
	if err != nil {
		e.t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for tbl.Info().Paused != paused {
		if time.Now().After(deadline) {
			e.t.Fatalf("the table's pause is not %t", paused)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestPausedTableMove: a bot's roll whose write hangs pauses the table.
// Meanwhile no bot is prompted (the turn clock stands still, however long
// it lasts); when the table resumes, the roll is told and its dice sent to
// the roller if it was saved, and the roller is asked to move again if it
// was not.
func TestPausedTableMove(t *testing.T) {
	for _, saved := range []bool{true, false} {
		t.Run(fmt.Sprintf("saved=%t", saved), func(t *testing.T) {
			e := newGatedEnv(t)
			bots, tokens := e.table("p1", "p2")
			e.dice.push(0, 0)
			e.dice.roll(3, 1)
			e.dice.roll(3, 1) // the roll again, if the first was not saved
			order := e.join(bots, tokens)
			first, second := order[0], order[1]
			turn := first.expect("YOUR TURN")[0]
			e.gate.Shut()
			first.send("ROLL;" + turn)
			e.waitPaused(true)
			e.clock.Advance(10 * time.Second) // no turn clock runs out while paused (bots stay: not a minute)
			if saved {
				e.gate.Open(nil)
			} else {
				e.gate.Open(errors.New("disk gone"))
			}
			e.waitPaused(false)
			if !saved {
				// The roll never happened: the roller's turn again, with a
				// fresh token; nobody heard of a roll or a loss.
				again := first.expect("YOUR TURN")[0]
				if again == turn {
					t.Fatal("the turn's token was handed out again")
				}
				first.send("ROLL;" + again)
			}
			all("PLAYER ROLLS;"+first.name, first, second)
			rolled := first.expect("ROLLED")
			if rolled[0] != "3,1" {
				t.Fatalf("ROLLED %q after the pause", rolled[0])
			}
			first.send("ANNOUNCE;3,1;" + rolled[1])
			all("ANNOUNCED;"+first.name+";3,1", first, second)
			second.expect("YOUR TURN")
		})
	}
}

// TestPausedTableDeal: a round whose deal hangs waits for the table: the
// bots that joined hear nothing more of it, no round is dealt meanwhile,
// and when the table resumes a new round starts (the game the deal wrote
// too late is not played).
func TestPausedTableDeal(t *testing.T) {
	e := newGatedEnv(t)
	bots, tokens := e.table("p1", "p2")
	e.gate.Shut()
	for i, b := range bots {
		b.send("JOIN;" + tokens[i])
	}
	e.waitPaused(true)
	e.clock.Advance(10 * time.Second) // the gateway's timers: no round meanwhile
	e.gate.Open(nil)
	e.waitPaused(false)
	// Nothing else came first: no ROUND STARTED, no SCORE.
	tokens = []string{bots[0].expect("ROUND STARTING")[0], bots[1].expect("ROUND STARTING")[0]}
	e.dice.push(0, 0)
	order := e.join(bots, tokens)
	order[0].expect("YOUR TURN")
	if n := len(e.games()); n != 0 {
		t.Fatalf("%d games finished", n)
	}
}
