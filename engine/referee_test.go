package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// This file holds a second, independent reading of RULES.md: a referee that
// follows a game action by action, says which actions are legal and which
// events each legal action must produce. The random-game property test and
// the fuzz target hold the engine to it.

// testRanks[r][v] is v's rank under r by rulesOrder (21 highest, 0 invalid).
var testRanks = func() map[Ranking]*[100]int {
	m := map[Ranking]*[100]int{}
	for r, s := range rulesOrder {
		var t [100]int
		f := strings.Fields(s)
		for i, w := range f {
			var v int
			fmt.Sscan(w, &v)
			t[v] = len(f) - i
		}
		m[r] = &t
	}
	return m
}()

// optionCombos lists every combination of the rule options (lives and turn
// time aside): ranking × pass/equal-claims × mia-penalty × mia-penalty-both
// × next-opener × end, 192 in all.
func optionCombos() []Options {
	var out []Options
	for _, r := range Rankings {
		for pm := range 3 { // pass on; pass off; equal claims (pass off)
			for _, mp := range []int{1, 2} {
				for _, both := range []bool{false, true} {
					for _, no := range []NextOpener{AfterLoser, Loser} {
						for _, end := range []End{LastStanding, FirstOut} {
							o := DefaultOptions()
							o.Ranking, o.Pass, o.EqualClaims = r, pm == 0, pm == 2
							o.MiaPenalty, o.MiaPenaltyBoth, o.NextOpener, o.End = mp, both, no, end
							out = append(out, o)
						}
					}
				}
			}
		}
	}
	return out
}

type referee struct {
	o        Options
	rank     *[100]int
	lives    []int
	out      []int
	round    int
	turn     int
	phase    Phase
	claim    Value
	claimant int
	dice     Value
	roller   int
	looked   bool
	winner   int
	seq      int
	evs      []Event // the events of the current action, being checked
	err      error
}

func newReferee(o Options, players int, first Event) (*referee, error) {
	r := &referee{o: o, rank: testRanks[o.Ranking], lives: make([]int, players), winner: -1}
	for i := range r.lives {
		r.lives[i] = o.Lives
	}
	if first.Opener < 0 || first.Opener >= players {
		return nil, fmt.Errorf("first opener %d of %d players", first.Opener, players)
	}
	r.evs = []Event{first}
	r.newRound(first.Opener)
	return r, r.done()
}

func (r *referee) rk(v Value) int {
	if int(v) >= len(r.rank) {
		return 0
	}
	return r.rank[v]
}

func (r *referee) alive(s int) bool { return s >= 0 && s < len(r.lives) && r.lives[s] > 0 }

func (r *referee) nextAlive(s int) int {
	for i := 1; i <= len(r.lives); i++ {
		if t := (s + i) % len(r.lives); r.lives[t] > 0 {
			return t
		}
	}
	return s
}

// legal says whether RULES.md allows a now.
func (r *referee) legal(a Action) bool {
	if r.phase == PhaseOver || a.Kind < Roll || a.Kind > Leave || !r.alive(a.Seat) {
		return false
	}
	if a.Kind == Leave {
		return true
	}
	if a.Seat != r.turn {
		return false
	}
	switch a.Kind {
	case Timeout:
		return true
	case Roll:
		return r.phase == PhaseOpen || (r.phase == PhaseRespond && r.claim != Mia)
	case Claim:
		if r.phase != PhaseAnnounce || r.rk(a.Value) == 0 {
			return false
		}
		return r.claim == NoValue || r.rk(a.Value) > r.rk(r.claim) || (r.o.EqualClaims && a.Value == r.claim)
	}
	if r.phase != PhaseRespond {
		return false
	}
	switch a.Kind {
	case Challenge:
		return true
	case GiveUp:
		return r.claim == Mia
	case Pass:
		if !r.o.Pass || r.claim == Mia {
			return false
		}
		if a.Value == NoValue || a.Value == r.claim {
			return a.Seat != r.roller
		}
		return r.rk(a.Value) > r.rk(r.claim)
	}
	return false
}

// expect checks that the next event is want (Seq filled in here; At is
// the caller's and not compared).
func (r *referee) expect(want Event) {
	if r.err != nil {
		return
	}
	r.seq++
	want.Seq = r.seq
	if len(r.evs) == 0 {
		r.err = fmt.Errorf("missing event %+v", want)
		return
	}
	got := &r.evs[0]
	r.evs = r.evs[1:]
	if got.Seq != want.Seq || got.Type != want.Type || got.Round != want.Round || got.Opener != want.Opener ||
		got.Seat != want.Seat || got.Dice != want.Dice || got.Looked != want.Looked || got.Value != want.Value ||
		got.Claimant != want.Claimant || got.Claim != want.Claim || got.Loser != want.Loser ||
		got.LivesLost != want.LivesLost || got.Winner != want.Winner {
		r.err = fmt.Errorf("event %+v, want %+v", *got, want)
	}
}

func (r *referee) done() error {
	if r.err == nil && len(r.evs) > 0 {
		r.err = fmt.Errorf("unexpected events %+v", r.evs)
	}
	return r.err
}

func (r *referee) newRound(opener int) {
	r.round++
	r.expect(Event{Type: EvRound, Round: r.round, Opener: opener})
	r.turn, r.phase, r.claim, r.claimant, r.dice, r.roller, r.looked = opener, PhaseOpen, NoValue, -1, NoValue, -1, false
}

// over ends the game if it is decided.
func (r *referee) over() bool {
	alive, best := 0, -1
	for s, l := range r.lives {
		if l > 0 {
			alive++
			if best < 0 || l > r.lives[best] {
				best = s
			}
		}
	}
	if alive > 1 && !(r.o.End == FirstOut && len(r.out) > 0) {
		return false
	}
	r.expect(Event{Type: EvEnd, Winner: best})
	r.winner, r.phase = best, PhaseOver
	return true
}

func (r *referee) lose(seat, n int) {
	r.lives[seat] -= n
	if r.lives[seat] < 0 {
		r.err = fmt.Errorf("seat %d at %d lives", seat, r.lives[seat])
	}
}

func (r *referee) endRound(loser int) {
	if r.lives[loser] == 0 {
		r.expect(Event{Type: EvOut, Seat: loser})
		r.out = append(r.out, loser)
	}
	if r.over() {
		return
	}
	opener := r.nextAlive(loser)
	if r.o.NextOpener == Loser && r.alive(loser) {
		opener = loser
	}
	r.newRound(opener)
}

// step checks the events evs of the legal action a and follows them.
func (r *referee) step(a Action, evs []Event) error {
	r.evs, r.err = evs, nil
	switch a.Kind {
	case Roll:
		if len(evs) == 0 || evs[0].Type != EvRoll || !evs[0].Dice.Valid() {
			return fmt.Errorf("roll gave %+v", evs)
		}
		d := evs[0].Dice
		r.expect(Event{Type: EvRoll, Seat: a.Seat, Dice: d, Looked: a.Look})
		r.dice, r.roller, r.looked, r.phase = d, a.Seat, a.Look, PhaseAnnounce
	case Claim, Pass:
		v, t := a.Value, EvClaim
		if a.Kind == Pass {
			t = EvPass
			if v == NoValue {
				v = r.claim
			}
		}
		// Claims rise within a round: strictly, or equal under
		// equal-claims, or equal by a pass of someone else's dice.
		if r.claim != NoValue {
			up := r.rk(v) > r.rk(r.claim)
			eq := v == r.claim && ((a.Kind == Claim && r.o.EqualClaims) || (a.Kind == Pass && a.Seat != r.roller))
			if !up && !eq {
				return fmt.Errorf("%s %v after %v does not rise", a.Kind, v, r.claim)
			}
		}
		r.expect(Event{Type: t, Seat: a.Seat, Value: v})
		r.claim, r.claimant, r.phase, r.turn = v, a.Seat, PhaseRespond, r.nextAlive(a.Seat)
	case Challenge:
		loser, n := a.Seat, 1
		switch {
		case r.claim == Mia && r.dice == Mia:
			n = r.o.MiaPenalty
		case r.claim == Mia:
			loser = r.claimant
			if r.o.MiaPenaltyBoth {
				n = r.o.MiaPenalty
			}
		case r.rk(r.dice) < r.rk(r.claim):
			loser = r.claimant
		}
		n = min(n, r.lives[loser])
		r.expect(Event{Type: EvChallenge, Seat: a.Seat, Claimant: r.claimant, Claim: r.claim, Dice: r.dice, Loser: loser, LivesLost: n})
		r.lose(loser, n)
		r.endRound(loser)
	case GiveUp, Timeout:
		t := EvGiveUp
		if a.Kind == Timeout {
			t = EvTimeout
		}
		r.expect(Event{Type: t, Seat: a.Seat, LivesLost: 1})
		r.lose(a.Seat, 1)
		r.endRound(a.Seat)
	case Leave:
		r.expect(Event{Type: EvLeave, Seat: a.Seat, LivesLost: r.lives[a.Seat]})
		r.lives[a.Seat] = 0
		r.expect(Event{Type: EvOut, Seat: a.Seat})
		r.out = append(r.out, a.Seat)
		if !r.over() && (a.Seat == r.turn || a.Seat == r.claimant) {
			opener := r.turn
			if !r.alive(opener) {
				opener = r.nextAlive(a.Seat)
			}
			r.newRound(opener)
		}
	}
	return r.done()
}

// snapshot is a cheap copy of a game's state (no pointers, so no write
// barriers), to check that a refused action changed nothing.
type snapshot struct {
	round, turn, claimant, roller, winner, seq int
	phase                                      Phase
	claim, dice                                Value
	looked                                     bool
	lives                                      [MaxSeats]int
	outs                                       int
}

func (s *snapshot) take(g *Game) {
	*s = snapshot{round: g.round, turn: g.turn, claimant: g.claimant, roller: g.roller, winner: g.winner, seq: g.seq,
		phase: g.phase, claim: g.claim, dice: g.dice, looked: g.looked, outs: len(g.outOrder)}
	copy(s.lives[:], g.lives)
}

func (s *snapshot) same(g *Game) bool {
	if s.round != g.round || s.turn != g.turn || s.claimant != g.claimant || s.roller != g.roller ||
		s.winner != g.winner || s.seq != g.seq || s.phase != g.phase || s.claim != g.claim ||
		s.dice != g.dice || s.looked != g.looked || s.outs != len(g.outOrder) {
		return false
	}
	for i, l := range g.lives {
		if s.lives[i] != l {
			return false
		}
	}
	return true
}

// checker plays one game against the referee.
type checker struct {
	g      *Game
	ref    *referee
	events []Event
	snap   snapshot
	steps  int
	alloc  bool // play through Apply rather than AppendApply
}

func newChecker(o Options, players int, src Source) (*checker, error) {
	g, evs, err := New(o, players, src)
	if err != nil {
		return nil, err
	}
	if len(evs) != 1 {
		return nil, fmt.Errorf("New gave %+v", evs)
	}
	ref, err := newReferee(o, players, evs[0])
	if err != nil {
		return nil, err
	}
	return &checker{g: g, ref: ref, events: evs}, nil
}

// apply plays a and checks the invariants that can be checked at every
// step. seat is the seat whose view is checked afterwards (Spectator
// included; none if out of range).
func (c *checker) apply(a Action, seat int) error {
	c.steps++
	legal := c.ref.legal(a)
	if !legal {
		c.snap.take(c.g)
	}
	k := len(c.events)
	var all []Event
	var err error
	if c.alloc {
		var got []Event
		got, err = c.g.Apply(a)
		if err != nil && got != nil {
			return fmt.Errorf("step %d: refused %+v returned events", c.steps, a)
		}
		all = append(c.events, got...)
	} else {
		all, err = c.g.AppendApply(c.events, a)
	}
	evs := all[k:]
	if err != nil {
		if len(all) != k {
			return fmt.Errorf("step %d: refused %+v appended events", c.steps, a)
		}
		evs = nil
		if legal {
			return fmt.Errorf("step %d: legal %+v refused: %v", c.steps, a, err)
		}
		if _, ok := err.(*RuleError); !ok || evs != nil {
			return fmt.Errorf("step %d: refusal %T %v with events %v", c.steps, err, err, evs)
		}
		if !c.snap.same(c.g) {
			return fmt.Errorf("step %d: refused %+v changed the game", c.steps, a)
		}
	} else {
		if !legal {
			return fmt.Errorf("step %d: illegal %+v accepted: %+v (referee %+v)", c.steps, a, evs, *c.ref)
		}
		if err := c.ref.step(a, evs); err != nil {
			return fmt.Errorf("step %d: %+v: %v", c.steps, a, err)
		}
		c.events = all
	}
	return c.compare(seat)
}

// compare checks the engine's state against the referee's.
func (c *checker) compare(seat int) error {
	g, r := c.g, c.ref
	for s, l := range g.lives {
		if l < 0 || l != r.lives[s] {
			return fmt.Errorf("step %d: seat %d has %d lives, referee %d", c.steps, s, l, r.lives[s])
		}
	}
	v, cl := g.CurrentClaim()
	if g.Turn() != r.turn && !g.Over() || g.Phase() != r.phase || v != r.claim || cl != r.claimant ||
		g.Round() != r.round || g.Seq() != r.seq || g.Winner() != r.winner || g.Over() != (r.phase == PhaseOver) {
		return fmt.Errorf("step %d: engine turn %d phase %v claim %v/%d round %d seq %d winner %d; referee %+v",
			c.steps, g.Turn(), g.Phase(), v, cl, g.Round(), g.Seq(), g.Winner(), *r)
	}
	if seat >= Spectator && seat < g.Players() {
		want := NoValue
		if seat >= 0 && seat == r.roller && r.looked {
			want = r.dice
		}
		if d := g.View(seat).Dice; d != want {
			return fmt.Errorf("step %d: seat %d sees dice %v, may see %v", c.steps, seat, d, want)
		}
	}
	return nil
}

// finish checks a finished game: one winner, standings, and the replay.
func (c *checker) finish(jsonRoundTrip bool) error {
	g := c.g
	if !g.Over() {
		return nil
	}
	alive := 0
	for s := range g.Players() {
		if g.Lives(s) > 0 {
			alive++
			if g.Lives(s) > g.Lives(g.Winner()) {
				return fmt.Errorf("winner %d has fewer lives than %d", g.Winner(), s)
			}
		}
	}
	if !c.ref.alive(g.Winner()) {
		return fmt.Errorf("winner %d is out", g.Winner())
	}
	if g.Options().End == LastStanding && alive != 1 {
		return fmt.Errorf("last-standing ended with %d players alive", alive)
	}
	if g.Options().End == FirstOut && len(c.ref.out) != 1 {
		return fmt.Errorf("first-out ended with %d out", len(c.ref.out))
	}
	st := g.Standings()
	if len(st) != g.Players() || st[0] != g.Winner() {
		return fmt.Errorf("standings %v, winner %d", st, g.Winner())
	}
	sorted := slices.Clone(st)
	slices.Sort(sorted)
	for i, s := range sorted {
		if s != i {
			return fmt.Errorf("standings %v are not the seats", st)
		}
	}
	outs := st[len(st)-len(c.ref.out):]
	for i, s := range outs {
		if s != c.ref.out[len(c.ref.out)-1-i] {
			return fmt.Errorf("standings %v, out order %v", st, c.ref.out)
		}
	}
	events := c.events
	if jsonRoundTrip {
		b, err := json.Marshal(events)
		if err != nil {
			return err
		}
		events = nil
		if err := json.Unmarshal(b, &events); err != nil {
			return err
		}
	}
	rg, err := Replay(g.Options(), g.Players(), events, nil)
	if err != nil {
		return fmt.Errorf("replay: %v", err)
	}
	for s := Spectator; s < g.Players(); s++ {
		if a, b := g.View(s), rg.View(s); !sameView(a, b) {
			return fmt.Errorf("replay: seat %d sees %+v, live game %+v", s, b, a)
		}
	}
	if !sameGame(g, rg) {
		return fmt.Errorf("replay state differs")
	}
	return nil
}

// randomAction draws an action for g: with probability bad (in
// hundredths) a random one (most likely illegal), otherwise one a player
// might take (sometimes still illegal).
func randomAction(r pcg, g *Game, bad int) Action {
	n := len(g.lives)
	if r.chance(bad, 100) {
		return Action{Kind: Kind(r.Intn(9)), Seat: r.Intn(n+2) - 1, Look: r.Intn(2) == 0, Value: Value(r.Intn(70))}
	}
	turn := g.turn
	x := r.Intn(100)
	switch {
	case x < 2:
		return Action{Kind: Leave, Seat: r.Intn(n)}
	case x < 4:
		return Action{Kind: Timeout, Seat: turn}
	}
	v := g.claim
	switch g.phase {
	case PhaseOpen:
		return Action{Kind: Roll, Seat: turn, Look: x&7 != 0}
	case PhaseAnnounce:
		return Action{Kind: Claim, Seat: turn, Value: pickClaim(r, g.opts.Ranking, v)}
	}
	x = r.Intn(100)
	if v == Mia {
		switch {
		case x < 55:
			return Action{Kind: Challenge, Seat: turn}
		case x < 90:
			return Action{Kind: GiveUp, Seat: turn}
		}
		return Action{Kind: Pass, Seat: turn}
	}
	switch {
	case x < 45:
		return Action{Kind: Challenge, Seat: turn}
	case x < 70:
		return Action{Kind: Roll, Seat: turn, Look: x&7 != 0}
	case x < 87:
		return Action{Kind: Pass, Seat: turn}
	case x < 95:
		return Action{Kind: Pass, Seat: turn, Value: pickClaim(r, g.opts.Ranking, v)}
	}
	return Action{Kind: GiveUp, Seat: turn}
}

// pickClaim draws a value a little above v (now and then equal to it).
func pickClaim(r pcg, rk Ranking, v Value) Value {
	o := rk.order()
	if v == NoValue {
		return o[r.Intn(len(o))]
	}
	above := len(o) - rk.Rank(v) // o[:above] rank above v
	if above == 0 || r.Intn(16) == 0 {
		return v
	}
	return o[above-1-r.Intn(min(above, 4))]
}

// sameView is reflect.DeepEqual for views, without the reflection (nil and
// empty lists are the same here).
func sameView(a, b View) bool {
	return a.Seat == b.Seat && a.Options == b.Options && slices.Equal(a.Lives, b.Lives) && a.Round == b.Round &&
		a.Turn == b.Turn && a.Phase == b.Phase && a.Claim == b.Claim && a.Claimant == b.Claimant &&
		a.Roller == b.Roller && a.Dice == b.Dice && a.Winner == b.Winner && slices.Equal(a.Standings, b.Standings) &&
		slices.Equal(a.Legal, b.Legal) && slices.Equal(a.Claims, b.Claims) && slices.Equal(a.Passes, b.Passes)
}
