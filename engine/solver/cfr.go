package solver

// The solver's core: a two-player zero-sum game whose public states form
// a graph in which every state is visited once per iteration, however
// many ways lead to it (the traversal of fixed-strategy iteration CFR,
// Neller & Hnath), with the updates of CFR+ (regret matching+, a
// weighted average).
//
// A state of the game is a node and a hidden outcome h (0 ≤ h < nh): the
// dice in the cup, or the cards dealt. The player to move at a node knows
// h only as far as the node's class function says (class[h]; one class
// when they know nothing of it). Values and reaches are the mover's: an
// edge marked flip leads to a node where the other player moves. An edge
// keeps h, or draws it afresh from the game's fresh distribution (a
// roll), or ends the game with a payoff to the mover that depends on h.
// Edges to a node not after their own (a cycle: a Mia rolled again,
// equal claims rolled over) must draw afresh; they take the value the
// node had in the pass before.
//
// A node belongs to one of two strategies (group): in a game whose seats
// are told apart, each player's; in a game solved by self-play, every
// node is group 0 and one strategy plays both seats.

// edge is one action at a node.
type edge struct {
	to     int32 // the next node, or -1 for the end
	pay    int32 // at the end, the index of its payoff vector in graph.pays
	redraw bool  // h is drawn afresh from graph.fresh
	back   bool  // to a node not after this one
	flip   bool  // the other player moves next
}

// node is a public state.
type node struct {
	group   uint8   // the strategy the node's mover plays (see above)
	classes int32   // how many information sets of the mover the node holds
	class   []uint8 // h → the mover's information set here; nil: one, whatever h
	edges   []edge
	off     int32 // the node's first slot in the strategy arrays: action a, information set k at off + a·classes + k
	ident   bool  // class[h] == h for every h: the mover knows h
}

// graph is a game: its nodes in an order in which every edge but the back
// ones goes forward; node 0 is where it starts, with h drawn from fresh.
type graph struct {
	nh    int
	fresh []float64
	nodes []node
	pays  [][]float64 // payoff vectors to the mover, by h
	slots int32       // the length of the strategy arrays
	loops bool        // some edge goes back
}

// addNode appends a node and gives it its slots.
func (g *graph) addNode(n node) int32 {
	if n.class == nil {
		n.classes = 1
	}
	n.ident = n.class != nil && int(n.classes) == g.nh
	for h, k := range n.class {
		n.ident = n.ident && int(k) == h
	}
	n.off = g.slots
	g.slots += n.classes * int32(len(n.edges))
	g.nodes = append(g.nodes, n)
	return int32(len(g.nodes) - 1)
}

// run is the working state of one solve or one evaluation of a graph.
type run struct {
	g *graph
	// Reach by node and h (node·nh + h), chance included: self of the
	// mover's own moves, opp of the other player's (the counterfactual
	// reach of the mover).
	self, opp []float64
	val       []float64 // the value to the mover, by node and h
	fv        []float64 // by node: its value to its mover with h drawn afresh
	ev        []float64 // scratch: the value of each edge to the mover, by h
	// Reach a node receives with h drawn afresh, by node, kept as one
	// number until the node's turn in the pass: its own, the other's.
	drawSelf, drawOpp []float64
	// What edges back brought to each node in the last pass (they are
	// rolls, so one number each): a node reached only by a cycle is
	// reached all the same, a pass late.
	backSelf, backOpp, nextSelf, nextOpp []float64
	s                                    []float64 // scratch: the strategy of each edge, by h
	// An evaluation under other payoffs (endings.go): pays in place of
	// the graph's, and keep: the next mover's value is not negated (a
	// probability, not a zero-sum payoff).
	pays [][]float64
	keep bool
}

func newRun(g *graph) *run {
	n := len(g.nodes) * g.nh
	r := &run{g: g, val: make([]float64, n), fv: make([]float64, len(g.nodes)),
		self: make([]float64, n), opp: make([]float64, n),
		drawSelf: make([]float64, len(g.nodes)), drawOpp: make([]float64, len(g.nodes))}
	if g.loops {
		for _, p := range []*[]float64{&r.backSelf, &r.backOpp, &r.nextSelf, &r.nextOpp} {
			*p = make([]float64, len(g.nodes))
		}
	}
	maxEdges := 0
	for i := range g.nodes {
		maxEdges = max(maxEdges, len(g.nodes[i].edges))
	}
	r.ev = make([]float64, maxEdges*g.nh)
	r.s = make([]float64, maxEdges*g.nh)
	return r
}

// row is the probability of edge a of node n by h under the strategy
// st, or nil when it is the same for every h (st[n.off+a]).
func (r *run) row(n *node, st []float64, a int) []float64 {
	switch {
	case n.class == nil:
		return nil
	case n.ident:
		o := int(n.off) + a*r.g.nh
		return st[o : o+r.g.nh]
	}
	s := r.s[:r.g.nh]
	o := int(n.off) + a*int(n.classes)
	for h, k := range n.class {
		s[h] = st[o+int(k)]
	}
	return s
}

// reach fills self and opp for the strategy st. In a graph with
// cycles, passes repeat until every node a cycle reaches is reached:
// each pass adds what the edges back brought in the pass before, each
// at most 1 (counterfactual reach counts every move of the mover's own,
// and could grow each time round; edges back draw afresh, so their
// scale changes no belief).
func (r *run) reach(st []float64) {
	if !r.g.loops {
		r.reachPass(st)
		return
	}
	clear(r.backSelf)
	clear(r.backOpp)
	reached := 0
	for range len(r.g.nodes) {
		r.reachPass(st)
		n := 0
		for i := range r.backSelf {
			r.backSelf[i], r.backOpp[i] = min(r.backSelf[i], 1), min(r.backOpp[i], 1)
			if r.backSelf[i] > 0 || r.backOpp[i] > 0 {
				n++
			}
		}
		if n == reached {
			break
		}
		reached = n
	}
	r.reachPass(st)
}

func (r *run) reachPass(st []float64) {
	g, nh := r.g, r.g.nh
	clear(r.self)
	clear(r.opp)
	copy(r.self[:nh], g.fresh)
	copy(r.opp[:nh], g.fresh)
	clear(r.drawSelf)
	clear(r.drawOpp)
	if g.loops {
		copy(r.drawSelf, r.backSelf)
		copy(r.drawOpp, r.backOpp)
		clear(r.nextSelf)
		clear(r.nextOpp)
	}
	for i := range g.nodes {
		n := &g.nodes[i]
		base := i * nh
		self, opp := r.self[base:base+nh], r.opp[base:base+nh]
		if ds, do := r.drawSelf[i], r.drawOpp[i]; ds != 0 || do != 0 {
			for h, w := range g.fresh {
				self[h] += float64(w * ds)
				opp[h] += float64(w * do)
			}
		}
		to := -1.0 // the other's reach summed over h, once needed
		for a, e := range n.edges {
			if e.to < 0 {
				continue
			}
			sa := r.row(n, st, a)
			x := st[int(n.off)+a]
			if e.redraw {
				if to < 0 {
					to = 0
					for h := range nh {
						to += opp[h]
					}
				}
				ts := 0.0
				if sa == nil {
					for h := range nh {
						ts += self[h]
					}
					ts = float64(ts * x)
				} else {
					for h := range nh {
						ts += float64(self[h] * sa[h])
					}
				}
				ds, do := r.drawSelf, r.drawOpp
				if e.back {
					ds, do = r.nextSelf, r.nextOpp
				}
				if e.flip {
					ds[e.to] += to
					do[e.to] += ts
				} else {
					ds[e.to] += ts
					do[e.to] += to
				}
				continue
			}
			cb := int(e.to) * nh
			// The next mover's own reach and the other's: swapped when the
			// other player moves next.
			cs, co := r.self[cb:cb+nh], r.opp[cb:cb+nh]
			if e.flip {
				cs, co = co, cs
			}
			if sa == nil {
				for h := range nh {
					cs[h] += float64(self[h] * x)
					co[h] += opp[h]
				}
				continue
			}
			for h := range nh {
				cs[h] += float64(self[h] * sa[h])
				co[h] += opp[h]
			}
		}
	}
	if g.loops {
		r.backSelf, r.nextSelf = r.nextSelf, r.backSelf
		r.backOpp, r.nextOpp = r.nextOpp, r.backOpp
	}
}

// edgeValues writes into r.ev the value to the mover of each edge of
// node i, by h: a payoff, or the next node's value (drawn afresh for a
// roll), negated when the other player moves next.
func (r *run) edgeValues(i int) []float64 {
	g, nh := r.g, r.g.nh
	n := &g.nodes[i]
	ev := r.ev[:len(n.edges)*nh]
	pays := g.pays
	if r.pays != nil {
		pays = r.pays
	}
	for a, e := range n.edges {
		dst := ev[a*nh : a*nh+nh]
		switch {
		case e.to < 0:
			copy(dst, pays[e.pay])
			continue
		case e.redraw:
			v := r.fv[e.to]
			if e.flip && !r.keep {
				v = -v
			}
			for h := range dst {
				dst[h] = v
			}
			continue
		}
		src := r.val[int(e.to)*nh : int(e.to)*nh+nh]
		if e.flip && !r.keep {
			for h := range dst {
				dst[h] = -src[h]
			}
		} else {
			copy(dst, src)
		}
	}
	return ev
}

// setVal stores node i's values and its value drawn afresh.
func (r *run) setVal(i int, v []float64) {
	nh := r.g.nh
	copy(r.val[i*nh:i*nh+nh], v)
	f := 0.0
	for h, w := range r.g.fresh {
		f += float64(w * v[h])
	}
	r.fv[i] = f
}

// mix writes into v the value of node n by h when its mover plays st
// over the edge values ev.
func (r *run) mix(v []float64, n *node, st, ev []float64) {
	nh := r.g.nh
	clear(v)
	for a := range n.edges {
		ea := ev[a*nh : a*nh+nh]
		if sa := r.row(n, st, a); sa != nil {
			for h := range v {
				v[h] += float64(sa[h] * ea[h])
			}
			continue
		}
		x := st[int(n.off)+a]
		if x == 0 {
			continue
		}
		for h := range v {
			v[h] += float64(x * ea[h])
		}
	}
}

// values computes the value of every node and h to its mover when both
// play st: one pass backwards, the edges back taking the values of the
// pass before.
func (r *run) values(st []float64) {
	g, nh := r.g, r.g.nh
	v := make([]float64, nh)
	for i := len(g.nodes) - 1; i >= 0; i-- {
		n := &g.nodes[i]
		r.mix(v, n, st, r.edgeValues(i))
		r.setVal(i, v)
	}
}

// settle repeats pass until the values of the nodes stop moving (at most
// limit passes); without cycles one pass is exact.
func (r *run) settle(pass func(), limit int) {
	pass()
	if !r.g.loops {
		return
	}
	prev := make([]float64, len(r.fv))
	for range limit {
		copy(prev, r.fv)
		pass()

		same := true
		for i, x := range r.fv {
			if d := x - prev[i]; d > 1e-15 || d < -1e-15 {
				same = false
				break
			}
		}
		if same {
			return
		}
	}
}

// value is the game's value to the first mover when both play st.
func (r *run) value(st []float64) float64 {
	r.settle(func() { r.values(st) }, 100000)
	return r.fv[0]
}

// bestResponse is the value to the first mover when the strategy of
// group br is a best response to st (the other group keeps st): at each
// of br's information sets the action of the highest value, each
// outcome weighted by how likely the other player and chance make it.
// The graph must tell its seats apart.
func (r *run) bestResponse(st []float64, br uint8) float64 {
	r.reach(st)
	g, nh := r.g, r.g.nh
	v := make([]float64, nh)
	best := make([]int, maxRanks)
	score, top := make([]float64, maxRanks), make([]float64, maxRanks)
	pass := func() {
		for i := len(g.nodes) - 1; i >= 0; i-- {
			n := &g.nodes[i]
			ev := r.edgeValues(i)
			ne := len(n.edges)
			if n.group != br {
				r.mix(v, n, st, ev)
				r.setVal(i, v)
				continue
			}
			opp := r.opp[i*nh : i*nh+nh]
			for k := range n.classes {
				best[k] = -1
			}
			for a := range ne {
				ea := ev[a*nh : a*nh+nh]
				clear(score[:n.classes])
				for h := range nh {
					score[classOf(n, h)] += float64(opp[h] * ea[h])
				}
				for k := range n.classes {
					if best[k] < 0 || score[k] > top[k] {
						best[k], top[k] = a, score[k]
					}
				}
			}
			for h := range nh {
				v[h] = ev[best[classOf(n, h)]*nh+h]
			}
			r.setVal(i, v)
		}
	}
	r.settle(pass, 100000)
	return r.fv[0]
}

// classOf is the mover's information set at n for the outcome h.
func classOf(n *node, h int) int32 {
	if n.class == nil {
		return 0
	}
	return int32(n.class[h])
}
