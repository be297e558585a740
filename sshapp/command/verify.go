package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/fair"
	"github.com/mia-game/mia/store"
)

// verifyCommand is `verify GAME`.
var verifyCommand = Command{
	Name:    "verify",
	Args:    "GAME",
	Summary: "re-derives every roll of a finished (or abandoned) game from its revealed seed and the players' seeds (provably fair dice)",
	JSON:    true,
	Run:     runVerify,
}

// VerifyJSON is the document of `verify GAME --json`.
type VerifyJSON struct {
	Game     string      `json:"game"`
	OK       bool        `json:"ok"`
	Rolls    int         `json:"rolls"`              // rolls re-derived and matching
	Mismatch string      `json:"mismatch,omitempty"` // the first difference, when not OK
	Fair     *fair.Proof `json:"fair"`
}

func runVerify(ctx context.Context, c *Call) int {
	g, evs, code, ok := c.finishedGame(ctx, "verify")
	if !ok {
		return code
	}
	if g.Fair == nil {
		return c.Refuse("game %s was played before this server committed to its dice: there is nothing to verify", g.ID)
	}
	doc, err := verifyGame(g, evs)
	if err != nil {
		return c.fail("verify the game", err) // a stored game that cannot be checked at all
	}
	if c.JSON {
		if code := c.WriteJSON(doc); code != ExitOK || doc.OK {
			return code
		}
		return ExitRefused
	}
	writeDice(c.Stdout, g)
	if !doc.OK {
		return c.Refuse("game %s does NOT verify: %s", g.ID, doc.Mismatch)
	}
	writeWrapped(c.Stdout, "", "", fmt.Sprintf("Re-derived: the seating, the first opener and all %d rolls match. "+
		"The dice were fixed before the game by the commitment and the players' seeds; the server could not choose them.",
		doc.Rolls))
	return ExitOK
}

// verifyGame checks a finished game with a proof: a document that is OK or
// names the first mismatch; an error only when the record cannot be
// checked at all (no seed, a malformed proof, events out of the rules).
func verifyGame(g store.Game, evs []engine.Event) (VerifyJSON, error) {
	fps := make([]string, len(g.Seats))
	for i, s := range g.Seats {
		fps[i] = s.Fingerprint
	}
	rolls, err := fair.Verify(*g.Fair, g.Rules, fps, evs)
	doc := VerifyJSON{Game: g.ID, OK: err == nil, Rolls: rolls, Fair: g.Fair}
	var mm *fair.Mismatch
	switch {
	case errors.As(err, &mm):
		doc.Mismatch = mm.Error()
	case err != nil:
		return doc, err
	}
	return doc, nil
}

// writeDice writes a finished game's proof of fair dice: the commitment,
// the revealed seed and the players' seeds.
func writeDice(w io.Writer, g store.Game) {
	p := g.Fair
	fmt.Fprintf(w, "Dice of game %s (%s):\n", g.ID, p.Scheme)
	writeColumns(w, "  commitment", p.Commitment+" (SHA-256 of the server seed, shown before the game)", diceColumn)
	writeColumns(w, "  server seed", p.ServerSeed, diceColumn)
	given := make([][2]string, len(p.PlayerSeeds))
	for i, s := range p.PlayerSeeds {
		given[i] = [2]string{seatName(g, s.Seat), s.Seed}
	}
	writeColumns(w, "  seeds given", seedList(given, "none"), diceColumn)
}

// diceColumn is where the values of a game's dice start: a SHA-256 in
// hex (64 digits) fits after it.
const diceColumn = 15

// seedList names the seeds given (name, seed), or says none: "none given".
func seedList(given [][2]string, none string) string {
	if len(given) == 0 {
		return none
	}
	parts := make([]string, len(given))
	for i, s := range given {
		parts[i] = fmt.Sprintf("%s %q", s[0], s[1])
	}
	return strings.Join(parts, ", ")
}
