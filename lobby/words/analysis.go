package words

import (
	"fmt"
	"strings"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/solver"
)

// The analysis of a finished game (engine/solver): a mark beside a move,
// the move the solved strategy prefers, and each player's accuracy.

// MoveWords is a move of the model in words, as the player facing
// claim under ranking r makes it: "roll", "roll without looking",
// "announce 54", "pass", "raise to 66", "challenge", "give up".
func MoveWords(r engine.Ranking, facing engine.Value, mv solver.Move) string {
	switch mv.Kind {
	case solver.MoveRoll:
		if mv.Look {
			return "roll"
		}
		return "roll without looking"
	case solver.MoveClaim:
		return "announce " + r.Name(mv.Value)
	case solver.MoveLowClaim:
		return "announce less (and lose a life)"
	case solver.MovePass:
		if r.Compare(mv.Value, facing) == 0 {
			return "pass"
		}
		return "raise to " + r.Name(mv.Value)
	case solver.MoveChallenge:
		if facing == engine.NoValue {
			return "challenge before any claim"
		}
		return "challenge"
	case solver.MoveGiveUp:
		return "give up"
	}
	return "?"
}

// Odds is a choice's probability as a share: "87%", "<1%" for a move
// the strategy makes, but seldom.
func Odds(p float64) string {
	switch {
	case p >= 0.995:
		return "100%"
	case p > 0 && p < 0.005:
		return "<1%"
	}
	return fmt.Sprintf("%.0f%%", 100*p)
}

// Best is the best move of a verdict and how often the strategy makes
// it: "best: roll (played 87%)".
func Best(j solver.Judgement) string {
	b := j.Choices[j.Best]
	return fmt.Sprintf("best: %s (played %s)", MoveWords(j.Rules.Ranking, j.Facing(), b.Move), Odds(b.Prob))
}

// Strategy lists the moves the strategy makes at a verdict's decision,
// the likeliest first, at most n: "roll 87%, challenge 13%".
func Strategy(j solver.Judgement, n int) string {
	idx := make([]int, 0, len(j.Choices))
	for i, c := range j.Choices {
		if c.Prob >= 0.005 {
			idx = append(idx, i)
		}
	}
	for a := 1; a < len(idx); a++ { // few moves: insertion sort, the likeliest first
		for b := a; b > 0 && j.Choices[idx[b]].Prob > j.Choices[idx[b-1]].Prob; b-- {
			idx[b], idx[b-1] = idx[b-1], idx[b]
		}
	}
	if len(idx) > n {
		idx = idx[:n]
	}
	parts := make([]string, len(idx))
	for k, i := range idx {
		parts[k] = MoveWords(j.Rules.Ranking, j.Facing(), j.Choices[i].Move) + " " + Odds(j.Choices[i].Prob)
	}
	return strings.Join(parts, ", ")
}

// Lives is a number of lives given away: "0.12 lives".
func Lives(x float64) string { return fmt.Sprintf("%.2f lives", x) }

// Judged is a verdict in a line: its mark and what it means, what the
// move gave away and the best move, "?! an inaccuracy: gave away 0.04
// lives; best: roll (played 87%)"; "a best move" for a move that gave nothing
// away.
func Judged(j solver.Judgement) string {
	if j.Mark == solver.Good {
		if j.Chosen == j.Best || j.Loss < 0.005 {
			return "a best move"
		}
		return fmt.Sprintf("gave away %s; %s", Lives(j.Loss), Best(j))
	}
	return fmt.Sprintf("%s %s: gave away %s; %s", j.Mark, MarkName(j.Mark), Lives(j.Loss), Best(j))
}

// MarkName is what a mark means: "an inaccuracy", "a mistake", "a
// blunder" ("" for none).
func MarkName(m solver.Mark) string {
	return [...]string{"", "an inaccuracy", "a mistake", "a blunder"}[min(int(m), 3)]
}

// Marked is a line of a replay with its move's mark after it, if any.
func Marked(line string, m solver.Mark) string {
	if m == solver.Good {
		return line
	}
	return line + " " + m.String()
}

// Accuracy is a player's moves summed up: "accuracy 87% · 0.04 lives
// given away a move · 23 moves: 2 ?!, 1 ?, 0 ??".
func Accuracy(s solver.Summary) string {
	if s.Decisions == 0 {
		return "no moves judged"
	}
	return fmt.Sprintf("accuracy %.0f%% · %.2f lives given away a move · %s: %d ?!, %d ?, %d ??",
		s.Accuracy(), s.PerDecision(), Plural(s.Decisions, "1 move", "moves"),
		s.Marks[solver.Inaccuracy], s.Marks[solver.Mistake], s.Marks[solver.Blunder])
}

// AnalysisNote says what the verdicts are and how far to trust them.
func AnalysisNote(exact bool) string {
	note := "Marks by the solved heads-up strategy: ?! inaccuracy, ? mistake, ?? blunder (lives given away against the best move, as the player knew the game then)."
	if !exact {
		note += " With more than two players, or a claim passed back twice, a verdict is an approximation."
	}
	return note
}

// JudgedBy is the verdict on a move of name's, said (Judged): "ann's
// move: ?! gave away 0.04 lives; best: roll (played 87%)".
func JudgedBy(name, said string) string {
	return name + "'s move: " + said
}

// StrategyLine is what the solved strategy plays at a verdict's
// decision, for the player who faced it: "the strategy here: roll 87%,
// challenge 13%".
func StrategyLine(j solver.Judgement) string {
	return "the strategy here: " + Strategy(j, 4)
}

// AccuracyLine sums every player up in a line (names by seat):
// "accuracy: ann 87% (0.04 lives given away a move), bob 64% (0.21)".
func AccuracyLine(names []string, players []solver.Summary) string {
	parts := make([]string, 0, len(players))
	for seat, s := range players {
		switch {
		case s.Decisions == 0:
			parts = append(parts, names[seat]+" no moves judged")
		case len(parts) == 0:
			parts = append(parts, fmt.Sprintf("%s %.0f%% (%.2f lives given away a move)", names[seat], s.Accuracy(), s.PerDecision()))
		default:
			parts = append(parts, fmt.Sprintf("%s %.0f%% (%.2f)", names[seat], s.Accuracy(), s.PerDecision()))
		}
	}
	return "accuracy: " + strings.Join(parts, ", ")
}

// AccuracyOver is a person's moves over games summed up: "87% over 12
// games · 0.05 lives given away a move · 3 ?!, 1 ?, 0 ??".
func AccuracyOver(s solver.Summary, games int) string {
	if s.Decisions == 0 {
		return AccuracyFigure(s, games)
	}
	return AccuracyFigure(s, games) + " · " + AccuracyDetail(s)
}

// AccuracyFigure is the head of AccuracyOver, for a narrow place: "87%
// over 12 games", "no moves judged yet".
func AccuracyFigure(s solver.Summary, games int) string {
	if s.Decisions == 0 {
		return "no moves judged yet"
	}
	return fmt.Sprintf("%.0f%% over %s", s.Accuracy(), Plural(games, "1 game", "games"))
}

// AccuracyDetail is the rest of AccuracyOver: "0.05 lives given away a
// move · 3 ?!, 1 ?, 0 ??".
func AccuracyDetail(s solver.Summary) string {
	return fmt.Sprintf("%.2f lives given away a move · %d ?!, %d ?, %d ??", s.PerDecision(),
		s.Marks[solver.Inaccuracy], s.Marks[solver.Mistake], s.Marks[solver.Blunder])
}

// AccuracyNotAll follows a career's accuracy where there is no room
// for AccuracyPending: some of its games were not judged.
const AccuracyNotAll = "not every game judged"

// AccuracyOf is AccuracyFigure in the fewest words, with the games
// judged of those asked for, where there is room for no more: "87%, 12
// of 14 games", "0 of 3 games judged".
func AccuracyOf(s solver.Summary, games, of int) string {
	if s.Decisions == 0 {
		return fmt.Sprintf("%d of %s judged", games, Plural(of, "1 game", "games"))
	}
	return fmt.Sprintf("%.0f%%, %d of %s", s.Accuracy(), games, Plural(of, "1 game", "games"))
}

// AccuracyComing is a career's accuracy while its verdicts are being
// worked out, where a door does not wait for them.
const AccuracyComing = "being computed…"

// CoachSays is what a coached table is: the option's help, and what the
// doors say of it.
const CoachSays = "after each of your moves you are told its mark and the better move, " +
	"by the solved strategy, for learning against bots; its games are not rated"

// Coached is the coach's line after a move of yours: "your move: ?! an
// inaccuracy: gave away 0.04 lives; best: roll (played 87%)".
func Coached(j solver.Judgement) string {
	return "your move: " + Judged(j)
}

// CoachHint is CoachSays in the few words a form's row has.
const CoachHint = "practice: your moves judged, not rated"

// VerdictsPending is what a screen shows while a game's verdicts are
// being worked out.
const VerdictsPending = "verdicts on the moves: being worked out…"

// NoVerdicts says why a game is shown without its verdicts: "Verdicts
// on the moves: WHY." (why: still being worked out, or the solver's
// budget's refusal).
func NoVerdicts(why string) string { return Sentence("Verdicts on the moves: " + why) }

// AccuracyPending is what follows a career's accuracy (AccuracyOver)
// when some of its games were not judged: "; 3 games still being worked
// out: ask again in a few seconds", or with refused, the budget's
// refusal, "; 3 games not judged: REFUSED".
func AccuracyPending(games int, refused string) string {
	if refused != "" {
		return fmt.Sprintf("; %s not judged: %s", Plural(games, "1 game", "games"), refused)
	}
	return fmt.Sprintf("; %s still being worked out: ask again in a few seconds", Plural(games, "1 game", "games"))
}

// CoachUnsolved is the coach's line after a move of yours it does not
// judge because the table's rules are not solved and the solver's budget
// admits no new solve for the table (unsolvedWhy): "your move: not
// judged, these rules are not solved yet and ...; the game goes on".
func CoachUnsolved(limit int, server bool) string {
	return "your move: not judged, " + unsolvedWhy(limit, server) + "; the game goes on"
}

// ExpertUnsolved is the table's chat line when its expert bots play as
// hard because their strategy is not solved and the solver's budget
// admits no new solve for the table (unsolvedWhy).
func ExpertUnsolved(limit int, server bool) string {
	return Sentence("The expert bots play as hard bots for now: " + unsolvedWhy(limit, server))
}

// unsolvedWhy says why a table's rules are not solved now: the address
// the table was opened from had limit new rule sets solved this hour,
// the most one address may, or (server) the server has limit waiting.
func unsolvedWhy(limit int, server bool) string {
	if server {
		return fmt.Sprintf("these rules are not solved yet and the server has %s waiting to be solved, the most it queues; try later",
			Plural(limit, "1 rule set", "rule sets"))
	}
	return fmt.Sprintf("these rules are not solved yet and the address this table was opened from had %s solved in the last hour, the most one address may",
		Plural(limit, "1 new rule set", "new rule sets"))
}
