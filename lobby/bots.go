package lobby

import (
	"context"
	crand "crypto/rand"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/solver"
	"github.com/mia-game/mia/lobby/ai"
	"github.com/mia-game/mia/lobby/words"
)

// BotIDPrefix starts the person id of every built-in bot
// ("bot:LEVEL:NAME", a key-less kind of lobby/ident), so that no person
// with keys can ever be one.
const BotIDPrefix = "bot:"

// AddBot seats a built-in AI player of the given level in a free seat
// (host only, between games).
func (t *Table) AddBot(ctx context.Context, p Player, level ai.Level) (Player, error) {
	var bot Player
	err := t.do(ctx, func(actx context.Context) error {
		if p.ID != t.rec.Host && !p.Admin {
			return ErrNotHost
		}
		if t.running() {
			return ErrGameRunning
		}
		if len(t.sitters) >= t.rec.Seats {
			return ErrTableFull
		}
		if len(t.sitters)+1 == t.rec.Seats && !slices.ContainsFunc(t.sitters, func(s Player) bool { return !s.Bot }) {
			// The last seat: a table of bots only, within the budget.
			if err := t.mayFillWithBots(p); err != nil {
				return err
			}
			t.keepPlaying = t.keepPlaying || p.Admin
		}
		bot = t.newBot(level)
		return t.seatSitters(actx, append(slices.Clip(t.sitters), bot), t.startIfFull)
	})
	return bot, err
}

// RemoveBot takes a built-in bot off its seat (host only, between games).
func (t *Table) RemoveBot(ctx context.Context, p Player, name string) error {
	return t.do(ctx, func(actx context.Context) error {
		if p.ID != t.rec.Host && !p.Admin {
			return ErrNotHost
		}
		if t.running() {
			return ErrGameRunning
		}
		for i, s := range t.sitters {
			if s.Bot && isBuiltin(s) && strings.EqualFold(t.lobby.Name(s.ID), name) {
				return t.seatSitters(actx, without(t.sitters, i), t.shown)
			}
		}
		return Errorf(NotFound, "no built-in bot %q at this table", name)
	})
}

// IsBuiltinBot reports whether the person id is a built-in bot's.
func IsBuiltinBot(id string) bool {
	return len(id) > len(BotIDPrefix) && strings.HasPrefix(id, BotIDPrefix)
}

// isBuiltin reports whether p is a built-in bot.
func isBuiltin(p Player) bool { return IsBuiltinBot(p.ID) }

func (t *Table) newBot(level ai.Level) Player {
	// Two seats never look alike: a name that looks like one seated is
	// skipped.
	taken := func(name string) bool {
		return slices.ContainsFunc(t.sitters, func(s Player) bool { return Alike(t.lobby.Name(s.ID), name) })
	}
	for n := 0; ; n++ {
		name := botNames[(t.botSeq+n)%len(botNames)]
		if n >= len(botNames) {
			name = fmt.Sprintf("%s%d", name, n/len(botNames)+1)
		}
		if !taken(name) {
			t.botSeq++
			return Player{ID: BotIDPrefix + string(level) + ":" + name, Bot: true}
		}
	}
}

// BuiltinBot is the n-th (from 0) of the built-in bots of a level that
// an event seats among its entrants (lobby/events): named in the order a
// table names its bots, with a number once every name is taken ("ada2").
func BuiltinBot(level ai.Level, n int) Player {
	name := botNames[n%len(botNames)]
	if n >= len(botNames) {
		name = fmt.Sprintf("%s%d", name, n/len(botNames)+1)
	}
	return Player{ID: BotIDPrefix + string(level) + ":" + name, Bot: true}
}

// botLevel reads the level out of a built-in bot's id.
func botLevel(p Player) (ai.Level, bool) {
	if !isBuiltin(p) {
		return "", false
	}
	rest := p.ID[len(BotIDPrefix):]
	for i := 0; i < len(rest); i++ {
		if rest[i] == ':' {
			lv, err := ai.ParseLevel(rest[:i])
			return lv, err == nil
		}
	}
	return "", false
}

// scheduleBot lets a built-in bot whose turn it is move after a short,
// human-like pause: the botMove timer, set for the game's seq now and
// replaced (or cancelled) as soon as the game moves on. A bot whose move
// was tried at this seq already and refused (botTried) is left to the
// turn clock rather than loop on a refused move.
func (t *Table) scheduleBot() {
	seq, seat, level, ok := t.botToMove()
	if tm := t.timers[botMove]; ok && tm != nil && tm.seq == seq {
		return // set already
	}
	t.cancelTimer(botMove)
	if !ok || seq == t.botTried {
		return
	}
	d := t.lobby.cfg.BotDelay
	if d > 0 {
		d = onBeat(t.lobby.cfg.Clock.Now(), d+time.Duration(t.botRand().Int64N(int64(d))), t.lobby.cfg.BotDelay/botBeats)
	}
	t.after(botMove, d, func(actx context.Context) {
		t.botTried = seq
		t.botMove(actx, seat, level)
	}).seq = seq
}

// botBeats: the built-in bots of all tables move on a beat, a
// twentieth of the least pause (50 ms by default). A bot's pause, random
// from the least to twice that, ends on the next beat, so bots that would
// have moved a few milliseconds apart move together, and their tables'
// writes share one commit of the store (its batch) rather than an fsync
// each: with 200 tables of bots, several moves a commit instead of one.
// Nobody sees the difference: the pause was random anyway.
const botBeats = 20

// onBeat is the pause d from now, lengthened to end on the next multiple
// of beat (of the clock's time); beat 0 leaves it as it is.
func onBeat(now time.Time, d, beat time.Duration) time.Duration {
	if beat <= 0 {
		return d
	}
	due := now.Add(d)
	if on := due.Truncate(beat); on.Before(due) {
		d += on.Add(beat).Sub(due)
	}
	return d
}

// botToMove is the game's seq, and the seat and level of the built-in bot
// whose turn it is; ok is false when no game runs or the turn is not a
// built-in bot's.
func (t *Table) botToMove() (seq, seat int, level ai.Level, ok bool) {
	if !t.running() {
		return 0, 0, "", false
	}
	seat = t.game.g.Turn()
	level, ok = botLevel(t.game.players[seat])
	return t.game.g.Seq(), seat, level, ok
}

func (t *Table) botRand() *rand.Rand {
	if t.rng == nil {
		t.rng = rand.New(rand.NewPCG(uint64(t.lobby.cfg.Dice.Intn(1<<30)), uint64(t.lobby.cfg.Dice.Intn(1<<30))))
	}
	return t.rng
}

// expertRand is the expert bots' randomness: its own, from crypto/rand,
// never drawn from the source that deals the dice.
func (t *Table) expertRand() *rand.Rand {
	if t.expertRng == nil {
		var seed [32]byte
		_, _ = crand.Read(seed[:]) // crypto/rand.Read never fails
		t.expertRng = rand.New(rand.NewChaCha8(seed))
	}
	return t.expertRng
}

// botMove plays the move of the built-in bot at seat: the botMove timer.
// An expert whose strategy is not solved yet plays the move as hard, and
// the lobby solves it meanwhile, off the table's goroutine, if the
// solver's budget admits it for the table's source (Config.Solves): when
// it does not, the expert plays as hard until someone's solve is done,
// and the table's chat says so once for the rule set.
func (t *Table) botMove(actx context.Context, seat int, level ai.Level) {
	v := t.game.g.View(seat)
	round := t.game.round(seat)
	r := t.botRand()
	if level == ai.Expert {
		if rs, work := ai.Pending(level, v, round); work != nil {
			t.solveForBot(rs, work)
		}
		r = t.expertRand()
	}
	a := ai.DecideAtOnce(level, v, round, r)
	a.Seat = seat
	if err := t.apply(actx, a, nil); err != nil && !errors.Is(err, ErrUnsaved) {
		t.lobby.log.Error("bot move refused", "table", t.name, "bot", t.game.players[seat].ID, "action", a.Kind, "err", err)
		// Leave it to the turn clock rather than loop on a refused move.
	}
}

// solveForBot asks the lobby to solve rs for an expert bot, its solve
// counted by the table's source (TableInfo.SolveSource); a refusal is
// told in the chat and the log once for rs, and asked again at the
// bot's next move.
func (t *Table) solveForBot(rs solver.Rules, work func()) {
	err := t.lobby.solveAside(t.Info().SolveSource(), rs, work)
	if err == nil || t.solveRefused == rs {
		return
	}
	t.solveRefused = rs
	t.lobby.log.Info("an expert bot's solve refused: it plays as hard", "table", t.name, "rules", rs.String(), "err", err)
	t.chat.add(ChatLine{At: t.lobby.cfg.Clock.Now(), Text: UnsolvedSaid(err, words.ExpertUnsolved)})
	t.changed(false)
}

// round returns the current round's events as seat may see them.
func (r *gameRun) round(seat int) []engine.Event {
	evs := r.seen[seat+1]
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type == engine.EvRound {
			return evs[i:len(evs):len(evs)]
		}
	}
	return evs[:len(evs):len(evs)]
}
