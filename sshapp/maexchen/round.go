package maexchen

import (
	"context"
	"errors"
	"net/netip"
	"slices"
	"strings"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
)

// phase is where the round loop is.
type phase uint8

const (
	idle     phase = iota // no UDP player is registered
	joining               // ROUND STARTING sent, JOINs coming in
	playing               // a game dealt, its events told as they come
	between               // the round ended; the next one is scheduled
	awaiting              // a game the gateway did not deal runs at the table
	paused                // the table waits for its storage: the next round waits for it
)

// round is the state of the round loop.
type round struct {
	phase    phase
	n        int // the round number of ROUND STARTED, rising every round
	gen      int // the join window's generation: a stale timer does nothing
	stopJoin func() bool
	game     string // the game ID of the round in play, "" until seen
	dealt    []lobby.Player
	told     int // the events of the game already told
	over     bool
	prompt   prompt
	rolled   rolled
}

// prompt is the open YOUR TURN or ROLLED of a UDP player.
type prompt struct {
	token string
	name  string
	at    int // the number of the game's events when it was asked
	kind  command
}

// rolled is the dice of a UDP player's roll, from their own view.
type rolled struct {
	game string
	at   int
	dice engine.Value
}

// startRound sends ROUND STARTING to every registered player. The round
// waits for the JOINs of those not sitting out (allJoined).
func (g *Gateway) startRound() {
	if len(g.players) == 0 {
		g.round.phase = idle
		return
	}
	if g.snap.Table.Paused { // no round is dealt meanwhile: the next starts when the table does
		g.round.phase = paused
		return
	}
	g.round.n++
	g.round.gen++
	g.round.phase = joining
	gen := g.round.gen
	// The window is timed before anyone hears of it.
	g.round.stopJoin = g.after(g.cfg.Timeout, func() { g.closeJoin(gen) })
	for _, p := range g.players {
		g.filter.drop(p.late)
		p.join, p.joined, p.late = newToken(), false, ""
		g.filter.add(p.join, tokenRef{kind: cmdJoin, to: p.addr})
		g.send(p.addr, msgRoundStarting(p.join))
	}
}

// joinRound is JOIN;token. The round starts early once every registered
// player not sitting out has joined. A player sitting out that answers
// its last ROUND STARTING after the window closed is waited for again
// from the next round.
func (g *Gateway) joinRound(from netip.AddrPort, token string) {
	p := g.playerAt(from)
	switch {
	case p == nil:
	case p.late != "" && p.late == token:
		p.sittingOut, p.late = false, ""
		g.log.Info("bot answered again, back in the rounds", "name", p.name, "addr", p.addr)
	case g.round.phase == joining && p.join == token:
		p.joined = true
		p.joinedInTime()
		if g.allJoined() {
			g.closeJoin(g.round.gen)
		}
	}
}

// allJoined reports whether the round has no one left to wait for: every
// player asked to join it has, but those sitting out, and someone has.
// (With every player sitting out the window runs its time: whoever
// answers in it plays.)
func (g *Gateway) allJoined() bool {
	someone := false
	for _, p := range g.players {
		switch {
		case p.join == "": // registered after the round was announced
		case p.joined:
			someone = true
		case !p.sittingOut:
			return false
		}
	}
	return someone
}

// closeJoin ends the join window and deals the game: to the people seated
// at the table and to the bots that joined, in a random order, as many as
// there are seats.
func (g *Gateway) closeJoin(gen int) {
	if gen != g.round.gen || g.round.phase != joining {
		return
	}
	if g.round.stopJoin != nil {
		g.round.stopJoin()
		g.round.stopJoin = nil
	}
	var guests []lobby.Player
	now := g.cfg.Clock.Now()
	for _, p := range g.players {
		switch {
		case p.join == "": // registered after the round was announced
		case p.joined:
			g.filter.drop(p.join)
			guests = append(guests, p.lp)
			p.sittingOut = false
		default:
			// Its token stays live: a late JOIN brings it back.
			if !p.sittingOut {
				g.log.Info("bot did not join; it sits out until it answers", "name", p.name, "addr", p.addr)
			}
			p.sittingOut, p.late = true, p.join
			p.missed(now)
		}
		p.join, p.joined = "", false
	}
	for i := len(guests) - 1; i > 0; i-- {
		j := g.cfg.Rand.Intn(i + 1)
		guests[i], guests[j] = guests[j], guests[i]
	}
	ctx, cancel := g.call()
	dealt, err := g.table.Deal(ctx, host(), guests)
	cancel()
	switch {
	case err == nil:
		g.dealt(dealt)
		g.sync()
	case errors.Is(err, lobby.ErrTooFewPlayers) && len(dealt) == 0:
		g.everyone(msgRoundCanceled("NO_PLAYERS"))
		g.endRound(false, false)
	case errors.Is(err, lobby.ErrTooFewPlayers):
		g.everyone(msgRoundStarted(g.round.n, []string{g.cfg.Lobby.Name(dealt[0].ID)}))
		g.everyone(msgRoundCanceled("ONLY_ONE_PLAYER"))
		g.endRound(false, false)
	case errors.Is(err, lobby.ErrGameRunning):
		// A game from before the gateway took the table: wait for its end.
		g.round.phase = awaiting
		g.sync()
	case errors.Is(err, lobby.ErrPaused), errors.Is(err, lobby.ErrUnsaved):
		// The table waits for its storage (ErrUnsaved: the deal's own
		// write made it wait). The bots that joined hear nothing more of
		// this round; when the table resumes, its game is played if the
		// deal was saved, else a new round starts (sync).
		g.log.Warn("the table is paused: the round waits for it", "err", err)
		g.round.phase = paused
		g.sync()
	default:
		g.log.Error("could not deal a round", "err", err)
		g.round.phase = between
		g.after(g.cfg.Timeout, g.startRound)
	}
}

// dealt starts playing the round dealt to players.
func (g *Gateway) dealt(players []lobby.Player) {
	g.round.phase, g.round.game, g.round.told, g.round.over = playing, "", 0, false
	g.round.dealt = players
	for _, s := range players {
		if name, ok := strings.CutPrefix(s.ID, IDPrefix); ok {
			if p := g.playerNamed(name); p != nil && g.cfg.NameHold > 0 {
				p.held = true // stored when the round ends, or when it leaves
			}
		}
	}
	g.round.prompt, g.round.rolled = prompt{}, rolled{}
}

// endRound sends SCORE and schedules the next round: at once after a
// game of bots, after Pause when a person played, and after the timeout
// when the round was cancelled (so that a lone bot does not spin).
func (g *Gateway) endRound(played, people bool) {
	g.dropPrompt()
	g.round.phase = between
	// The next round is timed before anyone hears the score.
	switch {
	case !played:
		g.after(g.cfg.Timeout, g.startRound)
	case people && g.cfg.Pause > 0:
		g.after(g.cfg.Pause, g.startRound)
	default:
		g.everyone(msgScore(g.scores()))
		g.startRound()
		return
	}
	g.everyone(msgScore(g.scores()))
}

// sync reads the table's newest snapshot: it tells the bots the events of
// the round in play, then asks the UDP player whose turn it is.
func (g *Gateway) sync() {
	if snap, ok := g.host.Take(); ok {
		g.snap = snap
	}
	snap := g.snap
	switch g.round.phase {
	case awaiting:
		if !snap.Playing {
			g.startRound()
		}
		return
	case paused:
		switch {
		case snap.Table.Paused:
			return
		case !snap.Playing:
			g.startRound()
			return
		}
		// The deal was saved after all: its game is the round's.
		players := make([]lobby.Player, len(snap.Table.Players))
		for i, s := range snap.Table.Players {
			players[i] = lobby.Player{ID: s.ID, Bot: s.Bot}
		}
		g.dealt(players)
	case playing:
	default:
		return
	}
	if g.round.game == "" {
		g.round.game = snap.GameID
	}
	if snap.GameID != g.round.game || snap.Game == nil {
		return
	}
	evs := snap.Events()
	for ; g.round.told < len(evs); g.round.told++ {
		g.tell(snap, evs, g.round.told)
	}
	if g.round.over {
		g.finishRound()
		return
	}
	g.ask(snap, len(evs))
}

// tell sends everyone the messages of event i.
func (g *Gateway) tell(snap lobby.Snapshot, evs []engine.Event, i int) {
	e := evs[i]
	name := snap.Name
	lost := func(seat int, reason string) { g.everyone(msgPlayerLost([]string{name(seat)}, reason)) }
	switch e.Type {
	case engine.EvRound:
		n := len(snap.Game.Lives)
		order := make([]string, 0, n)
		for k := 0; k < n; k++ {
			order = append(order, name((e.Opener+k)%n))
		}
		g.everyone(msgRoundStarted(g.round.n, order))
	case engine.EvRoll:
		g.everyone(msgPlayerRolls(name(e.Seat)))
	case engine.EvClaim:
		g.everyone(msgAnnounced(name(e.Seat), e.Value))
	case engine.EvChallenge:
		g.everyone(msgWantsToSee(name(e.Seat)))
		switch {
		case e.Claim == engine.NoValue:
			lost(e.Seat, lostSeeFirst)
		case e.Loser == e.Claimant:
			g.everyone(msgActualDice(e.Dice))
			lost(e.Claimant, lostCaught)
		default:
			g.everyone(msgActualDice(e.Dice))
			lost(e.Seat, lostSeeFailed)
		}
	case engine.EvLowClaim:
		g.everyone(msgAnnounced(name(e.Seat), e.Value))
		lost(e.Seat, lostLosingDice)
	case engine.EvReveal:
		if i == 0 || evs[i-1].Type != engine.EvClaim || evs[i-1].Seat != e.Seat {
			g.everyone(msgAnnounced(name(e.Seat), e.Claim))
		}
		g.everyone(msgActualDice(e.Dice))
		var losers []string
		for _, l := range e.Losses {
			losers = append(losers, name(l.Seat))
		}
		reason := lostMia
		if e.Dice != engine.Mia {
			reason = lostLiedAboutMia
		}
		g.everyone(msgPlayerLost(losers, reason))
	case engine.EvTimeout:
		reason := lostNoTurn
		if i > 0 && evs[i-1].Type == engine.EvRoll && evs[i-1].Seat == e.Seat {
			reason = lostDidNotAnnouce
		}
		lost(e.Seat, reason)
		if p := g.playerNamed(name(e.Seat)); p != nil { // a bot's turn ran out
			p.owes = true
			p.missed(g.cfg.Clock.Now())
		}
	case engine.EvGiveUp, engine.EvLeave:
		lost(e.Seat, lostNoTurn)
	case engine.EvEnd:
		g.round.over = true
	}
}

// ask sends the UDP player whose turn it is their prompt, once per state
// of the game: YOUR TURN, or ROLLED with the dice they rolled.
func (g *Gateway) ask(snap lobby.Snapshot, at int) {
	v := snap.Game
	if !snap.Playing || snap.Table.Paused || v.Turn < 0 || v.Turn >= len(snap.Table.Players) {
		g.dropPrompt() // (a paused table's clock stands still: the prompt comes when it resumes)
		return
	}
	name, ok := strings.CutPrefix(snap.Table.Players[v.Turn].ID, IDPrefix)
	p := g.playerNamed(name)
	if !ok || p == nil {
		g.dropPrompt() // a person's turn, or a bot that unregistered: the clock runs
		return
	}
	if g.round.prompt.token != "" && g.round.prompt.at == at {
		return // asked already
	}
	g.dropPrompt()
	pr := prompt{token: newToken(), name: p.name, at: at, kind: cmdRoll}
	msg := msgYourTurn(pr.token)
	if v.Phase == engine.PhaseAnnounce {
		r := g.round.rolled
		if r.game != snap.GameID || r.at != at || r.dice == engine.NoValue {
			// A roll whose answer did not come (the table paused on its
			// write, and saved it after all): its dice are in the
			// player's own view.
			g.awaitRoll(p, snap.GameID, at)
			r = g.round.rolled
		}
		if r.game != snap.GameID || r.at != at || r.dice == engine.NoValue {
			return // not a roll the gateway made: the clock runs
		}
		pr.kind = cmdAnnounce
		msg = msgRolled(r.dice, pr.token)
	}
	g.round.prompt = pr
	g.filter.add(pr.token, tokenRef{kind: pr.kind, to: p.addr})
	g.send(p.addr, msg)
}

func (g *Gateway) dropPrompt() {
	g.filter.drop(g.round.prompt.token)
	g.round.prompt = prompt{}
}

// move is ROLL, SEE or ANNOUNCE with the open prompt's token: the move is
// played at the table like any seat's.
func (g *Gateway) move(from netip.AddrPort, m message) {
	pr := g.round.prompt
	p := g.playerAt(from)
	want := cmdRoll
	if m.cmd == cmdAnnounce {
		want = cmdAnnounce
	}
	if p == nil || g.round.phase != playing || pr.token == "" || pr.token != m.token || pr.name != p.name || pr.kind != want {
		return
	}
	g.dropPrompt()
	p.answered()
	var a engine.Action
	switch m.cmd {
	case cmdRoll:
		a = engine.Action{Kind: engine.Roll, Look: true}
	case cmdSee:
		a = engine.Action{Kind: engine.Challenge}
	case cmdAnnounce:
		a = engine.Action{Kind: engine.Claim, Value: m.dice}
	}
	ctx, cancel := g.call()
	err := g.table.Act(ctx, p.lp, a)
	cancel()
	if errors.Is(err, lobby.ErrUnsaved) || errors.Is(err, lobby.ErrPaused) {
		// The table waits for its storage, the turn clock with it: no
		// prompt meanwhile. When it resumes its snapshot asks again, for
		// the roll if it was saved (rolledIn), else for the move.
		g.log.Info("the table is paused: the bot's move waits for it", "name", p.name, "action", a.Kind, "err", err)
		return
	}
	if err != nil {
		// A move the rules refuse, or one that came as the clock ran out:
		// the turn's clock decides. (The wire has no word for a refusal;
		// a fault is logged as one.)
		if lobby.Hides(err) {
			lobby.LogHidden(g.log, err, "a bot's move failed", "name", p.name, "action", a.Kind)
		} else {
			g.log.Debug("bot move refused", "name", p.name, "action", a.Kind, "err", err)
		}
		g.sync()
		return
	}
	if a.Kind == engine.Roll {
		// The roll is in the player's own view, published before Act
		// returned.
		if snap, ok := p.sub.Take(); ok {
			g.rolledIn(snap)
		}
	}
	g.sync()
}

// rolledIn notes the dice of a roll from the roller's own view, snap, if
// it has them to announce.
func (g *Gateway) rolledIn(snap lobby.Snapshot) {
	if snap.Game != nil && snap.Game.Phase == engine.PhaseAnnounce && snap.Game.MyTurn() && snap.Game.Dice != engine.NoValue {
		g.round.rolled = rolled{game: snap.GameID, at: len(snap.Events()), dice: snap.Game.Dice}
	}
}

// awaitRoll notes the dice p rolled, from p's own view once it shows
// the game at its event at (the table publishes to one subscriber after
// another: the host's snapshot may come first), waiting for it at most
// viewWait.
func (g *Gateway) awaitRoll(p *player, game string, at int) {
	ctx, cancel := context.WithTimeout(g.ctx, viewWait)
	defer cancel()
	snap, ok := p.sub.Take()
	for ; ; snap, ok = p.sub.Wait(ctx) {
		switch {
		case !ok:
			return
		case snap.GameID == game && len(snap.Events()) == at:
			g.rolledIn(snap)
			return
		case snap.GameID == game && len(snap.Events()) > at:
			return // the game went on meanwhile
		}
	}
}

// finishRound ends a round that was played: the points of its UDP
// players are read again from the store, and SCORE goes out.
func (g *Gateway) finishRound() {
	people := false
	ctx, cancel := g.call()
	var hold []*player // bots whose name is held from now on
	for _, s := range g.round.dealt {
		if name, ok := strings.CutPrefix(s.ID, IDPrefix); ok {
			g.refreshPointsCtx(ctx, name)
			if p := g.playerNamed(name); p != nil && p.held && !p.storedHeld {
				hold = append(hold, p)
			}
		} else if !s.Bot {
			people = true
		}
	}
	if len(hold) > 0 {
		g.keepNames(ctx, g.cfg.Clock.Now(), hold, true)
	}
	cancel()
	if g.cfg.Finished != nil && g.round.game != "" {
		g.cfg.Finished(g.round.game, slices.Clone(g.round.dealt))
	}
	g.endRound(true, people)
}
