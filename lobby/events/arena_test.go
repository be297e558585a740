package events_test

import (
	"context"
	"testing"
	"time"

	"github.com/mia-game/mia/lobby/events"
)

func TestArenaOfBotsPlaysAndCounts(t *testing.T) {
	w := newWorld(t, events.Config{Linger: time.Second})
	host := w.person("hostess")
	ctx := context.Background()
	e, err := w.reg.Create(ctx, host, events.Settings{Name: "spring", Format: events.Arena, Seats: 2, Rules: quick(), Bots: 4, Lasts: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Start(ctx, host); err != nil {
		t.Fatal(err)
	}
	info := waitFor(t, e, "four games ended", func(i events.Info) bool { _, s := ended(i); return s >= 4 })
	if info.State != events.Running {
		t.Fatalf("state %s", info.State)
	}
	w.clock.AdvanceWait(11 * time.Minute)
	info = waitFor(t, e, "the end", func(i events.Info) bool { return i.Final })
	total := 0
	for _, s := range info.Standings {
		total += s.Games
	}
	if info.Champion == nil || total == 0 {
		t.Fatalf("no champion or games: %+v", info)
	}
	t.Logf("%d games; champion %s with %d points", len(info.Games), info.Champion.Name, info.Champion.Points)
}
