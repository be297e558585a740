package engine

import (
	"encoding/json"
	"fmt"
	"slices"
)

// This file holds a second, independent reading of RULES.md: a referee that
// follows a game action by action, says which actions are legal and which
// events each legal action must produce. The random-game property test and
// the fuzz target hold the engine to it.

// testRanks[r][v] is v's rank under r by rulesOrder (the number of ranks
// for the highest, 0 invalid); testCanon[r][v] the value RULES.md writes
// for v's rank (the highest member).
var testRanks, testCanon = func() (map[Ranking]*[100]int, map[Ranking]*[100]Value) {
	rk, cn := map[Ranking]*[100]int{}, map[Ranking]*[100]Value{}
	for r := range rulesOrder {
		var t [100]int
		var c [100]Value
		groups := rulesRanks(r)
		for i, grp := range groups {
			for _, v := range grp {
				t[v] = len(groups) - i
				c[v] = grp[0]
			}
		}
		rk[r], cn[r] = &t, &c
	}
	return rk, cn
}()

// randomOptions draws a rule set: every option of RULES.md at random
// (lives and turn time aside), impossible combinations mended.
func randomOptions(r pcg) Options {
	return optionsFromBits(uint32(r.Intn(1 << 16)))
}

// optionsFromBits reads a rule set from 16 bits: ranking, pass /
// equal-claims, mia-penalty, mia-penalty-both, next-opener, end, mia-pass,
// mia-reveal, low-claim and the preset label. Combinations Validate
// refuses are mended: equal-claims turns pass off, and mia-pass is off
// without pass or with mia-reveal at-once.
func optionsFromBits(b uint32) Options {
	take := func(n uint32) int {
		v := int(b % n)
		b /= n
		return v
	}
	o := DefaultOptions()
	o.Ranking = Rankings[take(uint32(len(Rankings)))]
	pm := take(3) // pass on; pass off; equal claims (pass off)
	o.Pass, o.EqualClaims = pm == 0, pm == 2
	o.MiaPenalty = 1 + take(2)
	o.MiaPenaltyBoth = take(2) == 1
	o.NextOpener = []NextOpener{AfterLoser, Loser, BeforeLoser}[take(3)]
	o.End = []End{LastStanding, FirstOut}[take(2)]
	o.MiaPass = []MiaPass{MiaPassOff, MiaPassReroll, MiaPassWins}[take(3)]
	o.MiaReveal = []MiaReveal{MiaRevealChallenge, MiaRevealAtOnce}[take(2)]
	o.LowClaim = []LowClaim{LowClaimRefused, LowClaimLoses}[take(2)]
	if !o.Pass || o.MiaReveal == MiaRevealAtOnce {
		o.MiaPass = MiaPassOff
	}
	if take(4) == 0 {
		o.Preset = PresetMaexchen // a label only
	}
	return o
}

// The rare paths of RULES.md a referee counts, so that the random tests can
// show they reached each.
const (
	pathRevealMia        = iota // a true Mia revealed at once
	pathRevealBluff             // a false Mia revealed at once
	pathLowClaim                // a claim not higher, which loses
	pathNoClaim                 // a challenge of nothing
	pathMiaPassed               // a Mia passed on unchanged
	pathMiaBackWins             // a Mia back at its roller, who wins
	pathMiaBackReroll           // a Mia back at its roller, rolled again
	pathMiaBackChallenge        // a Mia back at its roller, who challenges
	pathManyOut                 // several players out at once
	pathPipsTie                 // a challenge of a pips claim by dice of the same rank, not the same value
	pathBeforeLoser             // a round opened by the player before the loser
	pathBothGiveUp              // giving up under mia-penalty-both 2
	nPaths
)

var pathNames = [nPaths]string{"true Mia revealed", "false Mia revealed", "low claim", "challenge of nothing",
	"Mia passed", "Mia back (wins)", "Mia back rolled again", "Mia back challenged", "several out at once",
	"pips tie in a challenge", "before-loser opener", "give up under mia-penalty-both 2"}

type referee struct {
	seen     [nPaths]int
	o        Options
	rank     *[100]int
	canon    *[100]Value
	lives    []int
	out      []int
	outGroup []int // for each of out, the number of the loss that put it out
	losses   int   // the losses so far
	round    int
	turn     int
	phase    Phase
	claim    Value
	claimant int
	dice     Value
	roller   int
	looked   bool
	ownMia   bool // the Mia claim was announced by the roller
	winner   int
	seq      int
	evs      []Event // the events of the current action, being checked
	err      error
}

func newReferee(o Options, players int, first Event) (*referee, error) {
	r := &referee{o: o, rank: testRanks[o.Ranking], canon: testCanon[o.Ranking], lives: make([]int, players), winner: -1}
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

func (r *referee) prevAlive(s int) int {
	n := len(r.lives)
	for i := 1; i <= n; i++ {
		if t := ((s-i)%n + n) % n; r.lives[t] > 0 {
			return t
		}
	}
	return s
}

// cameBack: a Mia announced by its roller passed on by everyone else, the
// turn back at the roller.
func (r *referee) cameBack() bool {
	return r.phase == PhaseRespond && r.claim == Mia && r.ownMia && r.turn == r.roller
}

// rises reports whether announcing v now stands (strictly higher, or equal
// under equal-claims; anything when nothing is claimed).
func (r *referee) rises(v Value) bool {
	if r.claim == NoValue {
		return true
	}
	return r.rk(v) > r.rk(r.claim) || (r.o.EqualClaims && r.rk(v) == r.rk(r.claim))
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
	loses := r.o.LowClaim == LowClaimLoses
	switch a.Kind {
	case Timeout:
		return true
	case Roll:
		return r.phase == PhaseOpen || (r.phase == PhaseRespond && r.claim != Mia) ||
			(r.o.MiaPass == MiaPassReroll && r.cameBack())
	case Claim:
		return r.phase == PhaseAnnounce && a.Value.Valid() && (loses || r.rises(a.Value))
	case Challenge:
		return r.phase == PhaseRespond || (r.phase == PhaseOpen && loses)
	}
	if r.phase != PhaseRespond {
		return false
	}
	switch a.Kind {
	case GiveUp:
		return r.claim == Mia && !(r.o.MiaPass == MiaPassReroll && r.cameBack())
	case Pass:
		if !r.o.Pass || (r.claim == Mia && r.o.MiaPass == MiaPassOff) {
			return false
		}
		if a.Value == NoValue || r.rk(a.Value) == r.rk(r.claim) {
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
		got.LivesLost != want.LivesLost || got.Winner != want.Winner || !slices.Equal(got.Losses, want.Losses) {
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
	r.turn, r.phase, r.claim, r.claimant, r.dice, r.roller, r.looked, r.ownMia = opener, PhaseOpen, NoValue, -1, NoValue, -1, false, false
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

// penalty is what one lost life costs now: the Mia penalty under
// mia-penalty-both in a round whose claim is Mia, else 1.
func (r *referee) penalty() int {
	if r.claim == Mia && r.o.MiaPenaltyBoth {
		return r.o.MiaPenalty
	}
	return 1
}

// lose takes n lives from seat (no more than it has) and says how many.
func (r *referee) lose(seat, n int) int {
	n = min(n, r.lives[seat])
	r.lives[seat] -= n
	return n
}

// outs expects the out events of the seats that lost in the last loss
// and are at 0 lives, in seat order.
func (r *referee) outs(seats ...int) {
	r.losses++
	slices.Sort(seats)
	outs := 0
	for _, s := range seats {
		if r.lives[s] == 0 {
			if outs++; outs == 2 {
				r.seen[pathManyOut]++
			}
			r.expect(Event{Type: EvOut, Seat: s})
			r.out = append(r.out, s)
			r.outGroup = append(r.outGroup, r.losses)
		}
	}
}

// endRound follows a loss by one player.
func (r *referee) endRound(loser int) {
	r.outs(loser)
	if r.over() {
		return
	}
	var opener int
	switch r.o.NextOpener {
	case AfterLoser:
		opener = r.nextAlive(loser)
	case Loser:
		opener = loser
		if !r.alive(loser) {
			opener = r.nextAlive(loser)
		}
	case BeforeLoser:
		opener = r.prevAlive(loser)
		r.seen[pathBeforeLoser]++
	}
	r.newRound(opener)
}

// everyoneBut is a loss of the penalty for every living seat but seat.
func (r *referee) everyoneBut(seat int) ([]Loss, []int) {
	var ls []Loss
	var seats []int
	n := r.penalty()
	for s := range r.lives {
		if s != seat && r.alive(s) {
			ls = append(ls, Loss{Seat: s, LivesLost: r.lose(s, n)})
			seats = append(seats, s)
		}
	}
	return ls, seats
}

// mia ends a round that a Mia won for seat: everyone else loses, seat
// opens.
func (r *referee) miaWins(ev Event, seat int) {
	ls, seats := r.everyoneBut(seat)
	ev.Losses = ls
	r.expect(ev)
	r.outs(seats...)
	if !r.over() {
		r.newRound(seat)
	}
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
		if r.claim == Mia { // came back and rolled again: as an opener
			r.claim, r.claimant = NoValue, -1
			r.seen[pathMiaBackReroll]++
		}
		r.dice, r.roller, r.looked, r.phase, r.ownMia = d, a.Seat, a.Look, PhaseAnnounce, false
	case Claim:
		v := r.canon[a.Value]
		if !r.rises(v) {
			r.seen[pathLowClaim]++
			n := r.lose(a.Seat, r.penalty())
			r.expect(Event{Type: EvLowClaim, Seat: a.Seat, Value: v, Claim: r.claim, Loser: a.Seat, LivesLost: n})
			r.endRound(a.Seat)
			break
		}
		r.expect(Event{Type: EvClaim, Seat: a.Seat, Value: v})
		r.announce(a.Seat, v)
	case Pass:
		v := r.claim
		if a.Value != NoValue {
			v = r.canon[a.Value]
		}
		// Claims rise within a round: strictly, or equal by a pass of
		// someone else's dice.
		if r.rk(v) < r.rk(r.claim) || (r.rk(v) == r.rk(r.claim) && a.Seat == r.roller) {
			return fmt.Errorf("pass %v after %v does not rise", v, r.claim)
		}
		if v == Mia && r.claim == Mia {
			r.seen[pathMiaPassed]++
		}
		r.expect(Event{Type: EvPass, Seat: a.Seat, Value: v})
		r.announce(a.Seat, v)
	case Challenge:
		loser, n := a.Seat, 1
		if r.cameBack() {
			r.seen[pathMiaBackChallenge]++
		}
		if r.o.Ranking == Pips && r.claim != NoValue && r.rk(r.dice) == r.rk(r.claim) && r.dice != r.claim {
			r.seen[pathPipsTie]++
		}
		switch {
		case r.claim == NoValue:
			r.seen[pathNoClaim]++
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
		n = r.lose(loser, n)
		r.expect(Event{Type: EvChallenge, Seat: a.Seat, Claimant: r.claimant, Claim: r.claim, Dice: r.dice, Loser: loser, LivesLost: n})
		r.endRound(loser)
	case GiveUp, Timeout:
		t := EvGiveUp
		if a.Kind == Timeout {
			t = EvTimeout
		} else if r.penalty() == 2 {
			r.seen[pathBothGiveUp]++
		}
		r.expect(Event{Type: t, Seat: a.Seat, LivesLost: r.lose(a.Seat, r.penalty())})
		r.endRound(a.Seat)
	case Leave:
		r.expect(Event{Type: EvLeave, Seat: a.Seat, LivesLost: r.lives[a.Seat]})
		r.lives[a.Seat] = 0
		r.outs(a.Seat)
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

// announce follows a claim or pass of v by seat that stands: Mia revealed
// at once, a Mia back at its roller, or the next player's turn.
func (r *referee) announce(seat int, v Value) {
	newMia := v == Mia && r.claim != Mia
	if newMia {
		r.ownMia = seat == r.roller
	}
	r.claim, r.claimant, r.phase, r.turn = v, seat, PhaseRespond, r.nextAlive(seat)
	switch {
	case newMia && r.o.MiaReveal == MiaRevealAtOnce:
		ev := Event{Type: EvReveal, Seat: seat, Claim: Mia, Dice: r.dice}
		if r.dice == Mia {
			r.seen[pathRevealMia]++
			r.miaWins(ev, seat)
			break
		}
		r.seen[pathRevealBluff]++
		ev.Losses = []Loss{{Seat: seat, LivesLost: r.lose(seat, r.penalty())}}
		r.expect(ev)
		r.endRound(seat)
	case r.cameBack() && r.o.MiaPass == MiaPassWins:
		r.seen[pathMiaBackWins]++
		r.miaWins(Event{Type: EvMiaBack, Seat: r.roller}, r.roller)
	}
}

// standings are the standings RULES.md gives once the game is over: the
// living by lives, then seat; then those out, last out first, those out
// together in seat order.
func (r *referee) standings() []int {
	var st []int
	for lv := r.o.Lives; lv >= 1; lv-- {
		for s, l := range r.lives {
			if l == lv {
				st = append(st, s)
			}
		}
	}
	for g := r.losses; g >= 1; g-- {
		for i, s := range r.out {
			if r.outGroup[i] == g {
				st = append(st, s)
			}
		}
	}
	return st
}

// snapshot is a cheap copy of a game's state (no pointers, so no write
// barriers), to check that a refused action changed nothing.
type snapshot struct {
	round, turn, claimant, roller, winner, seq int
	phase                                      Phase
	claim, dice                                Value
	looked, miaOwn                             bool
	lives                                      [MaxSeats]int
	outs, lastLoss                             int
}

func (s *snapshot) take(g *Game) {
	*s = snapshot{round: g.round, turn: g.turn, claimant: g.claimant, roller: g.roller, winner: g.winner, seq: g.seq,
		phase: g.phase, claim: g.claim, dice: g.dice, looked: g.looked, miaOwn: g.miaOwn, outs: len(g.outOrder),
		lastLoss: g.lastLoss}
	copy(s.lives[:], g.lives)
}

func (s *snapshot) same(g *Game) bool {
	if s.round != g.round || s.turn != g.turn || s.claimant != g.claimant || s.roller != g.roller ||
		s.winner != g.winner || s.seq != g.seq || s.phase != g.phase || s.claim != g.claim ||
		s.dice != g.dice || s.looked != g.looked || s.outs != len(g.outOrder) || s.miaOwn != g.miaOwn ||
		s.lastLoss != g.lastLoss || len(g.outAt) != len(g.outOrder) {
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

// compare checks the engine's state against the referee's, and seat's
// view: the dice it may see, and, on its turn, that the moves the view
// offers are exactly those the referee allows.
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
	if seat < Spectator || seat >= g.Players() {
		return nil
	}
	view := g.View(seat)
	want := NoValue
	if seat >= 0 && seat == r.roller && r.looked {
		want = r.dice
	}
	if view.Dice != want {
		return fmt.Errorf("step %d: seat %d sees dice %v, may see %v", c.steps, seat, view.Dice, want)
	}
	if view.MiaComesBack != (r.claim == Mia && r.ownMia && r.o.MiaPass != MiaPassOff) {
		return fmt.Errorf("step %d: MiaComesBack %v, referee claim %v own %v", c.steps, view.MiaComesBack, r.claim, r.ownMia)
	}
	if seat != r.turn || r.phase == PhaseOver {
		return nil
	}
	return c.checkMoves(view)
}

// checkMoves holds a view of the seat whose turn it is to the referee:
// Legal lists the kinds with a legal action, Claims the claims that stand
// and LowClaims those that lose (one per rank, lowest first), Passes the
// legal passes (the same value first).
func (c *checker) checkMoves(view View) error {
	r, seat := c.ref, view.Seat
	var claims, low, passes []Value
	canClaim, canPass := false, false
	for _, v := range testClaims[r.o.Ranking] {
		if r.legal(Action{Kind: Claim, Seat: seat, Value: v}) {
			canClaim = true
			if r.rises(v) {
				claims = append(claims, v)
			} else {
				low = append(low, v)
			}
		}
		if r.legal(Action{Kind: Pass, Seat: seat, Value: v}) {
			canPass = true
			passes = append(passes, v)
		}
	}
	for k := Roll; k <= Leave; k++ {
		want := r.legal(Action{Kind: k, Seat: seat, Look: true})
		switch k {
		case Claim:
			want = canClaim
		case Pass:
			want = canPass
		}
		if view.Can(k) != want {
			return fmt.Errorf("step %d: seat %d may %s: view %v, referee %v (legal %v)", c.steps, seat, k, view.Can(k), want, view.Legal)
		}
	}
	if !slices.Equal(view.Claims, claims) || !slices.Equal(view.LowClaims, low) || !slices.Equal(view.Passes, passes) {
		return fmt.Errorf("step %d: seat %d: claims %v low %v passes %v; referee %v %v %v",
			c.steps, seat, view.Claims, view.LowClaims, view.Passes, claims, low, passes)
	}
	return nil
}

// testClaims lists, for each ranking, the value naming each rank (RULES.md's
// highest member), lowest rank first.
var testClaims = func() map[Ranking][]Value {
	m := map[Ranking][]Value{}
	for r := range rulesOrder {
		groups := rulesRanks(r)
		for i := len(groups) - 1; i >= 0; i-- {
			m[r] = append(m[r], groups[i][0])
		}
	}
	return m
}()

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
	if g.Options().End == FirstOut && (len(c.ref.out) == 0 || slices.ContainsFunc(c.ref.outGroup, func(k int) bool { return k != c.ref.outGroup[0] })) {
		return fmt.Errorf("first-out ended with %v out, by losses %v", c.ref.out, c.ref.outGroup)
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
	if want := c.ref.standings(); !slices.Equal(st, want) {
		return fmt.Errorf("standings %v, referee %v (out %v by losses %v)", st, want, c.ref.out, c.ref.outGroup)
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
		return Action{Kind: ActionKind(r.Intn(9)), Seat: r.Intn(n+2) - 1, Look: r.Intn(2) == 0, Value: Value(r.Intn(70))}
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
		if x < 6 {
			return Action{Kind: Challenge, Seat: turn}
		}
		return Action{Kind: Roll, Seat: turn, Look: x&7 != 0}
	case PhaseAnnounce:
		return Action{Kind: Claim, Seat: turn, Value: pickClaim(r, g.opts.Ranking, v)}
	}
	x = r.Intn(100)
	if v == Mia {
		passing := 10
		if g.opts.MiaPass != MiaPassOff {
			passing = 75 // so that a Mia now and then goes all the way round
		}
		switch {
		case x < passing:
			return Action{Kind: Pass, Seat: turn}
		case x < passing+5:
			return Action{Kind: Roll, Seat: turn, Look: true}
		case x < passing+(100-passing)/2:
			return Action{Kind: Challenge, Seat: turn}
		}
		return Action{Kind: GiveUp, Seat: turn}
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

// pickClaim draws a value a little above v (now and then equal to it, or
// lower; under pips sometimes not the value the rank is written as).
func pickClaim(r pcg, rk Ranking, v Value) Value {
	o := rk.table().claims // highest first
	var w Value
	switch above := len(o) - rk.Rank(v); { // o[:above] rank above v
	case v == NoValue:
		w = o[r.Intn(len(o))]
	case above == 0 || r.Intn(16) == 0:
		w = v
	case r.Intn(16) == 0:
		w = o[above+r.Intn(len(o)-above)] // v or lower
	default:
		w = o[above-1-r.Intn(min(above, 4))]
	}
	if rk == Pips && r.Intn(4) == 0 {
		for _, x := range AllValues() { // another member of w's rank, if any
			if x != w && rk.Compare(x, w) == 0 {
				return x
			}
		}
	}
	return w
}

// sameView is reflect.DeepEqual for views, without the reflection (nil and
// empty lists are the same here).
func sameView(a, b View) bool {
	return a.Seat == b.Seat && a.Options == b.Options && slices.Equal(a.Lives, b.Lives) && a.Round == b.Round &&
		a.Turn == b.Turn && a.Phase == b.Phase && a.Claim == b.Claim && a.Claimant == b.Claimant &&
		a.Roller == b.Roller && a.Dice == b.Dice && a.Winner == b.Winner && slices.Equal(a.Standings, b.Standings) &&
		slices.Equal(a.Legal, b.Legal) && slices.Equal(a.Claims, b.Claims) && slices.Equal(a.Passes, b.Passes) &&
		slices.Equal(a.LowClaims, b.LowClaims) && a.MiaComesBack == b.MiaComesBack
}
