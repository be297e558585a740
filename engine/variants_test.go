package engine

import (
	"reflect"
	"slices"
	"testing"
)

// The options of RULES.md beyond the classic rules, each with its rare
// paths: scripted scenarios on three or four players, seat 0 opening.

// refusal is an action that must be refused, with its rule.
type refusal struct {
	a    Action
	rule error
}

// scenario plays setup, checks the refusals, plays last and checks its
// events, the lives, and who opens next (or who won).
type scenario struct {
	name    string
	mod     func(*Options)
	players int
	dice    []Value
	setup   []Action
	refused []refusal
	last    Action
	types   string // the events of last
	lives   []int
	next    int // the next opener, or the winner when the game is over
	check   func(t *testing.T, tb *table, evs []Event)
}

func (sc scenario) run(t *testing.T) {
	t.Run(sc.name, func(t *testing.T) {
		tb := newTable(t, rules(sc.mod), sc.players, script(0, sc.dice...))
		for _, a := range sc.setup {
			tb.do(a)
		}
		for _, r := range sc.refused {
			tb.refuse(r.a, r.rule)
		}
		evs := tb.do(sc.last)
		if got := types(evs); got != sc.types {
			t.Fatalf("events %s, want %s (%+v)", got, sc.types, evs)
		}
		tb.lives(sc.lives...)
		if tb.g.Over() {
			if tb.g.Winner() != sc.next {
				t.Fatalf("winner %d, want %d", tb.g.Winner(), sc.next)
			}
		} else if sc.types != "roll" && sc.types != "claim" && sc.types != "pass" {
			opened(t, evs, sc.next)
		}
		if sc.check != nil {
			sc.check(t, tb, evs)
		}
		g, err := Replay(tb.g.Options(), sc.players, tb.events, nil)
		if err != nil || !sameGame(g, tb.g) {
			t.Fatalf("replay: %v", err)
		}
	})
}

// then is first followed by the changes more.
func then(first func(*Options), more []func(*Options)) func(*Options) {
	return func(o *Options) {
		first(o)
		for _, m := range more {
			m(o)
		}
	}
}

// losses checks the losses of the event of type typ in evs.
func losses(t *testing.T, evs []Event, typ EventType, seat int, want ...Loss) {
	t.Helper()
	for _, e := range evs {
		if e.Type == typ {
			if e.Seat != seat || !reflect.DeepEqual(e.Losses, want) {
				t.Fatalf("%s: seat %d losses %v, want seat %d losses %v", typ, e.Seat, e.Losses, seat, want)
			}
			return
		}
	}
	t.Fatalf("no %s in %s", typ, types(evs))
}

func TestPips(t *testing.T) {
	pips := func(o *Options) { o.Ranking = Pips }
	for _, sc := range []scenario{
		{name: "a claim is written as the highest of its rank", mod: pips, players: 3, dice: []Value{43},
			setup: []Action{roll(0)}, last: claim(0, 54), types: "claim", lives: []int{6, 6, 6},
			check: func(t *testing.T, tb *table, evs []Event) {
				if evs[0].Value != 63 {
					t.Fatalf("claim of 54 written %v, want 63 (9 pips)", evs[0].Value)
				}
				if v := tb.g.View(1); v.Claim != 63 || v.Passes[0] != 63 || v.Passes[1] != 64 {
					t.Fatalf("facing 9 pips: claim %v passes %v", v.Claim, v.Passes)
				}
			}},
		{name: "another member of the rank is not higher", mod: pips, players: 3, dice: []Value{43, 55},
			setup: []Action{roll(0), claim(0, 63), roll(1)}, refused: []refusal{{claim(1, 54), ErrNotHigher}, {claim(1, 63), ErrNotHigher}},
			last: claim(1, 62+2), types: "claim", lives: []int{6, 6, 6}},
		{name: "passing another member is passing the same claim", mod: pips, players: 3, dice: []Value{43},
			setup: []Action{roll(0), claim(0, 61)}, last: passAs(1, 43), types: "pass", lives: []int{6, 6, 6},
			check: func(t *testing.T, tb *table, evs []Event) {
				if evs[0].Value != 61 {
					t.Fatalf("pass of 43 on 7 pips written %v", evs[0].Value)
				}
			}},
		{name: "the roller may not pass its dice as another member", mod: pips, players: 2, dice: []Value{43},
			setup: []Action{roll(0), claim(0, 61), pass(1)}, refused: []refusal{{passAs(0, 52), ErrOwnDice}, {passAs(0, 43), ErrOwnDice}},
			last: passAs(0, 51+11), types: "pass", lives: []int{6, 6}},
		{name: "a tie in a challenge: 54 under a claim of 63, the challenger loses", mod: pips, players: 3, dice: []Value{54},
			setup: []Action{roll(0), claim(0, 63)}, last: challenge(1), types: "challenge round", lives: []int{6, 5, 6}, next: 2,
			check: func(t *testing.T, tb *table, evs []Event) {
				if evs[0].Dice != 54 || evs[0].Claim != 63 || evs[0].Loser != 1 {
					t.Fatalf("%+v", evs[0])
				}
			}},
		{name: "a tie three ways: 43 under 7 pips passed on", mod: pips, players: 3, dice: []Value{43},
			setup: []Action{roll(0), claim(0, 52), pass(1)}, last: challenge(2), types: "challenge round", lives: []int{6, 6, 5}, next: 0},
		{name: "a lower sum: 62 under 9 pips, the claimant loses", mod: pips, players: 3, dice: []Value{62},
			setup: []Action{roll(0), claim(0, 54)}, last: challenge(1), types: "challenge round", lives: []int{5, 6, 6}, next: 1},
		{name: "the doubles rank above 11 pips", mod: pips, players: 3, dice: []Value{65, 11},
			setup: []Action{roll(0), claim(0, 65), roll(1), claim(1, 11)}, last: challenge(2), types: "challenge round", lives: []int{6, 6, 5}, next: 0},
	} {
		sc.run(t)
	}
	tb := newTable(t, rules(pips), 3, script(0, 43, 52))
	tb.do(roll(0))
	want := []Value{31, 41, 51, 61, 62, 63, 64, 65, 11, 22, 33, 44, 55, 66, 21}
	if v := tb.g.View(0); !slices.Equal(v.Claims, want) {
		t.Fatalf("opening claims %v, want one per rank %v", v.Claims, want)
	}
	tb.do(claim(0, 43))
	tb.do(roll(1))
	if v := tb.g.View(1); !slices.Equal(v.Claims, want[4:]) {
		t.Fatalf("claims above 7 pips %v, want %v", v.Claims, want[4:])
	}
}

func TestMiaPass(t *testing.T) {
	with := func(mp MiaPass, more ...func(*Options)) func(*Options) {
		return then(func(o *Options) { o.MiaPass = mp }, more)
	}
	roundTrip := []Action{roll(0), claim(0, Mia), pass(1)} // and pass(2) brings it back
	for _, sc := range []scenario{
		{name: "off: a Mia may not be passed", mod: with(MiaPassOff), players: 3, dice: []Value{21},
			setup: []Action{roll(0), claim(0, Mia)}, refused: []refusal{{pass(1), ErrMustAnswerMia}, {passAs(1, Mia), ErrMustAnswerMia}},
			last: challenge(1), types: "challenge round", lives: []int{6, 4, 6}, next: 2},
		{name: "reroll: back at its roller, no giving up and no passing; rolling again clears the claim",
			mod: with(MiaPassReroll), players: 3, dice: []Value{21, 31},
			setup: append(roundTrip, pass(2)),
			refused: []refusal{{giveUp(0), ErrMiaCameBack}, {pass(0), ErrOwnDice}, {passAs(0, Mia), ErrOwnDice},
				{claim(0, 31), ErrNothingToClaim}, {challenge(1), ErrNotYourTurn}},
			last: roll(0), types: "roll", lives: []int{6, 6, 6},
			check: func(t *testing.T, tb *table, _ []Event) {
				if v, c := tb.g.CurrentClaim(); v != NoValue || c != -1 {
					t.Fatalf("the claim %v by %d stands after rolling again", v, c)
				}
				if v := tb.g.View(0); len(v.Claims) != 21 || v.MiaComesBack || v.LowClaims != nil {
					t.Fatalf("after rolling again the roller announces anything: %+v", v)
				}
				tb.do(claim(0, 31)) // as an opener: no minimum
			}},
		{name: "reroll: the roller challenges the last passer over a true Mia and loses the penalty",
			mod: with(MiaPassReroll), players: 3, dice: []Value{21}, setup: append(roundTrip, pass(2)),
			last: challenge(0), types: "challenge round", lives: []int{4, 6, 6}, next: 1,
			check: func(t *testing.T, _ *table, evs []Event) {
				if evs[0].Claimant != 2 {
					t.Fatalf("the last passer answers for the Mia: %+v", evs[0])
				}
			}},
		{name: "reroll: a bluffed Mia back at its roller: the last passer is caught", mod: with(MiaPassReroll), players: 3,
			dice: []Value{43}, setup: append(roundTrip, pass(2)), last: challenge(0), types: "challenge round", lives: []int{6, 6, 5}, next: 0},
		{name: "reroll: running out of time on a Mia that came back, mia-penalty-both", players: 3,
			mod: with(MiaPassReroll, func(o *Options) { o.MiaPenaltyBoth = true }), dice: []Value{21},
			setup: append(roundTrip, pass(2)), last: timeout(0), types: "timeout round", lives: []int{4, 6, 6}, next: 1},
		{name: "reroll: the roller's own raise to Mia comes back too", mod: with(MiaPassReroll), players: 3, dice: []Value{21, 44},
			setup:   []Action{roll(0), claim(0, 52), pass(1), pass(2), passAs(0, Mia), pass(1), pass(2)},
			refused: []refusal{{giveUp(0), ErrMiaCameBack}}, last: roll(0), types: "roll", lives: []int{6, 6, 6}},
		{name: "reroll: two players, one pass brings it back", mod: with(MiaPassReroll), players: 2, dice: []Value{21, 11},
			setup: []Action{roll(0), claim(0, Mia), pass(1)}, last: roll(0), types: "roll", lives: []int{6, 6}},
		{name: "wins: back at its roller, every other player loses a life and the roller opens", mod: with(MiaPassWins), players: 3,
			dice: []Value{21}, setup: roundTrip, last: pass(2), types: "pass mia_back round", lives: []int{6, 5, 5}, next: 0,
			check: func(t *testing.T, _ *table, evs []Event) {
				losses(t, evs, EvMiaBack, 0, Loss{1, 1}, Loss{2, 1})
			}},
		{name: "wins: a bluffed Mia that comes back wins as well", mod: with(MiaPassWins), players: 3,
			dice: []Value{43}, setup: roundTrip, last: pass(2), types: "pass mia_back round", lives: []int{6, 5, 5}, next: 0},
		{name: "wins under mia-penalty-both: every loser loses the penalty", players: 3, dice: []Value{21},
			mod:   with(MiaPassWins, func(o *Options) { o.MiaPenaltyBoth = true }),
			setup: roundTrip, last: pass(2), types: "pass mia_back round", lives: []int{6, 4, 4}, next: 0},
		{name: "wins under before-loser: still the roller opens", players: 3, dice: []Value{21},
			mod:   with(MiaPassWins, func(o *Options) { o.NextOpener = BeforeLoser }),
			setup: roundTrip, last: pass(2), types: "pass mia_back round", lives: []int{6, 5, 5}, next: 0},
		{name: "wins with one life: three players out at once, the roller wins", players: 4, dice: []Value{21},
			mod:   with(MiaPassWins, func(o *Options) { o.Lives = 1 }),
			setup: []Action{roll(0), claim(0, Mia), pass(1), pass(2)}, last: pass(3), types: "pass mia_back out out out end",
			lives: []int{1, 0, 0, 0}, next: 0,
			check: func(t *testing.T, tb *table, evs []Event) {
				if st := tb.g.Standings(); !reflect.DeepEqual(st, []int{0, 1, 2, 3}) {
					t.Fatalf("standings %v: those out together in seat order", st)
				}
				if evs[2].Seat != 1 || evs[3].Seat != 2 || evs[4].Seat != 3 {
					t.Fatalf("outs %+v", evs[2:5])
				}
			}},
		{name: "wins, lives capped: 2 lives, penalty 2 both, one at 1 life", players: 3, dice: []Value{31, 21},
			mod:   with(MiaPassWins, func(o *Options) { o.Lives, o.MiaPenaltyBoth = 2, true }),
			setup: []Action{roll(0), claim(0, 41), challenge(1), roll(1), claim(1, Mia), pass(2)}, last: pass(0),
			types: "pass mia_back out out end", lives: []int{0, 2, 0}, next: 1,
			check: func(t *testing.T, _ *table, evs []Event) {
				losses(t, evs, EvMiaBack, 1, Loss{0, 1}, Loss{2, 2})
			}},
		{name: "wins: a Mia raised blind does not come back; its roller must answer it", mod: with(MiaPassWins), players: 3,
			dice: []Value{43}, setup: []Action{roll(0), claim(0, 52), passAs(1, Mia), pass(2)},
			refused: []refusal{{pass(0), ErrOwnDice}, {roll(0), ErrMustAnswerMia}},
			last:    giveUp(0), types: "give_up round", lives: []int{5, 6, 6}, next: 1},
		{name: "wins: an out seat is skipped on the way round", mod: with(MiaPassWins), players: 4, dice: []Value{21},
			setup: []Action{leave(2), roll(0), claim(0, Mia), pass(1)}, last: pass(3), types: "pass mia_back round",
			lives: []int{6, 5, 0, 5}, next: 0},
	} {
		sc.run(t)
	}
	// The view tells who may pass a Mia, and that it comes back.
	tb := newTable(t, rules(with(MiaPassWins)), 3, script(0, 21))
	tb.do(roll(0))
	tb.do(claim(0, Mia))
	if v := tb.g.View(1); !slices.Equal(v.Passes, []Value{Mia}) || !v.Can(Pass) || !v.Can(GiveUp) || !v.MiaComesBack {
		t.Fatalf("facing a Mia under mia-pass wins: %+v", v)
	}
}

func TestMiaRevealAtOnce(t *testing.T) {
	atOnce := func(more ...func(*Options)) func(*Options) {
		return then(func(o *Options) { o.MiaReveal = MiaRevealAtOnce }, more)
	}
	for _, sc := range []scenario{
		{name: "a true Mia: every other player loses, the claimant opens", mod: atOnce(), players: 3, dice: []Value{21},
			setup: []Action{roll(0)}, last: claim(0, Mia), types: "claim reveal round", lives: []int{6, 5, 5}, next: 0,
			check: func(t *testing.T, _ *table, evs []Event) {
				losses(t, evs, EvReveal, 0, Loss{1, 1}, Loss{2, 1})
				if evs[1].Claim != Mia || evs[1].Dice != Mia {
					t.Fatalf("%+v", evs[1])
				}
			}},
		{name: "a false Mia: the claimant loses, after-loser opens", mod: atOnce(), players: 3, dice: []Value{43},
			setup: []Action{roll(0)}, last: claim(0, Mia), types: "claim reveal round", lives: []int{5, 6, 6}, next: 1,
			check: func(t *testing.T, _ *table, evs []Event) {
				losses(t, evs, EvReveal, 0, Loss{0, 1})
				if evs[1].Dice != 43 {
					t.Fatalf("%+v", evs[1])
				}
			}},
		{name: "a false Mia under next-opener loser", mod: atOnce(func(o *Options) { o.NextOpener = Loser }), players: 3,
			dice: []Value{43}, setup: []Action{roll(0)}, last: claim(0, Mia), types: "claim reveal round", lives: []int{5, 6, 6}, next: 0},
		{name: "a blind raise to Mia is revealed at once", mod: atOnce(), players: 3, dice: []Value{43},
			setup: []Action{roll(0), claim(0, 52)}, last: passAs(1, Mia), types: "pass reveal round", lives: []int{6, 5, 6}, next: 2},
		{name: "a blind raise to a Mia that is there", mod: atOnce(), players: 3, dice: []Value{21},
			setup: []Action{roll(0), claim(0, 52)}, last: passAs(1, Mia), types: "pass reveal round", lives: []int{5, 6, 5}, next: 1},
		{name: "mia-penalty-both: every loss is the penalty", mod: atOnce(func(o *Options) { o.MiaPenaltyBoth = true }),
			players: 3, dice: []Value{21}, setup: []Action{roll(0)}, last: claim(0, Mia), types: "claim reveal round",
			lives: []int{6, 4, 4}, next: 0},
		{name: "mia-penalty-both, false Mia", mod: atOnce(func(o *Options) { o.MiaPenaltyBoth = true }),
			players: 3, dice: []Value{65}, setup: []Action{roll(0)}, last: claim(0, Mia), types: "claim reveal round",
			lives: []int{4, 6, 6}, next: 1},
		{name: "one life: everyone else out at once, the claimant wins", mod: atOnce(func(o *Options) { o.Lives = 1 }),
			players: 4, dice: []Value{21}, setup: []Action{roll(0)}, last: claim(0, Mia), types: "claim reveal out out out end",
			lives: []int{1, 0, 0, 0}, next: 0},
		{name: "maexchen: a true Mia ends the game", mod: func(o *Options) { *o, _ = Preset(PresetMaexchen) },
			players: 3, dice: []Value{21}, setup: []Action{roll(0)}, last: claim(0, Mia), types: "claim reveal out out end",
			lives: []int{1, 0, 0}, next: 0},
		{name: "maexchen: a false Mia ends it too, the lower seat wins the tie", mod: func(o *Options) { *o, _ = Preset(PresetMaexchen) },
			players: 3, dice: []Value{42}, setup: []Action{roll(0)}, last: claim(0, Mia), types: "claim reveal out end",
			lives: []int{0, 1, 1}, next: 1,
			check: func(t *testing.T, tb *table, _ []Event) {
				if st := tb.g.Standings(); !reflect.DeepEqual(st, []int{1, 2, 0}) {
					t.Fatalf("standings %v", st)
				}
			}},
	} {
		sc.run(t)
	}
}

func TestLowClaim(t *testing.T) {
	loses := func(more ...func(*Options)) func(*Options) {
		return then(func(o *Options) { o.LowClaim = LowClaimLoses }, more)
	}
	for _, sc := range []scenario{
		{name: "refused: a lower claim is refused", players: 3, dice: []Value{52, 43},
			setup: []Action{roll(0), claim(0, 52), roll(1)}, refused: []refusal{{claim(1, 43), ErrNotHigher}, {claim(1, 52), ErrNotHigher}},
			last: claim(1, 53), types: "claim", lives: []int{6, 6, 6}},
		{name: "loses: a lower claim stands and costs a life", mod: loses(), players: 3, dice: []Value{52, 43},
			setup: []Action{roll(0), claim(0, 52), roll(1)}, last: claim(1, 43), types: "low_claim round", lives: []int{6, 5, 6}, next: 2,
			check: func(t *testing.T, _ *table, evs []Event) {
				want := Event{Seq: evs[0].Seq, Type: EvLowClaim, Seat: 1, Value: 43, Claim: 52, Loser: 1, LivesLost: 1}
				if !reflect.DeepEqual(evs[0], want) {
					t.Fatalf("%+v, want %+v", evs[0], want)
				}
			}},
		{name: "loses: an equal claim too", mod: loses(), players: 3, dice: []Value{52, 43},
			setup: []Action{roll(0), claim(0, 52), roll(1)}, last: claim(1, 52), types: "low_claim round", lives: []int{6, 5, 6}, next: 2},
		{name: "loses with equal-claims: an equal claim stands", mod: loses(func(o *Options) { o.Pass, o.EqualClaims = false, true }),
			players: 3, dice: []Value{52, 43}, setup: []Action{roll(0), claim(0, 52), roll(1)}, last: claim(1, 52), types: "claim", lives: []int{6, 6, 6}},
		{name: "loses with equal-claims: a lower one loses", mod: loses(func(o *Options) { o.Pass, o.EqualClaims = false, true }),
			players: 3, dice: []Value{52, 43}, setup: []Action{roll(0), claim(0, 52), roll(1)}, last: claim(1, 51), types: "low_claim round",
			lives: []int{6, 5, 6}, next: 2},
		{name: "loses: the first claim of a round has no minimum", mod: loses(), players: 3, dice: []Value{52},
			setup: []Action{roll(0)}, last: claim(0, 31), types: "claim", lives: []int{6, 6, 6}},
		{name: "loses: the first claim of the next round neither", mod: loses(), players: 3, dice: []Value{52, 66},
			setup: []Action{roll(0), claim(0, 66), challenge(1), roll(1)}, last: claim(1, 31), types: "claim", lives: []int{5, 6, 6}},
		{name: "loses: a Mia come back and rolled again leaves no claim to beat", players: 3, dice: []Value{21, 55},
			mod:   loses(func(o *Options) { o.MiaPass = MiaPassReroll }),
			setup: []Action{roll(0), claim(0, Mia), pass(1), pass(2), roll(0)}, last: claim(0, 31), types: "claim", lives: []int{6, 6, 6}},
		{name: "loses: a challenge before any claim costs the challenger", mod: loses(), players: 3,
			last: challenge(0), types: "challenge round", lives: []int{5, 6, 6}, next: 1,
			check: func(t *testing.T, _ *table, evs []Event) {
				want := Event{Seq: evs[0].Seq, Type: EvChallenge, Seat: 0, Claimant: -1, Loser: 0, LivesLost: 1}
				if !reflect.DeepEqual(evs[0], want) {
					t.Fatalf("%+v, want %+v", evs[0], want)
				}
			}},
		{name: "loses: after rolling, a challenge is still refused", mod: loses(), players: 3, dice: []Value{52},
			setup: []Action{roll(0)}, refused: []refusal{{challenge(0), ErrMustAnnounce}}, last: claim(0, 52), types: "claim", lives: []int{6, 6, 6}},
		{name: "loses: a lower blind raise is still refused", mod: loses(), players: 3, dice: []Value{52},
			setup: []Action{roll(0), claim(0, 52)}, refused: []refusal{{passAs(1, 43), ErrNotHigher}},
			last: passAs(1, 53), types: "pass", lives: []int{6, 6, 6}},
		{name: "loses under pips: another member of the rank loses", mod: loses(func(o *Options) { o.Ranking = Pips }),
			players: 3, dice: []Value{52, 43}, setup: []Action{roll(0), claim(0, 63), roll(1)}, last: claim(1, 54),
			types: "low_claim round", lives: []int{6, 5, 6}, next: 2,
			check: func(t *testing.T, _ *table, evs []Event) {
				if evs[0].Value != 63 || evs[0].Claim != 63 {
					t.Fatalf("%+v", evs[0])
				}
			}},
		{name: "maexchen: a low claim ends the game", mod: func(o *Options) { *o, _ = Preset(PresetMaexchen) },
			players: 3, dice: []Value{52, 43}, setup: []Action{roll(0), claim(0, 52), roll(1)}, last: claim(1, 51),
			types: "low_claim out end", lives: []int{1, 0, 1}, next: 0},
		{name: "maexchen: seeing before the first roll ends the game", mod: func(o *Options) { *o, _ = Preset(PresetMaexchen) },
			players: 3, last: challenge(0), types: "challenge out end", lives: []int{0, 1, 1}, next: 1},
	} {
		sc.run(t)
	}
	// The view: at the open a challenge is offered; after a claim the low
	// values are listed apart.
	tb := newTable(t, rules(loses()), 3, script(0, 52, 43))
	if v := tb.g.View(0); !reflect.DeepEqual(v.Legal, []ActionKind{Roll, Challenge, Timeout, Leave}) {
		t.Fatalf("at the open: %v", v.Legal)
	}
	tb.do(roll(0))
	if v := tb.g.View(0); v.LowClaims != nil || len(v.Claims) != 21 {
		t.Fatalf("opening: claims %v low %v", v.Claims, v.LowClaims)
	}
	tb.do(claim(0, 61))
	tb.do(roll(1))
	v := tb.g.View(1)
	if !slices.Equal(v.LowClaims, Classic.AtLeast(31)[:Classic.Rank(61)]) || !slices.Equal(v.Claims, Classic.Above(61)) {
		t.Fatalf("facing 61: claims %v low %v", v.Claims, v.LowClaims)
	}
}

// TestManySeats plays twelve seats (seed 004: "maxplayers: 12").
func TestManySeats(t *testing.T) {
	o := rules(func(o *Options) { o.Lives = 1 })
	tb := newTable(t, o, MaxSeats, script(11))
	for s := 11; s > 1; s-- {
		tb.do(timeout(tb.g.Turn()))
	}
	if tb.g.Over() || tb.g.Players() != 12 {
		t.Fatalf("over %v with %d players", tb.g.Over(), tb.g.Players())
	}
	evs := tb.do(timeout(tb.g.Turn()))
	if !tb.g.Over() || types(evs) != "timeout out end" {
		t.Fatalf("events %s", types(evs))
	}
	if st := tb.g.Standings(); len(st) != 12 || st[0] != tb.g.Winner() || st[11] != 11 {
		t.Fatalf("standings %v", st)
	}
}
