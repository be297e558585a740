package solver

import (
	"testing"

	"github.com/mia-game/mia/engine"
)

func TestSanity(t *testing.T) {
	o := engine.DefaultOptions()
	o.Pass = false
	ev := []engine.Event{{Type: engine.EvRound, Round: 1, Opener: 0},
		{Type: engine.EvRoll, Seat: 0, Looked: true, Dice: 0}, {Type: engine.EvClaim, Seat: 0, Value: 31}}
	sit, err := Read(o, []int{6, 6}, ev, 1)
	if err != nil {
		t.Fatal(err)
	}
	s, err := For(sit.Rules)
	if err != nil {
		t.Fatal(err)
	}
	j, err := s.Judge(sit, engine.Action{Kind: engine.Challenge, Seat: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range j.Choices {
		t.Logf("%+v", c)
	}
	t.Logf("best %d chosen %d loss %.3f mark %q exact %v", j.Best, j.Chosen, j.Loss, j.Mark, j.Exact)
	ev2 := []engine.Event{{Type: engine.EvRound, Round: 1, Opener: 0},
		{Type: engine.EvRoll, Seat: 0, Looked: true, Dice: 21}}
	sit, _ = Read(o, []int{6, 6}, ev2, 0)
	j, _ = s.Judge(sit, engine.Action{Kind: engine.Claim, Seat: 0, Value: 21})
	for _, c := range j.Choices {
		if c.Prob > 0.001 || c.Move.Value == 21 {
			t.Logf("%+v", c)
		}
	}
	t.Logf("best %d chosen %d loss %.3f mark %q", j.Best, j.Chosen, j.Loss, j.Mark)
}
