package words

import (
	"fmt"
	"strings"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby/ident"
)

// The table said aloud: what a door that says rather than draws (the
// plain mode) tells of a table, one sentence at a time, the important
// part first. A game's events are the narrator's (Line, Heading); these
// are the sentences around them: whose turn it is, what the clock says,
// the seats, the table as a list shows it.

// Sentence ends words as a sentence: a full stop unless they end in one
// already ("you win the game!").
func Sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s[len(s)-1:], ".!?") {
		return s
	}
	return s + "."
}

// Aloud is evs[i] as one sentence: the round's start as a heading
// ("Round 2: carol opens."), any other event as Line tells it ("bob
// passed 65 to you.", "You rolled 43."; a name is never changed, you
// is capital). It is empty for an event Line does not tell.
func (n Narrator) Aloud(evs []engine.Event, i int) string {
	if evs[i].Type == engine.EvRound {
		return Sentence(n.Heading(evs[i]))
	}
	s := Sentence(n.Line(evs, i))
	if rest, ok := cutYou(s, "you"); ok {
		s = "You" + rest
	}
	return s
}

// cutYou is s without the word you (spelled as you) it begins with: the
// viewer, not a name that begins so ("young", "you.r"); ok is false when
// s does not begin with it.
func cutYou(s, you string) (rest string, ok bool) {
	rest, ok = strings.CutPrefix(s, you)
	if ok && (rest == "" || rest[0] == ' ' || rest[0] == '\'') {
		return rest, true
	}
	return s, false
}

// YourTurn is said when the viewer is to act: before the sentence of the
// event that handed them the turn ("Your turn: bob announced 9 pips to
// you."), or, with no such event (the viewer came back, the table
// resumed), with the claim they face ("Your turn. Claim: 9 pips by
// bob."). An event that has a colon of its own (a round's start) comes
// after a full stop: "Your turn. Round 2: you open."
func (n Narrator) YourTurn(event string, v engine.View) string {
	if strings.Contains(event, ": ") {
		return "Your turn. " + event
	}
	if event != "" {
		if rest, ok := cutYou(event, "You"); ok { // the sentence goes on after a colon
			event = "you" + rest
		}
		return "Your turn: " + event
	}
	return "Your turn. " + Sentence(n.ClaimWords(v.Claim, v.Claimant).String())
}

// TimeLeft is the turn clock said: "10 seconds left."
func TimeLeft(left time.Duration) string {
	secs := int((left + time.Second/2) / time.Second)
	return Plural(secs, "1 second", "seconds") + " left."
}

// Seats tells the seats of a game, one part each, in seat order: the
// name (you for the viewer), the lives, out, away (its player not at the
// table) and whose turn it is: "you, 4 lives, your turn", "bob [bot], a
// life", "carol, out".
func (n Narrator) Seats(lives []int, away []bool) []string {
	out := make([]string, len(lives))
	for s, l := range lives {
		part := n.who(s)
		switch {
		case l <= 0:
			part += ", out"
		default:
			part += ", " + Plural(l, "1 life", "lives")
		}
		if s < len(away) && away[s] && l > 0 {
			part += ", away"
		}
		if s == n.Turn && l > 0 {
			if s == n.You {
				part += ", your turn"
			} else {
				part += ", to play"
			}
		}
		out[s] = part
	}
	return out
}

// Where is where a running game stands, as one says it to someone who
// comes to it: "Game 12, round 3. Claim: 65 by bob. carol's turn." (for
// the viewer's own turn: "Your turn.").
func (n Narrator) Where(game string, v engine.View) string {
	var b strings.Builder
	b.WriteString(GameAt(game, v.Round) + " ")
	b.WriteString(Sentence(n.ClaimWords(v.Claim, v.Claimant).String()))
	switch {
	case v.Phase == engine.PhaseOver:
	case v.Turn == n.You:
		b.WriteString(" Your turn.")
	default:
		b.WriteString(" " + Sentence(n.whose(v.Turn)+" turn"))
	}
	return b.String()
}

// GameAt is the game and its round: "Game 12, round 3."
func GameAt(game string, round int) string { return fmt.Sprintf("Game %s, round %d.", game, round) }

// GameStarts is said as a game begins: its number and its players in
// seat order, bots marked: "Game 12 starts: alice, you and ada [bot], 3
// lives each."
func (n Narrator) GameStarts(game string, lives int) string {
	who := make([]string, len(n.Names))
	for s := range n.Names {
		who[s] = n.who(s)
	}
	return fmt.Sprintf("Game %s starts: %s, %s each.", game, andList(who), Plural(lives, "1 life", "lives"))
}

// Standings are a finished game's players, first to last, as labels
// (Label): "Standings: 1 bob, 2 alice, 3 ada [bot]."
func Standings(labels []string) string {
	parts := make([]string, len(labels))
	for i, l := range labels {
		parts[i] = fmt.Sprintf("%d %s", i+1, l)
	}
	return "Standings: " + strings.Join(parts, ", ") + "."
}

// TableSays is a table as a list says it, in one sentence: "ann-table,
// hosted by ann: 2 of 4 seats taken, waiting; classic, 6 lives, 60s a
// turn." state is TableState's.
func TableSays(name, host string, taken, seats int, state string, private bool, rules engine.Options) string {
	kind := ""
	if private {
		kind = ", private"
	}
	return fmt.Sprintf("%s, hosted by %s: %d of %d seats taken, %s%s; %s.", Clean(name, ident.MaxNameLen),
		Clean(host, ident.MaxNameLen), taken, seats, state, kind, RulesSummary(rules))
}

// Beaten is a value one may claim with the chance that a fresh roll
// beats it, as a list of claims says it: "64, beaten 47% of the time".
func Beaten(r engine.Ranking, v engine.Value) string {
	return fmt.Sprintf("%s, beaten %s of the time", r.Name(v), Percent(r.ChanceToBeat(v), 36))
}

// BackAt is said once to a player who comes back to a table where their
// game runs: "You are back at club, in your game: you have 4 lives."
func BackAt(table string, lives int) string {
	return fmt.Sprintf("You are back at %s, in your game: you have %s.", Clean(table, ident.MaxNameLen),
		Plural(lives, "1 life", "lives"))
}

// PlainOffer offers the plain mode to someone the screens may not
// serve, before the command line that opens it (ssh -t HOST plain) and
// PlainOrSet after it.
const (
	PlainOffer = "Screen reader or simple terminal? Reconnect in the plain mode:"
	PlainOrSet = "(or set ACCESSIBLE=1)"
)
