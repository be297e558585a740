// Package engine holds the rules of Mia (RULES.md) as a pure state machine:
// a game plus an action gives the events it produced, or a typed error and
// no change. It has no goroutines, clocks or I/O; dice come from a Source.
package engine

import "time"

// Phase is what the player whose turn it is must do.
type Phase uint8

// The phases of a turn.
const (
	PhaseOpen     Phase = iota // a round begins: the opener must roll
	PhaseAnnounce              // the player rolled and must announce a value
	PhaseRespond               // a claim stands: challenge, roll, pass or give up
	PhaseOver                  // the game has ended
)

var phaseNames = [...]string{"open", "announce", "respond", "over"}

// String is the phase's name: "open", "announce", "respond" or "over".
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "phase?"
}

// ActionKind is the kind of an action.
type ActionKind uint8

// The actions of RULES.md.
const (
	Roll ActionKind = iota + 1
	Claim
	Pass
	Challenge
	GiveUp
	Timeout
	Leave
)

var kindNames = [...]string{"", "roll", "claim", "pass", "challenge", "give up", "timeout", "leave"}

// String is the action's name as players say it ("roll", "give up").
func (k ActionKind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return "unknown action"
}

// Action is one move by one seat. Look is used by Roll; Value by Claim and
// by Pass (NoValue passes the current claim unchanged).
type Action struct {
	Kind  ActionKind
	Seat  int
	Look  bool
	Value Value
}

// Game is the state of one game. Its zero value is not usable: see New and
// Replay. Apply changes it only when the action is legal.
type Game struct {
	opts     Options
	src      Source
	lives    []int
	outOrder []int // seats in the order they went out
	outAt    []int // for each of outOrder, the seq of the loss that put it out
	lastLoss int   // the seq of the last event that cost lives
	round    int
	turn     int
	phase    Phase
	claim    Value
	claimant int // -1 when no claim
	dice     Value
	roller   int // -1 when the cup is empty
	looked   bool
	miaOwn   bool // the Mia claim was announced by the roller of the dice in the cup
	winner   int  // -1 until the end
	seq      int
	rolls    int // roll events so far
}

// New starts a game for the given number of players: it validates the
// options, draws the first opener from src and returns the first round's
// event. Options left empty (MiaPass, MiaReveal, LowClaim) take their
// defaults, and Options() returns them filled in.
func New(opts Options, players int, src Source) (*Game, []Event, error) {
	if err := opts.Validate(); err != nil {
		return nil, nil, err
	}
	if players < MinSeats || players > MaxSeats {
		return nil, nil, ErrBadSeats
	}
	if src == nil {
		src = CryptoSource{}
	}
	g := &Game{opts: opts.withDefaults(), src: src, lives: make([]int, players),
		outOrder: make([]int, 0, players), outAt: make([]int, 0, players),
		claimant: -1, roller: -1, winner: -1}
	for i := range g.lives {
		g.lives[i] = opts.Lives
	}
	var evs []Event
	evs = g.emit(evs, Event{Type: EvRound, Round: 1, Opener: src.Intn(players)})
	return g, evs, nil
}

// Options returns the game's rules.
func (g *Game) Options() Options { return g.opts }

// Players is the number of seats.
func (g *Game) Players() int { return len(g.lives) }

// Lives returns the lives of seat.
func (g *Game) Lives(seat int) int { return g.lives[seat] }

// Turn is the seat whose move it is.
func (g *Game) Turn() int { return g.turn }

// Phase is what the seat whose turn it is must do.
func (g *Game) Phase() Phase { return g.phase }

// Round is the number of the current round, from 1.
func (g *Game) Round() int { return g.round }

// CurrentClaim is the claim on the table and who answers for it (-1 if none).
func (g *Game) CurrentClaim() (Value, int) { return g.claim, g.claimant }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.phase == PhaseOver }

// Winner is the winning seat, or -1 while the game runs.
func (g *Game) Winner() int { return g.winner }

// Seq is the number of events so far.
func (g *Game) Seq() int { return g.seq }

// Result is how a game ended, as a game's record keeps it: its winner
// and standings (Winner, Standings) and when it ended. The lobby hands it
// to its storage and the store keeps it; a zero Ended is the time of the
// game's last event.
type Result struct {
	Ended     time.Time
	Winner    int   // seat
	Standings []int // seats, the winner first
}

// Standings ranks every seat, winner first, once the game is over: the
// living by lives (then seat order), then those out, last out first
// (players out at the same moment in seat order).
func (g *Game) Standings() []int {
	if g.phase != PhaseOver {
		return nil
	}
	st := make([]int, 0, len(g.lives))
	for lv := g.opts.Lives; lv >= 1; lv-- {
		for s, l := range g.lives {
			if l == lv {
				st = append(st, s)
			}
		}
	}
	for i := len(g.outOrder) - 1; i >= 0; {
		j := i // g.outOrder[j:i+1] went out together, in seat order
		for j > 0 && g.outAt[j-1] == g.outAt[i] {
			j--
		}
		st = append(st, g.outOrder[j:i+1]...)
		i = j - 1
	}
	return st
}

// Clone returns an independent copy of g sharing its Source.
func (g *Game) Clone() *Game {
	c := *g
	c.lives = append([]int(nil), g.lives...)
	c.outOrder = append(make([]int, 0, cap(g.outOrder)), g.outOrder...)
	c.outAt = append(make([]int, 0, cap(g.outAt)), g.outAt...)
	return &c
}

// maxEvents is the most events one action usually produces (a challenge,
// an out, and the end or the next round); a loss falling on several
// players produces more.
const maxEvents = 3

// Apply plays one action. On success it returns the events it produced, in
// order; on failure a *RuleError and the game is unchanged.
func (g *Game) Apply(a Action) ([]Event, error) {
	if err := g.check(a); err != nil {
		return nil, &RuleError{Rule: err, Action: a}
	}
	n := maxEvents
	if a.Kind == Roll || a.Kind == Claim || a.Kind == Pass {
		n = 1
	}
	return g.play(make([]Event, 0, n), a), nil
}

// AppendApply is Apply appending the events to dst, so that a caller that
// reuses its buffer plays without allocating. On failure it returns dst
// unchanged and a *RuleError, and the game is unchanged.
func (g *Game) AppendApply(dst []Event, a Action) ([]Event, error) {
	if err := g.check(a); err != nil {
		return dst, &RuleError{Rule: err, Action: a}
	}
	return g.play(dst, a), nil
}

// play applies the legal action a, appending its events to evs.
func (g *Game) play(evs []Event, a Action) []Event {
	switch a.Kind {
	case Roll:
		evs = g.emit(evs, Event{Type: EvRoll, Seat: a.Seat, Dice: g.rollDice(), Looked: a.Look})
	case Claim:
		v := g.opts.Ranking.Canonical(a.Value)
		if g.claim != NoValue && g.checkHigher(v, g.opts.EqualClaims) != nil { // low-claim loses
			evs = g.emit(evs, Event{Type: EvLowClaim, Seat: a.Seat, Value: v, Claim: g.claim,
				Loser: a.Seat, LivesLost: g.cost(a.Seat)})
			return g.endRound(evs, a.Seat)
		}
		evs = g.emit(evs, Event{Type: EvClaim, Seat: a.Seat, Value: v})
		if v == Mia && g.opts.MiaReveal == MiaRevealAtOnce {
			evs = g.reveal(evs, a.Seat)
		}
	case Pass:
		v, before := g.claim, g.claim
		if a.Value != NoValue {
			v = g.opts.Ranking.Canonical(a.Value)
		}
		evs = g.emit(evs, Event{Type: EvPass, Seat: a.Seat, Value: v})
		switch {
		case v == Mia && before != Mia && g.opts.MiaReveal == MiaRevealAtOnce:
			evs = g.reveal(evs, a.Seat)
		case g.miaCameBack() && g.opts.MiaPass == MiaPassWins:
			evs = g.miaBack(evs)
		}
	case Challenge:
		loser, lost := g.challengeLoser(a.Seat)
		lost = min(lost, g.lives[loser])
		evs = g.emit(evs, Event{Type: EvChallenge, Seat: a.Seat, Claimant: g.claimant, Claim: g.claim,
			Dice: g.dice, Loser: loser, LivesLost: lost})
		evs = g.endRound(evs, loser)
	case GiveUp:
		evs = g.emit(evs, Event{Type: EvGiveUp, Seat: a.Seat, LivesLost: g.cost(a.Seat)})
		evs = g.endRound(evs, a.Seat)
	case Timeout:
		evs = g.emit(evs, Event{Type: EvTimeout, Seat: a.Seat, LivesLost: g.cost(a.Seat)})
		evs = g.endRound(evs, a.Seat)
	case Leave:
		evs = g.leave(evs, a.Seat)
	}
	return evs
}

// miaCameBack reports whether the Mia on the table was announced by the
// roller of the dice in the cup and passed on by every other player, so
// that the turn is back at the roller (RULES.md, option mia-pass).
func (g *Game) miaCameBack() bool {
	return g.claim == Mia && g.miaOwn && g.turn == g.roller && g.phase == PhaseRespond
}

// check says why a is illegal now, or nil.
func (g *Game) check(a Action) error {
	if a.Kind < Roll || a.Kind > Leave {
		return ErrUnknownAction
	}
	if g.phase == PhaseOver {
		return ErrGameOver
	}
	if a.Seat < 0 || a.Seat >= len(g.lives) {
		return ErrNoSuchSeat
	}
	if g.lives[a.Seat] == 0 {
		return ErrSeatOut
	}
	if a.Kind == Leave {
		return nil
	}
	if a.Seat != g.turn {
		return ErrNotYourTurn
	}
	switch a.Kind {
	case Timeout:
		return nil
	case Roll:
		switch {
		case g.phase == PhaseAnnounce:
			return ErrMustAnnounce
		case g.phase == PhaseRespond && g.claim == Mia && !(g.opts.MiaPass == MiaPassReroll && g.miaCameBack()):
			return ErrMustAnswerMia
		}
		return nil
	case Claim:
		switch {
		case g.phase == PhaseOpen:
			return ErrMustRoll
		case g.phase != PhaseAnnounce:
			return ErrNothingToClaim
		case !a.Value.Valid():
			return ErrBadValue
		case g.opts.LowClaim == LowClaimLoses:
			return nil // a claim that is not higher stands, and costs a life
		}
		return g.checkHigher(a.Value, g.opts.EqualClaims)
	}
	// Pass, Challenge, GiveUp answer a standing claim.
	switch g.phase {
	case PhaseOpen:
		if a.Kind == Challenge && g.opts.LowClaim == LowClaimLoses {
			return nil // a challenge of nothing: it costs the challenger a life
		}
		return ErrMustRoll
	case PhaseAnnounce:
		return ErrMustAnnounce
	}
	switch a.Kind {
	case Pass:
		if !g.opts.Pass {
			return ErrPassDisabled
		}
		if g.claim == Mia && g.opts.MiaPass == MiaPassOff {
			return ErrMustAnswerMia
		}
		if a.Value != NoValue && !a.Value.Valid() {
			return ErrBadValue
		}
		if a.Value == NoValue || g.opts.Ranking.Compare(a.Value, g.claim) == 0 {
			if a.Seat == g.roller {
				return ErrOwnDice
			}
			return nil
		}
		return g.checkHigher(a.Value, false)
	case GiveUp:
		switch {
		case g.claim != Mia:
			return ErrNotMia
		case g.opts.MiaPass == MiaPassReroll && g.miaCameBack():
			return ErrMiaCameBack
		}
	}
	return nil
}

func (g *Game) checkHigher(v Value, equal bool) error {
	if g.claim == NoValue {
		return nil
	}
	c := g.opts.Ranking.Compare(v, g.claim)
	if c > 0 || (equal && c == 0) {
		return nil
	}
	return ErrNotHigher
}

// cost is what a life lost by seat now costs it: 1, or the Mia penalty
// under mia-penalty-both when the claim is Mia; never more than the lives
// it has.
func (g *Game) cost(seat int) int {
	n := 1
	if g.claim == Mia && g.opts.MiaPenaltyBoth {
		n = g.opts.MiaPenalty
	}
	return min(n, g.lives[seat])
}

// challengeLoser applies RULES.md "A challenge" and "Mia is announced".
func (g *Game) challengeLoser(challenger int) (loser, lives int) {
	switch {
	case g.claim == NoValue: // nothing claimed yet (low-claim loses)
		return challenger, 1
	case g.claim == Mia:
		if g.dice == Mia {
			return challenger, g.opts.MiaPenalty
		}
		if g.opts.MiaPenaltyBoth {
			return g.claimant, g.opts.MiaPenalty
		}
		return g.claimant, 1
	case g.opts.Ranking.Compare(g.dice, g.claim) < 0:
		return g.claimant, 1
	}
	return challenger, 1
}

// othersLose lists a loss for every living seat but seat, in seat order.
func (g *Game) othersLose(seat int) []Loss {
	losses := make([]Loss, 0, len(g.lives)-1)
	for s := range g.lives {
		if s != seat && g.lives[s] > 0 {
			losses = append(losses, Loss{Seat: s, LivesLost: g.cost(s)})
		}
	}
	return losses
}

// reveal lifts the cup on a Mia just announced by claimant (mia-reveal
// at-once): a Mia costs every other player, anything else the claimant.
func (g *Game) reveal(evs []Event, claimant int) []Event {
	if g.dice != Mia {
		evs = g.emit(evs, Event{Type: EvReveal, Seat: claimant, Claim: Mia, Dice: g.dice,
			Losses: []Loss{{Seat: claimant, LivesLost: g.cost(claimant)}}})
		return g.endRound(evs, claimant)
	}
	losses := g.othersLose(claimant)
	evs = g.emit(evs, Event{Type: EvReveal, Seat: claimant, Claim: Mia, Dice: g.dice, Losses: losses})
	return g.endRoundAll(evs, losses, claimant)
}

// miaBack ends a round whose Mia came back to its roller (mia-pass wins).
func (g *Game) miaBack(evs []Event) []Event {
	roller := g.roller
	losses := g.othersLose(roller)
	evs = g.emit(evs, Event{Type: EvMiaBack, Seat: roller, Losses: losses})
	return g.endRoundAll(evs, losses, roller)
}

// endRound follows a life lost by loser: out, end of game, or the next
// round opened as option next-opener says.
func (g *Game) endRound(evs []Event, loser int) []Event {
	if g.lives[loser] == 0 {
		evs = g.emit(evs, Event{Type: EvOut, Seat: loser})
	}
	var opener int
	switch {
	case g.opts.NextOpener == Loser && g.lives[loser] > 0:
		opener = loser
	case g.opts.NextOpener == BeforeLoser:
		opener = g.prev(loser)
	default:
		opener = g.next(loser)
	}
	return g.nextRound(evs, opener)
}

// endRoundAll follows losses falling on several players: their outs, in
// seat order, then the end of the game or the next round opened by opener.
func (g *Game) endRoundAll(evs []Event, losses []Loss, opener int) []Event {
	for _, l := range losses {
		if g.lives[l.Seat] == 0 {
			evs = g.emit(evs, Event{Type: EvOut, Seat: l.Seat})
		}
	}
	return g.nextRound(evs, opener)
}

// nextRound ends the game if it is decided, or opens the next round.
func (g *Game) nextRound(evs []Event, opener int) []Event {
	if w, over := g.decided(); over {
		return g.emit(evs, Event{Type: EvEnd, Winner: w})
	}
	return g.emit(evs, Event{Type: EvRound, Round: g.round + 1, Opener: opener})
}

// leave puts seat out. The round goes on unless the leaver had the turn or
// answers for the claim; then a new round opens with the player whose turn
// it was, or the next after the leaver.
func (g *Game) leave(evs []Event, seat int) []Event {
	evs = g.emit(evs, Event{Type: EvLeave, Seat: seat, LivesLost: g.lives[seat]})
	evs = g.emit(evs, Event{Type: EvOut, Seat: seat})
	if w, over := g.decided(); over {
		return g.emit(evs, Event{Type: EvEnd, Winner: w})
	}
	if seat != g.turn && seat != g.claimant {
		return evs
	}
	opener := g.turn
	if g.lives[opener] == 0 {
		opener = g.next(seat)
	}
	return g.emit(evs, Event{Type: EvRound, Round: g.round + 1, Opener: opener})
}

// decided reports whether the game is over, and its winner.
func (g *Game) decided() (int, bool) {
	alive := 0
	for _, l := range g.lives {
		if l > 0 {
			alive++
		}
	}
	if alive <= 1 || (g.opts.End == FirstOut && len(g.outOrder) > 0) {
		best := -1
		for s, l := range g.lives {
			if l > 0 && (best < 0 || l > g.lives[best]) {
				best = s
			}
		}
		return best, true
	}
	return -1, false
}

// next is the next living seat clockwise after seat.
func (g *Game) next(seat int) int {
	n := len(g.lives)
	for i := 1; i <= n; i++ {
		if s := (seat + i) % n; g.lives[s] > 0 {
			return s
		}
	}
	return seat
}

// prev is the living seat before seat, counter-clockwise.
func (g *Game) prev(seat int) int {
	n := len(g.lives)
	for i := 1; i <= n; i++ {
		if s := (seat - i + n) % n; g.lives[s] > 0 {
			return s
		}
	}
	return seat
}

// emit numbers e, applies it to the state and appends it to evs.
func (g *Game) emit(evs []Event, e Event) []Event {
	g.seq++
	e.Seq = g.seq
	g.apply(&e)
	return append(evs, e)
}

// apply moves the state by one event. Events reach it only from Apply (or
// from Replay through Apply), so they are already legal.
func (g *Game) apply(e *Event) {
	switch e.Type {
	case EvRound:
		g.round, g.turn, g.phase = e.Round, e.Opener, PhaseOpen
		g.claim, g.claimant, g.dice, g.roller, g.looked, g.miaOwn = NoValue, -1, NoValue, -1, false, false
	case EvRoll:
		if g.claim == Mia { // a Mia that came back, rolled again (mia-pass reroll): the claim is gone
			g.claim, g.claimant, g.miaOwn = NoValue, -1, false
		}
		g.dice, g.roller, g.looked, g.phase = e.Dice, e.Seat, e.Looked, PhaseAnnounce
		g.rolls++
	case EvClaim, EvPass:
		if e.Value == Mia && g.claim != Mia {
			g.miaOwn = e.Seat == g.roller
		}
		g.claim, g.claimant, g.phase = e.Value, e.Seat, PhaseRespond
		g.turn = g.next(e.Seat)
	case EvChallenge, EvLowClaim:
		g.lives[e.Loser] -= e.LivesLost
		g.lastLoss = e.Seq
	case EvReveal, EvMiaBack:
		for _, l := range e.Losses {
			g.lives[l.Seat] -= l.LivesLost
		}
		g.lastLoss = e.Seq
	case EvGiveUp, EvTimeout, EvLeave:
		g.lives[e.Seat] -= e.LivesLost
		g.lastLoss = e.Seq
	case EvOut:
		g.outOrder = append(g.outOrder, e.Seat)
		g.outAt = append(g.outAt, g.lastLoss)
	case EvEnd:
		g.winner, g.phase = e.Winner, PhaseOver
	}
}
