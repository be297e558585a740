package maexchen

import (
	"context"
	"sort"

	"github.com/mia-game/mia/lobby"
)

// Points are the Mäxchen server's: +1 for each round played, −1 for each
// life lost (lobby.MaexchenPoints). They are computed from what the store keeps of a UDP name
// (its finished games and the lives it lost in them, at any table the
// gateway drove), so they survive a restart. A round cancelled for want of
// players is no game, and counts nothing. People who sit in are scored by
// mia's own stats and are not listed in SCORE.

// refreshPoints reads a UDP player's points again from the store and
// lists them in SCORE from now on.
func (g *Gateway) refreshPoints(ctx context.Context, name string) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	g.refreshPointsCtx(ctx, name)
}

func (g *Gateway) refreshPointsCtx(ctx context.Context, name string) {
	games, lost, err := g.cfg.Records.Tally(ctx, IDPrefix+name)
	if err != nil {
		g.log.Warn("could not read a bot's points", "name", name, "err", err)
		return
	}
	if _, ok := g.known[name]; !ok {
		g.knownOrder = append(g.knownOrder, name)
	}
	g.known[name] = lobby.MaexchenPoints(games, lost)
}

// scores lists the registered players first (in order of registration),
// then everyone else who ever played, by points; msgScore keeps what fits
// in a datagram.
func (g *Gateway) scores() []score {
	out := make([]score, 0, len(g.known))
	listed := make(map[string]bool, len(g.players))
	for _, p := range g.players {
		if pts, ok := g.known[p.name]; ok {
			out = append(out, score{p.name, pts})
			listed[p.name] = true
		}
	}
	rest := make([]score, 0, len(g.knownOrder))
	for _, name := range g.knownOrder {
		if !listed[name] {
			rest = append(rest, score{name, g.known[name]})
		}
	}
	sort.SliceStable(rest, func(i, j int) bool { return rest[i].points > rest[j].points })
	return append(out, rest...)
}
