package solver

import (
	"errors"
	"sync"
	"testing"

	"github.com/mia-game/mia/engine"
)

// TestForOnce: many asking For the same rules at once get one strategy,
// the same as Solve's, and Ready says so; rules that are none are
// refused.
func TestForOnce(t *testing.T) {
	o := engine.DefaultOptions()
	o.Ranking, o.Pass, o.LowClaim = engine.Pips, false, engine.LowClaimLoses
	r, err := Of(o, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]*Strategy, 4)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = For(r)
		}()
	}
	wg.Wait()
	if !Ready(r) {
		t.Error("not ready after For")
	}
	for i, s := range got {
		if s == nil || s != got[0] {
			t.Fatalf("asker %d got another strategy: %p, %p", i, s, got[0])
		}
	}
	fresh, err := Solve(r)
	if err != nil {
		t.Fatal(err)
	}
	if fresh.Report() != got[0].Report() {
		t.Errorf("For and Solve differ: %+v, %+v", got[0].Report(), fresh.Report())
	}
	if _, err := For(Rules{}); !errors.Is(err, ErrRules) {
		t.Errorf("the zero Rules: %v, want ErrRules", err)
	}
}
