package lobby

import (
	"errors"
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
	// The length is told in characters, and the name repeated as every
	// error repeats a value (words.Echo).
	long := &NameError{Rule: ErrNameLong, Name: strings.Repeat("é", 40), Max: MaxNameLen}
	if want := strings.Repeat("é", 32) + "… is 40 characters long: a name has at most 16"; long.Error() != want {
		t.Errorf("a long name: %q, want %q", long.Error(), want)
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
