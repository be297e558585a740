package engine

import (
	"errors"
	"reflect"
	"testing"
)

// TestRefused puts a game in a state with a list of legal actions, then
// checks that one more action is refused with the given rule and changes
// nothing.
func TestRefused(t *testing.T) {
	noPass := func(o *Options) { o.Pass = false }
	oneLife := func(o *Options) { o.Lives = 1 }
	tests := []struct {
		name    string
		mod     func(*Options)
		players int
		dice    []Value
		setup   []Action
		refused Action
		rule    error
	}{
		{"roll out of turn", nil, 3, nil, nil, roll(1), ErrNotYourTurn},
		{"leave is not an answer: others still wait", nil, 3, []Value{52}, []Action{roll(0), claim(0, 52)}, challenge(2), ErrNotYourTurn},
		{"claim out of turn", nil, 3, []Value{52}, []Action{roll(0)}, claim(1, 52), ErrNotYourTurn},
		{"timeout out of turn", nil, 3, nil, nil, timeout(2), ErrNotYourTurn},
		{"the claimant answers his own claim", nil, 3, []Value{52}, []Action{roll(0), claim(0, 52)}, challenge(0), ErrNotYourTurn},
		{"claim lower", nil, 3, []Value{52, 43}, []Action{roll(0), claim(0, 52), roll(1)}, claim(1, 43), ErrNotHigher},
		{"claim equal", nil, 3, []Value{52, 43}, []Action{roll(0), claim(0, 52), roll(1)}, claim(1, 52), ErrNotHigher},
		{"claim a double below under classic", nil, 3, []Value{65, 43}, []Action{roll(0), claim(0, 11), roll(1)}, claim(1, 65), ErrNotHigher},
		{"claim 31 above little mia's doubles", func(o *Options) { o.Ranking = LittleMia }, 3, []Value{65, 43},
			[]Action{roll(0), claim(0, 31), roll(1)}, claim(1, 66), ErrNotHigher},
		{"equal claims still refuse lower", func(o *Options) { o.Pass, o.EqualClaims = false, true }, 3, []Value{52, 43},
			[]Action{roll(0), claim(0, 52), roll(1)}, claim(1, 51), ErrNotHigher},
		{"pass lower", nil, 3, []Value{52}, []Action{roll(0), claim(0, 52)}, passAs(1, 43), ErrNotHigher},
		{"raise on the own dice not higher", nil, 2, []Value{52}, []Action{roll(0), claim(0, 52), pass(1)}, passAs(0, 51), ErrNotHigher},
		{"pass own dice", nil, 2, []Value{52}, []Action{roll(0), claim(0, 52), pass(1)}, pass(0), ErrOwnDice},
		{"pass own dice named", nil, 2, []Value{52}, []Action{roll(0), claim(0, 52), pass(1)}, passAs(0, 52), ErrOwnDice},
		{"pass own dice unseen", nil, 3, []Value{52}, []Action{rollBlind(0), claim(0, 52), pass(1), pass(2)}, pass(0), ErrOwnDice},
		{"roll on Mia", nil, 3, []Value{21}, []Action{roll(0), claim(0, Mia)}, roll(1), ErrMustAnswerMia},
		{"pass Mia", nil, 3, []Value{21}, []Action{roll(0), claim(0, Mia)}, pass(1), ErrMustAnswerMia},
		{"pass Mia named", nil, 3, []Value{21}, []Action{roll(0), claim(0, Mia)}, passAs(1, Mia), ErrMustAnswerMia},
		{"roll on a raised Mia", nil, 3, []Value{52}, []Action{roll(0), claim(0, 52), passAs(1, Mia)}, roll(2), ErrMustAnswerMia},
		{"give up on 66", nil, 3, []Value{66}, []Action{roll(0), claim(0, 66)}, giveUp(1), ErrNotMia},
		{"give up at the open", nil, 3, nil, nil, giveUp(0), ErrMustRoll},
		{"game over", oneLife, 2, []Value{52}, []Action{roll(0), claim(0, 52), challenge(1)}, roll(0), ErrGameOver},
		{"leave after the game", oneLife, 2, []Value{52}, []Action{roll(0), claim(0, 52), challenge(1)}, leave(0), ErrGameOver},
		{"seat out rolls", oneLife, 3, []Value{31}, []Action{roll(0), claim(0, 52), challenge(1)}, roll(0), ErrSeatOut},
		{"seat out leaves", oneLife, 3, []Value{31}, []Action{roll(0), claim(0, 52), challenge(1)}, leave(0), ErrSeatOut},
		{"seat left leaves", nil, 3, nil, []Action{leave(2)}, leave(2), ErrSeatOut},
		{"pass disabled", noPass, 3, []Value{52}, []Action{roll(0), claim(0, 52)}, pass(1), ErrPassDisabled},
		{"raise disabled", noPass, 3, []Value{52}, []Action{roll(0), claim(0, 52)}, passAs(1, 66), ErrPassDisabled},
		{"claim before rolling", nil, 3, nil, nil, claim(0, 52), ErrMustRoll},
		{"pass at the open", nil, 3, nil, nil, pass(0), ErrMustRoll},
		{"challenge at the open", nil, 3, nil, nil, challenge(0), ErrMustRoll},
		{"roll twice", nil, 3, []Value{52}, []Action{roll(0)}, roll(0), ErrMustAnnounce},
		{"challenge instead of announcing", nil, 3, []Value{52, 43}, []Action{roll(0), claim(0, 52), roll(1)}, challenge(1), ErrMustAnnounce},
		{"pass instead of announcing", nil, 3, []Value{52, 43}, []Action{roll(0), claim(0, 52), roll(1)}, pass(1), ErrMustAnnounce},
		{"give up instead of announcing", nil, 3, []Value{52}, []Action{roll(0)}, giveUp(0), ErrMustAnnounce},
		{"claim while answering", nil, 3, []Value{52}, []Action{roll(0), claim(0, 52)}, claim(1, 64), ErrNothingToClaim},
		{"claim no value", nil, 3, []Value{52}, []Action{roll(0)}, claim(0, NoValue), ErrBadValue},
		{"claim 70", nil, 3, []Value{52}, []Action{roll(0)}, claim(0, 70), ErrBadValue},
		{"claim 12", nil, 3, []Value{52}, []Action{roll(0)}, claim(0, 12), ErrBadValue},
		{"pass 70", nil, 3, []Value{52}, []Action{roll(0), claim(0, 52)}, passAs(1, 70), ErrBadValue},
		{"kind 0", nil, 3, nil, nil, Action{Seat: 0}, ErrUnknownAction},
		{"kind 8", nil, 3, nil, nil, Action{Kind: 8, Seat: 0}, ErrUnknownAction},
		{"kind 255 after the game", oneLife, 2, []Value{52}, []Action{roll(0), claim(0, 52), challenge(1)}, Action{Kind: 255}, ErrUnknownAction},
		{"seat -1", nil, 3, nil, nil, roll(-1), ErrNoSuchSeat},
		{"seat 3 of 3", nil, 3, nil, nil, roll(3), ErrNoSuchSeat},
		{"spectator leaves", nil, 3, nil, nil, leave(Spectator), ErrNoSuchSeat},
		{"seat 99 times out", nil, 3, nil, nil, timeout(99), ErrNoSuchSeat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := newTable(t, rules(tt.mod), tt.players, script(0, tt.dice...))
			for _, a := range tt.setup {
				tb.do(a)
			}
			tb.refuse(tt.refused, tt.rule)
		})
	}
}

func TestRuleErrorText(t *testing.T) {
	err := error(&RuleError{Rule: ErrOwnDice, Action: pass(1)})
	if got, want := err.Error(), "pass: "+ErrOwnDice.Error(); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(err, ErrOwnDice) || errors.Is(err, ErrNotHigher) {
		t.Error("RuleError does not unwrap to its rule")
	}
	for k, want := range map[ActionKind]string{Roll: "roll", Claim: "claim", Pass: "pass", Challenge: "challenge",
		GiveUp: "give up", Timeout: "timeout", Leave: "leave", 0: "unknown action", 9: "unknown action"} {
		if k.String() != want {
			t.Errorf("Kind(%d).String() = %q, want %q", k, k.String(), want)
		}
	}
	for p, want := range map[Phase]string{PhaseOpen: "open", PhaseAnnounce: "announce", PhaseRespond: "respond", PhaseOver: "over", 9: "phase?"} {
		if p.String() != want {
			t.Errorf("Phase(%d).String() = %q, want %q", p, p.String(), want)
		}
	}
}

func TestEqualClaims(t *testing.T) {
	o := rules(func(o *Options) { o.Pass, o.EqualClaims = false, true })
	tb := newTable(t, o, 3, script(0, 52, 31, 11))
	tb.do(roll(0))
	tb.do(claim(0, 52))
	tb.do(roll(1))
	if v := tb.g.View(1); v.Claims[0] != 52 || len(v.Claims) != 21-Classic.Rank(52)+1 {
		t.Fatalf("equal claims: the choices %v must start at 52", v.Claims)
	}
	tb.do(claim(1, 52)) // at least equal
	tb.refuse(pass(2), ErrPassDisabled)
	tb.do(roll(2)) // 11
	tb.do(claim(2, 52))
	evs := tb.do(challenge(0))
	lost(t, evs, 0, 1) // 11 beats 52 under classic: the challenger loses
}

func TestChallengeOutcomes(t *testing.T) {
	tests := []struct {
		name          string
		r             Ranking
		dice, claim   Value
		claimantLoses bool
	}{
		{"lower dice: the liar", Classic, 43, 65, true},
		{"equal dice: the challenger", Classic, 65, 65, false},
		{"higher dice: the challenger", Classic, 66, 65, false},
		{"underclaimed double", AscendingDoubles, 22, 33, false},
		{"a double is not above 66 in ascending", AscendingDoubles, 66, 11, true},
		{"numeric 55 below 61", Numeric, 55, 61, true},
		{"little mia 31 above 66", LittleMia, 31, 66, false},
		{"classic 31 lowest", Classic, 31, 32, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := newTable(t, rules(func(o *Options) { o.Ranking = tt.r }), 3, script(0, tt.dice))
			tb.do(roll(0))
			tb.do(claim(0, tt.claim))
			evs := tb.do(challenge(1))
			want := Event{Seq: 4, Type: EvChallenge, Seat: 1, Claimant: 0, Claim: tt.claim, Dice: tt.dice, Loser: 1, LivesLost: 1}
			if tt.claimantLoses {
				want.Loser = 0
			}
			if !reflect.DeepEqual(evs[0], want) {
				t.Fatalf("got %+v, want %+v", evs[0], want)
			}
		})
	}
}

// TestMiaPenalties covers mia-penalty 1 and 2, mia-penalty-both (every life
// lost in a round whose claim is Mia costs the penalty: a wrong challenge,
// a caught Mia bluff, giving up, running out of time), and the cap at the
// lives left.
func TestMiaPenalties(t *testing.T) {
	tests := []struct {
		penalty int
		both    bool
		lives   int
		dice    Value
		act     func(int) Action
		loser   int // 0 the claimant, 1 the answering player
		lost    int
	}{
		{2, false, 6, Mia, challenge, 1, 2},
		{1, false, 6, Mia, challenge, 1, 1},
		{2, true, 6, Mia, challenge, 1, 2},
		{1, true, 6, Mia, challenge, 1, 1},
		{2, false, 6, 65, challenge, 0, 1},
		{1, false, 6, 65, challenge, 0, 1},
		{2, true, 6, 65, challenge, 0, 2},
		{1, true, 6, 65, challenge, 0, 1},
		{2, false, 6, Mia, giveUp, 1, 1},
		{2, true, 6, 31, giveUp, 1, 2},
		{2, true, 6, Mia, giveUp, 1, 2},
		{1, true, 6, Mia, giveUp, 1, 1},
		{2, false, 6, Mia, timeout, 1, 1},
		{2, true, 6, Mia, timeout, 1, 2},
		{2, true, 6, 43, timeout, 1, 2},
		{1, true, 6, 43, timeout, 1, 1},
		{2, true, 1, 43, giveUp, 1, 1},
		{2, false, 1, Mia, challenge, 1, 1}, // 2 due, 1 left: never negative
		{2, true, 1, 43, challenge, 0, 1},
		{2, false, 2, Mia, challenge, 1, 2},
	}
	for _, tt := range tests {
		o := rules(func(o *Options) { o.MiaPenalty, o.MiaPenaltyBoth, o.Lives = tt.penalty, tt.both, tt.lives })
		tb := newTable(t, o, 3, script(0, tt.dice, 52))
		tb.do(roll(0))
		tb.do(claim(0, Mia))
		evs := tb.do(tt.act(1))
		lost(t, evs, tt.loser, tt.lost)
		if l := tb.g.Lives(tt.loser); l != tt.lives-tt.lost || l < 0 {
			t.Errorf("%+v: loser has %d lives", tt, l)
		}
		if (tb.g.Lives(tt.loser) == 0) != (types(evs[1:2]) == "out") {
			t.Errorf("%+v: events %s", tt, types(evs))
		}
	}
}

// TestMiaByPass: a Mia announced by a blind raise is answered for by the
// passer, who loses if the dice are not Mia.
func TestMiaByPass(t *testing.T) {
	tb := newTable(t, DefaultOptions(), 3, script(0, 43))
	tb.do(roll(0))
	tb.do(claim(0, 52))
	tb.do(passAs(1, Mia))
	tb.refuse(roll(2), ErrMustAnswerMia)
	evs := tb.do(challenge(2))
	lost(t, evs, 1, 1)
	opened(t, evs, 2)
}

func TestNextOpener(t *testing.T) {
	tests := []struct {
		name    string
		no      NextOpener
		lives   int
		dice    Value
		actions []Action // with 4 players, seat 0 opening
		opener  int
	}{
		{"after-loser, liar caught: the challenger", AfterLoser, 6, 31, []Action{roll(0), claim(0, 52), challenge(1)}, 1},
		{"after-loser, challenger wrong: the one after him", AfterLoser, 6, 66, []Action{roll(0), claim(0, 52), challenge(1)}, 2},
		{"after-loser, give up", AfterLoser, 6, 31, []Action{roll(0), claim(0, 51), passAs(1, Mia), giveUp(2)}, 3},
		{"after-loser, timeout", AfterLoser, 6, 31, []Action{roll(0), claim(0, 51), timeout(1)}, 2},
		{"after-loser, last seat loses", AfterLoser, 6, 31, []Action{roll(0), claim(0, 51), pass(1), pass(2), passAs(3, 52), challenge(0)}, 0},
		{"after-loser, loser out", AfterLoser, 1, 31, []Action{roll(0), claim(0, 52), challenge(1)}, 1},
		{"after-loser, out seat skipped", AfterLoser, 1, 66, []Action{roll(0), claim(0, 52), leave(2), challenge(1)}, 3},
		{"loser, liar caught", Loser, 6, 31, []Action{roll(0), claim(0, 52), challenge(1)}, 0},
		{"loser, challenger wrong", Loser, 6, 66, []Action{roll(0), claim(0, 52), challenge(1)}, 1},
		{"loser, give up", Loser, 6, 31, []Action{roll(0), claim(0, Mia), giveUp(1)}, 1},
		{"loser, timeout at the open", Loser, 6, 31, []Action{timeout(0)}, 0},
		{"loser out: the next living", Loser, 1, 31, []Action{roll(0), claim(0, 52), challenge(1)}, 1},
		{"loser out, next out too", Loser, 1, 66, []Action{roll(0), claim(0, 52), leave(2), challenge(1)}, 3},
		{"before-loser, liar caught: the one before the liar", BeforeLoser, 6, 31, []Action{roll(0), claim(0, 52), challenge(1)}, 3},
		{"before-loser, challenger wrong: the claimant", BeforeLoser, 6, 66, []Action{roll(0), claim(0, 52), challenge(1)}, 0},
		{"before-loser, give up", BeforeLoser, 6, 31, []Action{roll(0), claim(0, 51), passAs(1, Mia), giveUp(2)}, 1},
		{"before-loser, timeout at the open", BeforeLoser, 6, 31, []Action{timeout(0)}, 3},
		{"before-loser, the first seat loses: wraps to the last", BeforeLoser, 6, 31, []Action{roll(0), claim(0, 51), pass(1), pass(2), passAs(3, 52), challenge(0)}, 2},
		{"before-loser, loser out", BeforeLoser, 1, 31, []Action{roll(0), claim(0, 52), challenge(1)}, 3},
		{"before-loser, out seat skipped", BeforeLoser, 6, 31, []Action{roll(0), claim(0, 52), pass(1), leave(0), challenge(2)}, 3},
		{"before-loser, loser and the one before out", BeforeLoser, 1, 31, []Action{roll(0), claim(0, 52), leave(3), challenge(1)}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := rules(func(o *Options) { o.NextOpener, o.Lives = tt.no, tt.lives })
			tb := newTable(t, o, 4, script(0, tt.dice))
			var evs []Event
			for _, a := range tt.actions {
				evs = tb.do(a)
			}
			opened(t, evs, tt.opener)
			if tb.g.Turn() != tt.opener || tb.g.Phase() != PhaseOpen || tb.g.Round() != 2 {
				t.Fatalf("turn %d phase %v round %d", tb.g.Turn(), tb.g.Phase(), tb.g.Round())
			}
			if v, c := tb.g.CurrentClaim(); v != NoValue || c != -1 {
				t.Fatalf("a new round starts without a claim, has %v by %d", v, c)
			}
		})
	}
}

// TestEnd covers option `end` and the standings.
func TestEnd(t *testing.T) {
	t.Run("first-out", func(t *testing.T) {
		o := rules(func(o *Options) { o.End, o.Lives = FirstOut, 2 })
		tb := newTable(t, o, 4, script(0))
		tb.do(timeout(0)) // 0: 1 life; seat 1 opens
		tb.do(timeout(1)) // 1: 1 life
		tb.do(timeout(2)) // 2: 1 life
		evs := tb.do(timeout(3))
		opened(t, evs, 0)
		evs = tb.do(timeout(0)) // 0 is out first: the game ends
		if got := types(evs); got != "timeout out end" {
			t.Fatalf("events %s", got)
		}
		if evs[2].Winner != 1 || tb.g.Winner() != 1 || !tb.g.Over() || tb.g.Phase() != PhaseOver {
			t.Fatalf("winner %d (event %d); all have 1 life, the lowest seat wins the tie", tb.g.Winner(), evs[2].Winner)
		}
		if st := tb.g.Standings(); !reflect.DeepEqual(st, []int{1, 2, 3, 0}) {
			t.Fatalf("standings %v", st)
		}
		tb.refuse(roll(1), ErrGameOver)
	})
	t.Run("first-out by lives", func(t *testing.T) {
		o := rules(func(o *Options) { o.End, o.Lives = FirstOut, 3 })
		tb := newTable(t, o, 4, script(1))
		tb.do(timeout(1)) // 1: 2
		tb.do(timeout(2)) // 2: 2
		tb.do(timeout(3)) // 3: 2
		tb.do(timeout(0)) // 0: 2
		tb.do(timeout(1)) // 1: 1
		tb.do(timeout(2)) // 2: 1
		tb.do(leave(3))
		if !tb.g.Over() || tb.g.Winner() != 0 {
			t.Fatalf("a leaver is out first: over %v winner %d", tb.g.Over(), tb.g.Winner())
		}
		if st := tb.g.Standings(); !reflect.DeepEqual(st, []int{0, 1, 2, 3}) {
			t.Fatalf("standings %v", st)
		}
	})
	t.Run("last-standing", func(t *testing.T) {
		o := rules(func(o *Options) { o.Lives = 2 })
		tb := newTable(t, o, 4, script(2))
		tb.do(timeout(2)) // 2: 1
		tb.do(timeout(3)) // 3: 1
		evs := tb.do(timeout(0))
		opened(t, evs, 1) // 0: 1
		evs = tb.do(timeout(1))
		opened(t, evs, 2) // 1: 1
		evs = tb.do(timeout(2))
		if got := types(evs); got != "timeout out round" || tb.g.Over() {
			t.Fatalf("one out of four: %s", got)
		}
		tb.do(timeout(3)) // 3 out, 0 opens
		evs = tb.do(timeout(0))
		if got := types(evs); got != "timeout out end" || evs[2].Winner != 1 || tb.g.Winner() != 1 {
			t.Fatalf("one left: %s %+v", got, evs)
		}
		tb.lives(0, 1, 0, 0)
		if st := tb.g.Standings(); !reflect.DeepEqual(st, []int{1, 0, 3, 2}) {
			t.Fatalf("standings %v", st)
		}
	})
	t.Run("last-standing ends with one left", func(t *testing.T) {
		o := rules(func(o *Options) { o.Lives = 1 })
		tb := newTable(t, o, 4, script(0))
		tb.do(timeout(0))
		if tb.g.Over() {
			t.Fatal("over after the first out")
		}
		tb.do(timeout(1))
		evs := tb.do(timeout(2))
		if got := types(evs); got != "timeout out end" || evs[2].Winner != 3 {
			t.Fatalf("events %s %+v", got, evs)
		}
		if st := tb.g.Standings(); !reflect.DeepEqual(st, []int{3, 2, 1, 0}) {
			t.Fatalf("standings %v: winner, then the last out first", st)
		}
		alive := 0
		for s := range 4 {
			if tb.g.Lives(s) > 0 {
				alive++
			}
		}
		if alive != 1 {
			t.Fatalf("%d winners", alive)
		}
	})
}

func TestLeave(t *testing.T) {
	t.Run("turn holder at the open", func(t *testing.T) {
		tb := newTable(t, DefaultOptions(), 4, script(1))
		evs := tb.do(leave(1))
		want := []Event{
			{Seq: 2, Type: EvLeave, Seat: 1, LivesLost: 6},
			{Seq: 3, Type: EvOut, Seat: 1},
			{Seq: 4, Type: EvRound, Round: 2, Opener: 2},
		}
		if !reflect.DeepEqual(evs, want) {
			t.Fatalf("got %+v\nwant %+v", evs, want)
		}
		tb.lives(6, 0, 6, 6)
	})
	t.Run("turn holder after rolling", func(t *testing.T) {
		tb := newTable(t, DefaultOptions(), 3, script(0, 52, 43))
		tb.do(roll(0))
		tb.do(claim(0, 52))
		tb.do(roll(1))
		evs := tb.do(leave(1))
		if types(evs) != "leave out round" || evs[2].Opener != 2 {
			t.Fatalf("%+v", evs)
		}
		if tb.g.View(1).Dice != NoValue || tb.g.Phase() != PhaseOpen || tb.g.Turn() != 2 {
			t.Fatal("the new round must start empty, with 2 to open")
		}
	})
	t.Run("turn holder facing a claim", func(t *testing.T) {
		tb := newTable(t, DefaultOptions(), 3, script(0, 52))
		tb.do(roll(0))
		tb.do(claim(0, 52))
		evs := tb.do(leave(1))
		opened(t, evs, 2)
		tb.lives(6, 0, 6)
	})
	t.Run("claimant", func(t *testing.T) {
		tb := newTable(t, DefaultOptions(), 4, script(0, 52))
		tb.do(roll(0))
		tb.do(claim(0, 52))
		tb.do(pass(1))
		evs := tb.do(leave(1)) // answers for 52: the round is void, 2 whose turn it was opens
		opened(t, evs, 2)
		if evs[2].Round != 2 {
			t.Fatalf("%+v", evs)
		}
	})
	t.Run("bystander", func(t *testing.T) {
		tb := newTable(t, DefaultOptions(), 4, script(0, 52))
		tb.do(roll(0))
		tb.do(claim(0, 52))
		evs := tb.do(leave(3))
		if types(evs) != "leave out" {
			t.Fatalf("the round goes on: %s", types(evs))
		}
		if tb.g.Turn() != 1 || tb.g.Phase() != PhaseRespond || tb.g.Round() != 1 {
			t.Fatalf("turn %d phase %v", tb.g.Turn(), tb.g.Phase())
		}
		tb.do(pass(1))
		tb.do(pass(2))
		if tb.g.Turn() != 0 {
			t.Fatalf("the cup skips the leaver: turn %d", tb.g.Turn())
		}
		tb.refuse(pass(0), ErrOwnDice)
	})
	t.Run("roller who no longer answers", func(t *testing.T) {
		tb := newTable(t, DefaultOptions(), 3, script(0, 31))
		tb.do(roll(0))
		tb.do(claim(0, 52))
		tb.do(pass(1))
		evs := tb.do(leave(0)) // neither turn holder nor claimant
		if types(evs) != "leave out" {
			t.Fatalf("%s", types(evs))
		}
		evs = tb.do(challenge(2))
		lost(t, evs, 1, 1) // the dice 0 left behind are judged
		opened(t, evs, 2)
	})
	t.Run("the last opponent leaves", func(t *testing.T) {
		tb := newTable(t, DefaultOptions(), 2, script(0, 52))
		tb.do(roll(0))
		tb.do(claim(0, 52))
		evs := tb.do(leave(0))
		want := []Event{
			{Seq: 4, Type: EvLeave, Seat: 0, LivesLost: 6},
			{Seq: 5, Type: EvOut, Seat: 0},
			{Seq: 6, Type: EvEnd, Winner: 1},
		}
		if !reflect.DeepEqual(evs, want) {
			t.Fatalf("got %+v", evs)
		}
		if !reflect.DeepEqual(tb.g.Standings(), []int{1, 0}) {
			t.Fatalf("standings %v", tb.g.Standings())
		}
		tb.refuse(leave(1), ErrGameOver)
	})
	t.Run("leaver with fewer lives", func(t *testing.T) {
		tb := newTable(t, DefaultOptions(), 3, script(0))
		tb.do(timeout(0))
		tb.do(timeout(1))
		evs := tb.do(leave(0))
		if evs[0].LivesLost != 5 || tb.g.Lives(0) != 0 {
			t.Fatalf("%+v", evs[0])
		}
	})
}

func TestTimeout(t *testing.T) {
	for _, tt := range []struct {
		name  string
		setup []Action
		seat  int
	}{
		{"at the open", nil, 0},
		{"after rolling", []Action{roll(0)}, 0},
		{"facing a claim", []Action{roll(0), claim(0, 52)}, 1},
		{"facing Mia", []Action{roll(0), claim(0, Mia)}, 1},
		{"own dice back", []Action{roll(0), claim(0, 52), pass(1), pass(2)}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tb := newTable(t, DefaultOptions(), 3, script(0, 52))
			for _, a := range tt.setup {
				tb.do(a)
			}
			tb.refuse(timeout((tt.seat+1)%3), ErrNotYourTurn)
			evs := tb.do(timeout(tt.seat))
			lost(t, evs, tt.seat, 1)
			if !reflect.DeepEqual(evs[0], Event{Seq: evs[0].Seq, Type: EvTimeout, Seat: tt.seat, LivesLost: 1}) {
				t.Fatalf("%+v", evs[0])
			}
			opened(t, evs, (tt.seat+1)%3)
		})
	}
}

// TestLivesNeverNegative loses more lives than are left in every way the
// rules allow.
func TestLivesNeverNegative(t *testing.T) {
	o := rules(func(o *Options) { o.Lives, o.MiaPenaltyBoth = 1, true })
	for _, dice := range []Value{Mia, 43} {
		tb := newTable(t, o, 2, script(0, dice))
		tb.do(roll(0))
		tb.do(claim(0, Mia))
		evs := tb.do(challenge(1))
		if evs[0].LivesLost != 1 || tb.g.Lives(evs[0].Loser) != 0 {
			t.Fatalf("dice %v: %+v, lives %d", dice, evs[0], tb.g.Lives(evs[0].Loser))
		}
		if types(evs) != "challenge out end" {
			t.Fatalf("%s", types(evs))
		}
	}
}

// TestAppendApply checks that AppendApply appends exactly Apply's events,
// leaves dst alone on a refusal, and allocates nothing with a reused
// buffer.
func TestAppendApply(t *testing.T) {
	r := newPCG(9)
	g, _, _ := New(DefaultOptions(), 4, r)
	buf := []Event{{Seq: -1}}
	for !g.Over() {
		a := randomAction(r, g, 20)
		c := g.Clone()
		seed := uint64(r.Intn(1 << 30)) // both games roll the same dice
		g.src, c.src = newPCG(seed), newPCG(seed)
		want, werr := c.Apply(a)
		got, err := g.AppendApply(buf, a)
		if (err == nil) != (werr == nil) || !reflect.DeepEqual(got[1:], want) && len(want) > 0 {
			t.Fatalf("%+v: AppendApply %v %v, Apply %v %v", a, got, err, want, werr)
		}
		if err != nil && (len(got) != 1 || &got[0] != &buf[0]) {
			t.Fatalf("refused %+v: dst changed to %v", a, got)
		}
		if !sameGame(g, c) {
			t.Fatalf("%+v: the games differ", a)
		}
		g.src = r
	}
	// No allocation per action with a reused buffer.
	o := rules(func(o *Options) { o.Lives = 9 })
	g, _, _ = New(o, 3, newPCG(1))
	buf = make([]Event, 0, maxEvents)
	allocs := testing.AllocsPerRun(100, func() {
		t := g.Turn()
		for _, a := range []Action{roll(t), claim(t, 41), pass((t + 1) % 3), challenge((t + 2) % 3)} {
			buf, _ = g.AppendApply(buf[:0], a)
		}
		if g.Lives(0) == 1 || g.Lives(1) == 1 || g.Lives(2) == 1 {
			g.lives[0], g.lives[1], g.lives[2] = 9, 9, 9
		}
	})
	if allocs != 0 {
		t.Errorf("AppendApply allocates %.1f times per round", allocs)
	}
}

// TestMiaPenaltyBothOnlyFacingMia: under mia-penalty-both a life lost in a
// round whose claim is not Mia still costs 1.
func TestMiaPenaltyBothOnlyFacingMia(t *testing.T) {
	o := rules(func(o *Options) { o.MiaPenaltyBoth = true })
	for _, act := range []func(int) Action{timeout, challenge} {
		tb := newTable(t, o, 3, script(0, 43))
		tb.do(roll(0))
		tb.do(claim(0, 65))
		lost(t, tb.do(act(1)), map[bool]int{true: 1, false: 0}[act(1).Kind == Timeout], 1)
	}
	tb := newTable(t, o, 3, script(0))
	lost(t, tb.do(timeout(0)), 0, 1) // nothing claimed yet
}
