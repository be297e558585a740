package plain

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
)

// The words that are the server's commands, run as they are (Config.
// Command) and said a page at a time: the lists are the commands' own,
// made once for every door.
var commandWords = map[string]bool{
	"history": true, "stats": true, "leaderboard": true, "settings": true, "whoami": true, "rules": true,
}

// records takes a line that is one of the server's lists, or replay.
func (d *door) records(said, text string) bool {
	verb, _, _ := strings.Cut(said, " ")
	args := strings.Fields(text)
	switch {
	case verb == "replay":
		d.replay(args[1:])
	case commandWords[verb]:
		args[0] = verb
		d.command(args)
	default:
		return false
	}
	return true
}

// runCommand runs a command as the person, and returns what it wrote on each
// stream; ok is false, with the reason said, when it could not.
func (d *door) runCommand(args []string) (out, errOut string, code int, ok bool) {
	if d.cfg.Command == nil {
		d.say("That is not available on this server.")
		return "", "", 0, false
	}
	var o, e bytes.Buffer
	ctx, cancel := context.WithTimeout(d.ctx, callTimeout)
	code = d.cfg.Command(ctx, &o, &e, args)
	cancel()
	return o.String(), e.String(), code, true
}

// command runs a command and says its output, a page at a time.
func (d *door) command(args []string) {
	out, errOut, _, ok := d.runCommand(args)
	if !ok {
		return
	}
	lines := sayable(out)
	for _, l := range sayable(errOut) {
		lines = append(lines, words.Sentence(strings.TrimPrefix(l, "mia: ")))
	}
	if len(lines) == 0 {
		lines = []string{"Nothing to say."}
	}
	d.list("", lines, "")
}

// sayable is text's lines, without the blank ones and the spaces at
// their ends.
func sayable(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimRight(l, " \t\r"); strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// replayDoc is what the door reads of a finished game's document
// (PROTOCOL.md §3, replay --json).
type replayDoc struct {
	ID      string         `json:"id"`
	Table   string         `json:"table"`
	Rules   engine.Options `json:"rules"`
	Players []struct {
		Name string `json:"name"`
		Bot  bool   `json:"bot"`
	} `json:"players"`
	Winner    int `json:"winner"`
	Abandoned *struct {
		Name string `json:"name"`
	} `json:"abandoned"`
	Events []engine.Event `json:"events"`
	// The verdicts on the moves, where the server gives them (the
	// analysis of §3): by event, and each player's sum.
	Judged []struct {
		Analysis *struct {
			Mark string `json:"mark"`
			Said string `json:"said"`
		} `json:"analysis"`
	} `json:"-"`
	Accuracy []struct {
		Seat int    `json:"seat"`
		Said string `json:"said"`
	} `json:"accuracy"`
}

// replayRoom is a finished game read move by move (engine.CutSteps), in
// the replay's words.
type replayRoom struct {
	doc  replayDoc
	nar  words.Narrator
	cut  engine.Cut
	step int // the step said last
}

// replay opens a finished game for next and back.
func (d *door) replay(args []string) {
	if len(args) != 1 {
		d.say("Say replay and a game's number; history lists them.")
		return
	}
	out, errOut, code, ok := d.runCommand([]string{"replay", args[0], "--json"})
	if !ok {
		return
	}
	if code != 0 {
		for _, l := range sayable(errOut) {
			d.say(words.Sentence(strings.TrimPrefix(l, "mia: ")))
		}
		return
	}
	var doc replayDoc
	err := json.Unmarshal([]byte(out), &doc)
	if err == nil {
		var judged struct {
			Events []struct {
				Analysis *struct {
					Mark string `json:"mark"`
					Said string `json:"said"`
				} `json:"analysis"`
			} `json:"events"`
		}
		err = json.Unmarshal([]byte(out), &judged)
		doc.Judged = judged.Events
	}
	if err != nil {
		d.cfg.Log.Error("plain: could not read a replay", "game", args[0], "key", d.me.Key, "err", err)
		d.say("Something went wrong reading that game; please try again later.")
		return
	}
	seats := make([]words.ReplaySeat, len(doc.Players))
	for i, p := range doc.Players {
		seats[i] = words.ReplaySeat{Name: p.Name, Bot: p.Bot}
	}
	cut, err := engine.CutSteps(doc.Rules, len(seats), doc.Events)
	if err != nil || len(cut.Steps) == 0 {
		d.cfg.Log.Error("plain: a replay does not replay", "game", doc.ID, "key", d.me.Key, "err", err)
		d.say("Something went wrong reading that game; please try again later.")
		return
	}
	rp := &replayRoom{doc: doc, nar: words.ReplayNarrator(seats, doc.Rules.Ranking), cut: cut}
	d.rp, d.menu = rp, menu{}
	names := make([]string, len(seats))
	for i := range seats {
		names[i] = rp.nar.Names[i]
	}
	d.say(fmt.Sprintf("Game %s at %s: %s. Players: %s. %s: say next, back, or stop.", doc.ID,
		words.Clean(doc.Table, lobby.MaxNameLen), words.RulesSummary(doc.Rules), strings.Join(names, ", "),
		capital(words.Plural(len(cut.Steps)-1, "1 move", "moves"))))
	rp.say(d)
}

// say tells the step the replay is at: its events, with the verdicts,
// then the cup; at the last, how the game ended.
func (rp *replayRoom) say(d *door) {
	st := rp.cut.Steps[rp.step]
	evs := rp.doc.Events
	var parts []string
	for i := st.First; i < st.End; i++ {
		if evs[i].Type == engine.EvRound {
			parts = append(parts, words.Sentence(rp.nar.Heading(evs[i])))
			continue
		}
		if s := rp.nar.Told(evs, i); s != "" {
			parts = append(parts, words.Sentence(s))
		}
		if i < len(rp.doc.Judged) && rp.doc.Judged[i].Analysis != nil {
			parts = append(parts, words.Sentence(words.JudgedBy(rp.nar.Names[evs[i].Seat], rp.doc.Judged[i].Analysis.Said)))
		}
	}
	head := fmt.Sprintf("Move %d of %d.", rp.step, len(rp.cut.Steps)-1)
	if rp.step == 0 {
		head = "The start."
	}
	line := head + " " + strings.Join(parts, " ")
	if !st.Over {
		line += " " + words.Sentence(rp.nar.CupWords(st.Cup, st.Roller, st.Looked).String())
	}
	d.say(line)
	if rp.step == len(rp.cut.Steps)-1 {
		if rp.doc.Abandoned != nil {
			d.say(words.Sentence(words.ClosedWhileRunning(rp.doc.Abandoned.Name)) + " " + words.NoResult)
		}
		for _, a := range rp.doc.Accuracy {
			if a.Seat >= 0 && a.Seat < len(rp.nar.Names) {
				d.say(words.Sentence(rp.nar.Names[a.Seat] + ": " + a.Said))
			}
		}
		d.say("That was the last move: say back, or stop.")
	}
}

// word takes a line while a replay is read.
func (rp *replayRoom) word(d *door, said string) bool {
	switch said {
	case "next", "n", "":
		if rp.step == len(rp.cut.Steps)-1 {
			d.say("That was the last move: say back, or stop.")
			return true
		}
		rp.step++
		rp.say(d)
	case "back", "b", "previous":
		if rp.step == 0 {
			d.say("This is the start: say next.")
			return true
		}
		rp.step--
		rp.say(d)
	case "stop", "lobby", "done":
		d.rp = nil
		if d.at != nil {
			d.say("Back at the table " + words.Clean(d.at.snap.Table.Name, lobby.MaxNameLen) + ": say status.")
			return true
		}
		d.toLobby()
	default:
		return false
	}
	return true
}
