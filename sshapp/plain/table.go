package plain

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/ai"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/sshapp/verdict"
)

// The thresholds at which the turn clock is said, the longest first.
var clockSays = []time.Duration{30 * time.Second, 10 * time.Second}

// tableRoom is a table as the door follows it: every event of its games
// said once, in order, and the turn asked for once.
type tableRoom struct {
	t    *lobby.Table
	sub  *lobby.Subscription
	snap lobby.Snapshot
	have bool

	game  string           // the game whose events are told
	told  int              // how many of its events are told
	ended bool             // its end is told
	nar   words.Narrator   // its narrator, for an end told late
	chat  chatMark         // the last chat line said
	seats []lobby.SeatInfo // the seats as last told, between games

	asked   turnKey // the turn the last prompt was said for
	leaving bool    // asked whether to leave the game

	clock    func() bool     // stops the alarm of the next threshold; nil when none
	deadline time.Time       // of the turn the clock is said for
	left     []time.Duration // the thresholds still to say
}

// turnKey is one state of a game: a prompt is said once for it, and the
// numbers of its choices hold while it lasts.
type turnKey struct {
	game   string
	events int
	paused bool
}

// open watches the table of that name, as the door's table.
func (d *door) open(name string) {
	t, err := d.cfg.Lobby.TableFor(d.me.Viewer(), name)
	if err == nil {
		ctx, cancel := context.WithTimeout(d.ctx, callTimeout)
		var sub *lobby.Subscription
		sub, err = t.Watch(ctx, d.me)
		cancel()
		if err == nil {
			if d.at != nil {
				d.at.close()
			}
			if d.lob != nil {
				d.lob.close(d)
				d.lob = nil
			}
			d.rp, d.menu = nil, menu{}
			d.at = &tableRoom{t: t, sub: sub}
			return // the first snapshot says where the table is
		}
	}
	d.say(fmt.Sprintf("Could not open %s: %s", words.Echo(name), words.Sentence(d.said("open the table", err))))
}

func (r *tableRoom) close() {
	r.stopClock()
	r.sub.Close()
}

// key is the state of the game now.
func (r *tableRoom) key() turnKey {
	return turnKey{game: r.snap.GameID, events: len(r.snap.Events()), paused: r.snap.Table.Paused}
}

// view is the game from the viewer's seat, nil before the first.
func (r *tableRoom) view() *engine.View {
	if !r.have {
		return nil
	}
	return r.snap.Game
}

// myTurn reports whether the viewer is to act now.
func (r *tableRoom) myTurn() bool {
	v := r.view()
	return v != nil && r.snap.Playing && !r.snap.Table.Paused && v.MyTurn()
}

// inGame reports whether the viewer holds a living seat in the running
// game.
func (r *tableRoom) inGame() bool {
	v := r.view()
	return r.snap.Playing && v != nil && v.Seat >= 0 && v.Seat < len(v.Lives) && v.Lives[v.Seat] > 0
}

// take reads the newest snapshot and says what it adds.
func (r *tableRoom) take(d *door) {
	snap, ok := r.sub.Take()
	if !ok {
		return
	}
	if !r.have {
		r.have, r.snap = true, snap
		r.arrive(d)
		return
	}
	r.snap = snap
	var lines []string
	for _, c := range r.chat.news(snap.Chat) {
		if said := chatSays(c, d.muted); said != "" {
			lines = append(lines, said)
		}
	}
	lines = append(lines, r.seatsChanged(d.me.ID)...)
	r.prompt(d, lines, r.events(d, nil))
}

// arrive says where the table is, once, as the door comes to it: the
// game running (for a player back in their game, their lives), or who
// sits and what to say next.
func (r *tableRoom) arrive(d *door) {
	snap := r.snap
	r.chat.news(snap.Chat)
	r.seats = slices.Clone(snap.Table.Players)
	r.game, r.told, r.ended = snap.GameID, len(snap.Events()), !snap.Playing
	r.nar = snap.Narrator()
	head := "At table " + words.Clean(snap.Table.Name, lobby.MaxNameLen) + ", " + words.RulesSummary(snap.Table.Rules) + "."
	var lines []string
	switch {
	case snap.Playing && r.inGame() && snap.Table.Event != "":
		// Dealt by the event as the door came: the game is told from its
		// start, not as one they come back to.
		r.game, r.told, r.ended = "", 0, false
		lines = r.events(d, []string{head})
	case snap.Playing && r.inGame():
		where := r.nar.Where(snap.GameID, *snap.Game)
		if r.myTurn() { // the prompt says the claim and the turn
			where = words.GameAt(snap.GameID, snap.Game.Round)
		}
		lines = []string{head, words.BackAt(snap.Table.Name, snap.Game.Lives[snap.Game.Seat]) + " " + where}
	case snap.Playing:
		lines = []string{head + " A game runs; you watch it. " + r.nar.Where(snap.GameID, *snap.Game)}
	default:
		lines = []string{head, r.waiting(d)}
	}
	r.prompt(d, lines, nil)
}

// waiting says a table between games: the seats taken, and what the
// viewer may do next.
func (r *tableRoom) waiting(d *door) string {
	info := r.snap.Table
	if info.Event != "" {
		return "A table of the event " + words.Clean(info.Event, lobby.MaxNameLen) + ": it deals one game, then closes."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Waiting for a game: %d of %d seats taken", info.Taken, info.Seats)
	if len(info.Players) > 0 {
		b.WriteString(", by " + seatNames(info.Players, d.me.ID))
	}
	b.WriteString(".")
	switch {
	case info.Driven:
		b.WriteString(" This table's program deals each game.")
	case !r.snap.Seated && info.Taken < info.Seats:
		b.WriteString(" Say sit to take a seat.")
	case !r.snap.Seated:
		b.WriteString(" Every seat is taken; you watch.")
	}
	if info.StartsByItself {
		b.WriteString(" " + capital(words.Sentence(words.NextGameByItself(lobby.RestBetweenGames))))
	}
	if r.snap.Seated && !info.Driven {
		if err := info.MayStart(d.me); err == nil {
			b.WriteString(" You may start the game: say start.")
		} else {
			b.WriteString(" " + capital(words.Sentence(lobby.Shown(err))))
		}
	}
	return b.String()
}

// seatNames names seated players, bots marked and the viewer as you:
// "you, bob and ada [bot]".
func seatNames(ps []lobby.SeatInfo, me string) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = words.Label(words.Clean(p.Name, lobby.MaxNameLen), p.Bot)
		if p.ID == me {
			names[i] = "you"
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// seatsChanged says who sat down and who stood up between games, the
// viewer me aside (they were told as they did).
func (r *tableRoom) seatsChanged(me string) []string {
	now := r.snap.Table.Players
	if r.snap.Playing || r.snap.Table.Event != "" { // an event seats its table's players itself
		r.seats = slices.Clone(now)
		return nil
	}
	has := func(ps []lobby.SeatInfo, id string) bool {
		return slices.ContainsFunc(ps, func(p lobby.SeatInfo) bool { return p.ID == id })
	}
	var out []string
	name := func(p lobby.SeatInfo) string { return words.Label(words.Clean(p.Name, lobby.MaxNameLen), p.Bot) }
	for _, p := range r.seats {
		if !has(now, p.ID) && p.ID != me {
			out = append(out, name(p)+" stood up.")
		}
	}
	for _, p := range now {
		if !has(r.seats, p.ID) && p.ID != me {
			out = append(out, name(p)+" sat down.")
		}
	}
	if len(out) > 0 {
		out = append(out, fmt.Sprintf("%d of %d seats taken.", r.snap.Table.Taken, r.snap.Table.Seats))
	}
	r.seats = slices.Clone(now)
	return out
}

// events appends the sentences of the events not told yet: the end of a
// game missed (a table that dealt the next game before the door read the
// last one's end), a new game's start, each event, and a game's
// standings.
func (r *tableRoom) events(d *door, lines []string) []string {
	snap := r.snap
	if snap.GameID != "" && snap.GameID != r.game {
		if r.game != "" && !r.ended {
			lines = r.missedEnd(d, lines)
		}
		r.game, r.told, r.ended = snap.GameID, 0, false
		lines = append(lines, snap.Narrator().GameStarts(snap.GameID, snap.Game.Options.Lives))
	}
	if snap.GameID == "" || snap.Game == nil {
		return lines
	}
	r.nar = snap.Narrator()
	evs := snap.Events()
	for i := r.told; i < len(evs); i++ {
		if s := r.nar.Aloud(evs, i); s != "" {
			lines = append(lines, s)
		}
		r.coach(d, evs, i)
	}
	r.told = len(evs)
	if !snap.Playing && !r.ended && snap.Game.Phase == engine.PhaseOver {
		r.ended = true
		if res := snap.Result; res != nil && res.GameID == snap.GameID {
			standings := slices.Clone(res.Standings)
			if i := slices.Index(standings, d.cfg.Lobby.Name(d.me.ID)); i >= 0 {
				standings[i] = "you"
			}
			lines = append(lines, words.Standings(standings))
		}
		lines = append(lines, r.waiting(d))
	}
	return lines
}

// coachSaid is the coach's verdict on a move of game, said ("" for none).
type coachSaid struct {
	game, line string
}

// maxCoaching is how many of the viewer's moves the coach judges at once
// (they wait for one solve); a move past it is not judged.
const maxCoaching = 4

// coach has the coach judge evs[i] if it is a move of the viewer's at a
// coached table (verdict.Coach: their own move, from what they saw), off
// the door's loop: the verdict comes to the loop (door.coached) and is
// said then, while the door reads what is typed and the table goes on.
// Its solve is the table's source's to pay (verdict.Judge.Coach); when
// the budget refuses it, the coach says so instead.
func (r *tableRoom) coach(d *door, evs []engine.Event, i int) {
	v := r.snap.Game
	if !r.snap.Table.Coach || v == nil || v.Seat < 0 || evs[i].Seat != v.Seat || !verdict.IsMove(evs[i].Type) || d.coaching >= maxCoaching {
		return
	}
	judge := d.cfg.coach
	if judge == nil {
		judge = d.cfg.Judge.Coach
	}
	game, rules, players, seat, seq, source := r.game, v.Options, len(v.Lives), v.Seat, evs[i].Seq, r.snap.Table.SolveSource()
	seen := slices.Clone(evs) // the move's whole action is in them (Coach reads up to its end)
	d.coaching++
	go func() {
		said := coachSaid{game: game}
		defer func() {
			if p := recover(); p != nil {
				d.cfg.Log.Error("plain: the coach failed", "game", game, "panic", p)
			}
			select {
			case d.coached <- said: // room for it: at most maxCoaching are under way
			case <-d.ctx.Done():
			}
		}()
		switch j, err := judge(source, true, rules, players, seen, seat, seq); {
		case err == nil:
			said.line = words.Sentence(capital(words.Coached(j.Judgement)))
		case errors.Is(err, verdict.ErrUnsolved): // the solver's budget said no: the game goes on
			said.line = words.Sentence(capital(lobby.UnsolvedSaid(err, words.CoachUnsolved)))
		}
	}()
}

// missedEnd appends the events of the game before that were not told,
// read from the finished game (Config.Games).
func (r *tableRoom) missedEnd(d *door, lines []string) []string {
	r.ended = true
	if d.cfg.Games == nil {
		return lines
	}
	ctx, cancel := context.WithTimeout(d.ctx, callTimeout)
	evs, err := d.cfg.Games(ctx, r.game)
	cancel()
	if err != nil {
		d.cfg.Log.Warn("plain: could not read the end of a game", "game", r.game, "key", d.me.Key, "err", err)
		return lines
	}
	for i := r.told; i < len(evs); i++ {
		if s := r.nar.Aloud(evs, i); s != "" {
			lines = append(lines, s)
		}
	}
	return lines
}

// prompt says lines, then the sentences of events, and then, if the
// viewer is to act and was not asked yet in this state of the game, asks
// for a move: "Your turn: " before the last event's sentence (or the
// claim they face, when no event came), the time they have, and the
// choices, numbered.
func (r *tableRoom) prompt(d *door, lines, events []string) {
	lines = append(lines, events...)
	if !r.myTurn() || r.asked == r.key() {
		if !r.myTurn() {
			r.stopClock()
			r.leaving = r.leaving && r.inGame()
		}
		d.say(lines...)
		return
	}
	r.asked = r.key()
	v := *r.snap.Game
	last := ""
	if len(events) > 0 {
		last, lines = lines[len(lines)-1], lines[:len(lines)-1]
	}
	d.say(lines...)
	head := r.nar.YourTurn(last, v) + " "
	if dl := r.snap.Deadline; !dl.IsZero() {
		// The time is said when it is short (the first threshold will
		// not be), and at each threshold: not at every turn.
		left := dl.Sub(d.cfg.Clock.Now())
		if left <= clockSays[0]+2*time.Second {
			head += words.TimeLeft(left) + " "
		}
		r.startClock(d, dl, left)
	}
	key := r.key()
	d.setMenu(head, r.choices(v), func() bool { return r.key() == key && r.myTurn() })
}

// choices are the moves the view allows, as a player says them.
func (r *tableRoom) choices(v engine.View) []choice {
	rk := v.Options.Ranking
	var cs []choice
	if v.Can(engine.Claim) {
		if v.Dice.Valid() {
			if truth := rk.Canonical(v.Dice); slices.Contains(v.Claims, truth) {
				cs = append(cs, choice{label: "announce " + rk.Name(truth) + ", your dice",
					do: func(d *door) { r.act(d, engine.Action{Kind: engine.Claim, Value: truth}) }})
			}
		}
		return append(cs, choice{label: "announce another value", do: func(d *door) { r.values(d) }})
	}
	if v.Can(engine.Roll) {
		cs = append(cs,
			choice{label: "roll", do: func(d *door) { r.act(d, engine.Action{Kind: engine.Roll, Look: true}) }},
			choice{label: "roll blind", do: func(d *door) { r.act(d, engine.Action{Kind: engine.Roll}) }})
	}
	if v.Can(engine.Challenge) {
		label := "call liar"
		if v.ChallengeCosts() {
			label += ", which costs you a life now"
		}
		cs = append(cs, choice{label: label, do: func(d *door) { r.act(d, engine.Action{Kind: engine.Challenge}) }})
	}
	if v.Can(engine.Pass) && v.CanPassOn() {
		claim := v.Claim
		cs = append(cs, choice{label: "pass " + rk.Name(claim) + " on",
			do: func(d *door) { r.act(d, engine.Action{Kind: engine.Pass, Value: claim}) }})
	}
	if v.Can(engine.Pass) && v.CanRaise() {
		cs = append(cs, choice{label: "raise blind", do: func(d *door) { r.values(d) }})
	}
	if v.Can(engine.GiveUp) {
		cs = append(cs, choice{label: "give up", do: func(d *door) { r.act(d, engine.Action{Kind: engine.GiveUp}) }})
	}
	return cs
}

// values lists the values the viewer may announce now (after a roll), or
// raise to blind, numbered, each with the chance a fresh roll beats it.
func (r *tableRoom) values(d *door) {
	if !r.myTurn() {
		d.say("It is not your turn.")
		return
	}
	v := *r.snap.Game
	rk := v.Options.Ranking
	kind, vals, head := engine.Claim, v.Claims, "The values you may announce, lowest first:"
	if !v.Can(engine.Claim) {
		kind, head = engine.Pass, "The values you may raise to blind, lowest first:"
		for _, p := range v.Passes {
			if p != v.Claim {
				vals = append(vals, p)
			}
		}
	}
	if len(vals) == 0 {
		d.say("There is no value you may announce now.")
		return
	}
	cs := make([]choice, len(vals))
	for i, val := range vals {
		label := words.Beaten(rk, val)
		if v.Dice.Valid() && rk.Compare(val, v.Dice) == 0 {
			label += ", your dice"
		}
		cs[i] = choice{label: label, do: func(d *door) { r.act(d, engine.Action{Kind: kind, Value: val}) }}
	}
	key := r.key()
	d.listMenu(head, cs, "Say a number.", func() bool { return r.key() == key && r.myTurn() })
}

// act plays a move; a refusal is said, and nothing else changes.
func (r *tableRoom) act(d *door, a engine.Action) {
	ctx, cancel := context.WithTimeout(d.ctx, callTimeout)
	err := r.t.Act(ctx, d.me, a)
	cancel()
	if err != nil {
		d.say("Not done: " + words.Sentence(d.said("play", err)))
	}
}

// call runs one request of the viewer at the table; done is said when it
// is done, its refusal otherwise.
func (r *tableRoom) call(d *door, what, done string, fn func(ctx context.Context) error) {
	ctx, cancel := context.WithTimeout(d.ctx, callTimeout)
	err := fn(ctx)
	cancel()
	switch {
	case err != nil:
		d.say("Not done: " + words.Sentence(d.said(what, err)))
	case done != "":
		d.say(done)
	}
}

// announce takes "announce VALUE": the claim after a roll, or a blind
// raise.
func (r *tableRoom) announce(d *door, value string) {
	if value == "" {
		r.values(d)
		return
	}
	v := r.view()
	if v == nil || !r.snap.Playing {
		d.say("No game is running here.")
		return
	}
	val, err := v.Options.Ranking.ParseClaim(value)
	if err != nil {
		d.say(fmt.Sprintf("%s is not a value; say it as the table does: %s. Nothing was done.",
			words.Echo(value), valueExamples(v.Options.Ranking)))
		return
	}
	kind := engine.Claim
	if !v.Can(engine.Claim) && v.Can(engine.Pass) {
		kind = engine.Pass
	}
	r.act(d, engine.Action{Kind: kind, Value: val})
}

// valueExamples are a few values as a ranking names them.
func valueExamples(rk engine.Ranking) string {
	if rk == engine.Pips {
		return "9 pips, double 3s, mia"
	}
	return "54, 33, mia"
}

// wordsNow are the words that work at the table now, for a line that
// was none of them.
func (r *tableRoom) wordsNow() string {
	switch {
	case r.myTurn():
		return "roll, blind, liar, pass, announce and a value, status"
	case r.inGame():
		return "status, who, log, chat and your text, leave"
	case r.snap.Seated:
		return "start, stand, status, who, chat and your text, lobby"
	}
	return "sit, status, who, chat and your text, lobby"
}

// word takes a line at the table.
func (r *tableRoom) word(d *door, said, text string) bool {
	if r.leaving {
		r.leaving = false
		if said == "yes" || said == "y" {
			r.call(d, "leave the game", "", func(ctx context.Context) error { return r.t.Stand(ctx, d.me) })
		} else {
			d.say("You stay in the game.")
		}
		return true
	}
	verb, rest, _ := strings.Cut(said, " ")
	switch said {
	case "roll":
		r.act(d, engine.Action{Kind: engine.Roll, Look: true})
		return true
	case "blind", "roll blind":
		r.act(d, engine.Action{Kind: engine.Roll})
		return true
	case "liar", "call liar", "challenge", "liar!":
		r.act(d, engine.Action{Kind: engine.Challenge})
		return true
	case "pass", "pass on":
		if v := r.view(); v != nil && r.snap.Playing && v.Claim != engine.NoValue {
			r.act(d, engine.Action{Kind: engine.Pass, Value: v.Claim})
		} else {
			r.act(d, engine.Action{Kind: engine.Pass})
		}
		return true
	case "give up", "giveup":
		r.act(d, engine.Action{Kind: engine.GiveUp})
		return true
	case "sit", "sit down":
		r.call(d, "sit down", "You are seated for the next game.", func(ctx context.Context) error { return r.t.Sit(ctx, d.me) })
		return true
	case "stand", "stand up":
		if r.inGame() {
			d.say("You are in this game: say leave to leave it.")
			return true
		}
		r.call(d, "stand up", "You gave up your seat.", func(ctx context.Context) error { return r.t.Stand(ctx, d.me) })
		return true
	case "start", "play again":
		r.call(d, "start", "", func(ctx context.Context) error { return r.t.Start(ctx, d.me) })
		return true
	case "leave":
		if r.inGame() {
			r.leaving = true
			d.say("Leaving puts you out of this game. Say yes to leave it, anything else to stay.")
			return true
		}
		r.back(d)
		return true
	case "lobby", "back":
		r.back(d)
		return true
	case "status":
		d.say(r.status(d))
		return true
	case "who", "seats":
		d.say(r.who(d))
		return true
	case "rules":
		texts := words.ExplainRules(r.snap.Table.Rules)
		items := make([]string, len(texts))
		for i, t := range texts {
			items[i] = words.Sentence(t.Text)
		}
		d.list(fmt.Sprintf("The rules at %s, %d seats:", words.Clean(r.snap.Table.Name, lobby.MaxNameLen), r.snap.Table.Seats), items, "")
		return true
	}
	switch verb {
	case "announce", "claim", "raise":
		r.announce(d, strings.TrimSpace(rest))
	case "log":
		r.log(d, rest)
	case "chat", "say":
		_, msg, _ := strings.Cut(strings.TrimSpace(text), " ")
		r.say(d, msg)
	case "add":
		r.addBot(d, rest)
	case "remove":
		r.removeBot(d, rest)
	default:
		return false
	}
	return true
}

// back goes to the lobby, the seat kept.
func (r *tableRoom) back(d *door) {
	kept := ""
	switch {
	case r.inGame():
		kept = " Your seat stays, shown away: the clock runs on your turns until you come back."
	case r.snap.Seated:
		kept = " Your seat for the next game stays; stand gives it up."
	}
	d.toLobby()
	if kept != "" {
		d.say(strings.TrimSpace(kept))
	}
}

// say posts a chat line at the table.
func (r *tableRoom) say(d *door, msg string) {
	if no := chatRefused(msg); no != "" {
		d.say(no)
		return
	}
	r.call(d, "send the line", "", func(ctx context.Context) error { return r.t.Say(ctx, d.me, msg) })
}

// log says the last n events of the game again (5 without a number).
func (r *tableRoom) log(d *door, arg string) {
	n := 5
	if arg != "" {
		k, err := strconv.Atoi(arg)
		if err != nil || k < 1 {
			d.say("Say log, or log and a number of events, like log 10. Nothing was done.")
			return
		}
		n = k
	}
	evs := r.snap.Events()
	if len(evs) == 0 {
		d.say("No game has been played here yet.")
		return
	}
	nar := r.snap.Narrator()
	var items []string
	for i := max(0, len(evs)-n); i < len(evs); i++ {
		if s := nar.Aloud(evs, i); s != "" {
			items = append(items, s)
		}
	}
	d.list(fmt.Sprintf("The last %s of game %s:", words.Plural(len(items), "event", "events"), r.snap.GameID), items, "")
}

// status is the table now, in a few sentences.
func (r *tableRoom) status(d *door) string {
	snap := r.snap
	head := "At table " + words.Clean(snap.Table.Name, lobby.MaxNameLen) + "."
	if snap.Table.Paused {
		head += " " + words.Sentence(words.Paused(snap.Table.PausedFor))
	}
	if !snap.Playing {
		s := head + " " + r.waiting(d)
		if res := snap.Result; res != nil {
			s += " The last game, " + res.GameID + ", " + words.Sentence(res.Winner+" won it")
		}
		return s
	}
	s := head + " " + snap.Narrator().Where(snap.GameID, *snap.Game)
	if r.myTurn() && !snap.Deadline.IsZero() {
		s += " " + words.TimeLeft(snap.Deadline.Sub(d.cfg.Clock.Now()))
	}
	if r.inGame() {
		s += " You have " + words.Plural(snap.Game.Lives[snap.Game.Seat], "1 life", "lives") + "."
	}
	return s
}

// who says the seats: in a game each with their lives and whose turn it
// is, between games who is seated.
func (r *tableRoom) who(d *door) string {
	snap := r.snap
	if !snap.Playing || snap.Game == nil {
		if len(snap.Table.Players) == 0 {
			return fmt.Sprintf("Nobody is seated; %d seats.", snap.Table.Seats)
		}
		return fmt.Sprintf("Seated for the next game: %s; %d of %d seats taken.",
			seatNames(snap.Table.Players, d.me.ID), snap.Table.Taken, snap.Table.Seats)
	}
	away := make([]bool, len(snap.Game.Lives))
	for s := range away {
		for _, p := range snap.Table.Players {
			if p.Name == snap.Name(s) && !p.Bot && !p.Connected {
				away[s] = true
			}
		}
	}
	return "Seats: " + strings.Join(snap.Narrator().Seats(snap.Game.Lives, away), "; ") + "."
}

// addBot seats a built-in bot (the host, between games): "add bot", "add
// bot hard".
func (r *tableRoom) addBot(d *door, rest string) bool {
	what, level, _ := strings.Cut(rest, " ")
	if what != "bot" {
		d.say("Say add bot, or add bot and a level: " + ai.LevelNames(", ") + ". Nothing was done.")
		return true
	}
	l := ai.Normal
	if level != "" {
		var err error
		if l, err = ai.ParseLevel(level); err != nil {
			d.say("A bot's level is one of " + ai.LevelNames(", ") + ". Nothing was done.")
			return true
		}
	}
	r.call(d, "add a bot", "", func(ctx context.Context) error { _, err := r.t.AddBot(ctx, d.me, l); return err })
	return true
}

// removeBot takes a built-in bot off its seat: the one named, or the last
// seated.
func (r *tableRoom) removeBot(d *door, rest string) {
	what, name, _ := strings.Cut(rest, " ")
	if what != "bot" {
		d.say("Say remove bot, or remove bot and its name. Nothing was done.")
		return
	}
	if name == "" {
		for _, p := range slices.Backward(r.snap.Table.Players) {
			if p.Bot && lobby.IsBuiltinBot(p.ID) {
				name = p.Name
				break
			}
		}
	}
	if name == "" {
		d.say("No built-in bot is seated here.")
		return
	}
	r.call(d, "remove a bot", "", func(ctx context.Context) error { return r.t.RemoveBot(ctx, d.me, name) })
}

// gone says why the table ended the door's watch, and goes back to the
// lobby.
func (r *tableRoom) gone(d *door) {
	if snap, ok := r.sub.Take(); ok {
		r.snap = snap
		d.say(r.events(d, nil)...)
	}
	why := "The table " + words.Clean(r.t.Name(), lobby.MaxNameLen) + " was closed."
	var end *lobby.EndError
	if err := r.sub.Err(); errors.As(err, &end) {
		why = words.Sentence(end.To(d.me.ID))
	} else if err != nil {
		why = words.Sentence(d.said("watch the table", err))
	}
	d.at.close()
	d.at = nil
	d.say(why)
	d.toLobby()
}

// startClock arms the turn clock's thresholds of a turn ending at dl,
// left from now: those at least 2 seconds ahead are said.
func (r *tableRoom) startClock(d *door, dl time.Time, left time.Duration) {
	r.deadline, r.left = dl, nil
	for _, th := range clockSays {
		if left > th+2*time.Second {
			r.left = append(r.left, th)
		}
	}
	r.armClock(d)
}

// armClock sets the alarm of the next threshold.
func (r *tableRoom) armClock(d *door) {
	if r.clock != nil {
		r.clock()
		r.clock = nil
	}
	if len(r.left) == 0 {
		return
	}
	r.clock = d.ticked.after(d.cfg.Clock, r.deadline.Add(-r.left[0]).Sub(d.cfg.Clock.Now()))
}

func (r *tableRoom) stopClock() {
	if r.clock != nil {
		r.clock()
		r.clock = nil
	}
	r.left = nil
}

// tick says the turn clock at a threshold, if the turn still runs (an
// alarm that rang early, or for a turn gone, says nothing).
func (r *tableRoom) tick(d *door) {
	switch {
	case !r.myTurn() || !r.snap.Deadline.Equal(r.deadline) || len(r.left) == 0:
		r.stopClock()
	case d.cfg.Clock.Now().Before(r.deadline.Add(-r.left[0])):
		r.armClock(d)
	default:
		d.say(words.TimeLeft(r.left[0]))
		r.left = r.left[1:]
		r.armClock(d)
	}
}
