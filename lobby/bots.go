package lobby

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby/ai"
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
		bot = t.newBot(level)
		if err := t.seatSitters(actx, append(slices.Clip(t.sitters), bot)); err != nil {
			return err
		}
		if len(t.sitters) == t.rec.Seats {
			if err := t.start(actx); err != nil {
				t.lobby.log.Error("could not start a full table", "table", t.name, "err", err)
			}
		}
		t.changed(true)
		return nil
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
				if err := t.seatSitters(actx, without(t.sitters, i)); err != nil {
					return err
				}
				t.changed(false)
				return nil
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
// human-like pause.
func (t *Table) scheduleBot() {
	if !t.running() || t.paused {
		return
	}
	seat := t.game.g.Turn()
	level, ok := botLevel(t.game.players[seat])
	if !ok || (t.botFor == t.game.g.Seq() && t.botGen > 0) {
		return
	}
	t.botGen++
	t.botFor = t.game.g.Seq()
	gen := t.botGen
	move := func() { t.post(func(actx context.Context) { t.botMove(actx, gen, seat, level) }) }
	d := t.lobby.cfg.BotDelay
	if d <= 0 {
		go move()
		return
	}
	d += time.Duration(t.botRand().Int64N(int64(d)))
	t.lobby.cfg.Clock.AfterFunc(d, move)
}

func (t *Table) botRand() *rand.Rand {
	if t.rng == nil {
		t.rng = rand.New(rand.NewPCG(uint64(t.lobby.cfg.Dice.Intn(1<<30)), uint64(t.lobby.cfg.Dice.Intn(1<<30))))
	}
	return t.rng
}

func (t *Table) botMove(ctx context.Context, gen, seat int, level ai.Level) {
	if gen != t.botGen || !t.running() || t.paused || t.game.g.Turn() != seat {
		return
	}
	v := t.game.g.View(seat)
	a := ai.Decide(level, v, t.game.round(seat), t.botRand())
	a.Seat = seat
	if err := t.apply(ctx, a); err != nil {
		t.lobby.log.Error("bot move refused", "table", t.name, "bot", t.game.players[seat].ID, "action", a.Kind, "err", err)
		// Leave it to the turn clock rather than loop on a refused move.
	}
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
