package engine

import "testing"

// FuzzActions decodes bytes into a game and a list of actions, plays them
// against the referee, and checks the invariants after every action and
// the replay at the end. The first two bytes choose the rules (every
// option of RULES.md: optionsFromBits), the next three the players, the
// lives and the dice seed; each following pair of bytes is one action.
func FuzzActions(f *testing.F) {
	f.Add([]byte{0, 0, 1, 2, 3})
	f.Add([]byte{0, 0, 0, 0, 0, 1, 1, 1, 0, 5, 0, 5, 0, 9, 0})
	f.Add([]byte{191, 8, 10, 8, 255, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{17, 3, 3, 1, 9, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4})
	for i := range 32 { // longer random sequences
		r := newPCG(uint64(i) + 4242)
		b := []byte{byte(r.Intn(256)), byte(r.Intn(256)), byte(r.Intn(256)), byte(r.Intn(256)), byte(r.Intn(256))}
		for range 150 + r.Intn(300) {
			b = append(b, byte(r.Intn(256)))
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 5 {
			return
		}
		o := optionsFromBits(uint32(data[0]) | uint32(data[1])<<8)
		players := MinSeats + int(data[2])%(MaxSeats-MinSeats+1)
		o.Lives = 1 + int(data[3])%9
		c, err := newChecker(o, players, newPCG(uint64(data[4])))
		if err != nil {
			t.Fatal(err)
		}
		c.alloc = true
		for i := 5; i+1 < len(data); i += 2 {
			a := decodeAction(c.g, data[i], data[i+1])
			if err := c.apply(a, int(data[i+1])%(players+1)-1); err != nil {
				t.Fatal(err)
			}
		}
		if err := c.finish(true); err != nil {
			t.Fatal(err)
		}
		// An unfinished game replays too.
		if !c.g.Over() {
			g, err := Replay(o, players, c.events, nil)
			if err != nil {
				t.Fatalf("replay of a game in progress: %v", err)
			}
			if !sameGame(g, c.g) {
				t.Fatal("replay of a game in progress differs")
			}
		}
	})
}

// decodeAction turns two bytes into an action: a quarter of the opcodes
// are raw actions (any kind, any seat, any value), the rest moves that
// fit the phase (and are still sometimes illegal).
func decodeAction(g *Game, op, arg byte) Action {
	n := len(g.lives)
	if op%4 == 0 {
		return Action{Kind: ActionKind(op>>2) % 9, Seat: int(arg)%(n+2) - 1, Look: op&0x80 != 0, Value: Value(arg % 70)}
	}
	turn, v, rk := g.turn, g.claim, g.opts.Ranking
	above := func() Value {
		o := rk.table().claims
		k := len(o) - rk.Rank(v) // o[:k] are above v
		if v == NoValue {
			k = len(o)
		}
		if k == 0 {
			return v
		}
		return o[k-1-int(arg)%k]
	}
	switch (op >> 2) % 16 {
	case 0:
		return Action{Kind: Leave, Seat: int(arg) % n}
	case 1:
		return Action{Kind: Timeout, Seat: turn}
	}
	switch g.phase {
	case PhaseOpen:
		if (op>>2)%16 == 2 {
			return Action{Kind: Challenge, Seat: turn}
		}
		return Action{Kind: Roll, Seat: turn, Look: arg&1 == 0}
	case PhaseAnnounce:
		if (op>>2)%16 == 2 {
			return Action{Kind: Claim, Seat: turn, Value: AllValues()[int(arg)%21]} // any value, low ones too
		}
		return Action{Kind: Claim, Seat: turn, Value: above()}
	}
	switch (op >> 2) % 7 {
	case 0, 1:
		return Action{Kind: Challenge, Seat: turn}
	case 2:
		return Action{Kind: Roll, Seat: turn, Look: arg&1 == 0}
	case 3:
		return Action{Kind: Pass, Seat: turn}
	case 4:
		return Action{Kind: Pass, Seat: turn, Value: above()}
	case 5:
		return Action{Kind: GiveUp, Seat: turn}
	}
	return Action{Kind: Roll, Seat: turn, Look: true}
}
