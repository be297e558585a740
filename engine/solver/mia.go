package solver

import (
	"cmp"
	"slices"

	"github.com/mia-game/mia/engine"
)

// The model of a heads-up round. A public state is one of the kinds
// below, the claim c on the table and the claim b before it (0: none;
// claims and dice are ranks, 1 the lowest, k Mia), whether the dice in
// the cup were looked at, and who moves: player 0 opened the round. The
// hidden outcome is the rank of the dice in the cup, known to the player
// who rolled them if they looked. A player remembers the claim they face
// and the one before it, no more: see README.md for why that is all a
// player needs without passing, and what it leaves out with it.
type kind uint8

const (
	kOpen     kind = iota // the round begins: the opener rolls (or challenges nothing)
	kAnnounce             // the mover rolled, facing claim b, and announces
	kFresh                // the other player rolled, faced b and announced c
	kPassed               // the mover rolled and claimed b; the other passed it on (c == b) or raised it blind to c
	kRaised               // the mover passed on b; the other, who rolled, raised it to c
)

// state is a public state's key.
type state struct {
	kind kind
	// Looked-at dice only: a is the claim before b, and under kRaised
	// z the claim before a (the non-roller remembers the chain since
	// the roll for as long as it tells them of the dice; see README.md).
	c, b, a, z uint8
	look       bool
	mover      uint8
}

// order sorts states so that every edge goes forward but those that
// close a cycle (they roll, drawing afresh): by the claim, then answers
// to it before the announce that beats it; with equal claims, which
// announce the claim again, the announce first.
func (s state) order(equal bool) (int, int) {
	switch s.kind {
	case kOpen:
		return -1, 0
	case kAnnounce:
		if equal {
			return int(s.b), 0
		}
		return int(s.b), 4
	case kFresh:
		return int(s.c), 1
	case kRaised:
		return int(s.c), 2
	}
	return int(s.c), 3
}

func compareStates(x, y state, equal bool) int {
	xl, xp := x.order(equal)
	yl, yp := y.order(equal)
	return cmp.Or(cmp.Compare(xl, yl), cmp.Compare(xp, yp), cmp.Compare(x.b, y.b), cmp.Compare(x.c, y.c), cmp.Compare(x.a, y.a), cmp.Compare(x.z, y.z),
		cmp.Compare(b2i(x.look), b2i(y.look)), cmp.Compare(x.mover, y.mover))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// MoveKind is what a player does at a decision of the model.
type MoveKind uint8

// The moves of a round. A pass names its value: the claim itself, or a
// higher one (a blind raise, or the roller's raise).
const (
	MoveRoll      MoveKind = iota + 1 // roll, looking or not (Look)
	MoveClaim                         // announce Value after a roll
	MoveLowClaim                      // announce a value not above the claim (low-claim loses)
	MovePass                          // pass on at Value
	MoveChallenge                     // lift the cup (or, before any claim, challenge nothing)
	MoveGiveUp                        // give up against a Mia
)

// Move is one move of the model, as the engine's action says it.
type Move struct {
	Kind  MoveKind
	Value engine.Value // a claim or a pass: the value naming its rank
	Look  bool         // a roll: looked at
}

// model is the round under one rule set as a graph.
type model struct {
	rules  Rules
	seats  bool           // the players' states apart (else one strategy for whoever moves)
	k      int            // ranks; k is Mia
	claims []engine.Value // rank → the value naming it (index 0 unused)
	g      *graph
	states []state
	index  map[state]int32
	moves  [][]Move // by node, by edge
	// alias holds, by node, the moves that end the round exactly as one
	// of its edges does (giving up, and passing a Mia that comes back
	// under mia-pass wins): the model keeps one edge for both, as two
	// edges alike slow the solve down.
	alias [][]aliasMove
}

type aliasMove struct {
	move Move
	edge int
}

// pending is a state's edges before the nodes are numbered.
type pending struct {
	moves []Move
	to    []state // the next state, or the zero state for the end
	end   []bool
	pay   [][]float64
	draw  []bool
	flip  []bool // the other player moves at to
}

// build makes the model of r: with seats, the two players' states apart
// (as a best response needs them, or caps that differ); without, one
// strategy for whoever moves (self-play), the caps equal.
func build(r Rules, seats bool) *model {
	rk := r.Ranking
	claims := rk.Claims() // highest first
	k := len(claims)
	m := &model{rules: r, seats: seats, k: k, claims: make([]engine.Value, k+1), index: map[state]int32{}}
	for i, v := range claims {
		m.claims[k-i] = v
	}
	g := &graph{nh: k, fresh: make([]float64, k)}
	for rank := 1; rank <= k; rank++ {
		g.fresh[rank-1] = float64(rk.Ways(m.claims[rank])) / 36
	}
	b := builder{m: m, r: r, k: k, nh: k, seats: seats, found: map[state]*pending{}}
	root := state{kind: kOpen}
	b.visit(root)
	var order []state
	for s := range b.found {
		order = append(order, s)
	}
	slices.SortFunc(order, func(x, y state) int { return compareStates(x, y, r.EqualClaims) })
	if order[0] != root {
		panic("solver: the round does not start at its first state")
	}
	for i, s := range order {
		m.index[s] = int32(i)
	}
	m.states = order
	pays := map[[maxRanks]float64]int32{}
	for i, s := range order {
		p := b.found[s]
		n := node{group: s.mover}
		if s.knows() {
			n.class = make([]uint8, k)
			for h := range n.class {
				n.class[h] = uint8(h)
			}
			n.classes = int32(k)
		}
		var moves []Move
		var alias []aliasMove
		ends := map[int32]int{} // payoff → the edge that ends with it
		for j := range p.moves {
			e := edge{to: -1, redraw: p.draw[j], flip: p.flip[j]}
			if p.end[j] {
				var key [maxRanks]float64
				copy(key[:], p.pay[j])
				idx, ok := pays[key]
				if !ok {
					idx = int32(len(g.pays))
					g.pays = append(g.pays, p.pay[j])
					pays[key] = idx
				}
				if twin, ok := ends[idx]; ok {
					alias = append(alias, aliasMove{p.moves[j], twin})
					continue
				}
				ends[idx] = len(n.edges)
				e.pay = idx
			} else {
				e.to = m.index[p.to[j]]
				if int(e.to) <= i {
					if !e.redraw {
						panic("solver: a cycle that keeps the dice")
					}
					e.back, g.loops = true, true
				}
			}
			n.edges = append(n.edges, e)
			moves = append(moves, p.moves[j])
		}
		g.addNode(n)
		m.moves = append(m.moves, moves)
		m.alias = append(m.alias, alias)
	}
	m.g = g
	return m
}

// maxRanks is the most ranks a ranking has (21 values, each its own).
const maxRanks = 21

// knows reports whether the mover at s knows the dice: they rolled them
// and looked.
func (s state) knows() bool { return s.look && (s.kind == kAnnounce || s.kind == kPassed) }

// builder finds every state the round can reach and its edges.
type builder struct {
	m     *model
	r     Rules
	k, nh int
	seats bool
	found map[state]*pending
}

func (b *builder) visit(s state) {
	if _, ok := b.found[s]; ok {
		return
	}
	p := &pending{}
	b.found[s] = p
	b.edges(s, p)
	for j, t := range p.to {
		if !p.end[j] {
			b.visit(t)
		}
	}
}

// lose is the payoff to the mover at s of a player losing n lives (at
// most their cap): the mover (me) or the other.
func (b *builder) lose(s state, me bool, n int) float64 {
	seat := s.mover
	if !me {
		seat = 1 - seat
	}
	if !b.seats {
		seat = 0
	}
	n = min(n, b.r.Caps[seat])
	if me {
		return -float64(n)
	}
	return float64(n)
}

func (b *builder) constant(x float64) []float64 {
	v := make([]float64, b.nh)
	for h := range v {
		v[h] = x
	}
	return v
}

// miaCost is what a life lost in a round whose claim is Mia costs.
func (b *builder) miaCost() int {
	if b.r.MiaPenaltyBoth {
		return b.r.MiaPenalty
	}
	return 1
}

// showdown is the payoff to the mover at s of lifting the cup on the
// claim c, by the dice's rank: the mover challenges (challenger) or the
// cup is lifted on their claim.
func (b *builder) showdown(s state, c int, challenger bool) []float64 {
	v := make([]float64, b.nh)
	for h := range v {
		d := h + 1
		switch {
		case c == b.k && d == b.k:
			v[h] = b.lose(s, challenger, b.r.MiaPenalty)
		case c == b.k:
			v[h] = b.lose(s, !challenger, b.miaCost())
		case d < c:
			v[h] = b.lose(s, !challenger, 1)
		default:
			v[h] = b.lose(s, challenger, 1)
		}
	}
	return v
}

// reveal is the payoff to the mover at s of their Mia shown at once.
func (b *builder) reveal(s state) []float64 {
	v := make([]float64, b.nh)
	for h := range v {
		v[h] = b.lose(s, h+1 != b.k, b.miaCost())
	}
	return v
}

func (p *pending) add(mv Move, to state, draw, flip bool) {
	p.moves, p.to, p.end, p.pay = append(p.moves, mv), append(p.to, to), append(p.end, false), append(p.pay, nil)
	p.draw, p.flip = append(p.draw, draw), append(p.flip, flip)
}

func (p *pending) addEnd(mv Move, pay []float64) {
	p.moves, p.to, p.end, p.pay = append(p.moves, mv), append(p.to, state{}), append(p.end, true), append(p.pay, pay)
	p.draw, p.flip = append(p.draw, false), append(p.flip, false)
}

// next is the state t, moved by the player after the mover at s, as the
// model keys it: in self-play every state is keyed by mover 0.
func (b *builder) next(s state, t state) state {
	t.mover = 0
	if b.seats {
		t.mover = 1 - s.mover
	}
	return t
}

// passed is the state after the mover at s passes on v.
func (b *builder) passed(s state, v uint8) state {
	t := state{kind: kPassed, c: v, b: s.c, look: s.look}
	if s.look {
		t.a = s.b
	}
	return b.next(s, t)
}

// edges lists the moves at s and where each leads.
func (b *builder) edges(s state, p *pending) {
	r, k := b.r, b.k
	rolls := func(facing uint8) {
		for _, look := range []bool{true, false} {
			p.add(Move{Kind: MoveRoll, Look: look}, state{kind: kAnnounce, b: facing, look: look, mover: s.mover}, true, false)
		}
	}
	loses := func(n int) []float64 { return b.constant(b.lose(s, true, n)) }
	switch s.kind {
	case kOpen:
		rolls(0)
		if r.LowClaimLoses {
			p.addEnd(Move{Kind: MoveChallenge}, loses(1))
		}
		return
	case kAnnounce:
		lo := int(s.b) + 1
		if r.EqualClaims && s.b > 0 {
			lo = int(s.b)
		}
		for v := lo; v <= k; v++ {
			mv := Move{Kind: MoveClaim, Value: b.m.claims[v]}
			if v == k && r.MiaAtOnce {
				p.addEnd(mv, b.reveal(s))
				continue
			}
			p.add(mv, b.next(s, state{kind: kFresh, c: uint8(v), b: s.b, look: s.look}), false, true)
		}
		if r.LowClaimLoses && s.b > 0 && lo > 1 {
			p.addEnd(Move{Kind: MoveLowClaim}, loses(1))
		}
		return
	}
	c := int(s.c)
	roller := s.kind == kPassed // the mover rolled the dice in the cup
	p.addEnd(Move{Kind: MoveChallenge}, b.showdown(s, c, true))
	if roller && s.c == s.b && c == k {
		// Their own Mia came back (mia-pass reroll): challenge the
		// passer or roll again, as an opener does.
		rolls(0)
		return
	}
	if c < k {
		rolls(s.c)
	} else {
		p.addEnd(Move{Kind: MoveGiveUp}, loses(b.miaCost()))
	}
	if !r.Pass || (s.kind == kRaised && s.look) {
		// The one who passed does not pass again over the roller's raise
		// of dice they looked at: see README.md, "the model".
		return
	}
	if !roller && (c < k || r.MiaPass != engine.MiaPassOff) {
		mv := Move{Kind: MovePass, Value: b.m.claims[c]}
		if c == k && r.MiaPass == engine.MiaPassWins {
			p.addEnd(mv, loses(b.miaCost())) // it comes back to its roller: the passer loses
		} else {
			p.add(mv, b.passed(s, s.c), false, true)
		}
	}
	for v := c + 1; v <= k; v++ {
		mv := Move{Kind: MovePass, Value: b.m.claims[v]}
		switch {
		case v == k && r.MiaAtOnce:
			p.addEnd(mv, b.reveal(s))
		case roller:
			t := state{kind: kRaised, c: uint8(v), b: s.c, look: s.look}
			if s.look {
				t.a, t.z = s.b, s.a
			}
			p.add(mv, b.next(s, t), false, true)
		default:
			p.add(mv, b.passed(s, uint8(v)), false, true)
		}
	}
}

// expand writes a self-play strategy of m as the strategy of full, the
// same rules with the seats told apart: each seat plays it.
func expand(m, full *model, st []float64) []float64 {
	out := make([]float64, full.g.slots)
	for i, s := range full.states {
		s.mover = 0
		j := m.index[s]
		n, fn := &m.g.nodes[j], &full.g.nodes[i]
		copy(out[fn.off:fn.off+fn.classes*int32(len(fn.edges))], st[n.off:n.off+n.classes*int32(len(n.edges))])
	}
	return out
}
