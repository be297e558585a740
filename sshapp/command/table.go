package command

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/ai"
	"github.com/mia-game/mia/lobby/ident"
	"github.com/mia-game/mia/lobby/words"
)

// InviteTTL is how long an invite code stays valid.
const InviteTTL = 7 * 24 * time.Hour

// Usage lines of the table subcommands.
const (
	usageTableCreate = "table create NAME [--private] [--coach] [--preset P] [--lives N] [--seats N] [--ranking R] [--no-pass]" +
		" [--equal-claims] [--low-claim refused|loses] [--mia-penalty 1|2] [--mia-penalty-both]" +
		" [--mia-pass off|reroll|wins] [--mia-reveal challenge|at-once] [--next-opener after-loser|loser|before-loser]" +
		" [--end last-standing|first-out] [--turn-seconds N] [--bots N] [--bot-level easy|normal|hard|expert] [--json]"
	usageTableInvite = "table invite NAME [PERSON] [--json]"
	usageTableKick   = "table kick NAME PLAYER [--json]"
	usageTableRules  = "table rules NAME [--seats N] [OPTIONS as for create] [--json]"
	usageTableClose  = "table close NAME [--json]"
	usageTableLink   = "table link NAME [--revoke] [--json]"
)

// tableUsages are the usage lines of the table subcommands.
// errNotALevel refuses a --bot-level that is no level: a usage error.
var errNotALevel = errors.New("one of " + strings.Join(levelNames(), ", "))

// levelNames is the bots' levels, weakest first.
func levelNames() []string {
	names := make([]string, len(ai.Levels))
	for i, l := range ai.Levels {
		names[i] = string(l)
	}
	return names
}

var tableUsages = []string{usageTableCreate, usageTableInvite, usageTableKick, usageTableRules, usageTableClose, usageTableLink,
	usageTableHook, usageTableWatch}

// tableCommand is `table create|invite|kick|rules|close|link|hook|watch`.
var tableCommand = Command{
	Name: "table",
	Args: "create|invite|kick|rules|close|link|hook|watch NAME [OPTIONS]",
	Summary: "hosts a table, invites to it, removes a member, changes the rules, closes it, links it on the web," +
		" sends its news to a webhook; watch: be told when a seat is free",
	JSON: true,
	More: tableHelp,
	Run:  runTable,
}

// tableHelp is `help table`: each subcommand, and the options of create
// and rules.
func tableHelp(c *Call) {
	for _, u := range tableUsages {
		writeUsage(c.Stdout, c.Session.Hint(""), u)
	}
	fmt.Fprintln(c.Stdout, "\nOptions of table create and table rules (rules NAME shows a table's):")
	fs := flag.NewFlagSet("table", flag.ContinueOnError)
	addRulesFlags(fs, engine.DefaultOptions(), 6)
	printFlags(c.Stdout, fs, "default")
	fmt.Fprintln(c.Stdout, "\nWhat each option does, in words:  "+c.Hint("rules"))
}

func runTable(ctx context.Context, c *Call) int {
	if len(c.Args) == 0 {
		return c.Usage()
	}
	sub, args := c.Args[0], c.Args[1:]
	switch sub {
	case "create":
		return runTableCreate(ctx, c, args)
	case "invite":
		return runTableInvite(ctx, c, args)
	case "kick":
		return runTableKick(ctx, c, args)
	case "rules":
		return runTableRules(ctx, c, args)
	case "close":
		return runTableClose(ctx, c, args)
	case "link":
		return runTableLink(ctx, c, args)
	case "hook":
		return runTableHook(ctx, c, args)
	case "watch":
		return runTableWatch(ctx, c, args)
	}
	fmt.Fprintf(c.Stderr, "mia: no table command %q\n", words.Echo(sub))
	for _, u := range tableUsages {
		writeUsage(c.Stderr, c.Session.Hint(""), u)
	}
	return ExitUsage
}

// TableDoc is the document of the table commands' --json.
type TableDoc struct {
	Table   TableJSON `json:"table"`
	Bots    []string  `json:"bots,omitempty"`    // create: the bots seated
	Code    string    `json:"code,omitempty"`    // invite
	Expires time.Time `json:"expires,omitzero"`  // invite
	Join    string    `json:"join,omitempty"`    // invite: the command the invited player runs
	Invited string    `json:"invited,omitempty"` // invite PERSON: who was told
	Removed string    `json:"removed,omitempty"` // kick: who
	Closed  bool      `json:"closed,omitempty"`  // close
	URL     string    `json:"url,omitempty"`     // link: the table's web address
	Revoked bool      `json:"revoked,omitempty"` // link --revoke
	// Abandoned is the game a close ended without a result: it was
	// running at the table.
	Abandoned string `json:"abandoned,omitempty"`
	Play      string `json:"play,omitempty"` // the command that opens the table
}

// docOf is a table as `tables` and `table` write it.
func docOf(info lobby.TableInfo) TableJSON {
	return TableJSON{
		Name: words.Clean(info.Name, lobby.MaxNameLen), Host: words.Clean(info.Host, lobby.MaxNameLen),
		Seats: info.Seats, Taken: info.Taken, State: words.Clean(info.State, 16), Private: info.Private, Coach: info.Coach, Rules: info.Rules,
		Paused: info.PausedWords(), Resting: info.Resting,
	}
}

// needLobby refuses when the server runs without tables.
func (c *Call) needLobby() bool {
	if c.cfg.Lobby == nil {
		c.Refuse("tables are not available on this server")
		return false
	}
	return true
}

// openTable finds an open table the caller may see (lobby.TableFor): a
// private table that does not admit them gets the answer of a name no
// table has, word for word. ok is false after a refusal.
func (c *Call) openTable(name string) (*lobby.Table, lobby.TableInfo, bool) {
	if !c.needLobby() {
		return nil, lobby.TableInfo{}, false
	}
	t, err := c.cfg.Lobby.TableFor(c.viewer(), name)
	if err != nil {
		c.noTable(name)
		return nil, lobby.TableInfo{}, false
	}
	return t, t.Info(), true
}

// noTable refuses a table name: none open, or none the caller may see.
// It is the one answer of every command to a table that is not there for
// the caller, in the words of lobby.ErrNoTable.
func (c *Call) noTable(name string) int {
	return c.Refuse("%v: %s", lobby.ErrNoTable, words.Echo(name))
}

func runTableCreate(ctx context.Context, c *Call, args []string) int {
	if !c.needLobby() {
		return ExitRefused
	}
	fs := c.flagSet(usageTableCreate)
	private := fs.Bool("private", false, "only members (invited with table invite) may see and join it")
	coach := fs.Bool("coach", false, "practice: "+words.CoachSays)
	rf := addRulesFlags(fs, engine.DefaultOptions(), 6)
	bots := fs.Int("bots", 0, "seat `N` built-in bots at once")
	level := ai.Normal
	fs.Func("bot-level", "how well the bots play: `"+ai.LevelNames("|")+"` (default "+string(ai.Normal)+")", func(s string) error {
		l, err := ai.ParseLevel(s)
		if err != nil {
			return errNotALevel // its own sentence repeats the value whole
		}
		level = l
		return nil
	})
	rest, err := parseFlags(fs, args)
	if err != nil {
		return ExitUsage
	}
	if len(rest) != 1 {
		return c.usageError(fs, "table create takes one NAME")
	}
	rules, seats, err := rf.rules()
	if err != nil {
		return c.usageError(fs, "%v", err)
	}
	if err := rules.Validate(); err != nil {
		return c.fail("check the rules", err)
	}
	if seats < engine.MinSeats || seats > engine.MaxSeats {
		return c.fail("check the seats", lobby.ErrBadSeats)
	}
	if *bots < 0 || *bots > seats {
		return c.Refuse("--bots %d: a table of %d seats takes 0 to %d bots", *bots, seats, seats)
	}
	t, err := c.cfg.Lobby.CreateTable(ctx, c.lobbyPlayer(), lobby.TableConfig{
		Name: rest[0], Rules: rules, Seats: seats, Private: *private, Coach: *coach,
	})
	if err != nil {
		return c.fail("create the table", err)
	}
	c.cfg.Log.Info("table created", "table", t.Name(), "host", c.Person.ID, "private", *private, "bots", *bots)
	var (
		seated []string
		botErr error
	)
	for range *bots {
		b, err := t.AddBot(ctx, c.lobbyPlayer(), level)
		if err != nil {
			lobby.LogHidden(c.cfg.Log, err, "seat a bot", "table", t.Name())
			botErr = err
			break
		}
		seated = append(seated, c.cfg.Lobby.Name(b.ID))
	}
	info := t.Info()
	play := c.Session.Hint("-t") + " play " + info.Name
	if c.JSON {
		return c.WriteJSON(TableDoc{Table: docOf(info), Bots: seated, Play: play})
	}
	kind := "public"
	if info.Private {
		kind = "private"
	}
	writeWrapped(c.Stdout, "", "  ", fmt.Sprintf("Table %s is open: %s, %d seats; %s.", info.Name, kind, info.Seats,
		words.RulesSummary(info.Rules)))
	switch len(seated) {
	case 0:
	case 1:
		article := "a"
		if strings.ContainsAny(string(level)[:1], "aeiou") {
			article = "an" // an easy bot
		}
		fmt.Fprintf(c.Stdout, "Seated: %s (%s %s bot).\n", seated[0], article, level)
	default:
		writeWrapped(c.Stdout, "", "  ", fmt.Sprintf("Seated: %s (%s bots).", strings.Join(seated, ", "), level))
	}
	if len(seated) < *bots {
		fmt.Fprintf(c.Stderr, "mia: only %d of %s could be seated: %s\n", len(seated), words.Plural(*bots, "1 bot", "bots"), lobby.Shown(botErr))
	}
	if info.State == "playing" {
		fmt.Fprintf(c.Stdout, "Every seat is taken: the bots are playing. Watch with:\n  %s\n", play)
	} else {
		fmt.Fprintf(c.Stdout, "You are not seated yet; sit down (and start the game) with:\n  %s\n", play)
	}
	if info.Private {
		fmt.Fprintf(c.Stdout, "Only members see a private table. Invite a player with:\n  %s\n", c.Hint("table invite "+info.Name))
	}
	if info.Coach {
		writeWrapped(c.Stdout, "", "  ", "Coached: "+words.CoachSays+".")
	}
	return ExitOK
}

// inviteAlphabet is lower-case base32: codes read aloud and typed easily.
const inviteAlphabet = "abcdefghijklmnopqrstuvwxyz234567"

// InviteCodeLen is the length of an invite code: 50 random bits.
const InviteCodeLen = 10

// newInviteCode draws a code from crypto/rand.
func newInviteCode() (string, error) {
	b := make([]byte, InviteCodeLen)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("invite code: %w", err)
	}
	for i := range b {
		b[i] = inviteAlphabet[b[i]&31]
	}
	return string(b), nil
}

func runTableInvite(ctx context.Context, c *Call, args []string) int {
	fs := c.flagSet(usageTableInvite)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return ExitUsage
	}
	if len(rest) < 1 || len(rest) > 2 {
		return c.usageError(fs, "table invite takes a table NAME, and the PERSON to tell")
	}
	t, info, ok := c.openTable(rest[0])
	if !ok {
		return ExitRefused
	}
	var who target
	if len(rest) == 2 {
		if !c.needAlerts() {
			return ExitRefused
		}
		if who, ok = c.person(ctx, rest[1]); !ok {
			return ExitRefused
		}
		if !ident.HasKeys(who.ID) {
			return c.Refuse("%s is a bot: only a person with keys is told of an invitation", who.shown())
		}
	}
	doc := TableDoc{Table: docOf(info)}
	if info.Private || who.ID == "" {
		code, err := newInviteCode()
		if err != nil {
			return c.fail("make an invite code", err)
		}
		expires := c.cfg.Now().Add(InviteTTL).UTC().Truncate(time.Second)
		if err := t.Invite(ctx, c.lobbyPlayer(), code, expires); err != nil {
			return c.fail("save the invite", err)
		}
		c.cfg.Log.Info("invite made", "table", info.Name, "by", c.Person.ID)
		doc.Code, doc.Expires, doc.Join = code, expires, c.Hint("join "+info.Name+" "+code)
	} else if info.HostID != c.Person.ID && !c.Admin {
		// A public table needs no code; telling people of it is its host's.
		return c.fail("invite", lobby.ErrNotHost)
	}
	if who.ID != "" {
		if err := c.cfg.Alerts.Invite(ctx, c.lobbyPlayer(), t, who.ID, doc.Code, doc.Expires); err != nil {
			return c.fail("deliver the invite", err)
		}
		doc.Invited = who.shown()
		c.cfg.Log.Info("invite delivered", "table", info.Name, "by", c.Person.ID, "to", who.ID)
	}
	if c.JSON {
		return c.WriteJSON(doc)
	}
	if doc.Code != "" {
		fmt.Fprintf(c.Stdout, "Invite code for %s: %s\n", info.Name, doc.Code)
		fmt.Fprintf(c.Stdout, "It works once, for one key, until %s. The invited player runs:\n  %s\n",
			doc.Expires.Format("2006-01-02 15:04 UTC"), doc.Join)
	}
	if doc.Invited != "" {
		writeWrapped(c.Stdout, "", "  ", fmt.Sprintf("%s was told, on any screen of theirs, and finds the invitation in the lobby's list, where enter takes it.", doc.Invited))
	}
	return ExitOK
}

func runTableKick(ctx context.Context, c *Call, args []string) int {
	fs := c.flagSet(usageTableKick)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return ExitUsage
	}
	if len(rest) != 2 {
		return c.usageError(fs, "table kick takes a table NAME and a PLAYER")
	}
	t, info, ok := c.openTable(rest[0])
	if !ok {
		return ExitRefused
	}
	who := rest[1]
	id := ""
	if bot, isBot := builtinBotAt(info, who); isBot {
		id, who = bot.ID, bot.Name
	} else {
		p, ok := c.person(ctx, who)
		if !ok {
			return ExitRefused
		}
		id, who = p.ID, p.shown()
	}
	if err := t.Kick(ctx, c.lobbyPlayer(), id); err != nil {
		return c.fail("remove the player", err)
	}
	c.cfg.Log.Info("kicked", "table", info.Name, "player", who, "by", c.Person.ID)
	if c.JSON {
		return c.WriteJSON(TableDoc{Table: docOf(t.Info()), Removed: who})
	}
	fmt.Fprintf(c.Stdout, "Removed %s from %s.\n", who, info.Name)
	if info.State == "playing" && slices.ContainsFunc(info.Players, func(s lobby.SeatInfo) bool { return s.ID == id && s.Lives > 0 }) {
		fmt.Fprintln(c.Stdout, "They left the game running there, as if they had stood up: they are out of it.")
	}
	if !info.Private {
		fmt.Fprintln(c.Stdout, "The table is public: they may come back.")
	}
	return ExitOK
}

// builtinBotAt finds a built-in bot of that name seated at the table (or
// playing its game).
func builtinBotAt(info lobby.TableInfo, name string) (lobby.SeatInfo, bool) {
	for _, p := range info.Players {
		if p.Bot && lobby.IsBuiltinBot(p.ID) && strings.EqualFold(p.Name, name) {
			return p, true
		}
	}
	return lobby.SeatInfo{}, false
}

func runTableRules(ctx context.Context, c *Call, args []string) int {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fs := c.flagSet(usageTableRules)
		return c.usageError(fs, "table rules takes a table NAME first")
	}
	t, info, ok := c.openTable(args[0])
	if !ok {
		return ExitRefused
	}
	fs := c.flagSet(usageTableRules)
	fs.Usage = func() {
		writeUsage(c.Stderr, c.Session.Hint(""), usageTableRules)
		printFlags(c.Stderr, fs, "now")
	}
	rf := addRulesFlags(fs, info.Rules, info.Seats)
	coach := fs.Bool("coach", false, "refused: a table is coached from its creation (table create --coach)")
	rest, err := parseFlags(fs, args[1:])
	if err != nil {
		return ExitUsage
	}
	if *coach && !info.Coach {
		return c.Refuse("%s is rated: a coach is chosen when a table is created, and a rated table's games stay rated; "+
			"open a coached table with:  %s", info.Name, c.Hint("table create NAME --coach"))
	}
	if len(rest) != 0 {
		return c.usageError(fs, "unexpected %q", words.Echo(rest[0]))
	}
	rules, seats, err := rf.rules()
	if err != nil {
		return c.usageError(fs, "%v", err)
	}
	if err := t.SetRules(ctx, c.lobbyPlayer(), rules, seats); err != nil {
		return c.fail("change the rules", err)
	}
	info = t.Info()
	c.cfg.Log.Info("rules changed", "table", info.Name, "by", c.Person.ID)
	if c.JSON {
		return c.WriteJSON(TableDoc{Table: docOf(info)})
	}
	writeWrapped(c.Stdout, "", "  ", fmt.Sprintf("Rules of %s from the next game: %d seats; %s.", info.Name, info.Seats,
		words.RulesSummary(info.Rules)))
	return ExitOK
}

func runTableClose(ctx context.Context, c *Call, args []string) int {
	fs := c.flagSet(usageTableClose)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return ExitUsage
	}
	if len(rest) != 1 {
		return c.usageError(fs, "table close takes one NAME")
	}
	t, info, ok := c.openTable(rest[0])
	if !ok {
		return ExitRefused
	}
	if err := t.Close(ctx, c.lobbyPlayer()); err != nil {
		return c.fail("close the table", err)
	}
	abandoned := ""
	if end := t.Closed(); end != nil {
		abandoned = end.Game
	}
	c.cfg.Log.Info("table closed", "table", info.Name, "by", c.Person.ID, "admin", c.Admin, "abandoned", abandoned)
	if c.JSON {
		return c.WriteJSON(TableDoc{Table: docOf(info), Closed: true, Abandoned: abandoned})
	}
	fmt.Fprintf(c.Stdout, "Table %s is closed.\n", info.Name)
	if abandoned != "" {
		fmt.Fprintf(c.Stdout, "Game %s was running there: it is abandoned, with no result\n"+
			"(no one won, no rating moved). Everyone at the table was told.\nSee it with:  %s\n", abandoned, c.Hint("replay "+abandoned))
	}
	return ExitOK
}
