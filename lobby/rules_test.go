package lobby

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby/ai"
)

// TestCheckName holds the one name rule: people, bots and tables all have
// 1 to 16 of [A-Za-z0-9_.-] with a letter or digit; the built-in bots'
// names, in any case and with any number or separators after them, a name
// that reads as a bot's, and the reserved words are no person's.
func TestCheckName(t *testing.T) {
	type want struct {
		person    error // CheckName
		tableOK   bool  // CheckTableName
		botReserv bool  // IsBotName
	}
	cases := map[string]want{
		"alice": {nil, true, false}, "a": {nil, true, false}, "sixteen_chars.ok": {nil, true, false},
		// Too long, empty, or another character.
		"seventeen_chars_x": {ErrBadName, false, false}, "": {ErrBadName, false, false},
		"with space": {ErrBadName, false, false}, "ümlaut": {ErrBadName, false, false},
		"esc\x1b[2J": {ErrBadName, false, false},
		// The bots' names, in any case, with a number or not.
		"ada": {ErrBotName, true, true}, "Ada": {ErrBotName, true, true}, "BERT": {ErrBotName, true, true},
		"ada2": {ErrBotName, true, true}, "ines07": {ErrBotName, true, true},
		// Names that only look like one.
		"adam": {nil, true, false}, "2ada": {nil, true, false},
		// Separators at the end, or a number after them, change nothing.
		"ada_": {ErrBotName, true, true}, "ada_2": {ErrBotName, true, true}, "ada2.": {ErrBotName, true, true},
		// Names that look like a bot's (a skeleton): reserved too.
		"lnes": {ErrBotName, true, true}, "ADA3": {ErrBotName, true, true}, "hug0": {ErrBotName, true, true},
		// A dash first would read as a flag; inside, it is fine.
		"-bob": {ErrNameDash, false, false}, "bob-": {nil, true, false}, "-": {ErrNameDash, false, false},
		// The gateway's name, and its look.
		"maexchen": {ErrReservedName, true, false}, "MAEXCHEN": {ErrReservedName, true, false},
		"rnaexchen": {ErrReservedName, true, false}, "maexchen2": {ErrReservedName, true, false},
		"m4exchen": {ErrReservedName, true, false}, "mae_xchen": {ErrReservedName, true, false},
		// The reserved words: the server's, its admins', the screens'.
		"admin": {ErrReservedName, true, false}, "SYSTEM": {ErrReservedName, true, false},
		"server": {ErrReservedName, true, false}, "root_": {ErrReservedName, true, false},
		"r00t": {ErrReservedName, true, false}, "Admin2": {ErrReservedName, true, false},
		"5y5tem": {ErrReservedName, true, false}, "mia": {ErrReservedName, true, false},
		"_mia_": {ErrReservedName, true, false}, "you": {ErrReservedName, true, false},
		"Y0U": {ErrReservedName, true, false}, "m.o.d": {ErrReservedName, true, false},
		// Words that only contain one are a person's.
		"mia_fan": {nil, true, false}, "maria": {nil, true, false}, "rooted": {nil, true, false},
		"sysadmin_bob": {nil, true, false}, "modem": {nil, true, false},
		// A name that reads as a bot's.
		"ada_bot": {ErrBotName, true, false}, "ada.bot": {ErrBotName, true, false},
		"adabot": {ErrBotName, true, false}, "x-b0t": {ErrBotName, true, false},
		"bot": {ErrBotName, true, false}, "bot_x": {ErrBotName, true, false},
		"my.bot2": {ErrBotName, true, false}, "rootbot": {ErrBotName, true, false},
		// "bot" inside a word is not a bot.
		"robot": {nil, true, false}, "abbot": {nil, true, false}, "botany": {nil, true, false},
		// Separators alone name nothing.
		"_": {ErrNameNoLetter, false, false}, "._.": {ErrNameNoLetter, false, false},
		// Anything not ASCII, at the door.
		"\u0430da": {ErrNameChars, false, false}, "\uff41\uff44\uff41": {ErrNameChars, false, false},
		"\u115f": {ErrNameChars, false, false},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if err := CheckName(name); !errors.Is(err, c.person) || (c.person == nil) != (err == nil) {
				t.Errorf("CheckName = %v, want %v", err, c.person)
			}
			if err := CheckTableName(name); (err == nil) != c.tableOK || (err != nil && !errors.Is(err, ErrBadTableName)) {
				t.Errorf("CheckTableName = %v, want ok %v", err, c.tableOK)
			}
			if got := IsBotName(name); got != c.botReserv {
				t.Errorf("IsBotName = %v, want %v", got, c.botReserv)
			}
		})
	}
	for name, says := range map[string]string{
		"ada":      "ada is the name of a built-in bot; choose another",
		"Ada_2":    "Ada_2 is the name of a built-in bot; choose another",
		"a.d.a":    "a.d.a looks like ada, the name of a built-in bot; choose another",
		"ada_bot":  "ada_bot reads as a bot's name: only the server's built-in bots are named so; choose another",
		"admin":    "admin is a name the server keeps for itself; choose another",
		"r00t":     "r00t looks like root, a name the server keeps for itself; choose another",
		"m4exchen": "m4exchen looks like maexchen, the name of the server's Mäxchen gateway; choose another",
		"__":       "a name needs a letter or a digit: _ . - only set its parts apart",
	} {
		if got := CheckName(name); got == nil || got.Error() != says {
			t.Errorf("CheckName(%q) says %v, want %q", name, got, says)
		}
	}
	// Too long is refused with the reason, never cut; a door of its own
	// (the gateway's 20) keeps the rest of the rule.
	for _, c := range []struct {
		name string
		max  int
		want error
		says string
	}{
		{"seventeen_chars_x", MaxNameLen, ErrNameLong, "seventeen_chars_x is 17 characters long: a name has at most 16"},
		{"seventeen_chars_x", 20, nil, ""},
		{"twenty-one-chars-xxxx", 20, ErrNameLong, "at most 20"},
		{"lnes-but-longer-ok", 20, nil, ""},
		{"-twenty", 20, ErrNameDash, "may not begin with -"},
		{"ines07", 20, ErrBotName, "built-in bot"},
		{"Maexchen", 20, ErrReservedName, "Maexchen is the name of the server's Mäxchen gateway"},
		// A Mäxchen bot says it is one, but passes for no built-in bot
		// and not for the server.
		{"rational-python-bot", 20, nil, ""},
		{"luegender-python-bot", 20, nil, ""},
		{"my.bot2", 20, nil, ""},
		{"ada_bot", 20, ErrBotName, "reads as a bot's name"},
		{"bot.ada2", 20, ErrBotName, "reads as a bot's name"},
		{"mia-bot", 20, ErrBotName, "reads as a bot's name"},
		{"r00tbot", 20, ErrBotName, "reads as a bot's name"},
		{"m4exchen", 20, ErrReservedName, "looks like maexchen"},
		{"SYSTEM", 20, ErrReservedName, "keeps for itself"},
	} {
		err := CheckNameUpTo(c.name, c.max)
		if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) || err != nil && !strings.Contains(err.Error(), c.says) {
			t.Errorf("CheckNameUpTo(%q, %d) = %v, want %v saying %q", c.name, c.max, err, c.want, c.says)
		}
	}
	var ne *NameError
	if err := CheckTableName("a table"); !errors.As(err, &ne) || !ne.Table || err.Error() != "a table name is 1 to 16 of the characters A-Z a-z 0-9 _ . -" {
		t.Errorf("a table's name: %v", err)
	}
	for _, b := range botNames {
		if !validName(b) || !IsBotName(b) {
			t.Errorf("bot name %q breaks the name rule", b)
		}
	}
}

// TestBotsNeverLookAlike fills a table of ten with bots next to a player
// whose name (from before the rule) is a bot's in other case: no two seats
// share a name in any case.
func TestBotsNeverLookAlike(t *testing.T) {
	e := newEnv(t)
	host := e.player("host")
	ctx := ctxT(t)
	tbl, err := e.lobby.CreateTable(ctx, host, TableConfig{Name: "crowd", Rules: quickRules(), Seats: engine.MaxSeats})
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.Sit(ctx, keyless("Ada")); err != nil { // a name from before the rule
		t.Fatal(err)
	}
	for i := 1; i < engine.MaxSeats; i++ {
		if _, err := tbl.AddBot(ctx, host, ai.Easy); err != nil {
			t.Fatalf("bot %d: %v", i, err)
		}
	}
	seen := map[string]bool{}
	for _, p := range tbl.Info().Players {
		key := strings.ToLower(p.Name)
		if seen[key] {
			t.Errorf("two seats are called %s: %+v", p.Name, tbl.Info().Players)
		}
		seen[key] = true
		if p.Bot && !IsBotName(p.Name) {
			t.Errorf("bot %q has a name a person could take", p.Name)
		}
	}
	if len(seen) != engine.MaxSeats {
		t.Errorf("%d seats taken, want %d", len(seen), engine.MaxSeats)
	}
}

// TestAccess holds the one rule of who sees which table and game.
func TestAccess(t *testing.T) {
	created := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	public := Access{Host: "H", Created: created}
	private := Access{Private: true, Host: "H", Members: []string{"M"}, Created: created}
	linked := private
	linked.Link = "tok"
	host, member, stranger, admin := Viewer{ID: "H"}, Viewer{ID: "M"}, Viewer{ID: "S"}, Viewer{ID: "A", Admin: true}
	nobody := Viewer{}
	tables := []struct {
		name string
		a    Access
		v    Viewer
		want bool
	}{
		{"public, stranger", public, stranger, true},
		{"public, no key", public, nobody, true},
		// A private table: its host and members, and admins.
		{"private, host", private, host, true},
		{"private, member", private, member, true},
		{"private, stranger", private, stranger, false},
		{"private, no key", private, nobody, false},
		{"private, admin", private, admin, true},
		// A private table's web link opens it to whoever holds it.
		{"link, holder", linked, Viewer{Link: "tok"}, true},
		{"link, a wrong token", linked, Viewer{Link: "tox"}, false},
		{"link, none held", linked, nobody, false},
		{"no link, an empty token held", private, Viewer{Link: ""}, false},
		{"public, a link held", public, Viewer{Link: "tok"}, true},
	}
	for _, c := range tables {
		if got := c.v.Sees(c.a); got != c.want {
			t.Errorf("table %s: Sees = %v, want %v", c.name, got, c.want)
		}
		if got := c.a.Admits(c.v.ID); got != c.want && !c.v.Admin && c.v.Link == "" {
			t.Errorf("table %s: Admits = %v, want %v", c.name, got, c.want)
		}
	}
	after, before := created.Add(time.Hour), created.Add(-time.Hour)
	seated := []string{"S", "M"}
	games := []struct {
		name string
		g    GameAccess
		v    Viewer
		want bool
	}{
		{"public game, stranger", GameAccess{Started: after, Table: &public}, stranger, true},
		{"private game, member", GameAccess{Started: after, Table: &private}, member, true},
		{"private game, stranger who sat in it (a kicked member)", GameAccess{Started: after, Players: seated, Table: &private}, stranger, false},
		{"private game, admin", GameAccess{Started: after, Table: &private}, admin, true},
		{"no table record, player", GameAccess{Started: after, Players: seated}, stranger, true},
		{"no table record, host of nothing", GameAccess{Started: after, Players: seated}, host, false},
		{"older than the record, player", GameAccess{Started: before, Players: seated, Table: &public}, member, true},
		{"older than the record, stranger", GameAccess{Started: before, Players: seated, Table: &public}, host, false},
		{"older than the record, admin", GameAccess{Started: before, Table: &private}, admin, true},
		{"no key", GameAccess{Started: before, Players: []string{""}}, nobody, false},
		{"private game, link holder", GameAccess{Started: after, Table: &linked}, Viewer{Link: "tok"}, true},
		{"private game, a wrong token", GameAccess{Started: after, Table: &linked}, Viewer{Link: "x"}, false},
		{"private game older than the linked record, link holder", GameAccess{Started: before, Table: &linked},
			Viewer{Link: "tok"}, false},
		{"no table record, link holder", GameAccess{Started: after, Players: seated}, Viewer{Link: "tok"}, false},
	}
	for _, c := range games {
		if got := c.v.SeesGame(c.g); got != c.want {
			t.Errorf("%s: SeesGame = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestAdminListsPrivateTables: the lobby's list follows the same rule as
// its doors — an admin, who may enter any table, sees every table.
func TestAdminListsPrivateTables(t *testing.T) {
	e := newEnv(t)
	host, stranger := e.player("host"), e.player("stranger")
	admin := e.player("root")
	admin.Admin = true
	if _, err := e.lobby.CreateTable(ctxT(t), host, TableConfig{Name: "secret", Rules: quickRules(), Private: true}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		who  Player
		want int
	}{{host, 1}, {stranger, 0}, {admin, 1}} {
		if got := e.lobby.Tables(c.who.Viewer()); len(got) != c.want {
			t.Errorf("%s lists %d tables, want %d", c.who.Name(), len(got), c.want)
		}
	}
}

// TestPlural is the one plural.
func TestPlural(t *testing.T) {
	cases := []struct {
		n         int
		one, many string
		want      string
	}{
		{1, "a life", "lives", "a life"},
		{2, "a life", "lives", "2 lives"},
		{0, "1 game", "games", "0 games"},
		{1, "1 game", "games", "1 game"},
		{3, "1 time", "times", "3 times"},
	}
	for _, c := range cases {
		if got := Plural(c.n, c.one, c.many); got != c.want {
			t.Errorf("Plural(%d, %q, %q) = %q, want %q", c.n, c.one, c.many, got, c.want)
		}
	}
}

// TestPercent is the one rounding of a rate: half up, so that the stats
// screen and the stats command agree (5 of 8 is 63% on both).
func TestPercent(t *testing.T) {
	cases := []struct {
		n, all int
		want   string
	}{{5, 8, "63%"}, {1, 8, "13%"}, {3, 8, "38%"}, {1, 3, "33%"}, {2, 3, "67%"}, {0, 4, "0%"}, {4, 4, "100%"}, {1, 0, "-"}}
	for _, c := range cases {
		if got := Percent(c.n, c.all); got != c.want {
			t.Errorf("Percent(%d, %d) = %q, want %q", c.n, c.all, got, c.want)
		}
	}
}

// TestNarrator tells one round of events from a seat, from a spectator
// (dice hidden as a redacted log hides them) and in a replay (every die).
func TestNarrator(t *testing.T) {
	evs := []engine.Event{
		{Type: engine.EvRound, Round: 1, Opener: 0},
		{Type: engine.EvRoll, Seat: 0, Dice: 43, Looked: true},
		{Type: engine.EvClaim, Seat: 0, Value: 52},
		{Type: engine.EvPass, Seat: 1, Value: 52},
		{Type: engine.EvChallenge, Seat: 2, Claimant: 1, Claim: 52, Dice: 43, Loser: 1, LivesLost: 1},
		{Type: engine.EvRound, Round: 2, Opener: 1},
		{Type: engine.EvRoll, Seat: 1, Dice: 65, Looked: false},
		{Type: engine.EvClaim, Seat: 1, Value: 21},
		{Type: engine.EvGiveUp, Seat: 2, LivesLost: 2},
		{Type: engine.EvOut, Seat: 2},
		{Type: engine.EvTimeout, Seat: 0, LivesLost: 1},
		{Type: engine.EvLeave, Seat: 1, LivesLost: 3},
		{Type: engine.EvEnd, Winner: 0},
	}
	hidden := make([]engine.Event, len(evs))
	for i, e := range evs {
		hidden[i] = e.Redacted(-1)
	}
	names := []string{"alice", "bob", "carol"}
	replay := Narrator{Names: names, You: -1, Ranking: engine.Classic, Turn: -1}
	bob := Narrator{Names: names, You: 1, Ranking: engine.Classic, Turn: -1}
	cases := []struct {
		i                     int
		replay, bob, watching string
		verdict               string
	}{
		{0, "— round 1: alice opens —", "— round 1: alice opens —", "— round 1: alice opens —", ""},
		{1, "alice rolled 43", "alice rolled 43", "alice rolled", ""},
		{2, "alice announced 52 to bob", "alice announced 52 to you", "alice announced 52 to bob", "bluff: 52 claimed, 43 in the cup"},
		{3, "bob passed 52 to carol", "you passed 52 to carol", "bob passed 52 to carol", "bluff: 52 passed on, 43 in the cup"},
		{4, "carol called bob a liar: 43, bob loses a life", "carol called you a liar: 43, you lose a life",
			"carol called bob a liar: 43, bob loses a life", "caught: 43 under bob's 52, bob loses a life"},
		{5, "— round 2: bob opens —", "— round 2: you open —", "— round 2: bob opens —", ""},
		{6, "bob rolled 65 without looking", "you rolled 65 without looking", "bob rolled without looking", ""},
		{7, "bob announced Mia to carol", "you announced Mia to carol", "bob announced Mia to carol", "blind: Mia claimed unseen, 65 in the cup"},
		{8, "carol gave up against Mia and loses 2 lives", "carol gave up against Mia and loses 2 lives", "carol gave up against Mia and loses 2 lives", ""},
		{9, "carol is out", "carol is out", "carol is out", ""},
		{10, "alice ran out of time and loses a life", "alice ran out of time and loses a life", "alice ran out of time and loses a life", ""},
		{11, "bob left the game and loses 3 lives", "you left the game and lose 3 lives", "bob left the game and loses 3 lives", ""},
		{12, "alice wins the game", "alice wins the game", "alice wins the game", ""},
	}
	for _, c := range cases {
		if got := replay.Line(evs, c.i); got != c.replay {
			t.Errorf("event %d in a replay: %q, want %q", c.i, got, c.replay)
		}
		if got := bob.Line(evs, c.i); got != c.bob {
			t.Errorf("event %d from bob's seat: %q, want %q", c.i, got, c.bob)
		}
		if got := replay.Line(hidden, c.i); got != c.watching {
			t.Errorf("event %d watched: %q, want %q", c.i, got, c.watching)
		}
		if _, got := replay.Verdict(evs, c.i); got != c.verdict {
			t.Errorf("event %d verdict: %q, want %q", c.i, got, c.verdict)
		}
		if v, got := replay.Verdict(hidden, c.i); c.i != 4 && got != "" {
			t.Errorf("event %d judged on hidden dice: %d %q", c.i, v, got)
		}
	}
	if got := replay.Heading(evs[5]); got != "Round 2: bob opens" {
		t.Errorf("heading %q", got)
	}
	// While a game runs, the last claim goes to whoever has the turn.
	live := Narrator{Names: names, You: 0, Turn: 1}
	if got := live.Line(evs[:3], 2); got != "you announced 52 to bob" {
		t.Errorf("the last claim, live: %q", got)
	}
	if got := live.Line(evs, 12); got != "you win the game!" {
		t.Errorf("the end, for the winner: %q", got)
	}
	for v, want := range map[engine.Verdict]string{engine.Bluffed: "bluff!", engine.Caught: "caught bluffing!",
		engine.Unseen: "blind", engine.Stood: "the claim stood", engine.Truthful: "", engine.Unjudged: ""} {
		if got := Mark(v); got != want {
			t.Errorf("Mark(%d) = %q, want %q", v, got, want)
		}
	}
}

// TestNarratorRoundEnds tells a blind raise as a raise, and the round
// ends the log used to leave out (a low claim, a revealed Mia, a Mia come
// back), and what the lifted cup shows of each end of a round.
func TestNarratorRoundEnds(t *testing.T) {
	names := []string{"alice", Label("ada", true), "carol"}
	n := Narrator{Names: names, You: 0, Ranking: engine.Classic, Turn: -1}
	evs := []engine.Event{
		{Type: engine.EvRound, Round: 1, Opener: 1},
		{Type: engine.EvRoll, Seat: 1, Dice: 31, Looked: true},
		{Type: engine.EvClaim, Seat: 1, Value: 32},
		{Type: engine.EvPass, Seat: 2, Value: 32},
		{Type: engine.EvPass, Seat: 0, Value: 41},
		{Type: engine.EvChallenge, Seat: 1, Claimant: 0, Claim: 41, Dice: 31, Loser: 0, LivesLost: 1},
		{Type: engine.EvRound, Round: 2, Opener: 0},
		{Type: engine.EvLowClaim, Seat: 0, Value: 31, Claim: 42, Loser: 0, LivesLost: 1},
		{Type: engine.EvReveal, Seat: 2, Claim: engine.Mia, Dice: 43, Losses: []engine.Loss{{Seat: 2, LivesLost: 2}}},
		{Type: engine.EvMiaBack, Seat: 1, Losses: []engine.Loss{{Seat: 0, LivesLost: 1}, {Seat: 2, LivesLost: 1}}},
		{Type: engine.EvGiveUp, Seat: 2, LivesLost: 1},
	}
	cases := []struct {
		i       int
		line    string
		heading string // Lifted; "" for an event that ends no round
		dice    engine.Value
		words   []string
	}{
		{3, "carol passed 32 to you", "", engine.NoValue, nil},
		{4, "you raised blind to 41 and passed to ada [bot]", "", engine.NoValue, nil},
		{5, "ada [bot] called you a liar: 31, you lose a life", "The cup is lifted", 31,
			[]string{"the claim: 41 by you", "ada [bot] called you a liar: 31, you lose a life — caught bluffing!"}},
		{7, "you announced 31, not above 42, and lose a life", "Round over", engine.NoValue,
			[]string{"you announced 31, not above 42, and lose a life"}},
		{8, "carol's Mia is shown at once: 43, carol loses 2 lives", "The cup is lifted", 43,
			[]string{"carol's Mia is shown at once: 43, carol loses 2 lives — caught bluffing!"}},
		{9, "ada [bot]'s Mia came back round: you and carol lose a life", "Round over", engine.NoValue,
			[]string{"ada [bot]'s Mia came back round: you and carol lose a life"}},
		{10, "carol gave up against Mia and loses a life", "Round over", engine.NoValue,
			[]string{"carol gave up against Mia and loses a life"}},
	}
	for _, c := range cases {
		if got := n.Line(evs, c.i); got != c.line {
			t.Errorf("event %d: %q, want %q", c.i, got, c.line)
		}
		heading, dice, words, ok := n.Lifted(evs, c.i)
		if ok != (c.heading != "") || heading != c.heading || dice != c.dice || !slices.Equal(words, c.words) {
			t.Errorf("event %d lifts %v %q %v %q, want %q %v %q", c.i, ok, heading, dice, words, c.heading, c.dice, c.words)
		}
	}
	if Label("ada", true) != "ada [bot]" || Label("alice", false) != "alice" {
		t.Errorf("labels %q %q", Label("ada", true), Label("alice", false))
	}
}

// TestMayStart is the rule of Start as the help bar reads it from a
// table's info.
func TestMayStart(t *testing.T) {
	host := Player{ID: "p:1", Key: "SHA256:host"}
	ann := Player{ID: "p:2", Key: "SHA256:ann"}
	stranger := Player{ID: "p:3", Key: "SHA256:stranger"}
	admin := Player{ID: "p:4", Key: "SHA256:root", Admin: true}
	seat := func(ps ...Player) []SeatInfo {
		out := make([]SeatInfo, len(ps))
		for i, p := range ps {
			out[i] = SeatInfo{ID: p.ID}
		}
		return out
	}
	info := func(hostHere bool, state string, ps ...Player) TableInfo {
		return TableInfo{HostID: host.ID, HostHere: hostHere, State: state, Players: seat(ps...), Taken: len(ps)}
	}
	cases := []struct {
		name string
		info TableInfo
		who  Player
		want error
	}{
		{"the host alone", info(true, "waiting", host), host, ErrTooFewPlayers},
		{"the host with a player", info(true, "waiting", host, ann), host, nil},
		{"the host, not seated, two seated", info(true, "waiting", ann, stranger), host, nil},
		{"a seated player while the host is here", info(true, "waiting", host, ann), ann, ErrNotHost},
		{"a seated player while the host is away", info(false, "waiting", host, ann), ann, nil},
		{"a player with no seat, the host away", info(false, "waiting", host, ann), stranger, ErrNotHost},
		{"an admin", info(true, "waiting", host, ann), admin, nil},
		{"a game running", info(true, "playing", host, ann), host, ErrGameRunning},
		{"a driven table", TableInfo{HostID: host.ID, Driven: true, Taken: 2}, host, ErrDriven},
	}
	for _, c := range cases {
		if got := c.info.MayStart(c.who); !errors.Is(got, c.want) || (c.want == nil && got != nil) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
