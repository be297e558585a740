package words

import (
	"fmt"
	"strings"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby/ident"
)

// Narrator tells a game's events in words. It is the one narration of the
// game: the table's live log, the replay screen and the text replay all
// say an event the way it does. It tells the dice the events hold: a
// viewer's redacted copy hides other players' rolls, a finished game's
// log shows them all.
type Narrator struct {
	Names   []string       // display names by seat
	You     int            // the viewer's seat, told as "you"; -1 for none
	Ranking engine.Ranking // the game's ranking, to judge passes
	// Turn is whose turn it is while the game runs (who holds the cup
	// after the last claim); -1 once it is over.
	Turn int
}

// ReplaySeat is a finished game's player as ReplayNarrator tells them:
// their name now, and whether a program played the seat.
type ReplaySeat struct {
	Name string
	Bot  bool
}

// ReplayNarrator tells a finished game to nobody in particular, every
// die shown: the replay command and the replay screen. seats are the
// game's players by seat; the names are cleaned, and bots' marked
// (Label), as the table shows them.
func ReplayNarrator(seats []ReplaySeat, r engine.Ranking) Narrator {
	n := Narrator{Names: make([]string, len(seats)), You: -1, Ranking: r, Turn: -1}
	for i, s := range seats {
		n.Names[i] = Label(Clean(s.Name, ident.MaxNameLen), s.Bot)
	}
	return n
}

// name is the display name of seat.
func (n Narrator) name(seat int) string {
	if seat >= 0 && seat < len(n.Names) {
		return n.Names[seat]
	}
	return "?"
}

// Who is seat's name, or "you" for the viewer's.
func (n Narrator) Who(seat int) string { return n.who(seat) }

// who is seat's name, or "you" for the viewer's.
func (n Narrator) who(seat int) string {
	if seat == n.You && seat >= 0 {
		return "you"
	}
	return n.name(seat)
}

// does is "seat verb": "bob loses", "you lose".
func (n Narrator) does(seat int, verb string) string { return n.who(seat) + " " + n.verb(seat, verb) }

// botMark follows a built-in bot's name wherever the game's words show it.
const botMark = " [bot]"

// MaxLabelLen is the longest Label, in runes.
const MaxLabelLen = ident.MaxNameLen + len(botMark)

// Label is a player's name as the log, the standings and the replay show
// it: a bot's marked, "ada [bot]"; a person's as it is.
func Label(name string, bot bool) string {
	if bot {
		return name + botMark
	}
	return name
}

// lives is a number of lives lost in words: "a life", "2 lives".
func lives(k int) string { return Plural(k, "a life", "lives") }

// claim is a claimed value as the table's ranking speaks it: "Mia",
// "64", "9 pips".
func (n Narrator) claim(v engine.Value) string { return n.rank().Name(v) }

// dice are the dice of a cup in words (DiceName).
func (n Narrator) dice(v engine.Value) string { return DiceName(n.rank(), v) }

// DiceName is how the dice of a cup are said under ranking r: "43", "Mia",
// and under pips with their rank: "54 (9 pips)".
func DiceName(r engine.Ranking, v engine.Value) string {
	if name := r.Name(v); name != v.Name() {
		return v.Name() + " (" + name + ")"
	}
	return v.Name()
}

// ClaimWords is the claim on the table in words, in three parts so that a
// door can dress each: Lead, then Value (the claim itself, the part a
// door marks out), then By ("by" and the claimant). Put together: "No
// claim yet", "Claim: 65 by bob", "Claim: double 1s by bob", "Mia! by
// bob".
type ClaimWords struct {
	Lead  string // "Claim: ", or "No claim yet" when nothing is claimed
	Value string // "65", "7 pips", "Mia!"; empty when nothing is claimed
	By    string // " by bob"; empty when nothing is claimed
}

// String is the words put together: "Claim: 65 by bob".
func (c ClaimWords) String() string { return c.Lead + c.Value + c.By }

// ClaimWords is the claim standing at the table in words: claim, made
// by seat claimant (told as "you" for the viewer's), as the ranking
// names it. NoValue, or a claimant below 0, is no claim yet. It is the
// one way every door names the claim on the table: the table screen,
// the replay screen and the web's table and game pages.
func (n Narrator) ClaimWords(claim engine.Value, claimant int) ClaimWords {
	switch {
	case claim == engine.NoValue || claimant < 0:
		return ClaimWords{Lead: "No claim yet"}
	case claim == engine.Mia:
		return ClaimWords{Value: "Mia!", By: " by " + n.who(claimant)}
	}
	return ClaimWords{Lead: "Claim: ", Value: n.claim(claim), By: " by " + n.who(claimant)}
}

// CupWords is what the cup holds at a step of a replay, in the same
// three parts as ClaimWords: "In the cup: " + "63 (9 pips)" + " (bob's
// roll, seen)", or "The cup is empty" when no one rolled (roller below
// 0). The dice are named as DiceName names them; a door draws their
// faces before Value if it likes. The one way both replays (the screen
// and the web's game page) say it.
func (n Narrator) CupWords(cup engine.Value, roller int, looked bool) ClaimWords {
	if roller < 0 || !cup.Valid() {
		return ClaimWords{Lead: "The cup is empty"}
	}
	how := "seen"
	if !looked {
		how = "unseen"
	}
	return ClaimWords{Lead: "In the cup: ", Value: DiceName(n.rank(), cup), By: " (" + n.whose(roller) + " roll, " + how + ")"}
}

// Won is a finished game's winner in words, as the replays end: "bob
// won the game".
func (n Narrator) Won(winner int) string { return n.name(winner) + " won the game" }

// rank is the table's ranking (classic when unset).
func (n Narrator) rank() engine.Ranking {
	if n.Ranking == "" {
		return engine.Classic
	}
	return n.Ranking
}

// whose is seat's in the possessive: "bob's", "your".
func (n Narrator) whose(seat int) string {
	if seat == n.You && seat >= 0 {
		return "your"
	}
	return n.name(seat) + "'s"
}

// losses is a loss falling on several players in words: "bob and carol
// lose a life", "you lose 2 lives", "bob loses a life and carol loses 2
// lives".
func (n Narrator) losses(ls []engine.Loss) string {
	if len(ls) == 0 {
		return "nobody loses a life"
	}
	same := true
	for _, l := range ls {
		same = same && l.LivesLost == ls[0].LivesLost
	}
	if same {
		if len(ls) == 1 {
			return n.does(ls[0].Seat, "lose") + " " + lives(ls[0].LivesLost)
		}
		who := make([]string, len(ls))
		for i, l := range ls {
			who[i] = n.who(l.Seat)
		}
		return andList(who) + " lose " + lives(ls[0].LivesLost)
	}
	each := make([]string, len(ls))
	for i, l := range ls {
		each[i] = n.does(l.Seat, "lose") + " " + lives(l.LivesLost)
	}
	return andList(each)
}

// andList joins words: "a", "a and b", "a, b and c".
func andList(w []string) string {
	if len(w) < 2 {
		return strings.Join(w, "")
	}
	return strings.Join(w[:len(w)-1], ", ") + " and " + w[len(w)-1]
}

// Round is the start of a round in words: "round 2: carol opens".
func (n Narrator) Round(e engine.Event) string {
	return fmt.Sprintf("round %d: %s", e.Round, n.does(e.Opener, "open"))
}

// Heading is Round as a heading: "Round 2: carol opens".
func (n Narrator) Heading(e engine.Event) string {
	r := n.Round(e)
	return strings.ToUpper(r[:1]) + r[1:]
}

// Line is evs[i] in words: "— round 1: alice opens —", "bob passed 65 to
// you", "carol called alice a liar: 43, alice loses a life". It is empty
// for an event it does not tell.
func (n Narrator) Line(evs []engine.Event, i int) string {
	e := evs[i]
	switch e.Type {
	case engine.EvRound:
		return "— " + n.Round(e) + " —"
	case engine.EvRoll:
		line := n.who(e.Seat) + " rolled"
		if i > 0 && evs[i-1].Type == engine.EvPass && evs[i-1].Value == engine.Mia && n.miaCameBack(evs, i) {
			line = n.whose(e.Seat) + " Mia came back round: " + n.who(e.Seat) + " rolled again"
		}
		if e.Dice != engine.NoValue {
			line += " " + n.dice(e.Dice)
		}
		if !e.Looked {
			line += " without looking"
		}
		return line
	case engine.EvClaim, engine.EvPass:
		line := fmt.Sprintf("%s announced %s", n.who(e.Seat), n.claim(e.Value))
		if e.Type == engine.EvPass {
			line = fmt.Sprintf("%s passed %s", n.who(e.Seat), n.claim(e.Value))
			if before, ok := claimBefore(evs, i); ok && before != e.Value {
				// a pass that raises: the cup goes on unseen with a higher claim
				line = fmt.Sprintf("%s raised blind to %s and passed", n.who(e.Seat), n.claim(e.Value))
			}
		}
		if r := n.receiver(evs, i); r >= 0 {
			line += " to " + n.who(r)
		}
		return line
	case engine.EvChallenge:
		if e.Claimant < 0 {
			return fmt.Sprintf("%s challenged before anything was claimed and %s %s", n.who(e.Seat),
				n.verb(e.Seat, "lose"), lives(e.LivesLost))
		}
		return fmt.Sprintf("%s called %s a liar: %s, %s %s", n.who(e.Seat), n.who(e.Claimant), n.dice(e.Dice),
			n.does(e.Loser, "lose"), lives(e.LivesLost))
	case engine.EvReveal:
		return fmt.Sprintf("%s Mia is shown at once: %s, %s", n.whose(e.Seat), n.dice(e.Dice), n.losses(e.Losses))
	case engine.EvLowClaim:
		return fmt.Sprintf("%s announced %s, not above %s, and %s %s", n.who(e.Seat), n.claim(e.Value),
			n.claim(e.Claim), n.verb(e.Loser, "lose"), lives(e.LivesLost))
	case engine.EvMiaBack:
		return fmt.Sprintf("%s Mia came back round: %s", n.whose(e.Seat), n.losses(e.Losses))
	case engine.EvGiveUp:
		return fmt.Sprintf("%s gave up against Mia and %s %s", n.who(e.Seat), n.verb(e.Seat, "lose"), lives(e.LivesLost))
	case engine.EvTimeout:
		return fmt.Sprintf("%s ran out of time and %s %s", n.who(e.Seat), n.verb(e.Seat, "lose"), lives(e.LivesLost))
	case engine.EvLeave:
		line := n.who(e.Seat) + " left the game"
		if e.LivesLost > 0 {
			line += fmt.Sprintf(" and %s %s", n.verb(e.Seat, "lose"), lives(e.LivesLost))
		}
		return line
	case engine.EvOut:
		if e.Seat == n.You {
			return "you are out"
		}
		return n.name(e.Seat) + " is out"
	case engine.EvEnd:
		if e.Winner == n.You {
			return "you win the game!"
		}
		return n.name(e.Winner) + " wins the game"
	}
	return ""
}

// claimBefore is the claim standing before evs[i], in its round.
func claimBefore(evs []engine.Event, i int) (engine.Value, bool) {
	for j := i - 1; j >= 0; j-- {
		switch evs[j].Type {
		case engine.EvClaim, engine.EvPass:
			return evs[j].Value, true
		case engine.EvRound:
			return engine.NoValue, false
		}
	}
	return engine.NoValue, false
}

// verb is verb as seat's: "lose" for the viewer, "loses" for others.
func (n Narrator) verb(seat int, verb string) string {
	if seat == n.You && seat >= 0 {
		return verb
	}
	return verb + "s"
}

// miaCameBack reports whether the roll at i is a roller's new roll after
// their own Mia came back to them (mia-pass reroll): the round's last claim
// before it is their Mia, passed on by everyone since.
func (n Narrator) miaCameBack(evs []engine.Event, i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch evs[j].Type {
		case engine.EvPass:
			continue
		case engine.EvClaim:
			return evs[j].Seat == evs[i].Seat && evs[j].Value == engine.Mia
		}
		return false
	}
	return false
}

// receiver is who took the cup after the claim or pass at i, or -1: the
// next to act in its round; when a leave ends the round first (the
// receiver, or the claimant, left the game), the next seat after the
// claimant that was still in it.
func (n Narrator) receiver(evs []engine.Event, i int) int {
	left := false
	for j := i + 1; j < len(evs); j++ {
		switch evs[j].Type {
		case engine.EvRoll, engine.EvClaim, engine.EvPass, engine.EvChallenge, engine.EvGiveUp, engine.EvTimeout, engine.EvMiaBack:
			return evs[j].Seat
		case engine.EvLeave:
			left = true
		case engine.EvRound, engine.EvEnd, engine.EvReveal:
			if left {
				return n.nextIn(evs, i)
			}
			return -1
		}
	}
	return n.Turn
}

// nextIn is the seat after evs[i]'s, clockwise, that was not out before
// it, or -1.
func (n Narrator) nextIn(evs []engine.Event, i int) int {
	out := make([]bool, len(n.Names))
	for _, e := range evs[:i] {
		if e.Type == engine.EvOut && e.Seat >= 0 && e.Seat < len(out) {
			out[e.Seat] = true
		}
	}
	for k := 1; k < len(out); k++ {
		if s := (evs[i].Seat + k) % len(out); !out[s] {
			return s
		}
	}
	return -1
}

// Verdict judges evs[i] by the bluff rule (engine.Judge) and says the
// verdict in words: "bluff: 65 claimed, 43 in the cup", "understated: 7
// pips claimed, 65 (11 pips) in the cup", "the dice were below the claim:
// 65 passed on, 43 in the cup" (a pass of dice its passer never saw: no
// bluff), "caught: 43 under bob's 65, bob loses a life". The words are
// empty when it is Unjudged.
func (n Narrator) Verdict(evs []engine.Event, i int) (engine.Verdict, string) {
	e := evs[i]
	v := engine.Judge(n.Ranking, evs, i)
	if v == engine.Unjudged {
		return v, ""
	}
	switch e.Type {
	case engine.EvChallenge, engine.EvReveal:
		claimant, lost := e.Claimant, n.does(e.Loser, "lose")+" "+lives(e.LivesLost)
		if e.Type == engine.EvReveal {
			claimant, lost = e.Seat, n.losses(e.Losses)
		}
		if v == engine.Caught {
			return v, fmt.Sprintf("caught: %s under %s %s, %s", n.dice(e.Dice), n.whose(claimant), n.claim(e.Claim), lost)
		}
		return v, fmt.Sprintf("the %s stood: %s in the cup, %s", n.claim(e.Claim), n.dice(e.Dice), lost)
	}
	roll, _ := engine.LastRoll(evs[:i])
	what := n.claim(e.Value) + " claimed"
	if e.Type == engine.EvPass {
		what = n.claim(e.Value) + " passed on"
		if before, ok := claimBefore(evs, i); ok && before != e.Value {
			what = "raised to " + n.claim(e.Value)
		}
	}
	word := map[engine.Verdict]string{engine.Truthful: "true", engine.Unseen: "blind", engine.Bluffed: "bluff",
		engine.Understated: "understated", engine.Short: Mark(engine.Short)}[v]
	if v == engine.Unseen {
		what += " unseen"
	}
	return v, fmt.Sprintf("%s: %s, %s in the cup", word, what, n.dice(roll.Dice))
}

// Mark is a verdict's short mark after a line of the log: "bluff!",
// "understated", "caught bluffing!", "blind", "the claim stood", "the
// dice were below the claim" (a pass, or blind raise, above dice its
// passer never saw: no bluff); empty for a truthful or unjudged move.
func Mark(v engine.Verdict) string {
	switch v {
	case engine.Bluffed:
		return "bluff!"
	case engine.Short:
		return "the dice were below the claim"
	case engine.Understated:
		return "understated"
	case engine.Caught:
		return "caught bluffing!"
	case engine.Unseen:
		return "blind"
	case engine.Stood:
		return "the claim stood"
	}
	return ""
}

// EndsRound reports whether an event of type t ends a round (a
// challenge, a give-up, a timeout, a low claim, a revealed Mia, a Mia
// come back).
func EndsRound(t engine.EventType) bool {
	switch t {
	case engine.EvChallenge, engine.EvGiveUp, engine.EvTimeout, engine.EvLowClaim, engine.EvReveal, engine.EvMiaBack:
		return true
	}
	return false
}

// Told is evs[i] in words with its verdict's Mark, as the replay and the
// lifted cup tell it: "carol called bob a liar: 43, bob loses a life —
// caught bluffing!", "alice announced 7 pips — understated". It is empty
// for an event Line does not tell.
func (n Narrator) Told(evs []engine.Event, i int) string {
	line := n.Line(evs, i)
	if line == "" {
		return ""
	}
	if v, _ := n.Verdict(evs, i); Mark(v) != "" {
		line += " — " + Mark(v)
	}
	return line
}

// Lifted tells the end of a round at evs[i] as the lifted cup shows it:
// a heading, the dice shown (NoValue when the cup stayed shut: a give-up,
// a timeout, a low claim), and the words: the claim it judged, named as
// the log names claims ("the claim: 7 pips by bob"), then Told ("carol
// called bob a liar: 65 (11 pips), carol loses a life — the claim
// stood"). ok is false for an event that ends no round.
func (n Narrator) Lifted(evs []engine.Event, i int) (heading string, dice engine.Value, words []string, ok bool) {
	e := evs[i]
	if !EndsRound(e.Type) {
		return "", engine.NoValue, nil, false
	}
	heading, dice = "Round over", engine.NoValue
	if e.Type == engine.EvChallenge || e.Type == engine.EvReveal {
		heading, dice = "The cup is lifted", e.Dice
	}
	if e.Type == engine.EvChallenge && e.Claim != engine.NoValue {
		words = append(words, "the claim: "+n.claim(e.Claim)+" by "+n.who(e.Claimant))
	}
	return heading, dice, append(words, n.Told(evs, i)), true
}
