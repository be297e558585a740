package botline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
)

// The bot line protocol of PROTOCOL.md §2: the lines a bot may send, and
// the translation of a game's events into the lines the server sends.

// botAnswer is one parsed line from a bot: an action and the token of the
// prompt it answers.
type botAnswer struct {
	Action engine.Action // Kind, Look and Value; the seat is filled in later
	Token  string
}

// Why a bot's line was refused (lobby.Refused). The sentences go out as
// ERROR;TEXT (errorLine).
var (
	errBotEmpty    = lobby.NewError(lobby.Refused, "empty line")
	errBotUTF8     = lobby.NewError(lobby.Refused, "the line is not UTF-8")
	errBotTooLong  = lobby.Errorf(lobby.Refused, "the line is longer than %d bytes", maxBotLine)
	errBotNoToken  = lobby.NewError(lobby.Refused, "the token is missing")
	errBotBadDice  = lobby.NewError(lobby.Refused, "dice are two numbers 1-6 with a comma, higher first: 6,4 (Mia is 2,1)")
	errBotBadField = lobby.NewError(lobby.Refused, "wrong number of fields")
	errBotWord     = lobby.NewError(lobby.Refused, "unknown word")
	errBotNotAsked = lobby.NewError(lobby.Refused, "no move is asked of you now")
	errBotToken    = lobby.NewError(lobby.Refused, "wrong or stale token")
	errBotStale    = lobby.NewError(lobby.Refused, "stale token: the turn has moved on")
)

// parseBotLine reads one line from a bot, without its "\n" (a trailing
// "\r" is allowed). The words are those of PROTOCOL.md §2, in capitals:
//
//	ROLL;TOKEN  SEE;TOKEN  PASS;TOKEN  PASS;D1,D2;TOKEN  GIVE UP;TOKEN  ANNOUNCE;D1,D2;TOKEN
func parseBotLine(line []byte) (botAnswer, error) {
	line = trimCR(line)
	if len(line) > maxBotLine {
		return botAnswer{}, errBotTooLong
	}
	if !utf8.Valid(line) {
		return botAnswer{}, errBotUTF8
	}
	if len(line) == 0 {
		return botAnswer{}, errBotEmpty
	}
	f := strings.Split(string(line), ";")
	word := f[0]
	var a botAnswer
	want := 2 // fields, the word included
	switch word {
	case "ROLL":
		a.Action = engine.Action{Kind: engine.Roll, Look: true}
	case "SEE":
		a.Action = engine.Action{Kind: engine.Challenge}
	case "GIVE UP":
		a.Action = engine.Action{Kind: engine.GiveUp}
	case "PASS":
		a.Action = engine.Action{Kind: engine.Pass}
		if len(f) == 3 {
			want = 3
		}
	case "ANNOUNCE":
		a.Action = engine.Action{Kind: engine.Claim}
		want = 3
	default:
		return botAnswer{}, lobby.Reword(errBotWord, "unknown word %q: a bot answers ROLL, SEE, PASS, GIVE UP or ANNOUNCE", words.Echo(word))
	}
	if len(f) != want {
		return botAnswer{}, lobby.Errorf(lobby.Refused, "%w: %s", errBotBadField, botUsage(word))
	}
	if want == 3 {
		v, err := parseDice(f[1])
		if err != nil {
			return botAnswer{}, err
		}
		a.Action.Value = v
	}
	a.Token = f[want-1]
	if a.Token == "" {
		return botAnswer{}, lobby.Errorf(lobby.Refused, "%w: %s", errBotNoToken, botUsage(word))
	}
	return a, nil
}

func botUsage(word string) string {
	switch word {
	case "PASS":
		return "PASS;TOKEN or PASS;D1,D2;TOKEN"
	case "ANNOUNCE":
		return "ANNOUNCE;D1,D2;TOKEN"
	}
	return word + ";TOKEN"
}

func trimCR(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		return line[:n-1]
	}
	return line
}

// parseDice reads "D1,D2": two dice 1-6, higher first (the lower first is
// taken too: "4,6" is 64).
func parseDice(s string) (engine.Value, error) {
	if len(s) != 3 || s[1] != ',' || s[0] < '1' || s[0] > '6' || s[2] < '1' || s[2] > '6' {
		return engine.NoValue, errBotBadDice
	}
	return engine.FromDice(int(s[0]-'0'), int(s[2]-'0')), nil
}

// field makes a name safe as one field of a line, and as an item of a
// list (P1,P2 and NAME:LIVES): no separators, no control characters.
// Names and table names are validated when chosen, so this only guards
// against old or odd records.
func field(s string) string { return fieldOf(s, ";,:") }

// textField makes text (a fingerprint, an ID) safe as one field.
func textField(s string) string { return fieldOf(s, ";") }

func fieldOf(s, seps string) string {
	if s == "" {
		return "?"
	}
	return strings.Map(func(r rune) rune {
		switch {
		case strings.ContainsRune(seps, r):
			return '_'
		case r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			return -1
		}
		return r
	}, s)
}

// gameAbandonedLine ends a game without a result: its table was
// closed while it ran (PROTOCOL.md §2, GAME ABANDONED).
func gameAbandonedLine(game string) string { return "GAME ABANDONED;" + textField(game) }

// ErrorLine is ERROR;TEXT, the text cut to one short line.
func ErrorLine(msg string) string {
	return "ERROR;" + strings.ReplaceAll(words.Clean(msg, 200), ";", ",")
}

// pausedLine tells a bot its table paused, because the server's storage
// did not save a write, and why (lobby.TableInfo.PausedWords);
// resumedLine that it resumed.
func pausedLine(info lobby.TableInfo) string { return "TABLE PAUSED;" + textField(info.PausedWords()) }

const resumedLine = "TABLE RESUMED"

// Prompts: YOUR TURN and ROLLED.

func yourTurnLine(claim engine.Value, token string) string {
	c := "-"
	if claim != engine.NoValue {
		c = claim.Comma()
	}
	return "YOUR TURN;" + c + ";" + token
}

func rolledLine(dice engine.Value, token string) string {
	d := "-"
	if dice != engine.NoValue {
		d = dice.Comma()
	}
	return "ROLLED;" + d + ";" + token
}

// Reasons of PLAYER LOST (PROTOCOL.md §2).
const (
	reasonCaught   = "CAUGHT_BLUFFING"
	reasonSee      = "SEE_FAILED"
	reasonMia      = "MIA" // a true Mia challenged, or revealed at once
	reasonGaveUp   = "GAVE_UP"
	reasonTimeout  = "TIMED_OUT"
	reasonLeft     = "LEFT"
	reasonLiedMia  = "LIED_ABOUT_MIA"        // a Mia revealed at once that was not there
	reasonLowClaim = "ANNOUNCED_LOSING_DICE" // low-claim loses
	reasonSeeFirst = "SEE_BEFORE_FIRST_ROLL" // a challenge of nothing, under low-claim loses
	reasonMiaBack  = "MIA_CAME_BACK"         // mia-pass wins: a Mia passed back to its roller
)

// rulesLine is RULES;KEY=VALUE,… (PROTOCOL.md §2): the keys and values of
// the rules object of the game's JSON (§3), in its order, true and false
// written on and off.
func rulesLine(o engine.Options) string {
	b, err := json.Marshal(o)
	if err != nil {
		return "RULES;"
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var kv []string
	if _, err := dec.Token(); err != nil { // {
		return "RULES;"
	}
	for dec.More() {
		k, err1 := dec.Token()
		v, err2 := dec.Token()
		if err1 != nil || err2 != nil {
			break
		}
		var val string
		switch v := v.(type) {
		case bool:
			val = map[bool]string{true: "on", false: "off"}[v]
		default:
			val = fmt.Sprint(v)
		}
		kv = append(kv, field(fmt.Sprint(k))+"="+field(val))
	}
	return "RULES;" + strings.Join(kv, ",")
}

// translator turns one game's events, as one seat sees them, into the
// lines of PROTOCOL.md §2. It keeps the lives of every seat so that ROUND
// STARTED and SCORE are as of that point in the game.
type translator struct {
	game  string // the game's ID
	names []string
	lives []int
	next  int  // index of the next event to translate
	over  bool // GAME OVER was sent
}

// newTranslator starts a game: its first lines are GAME STARTING and
// RULES.
func newTranslator(gameID string, names []string, o engine.Options) (*translator, []string) {
	tr := &translator{game: gameID, names: make([]string, len(names)), lives: make([]int, len(names))}
	for i, n := range names {
		tr.names[i] = field(n)
		tr.lives[i] = o.Lives
	}
	return tr, []string{
		"GAME STARTING;" + textField(gameID) + ";" + strings.Join(tr.names, ",") + ";" + strconv.Itoa(o.Lives),
		rulesLine(o),
	}
}

func (tr *translator) name(seat int) string {
	if seat >= 0 && seat < len(tr.names) {
		return tr.names[seat]
	}
	return "?"
}

// feed appends the lines of evs[tr.next:] to out. evs is the whole game
// so far; it only ever grows.
func (tr *translator) feed(out []string, evs []engine.Event) []string {
	for ; tr.next < len(evs); tr.next++ {
		out = tr.event(out, evs, tr.next)
	}
	return out
}

func (tr *translator) event(out []string, evs []engine.Event, i int) []string {
	e := evs[i]
	switch e.Type {
	case engine.EvRound:
		order := make([]string, 0, len(tr.names))
		for i := range tr.names {
			if s := (e.Opener + i) % len(tr.names); tr.lives[s] > 0 {
				order = append(order, tr.names[s])
			}
		}
		out = append(out, "ROUND STARTED;"+strconv.Itoa(e.Round)+";"+strings.Join(order, ","))
	case engine.EvRoll:
		out = append(out, "PLAYER ROLLS;"+tr.name(e.Seat))
	case engine.EvClaim:
		out = append(out, "ANNOUNCED;"+tr.name(e.Seat)+";"+e.Value.Comma())
	case engine.EvPass:
		out = append(out, "PLAYER PASSES;"+tr.name(e.Seat)+";"+e.Value.Comma())
	case engine.EvChallenge:
		out = append(out, "PLAYER WANTS TO SEE;"+tr.name(e.Seat))
		if e.Claimant < 0 { // nothing was claimed: there are no dice to show
			return tr.lost(out, reasonSeeFirst, engine.Loss{Seat: e.Loser, LivesLost: e.LivesLost})
		}
		reason := reasonSee
		switch {
		case engine.ChallengeVerdict(e) == engine.Caught:
			reason = reasonCaught
		case e.Claim == engine.Mia && e.Dice == engine.Mia:
			reason = reasonMia
		}
		out = append(out, "ACTUAL DICE;"+e.Dice.Comma())
		out = tr.lost(out, reason, engine.Loss{Seat: e.Loser, LivesLost: e.LivesLost})
	case engine.EvReveal:
		out = append(out, "ACTUAL DICE;"+e.Dice.Comma())
		reason := reasonMia
		if engine.RevealVerdict(e) == engine.Caught {
			reason = reasonLiedMia
		}
		out = tr.lost(out, reason, e.Losses...)
	case engine.EvLowClaim:
		// No claim event is written for it: the announcement is told here.
		out = append(out, "ANNOUNCED;"+tr.name(e.Seat)+";"+e.Value.Comma())
		out = tr.lost(out, reasonLowClaim, engine.Loss{Seat: e.Loser, LivesLost: e.LivesLost})
	case engine.EvMiaBack:
		out = tr.lost(out, reasonMiaBack, e.Losses...)
	case engine.EvGiveUp:
		out = tr.lost(out, reasonGaveUp, engine.Loss{Seat: e.Seat, LivesLost: e.LivesLost})
	case engine.EvTimeout:
		out = tr.lost(out, reasonTimeout, engine.Loss{Seat: e.Seat, LivesLost: e.LivesLost})
	case engine.EvLeave:
		out = tr.lost(out, reasonLeft, engine.Loss{Seat: e.Seat, LivesLost: e.LivesLost})
	case engine.EvOut:
		out = append(out, "PLAYER OUT;"+tr.name(e.Seat))
	case engine.EvEnd:
		tr.over = true
		out = append(out, "GAME OVER;"+tr.name(e.Winner)+";"+textField(tr.game))
	}
	return out
}

// lost is one PLAYER LOST per loser, then SCORE with the lives after the
// loss.
func (tr *translator) lost(out []string, reason string, losses ...engine.Loss) []string {
	for _, l := range losses {
		if l.Seat >= 0 && l.Seat < len(tr.lives) {
			tr.lives[l.Seat] = max(0, tr.lives[l.Seat]-l.LivesLost)
		}
		out = append(out, "PLAYER LOST;"+tr.name(l.Seat)+";"+reason+";"+strconv.Itoa(l.LivesLost))
	}
	var b strings.Builder
	b.WriteString("SCORE;")
	for i, nm := range tr.names {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(nm)
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(tr.lives[i]))
	}
	return append(out, b.String())
}
