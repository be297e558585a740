package lobby

import (
	"slices"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby/words"
)

// TableInfo is a table as the lobby lists it.
type TableInfo struct {
	Name     string
	Host     string // the host's name now
	HostID   string // the host's person id
	Seats    int    // seats at the table
	Taken    int    // seats taken
	State    string // "waiting" or "playing"
	Rules    engine.Options
	Private  bool
	Coach    bool // a practice table: not rated; each player's own moves judged (TableConfig.Coach)
	Watching int  // people with the table open
	HostHere bool // the host has the table open
	Players  []SeatInfo
	Fair     FairInfo // the dice: the server's commitment and the players' seeds
	// Driven: the host's program deals every game (the Mäxchen gateway's
	// table): players sit down for the next deal even while a game runs,
	// and nobody presses start.
	Driven bool
	// Paused: the table's storage did not save a write: it did not
	// answer in time, or its disk failed the write (full, read-only, an
	// I/O error), which the table tries again. Until it is saved, the
	// table takes no moves and its turn clock stands still; then it
	// resumes by itself (the turn clock starts afresh). PausedFor says
	// why, in words ("the server's disk is full").
	Paused    bool
	PausedFor string
	// Resting: a table of bots only that nobody had open for a while
	// (Config.BotTableIdle) starts no game until someone opens it.
	Resting bool
	// StartsByItself: every seat is taken and every person seated is at
	// the table, so after a game the next starts by itself after
	// RestBetweenGames (words.NextGameByItself).
	StartsByItself bool
	// Event is the event whose table this is ("" for none): its games are
	// the event's, dealt to its entrants (CreateEventTable).
	Event string

	members []string
	created time.Time
	link    string
	// source is where the table was opened from, botsOnly that every
	// seat is a built-in bot's, keepPlaying that it is an admin's
	// (budget.go).
	source      string
	botsOnly    bool
	keepPlaying bool
}

// Access is who may see the table (see Access.Admits). It holds the
// table's web link token: never show it to whoever may not hold it.
func (i TableInfo) Access() Access {
	return Access{Private: i.Private, Host: i.HostID, Members: i.members, Created: i.created, Link: i.link}
}

// HasSeat reports whether the person id has a seat at the table: in its
// running game, else for the next.
func (i TableInfo) HasSeat(id string) bool {
	return slices.ContainsFunc(i.Players, func(s SeatInfo) bool { return s.ID == id })
}

// MaySit reports why p may not sit down at the table as the info shows
// it (nil: Sit would take them now), by the rule Sit applies: screens
// offer a seat only to those it returns nil for. At a driven table while
// a game is dealt the info shows that game's seats, not those taken for
// the next deal: there it leaves the answer to Sit.
func (i TableInfo) MaySit(p Player) error {
	playing, taken := i.State == "playing", i.Taken
	if playing && i.Driven {
		taken = 0 // the game's seats, not the next deal's
	}
	return sitRule(i.Event != "", i.HasSeat(p.ID), playing, i.Driven, taken, i.Seats)
}

// sitRule is who may take a seat, the one rule of Table.Sit and of
// TableInfo.MaySit: not at an event's table (the event seats), not twice,
// not into a running game (but at a driven table, whose driver seats for
// its next game), not past the last seat.
func sitRule(event, seated, running, driven bool, taken, seats int) error {
	switch {
	case event:
		return ErrEventSeats
	case seated:
		return ErrSeated
	case running && !driven:
		return ErrGameRunning
	case taken >= seats:
		return ErrTableFull
	}
	return nil
}

// SeatInfo is one seat as everyone may see it.
type SeatInfo struct {
	Name      string // the player's name now
	ID        string // the player's person id
	Bot       bool   // played by a program
	Lives     int
	Connected bool
}

// Snapshot is a table as one viewer may see it at one moment. It never
// holds dice the viewer may not see.
type Snapshot struct {
	Version  uint64
	Table    TableInfo
	You      int  // your seat in Game, -1 for a spectator
	Seated   bool // you have a seat for the next game (or this one)
	Playing  bool // a game is running
	GameID   string
	Game     *engine.View // the running or last game, from your seat; nil before the first
	Deadline time.Time    // when the turn times out; zero with no clock, and on a built-in bot's turn (shownDeadline)
	Chat     []ChatLine
	Result   *ResultInfo // how the last game ended, until the next starts

	names  []string       // by game seat, the players' names now
	labels []string       // names with the bots marked (words.Label), for the words of the game
	events []engine.Event // this viewer's redacted copy of the game's events
	shared *shared        // what the viewers of this snapshot derive alike (shared.go)
}

// Events returns the game's events as the viewer may see them: the dice of
// other players' rolls are blank until a challenge lifts the cup.
func (s Snapshot) Events() []engine.Event { return s.events }

// Name is the display name of a game seat.
func (s Snapshot) Name(seat int) string {
	if seat >= 0 && seat < len(s.names) {
		return s.names[seat]
	}
	return "?"
}

// snapshot builds the view from seat (-1 for a spectator).
func (t *Table) snapshot(seat int) Snapshot {
	snap := Snapshot{Version: t.ver, Table: *t.info.Load(), You: seat, Deadline: t.shownDeadline(), Chat: t.chat.recent(), Result: t.result,
		shared: &shared{}}
	if t.game != nil {
		v := t.game.g.View(seat)
		snap.Game = &v
		snap.GameID = t.game.id
		snap.Playing = !t.game.g.Over()
		snap.names = make([]string, len(t.game.players))
		snap.labels = make([]string, len(t.game.players))
		for i, p := range t.game.players {
			name := t.lobby.Name(p.ID)
			snap.names[i], snap.labels[i] = name, words.Label(name, p.Bot)
		}
		snap.events = t.game.log(seat)
	}
	return snap
}

// shownDeadline is the turn clock as the doors show it: none on a
// built-in bot's turn. The bot moves within seconds (Config.BotDelay) and
// never runs out of time, so its clock says nothing, and drawing it each
// second would cost every viewer of the table a frame a second, where
// the bot's move costs one.
func (t *Table) shownDeadline() time.Time {
	if t.running() && isBuiltin(t.game.players[t.game.g.Turn()]) {
		return time.Time{}
	}
	return t.deadline
}

// LogLines describes the last n events of the game in words, from the
// viewer's seat (see words.Narrator): "bob passed 65 to you", "carol called
// alice a liar: 43, alice loses a life".
func (s Snapshot) LogLines(n int) []string {
	nar := s.Narrator()
	evs := s.events
	var out []string
	for i := max(0, len(evs)-n); i < len(evs); i++ {
		if line := nar.Line(evs, i); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// Narrator tells the game's events from the viewer's seat.
func (s Snapshot) Narrator() words.Narrator {
	n := words.Narrator{Names: s.labels, You: s.You, Turn: -1}
	if s.Game != nil {
		n.Ranking = s.Game.Options.Ranking
		if s.Game.Phase != engine.PhaseOver {
			n.Turn = s.Game.Turn
		}
	}
	return n
}

// Who is the name of seat, or "you" for the viewer's own.
func (s Snapshot) Who(seat int) string { return s.Narrator().Who(seat) }
