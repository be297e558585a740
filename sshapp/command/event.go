package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/ai"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/lobby/words"
)

// Usage lines of the event subcommands.
const (
	usageEventCreate = "event create NAME [--format arena|swiss|knockout] [--starts now|+10m|RFC3339] [--lasts 60m]" +
		" [--rounds N] [--seats N] [OPTIONS as for table create] [--who everyone|people|bots] [--private]" +
		" [--bots N] [--bot-level easy|normal|hard|expert] [--night] [--json]"
	usageEventShow   = "event [show] NAME [--json]"
	usageEventStart  = "event start NAME [--json]"
	usageEventStop   = "event stop NAME [--json]"
	usageEventClose  = "event close NAME [--json]"
	usageEventJoin   = "event join NAME [CODE] [--json]"
	usageEventLeave  = "event leave NAME [--json]"
	usageEventInvite = "event invite NAME [--json]"
	usageEventLink   = "event link NAME [--revoke] [--json]"
)

var eventUsages = []string{usageEventCreate, usageEventShow, usageEventStart, usageEventStop, usageEventClose,
	usageEventJoin, usageEventLeave, usageEventInvite, usageEventLink}

// eventCommand is `event create|start|stop|close|join|leave|invite|link
// NAME`, and `event [show] NAME`: the standings.
var eventCommand = Command{
	Name:    "event",
	Args:    "[show|create|start|stop|close|join|leave|invite|link] NAME [OPTIONS]",
	Summary: "an event's standings; makes, starts, stops, closes, joins or leaves one",
	JSON:    true,
	More:    eventHelp,
	Run:     runEvent,
}

// eventsCommand is `events`: the list.
var eventsCommand = Command{
	Name:    "events",
	Summary: "events you may see: running, to start (with a countdown), over",
	JSON:    true,
	Run:     runEvents,
}

func eventHelp(c *Call) {
	for _, u := range eventUsages {
		writeUsage(c.Stdout, c.Session.Hint(""), u)
	}
	fmt.Fprintln(c.Stdout, "\nOptions of event create:")
	fs, _ := eventFlags(c)
	printFlags(c.Stdout, fs, "default")
	fmt.Fprintln(c.Stdout, "\nA bot enters an event with:  "+c.Session.Hint("-T")+" bot --event NAME")
}

// needEvents refuses when the server runs without events.
func (c *Call) needEvents() bool {
	if c.cfg.Events == nil {
		c.Refuse("events are not available on this server")
		return false
	}
	return true
}

func runEvent(ctx context.Context, c *Call) int {
	if len(c.Args) == 0 {
		return c.Usage()
	}
	if !c.needEvents() {
		return ExitRefused
	}
	sub, args := c.Args[0], c.Args[1:]
	switch sub {
	case "create":
		return runEventCreate(ctx, c, args)
	case "show":
		return runEventShow(ctx, c, args)
	case "start", "stop", "close", "leave":
		return runEventAct(ctx, c, sub, args)
	case "join":
		return runEventJoin(ctx, c, args)
	case "invite":
		return runEventInvite(ctx, c, args)
	case "link":
		return runEventLink(ctx, c, args)
	}
	return runEventShow(ctx, c, c.Args)
}

// noEvent refuses an event's name: none, or none the caller may see, in
// the words of events.ErrNoEvent.
func (c *Call) noEvent(name string) int {
	return c.Refuse("%v: %s", events.ErrNoEvent, words.Echo(name))
}

// openEvent finds an event not closed that the caller may see.
func (c *Call) openEvent(name string) (*events.Event, bool) {
	e, err := c.cfg.Events.For(c.viewer(), name)
	if err != nil {
		c.noEvent(name)
		return nil, false
	}
	return e, true
}

// eventFlags are the flags of event create, and what they set.
func eventFlags(c *Call) (*flag.FlagSet, *eventSettings) {
	fs := c.flagSet(usageEventCreate)
	s := &eventSettings{level: string(ai.Normal)}
	fs.StringVar(&s.format, "format", string(events.Arena), "how it seats its entrants: `arena|swiss|knockout`")
	fs.StringVar(&s.starts, "starts", "", "when it starts by itself: `now|+10m|RFC3339` (default: when you start it)")
	fs.DurationVar(&s.lasts, "lasts", 0, "how long an arena seats its entrants, `60m` (default 1h)")
	fs.IntVar(&s.rounds, "rounds", 0, fmt.Sprintf("a swiss event's rounds, `N` (default %d)", events.DefaultRounds))
	fs.StringVar(&s.who, "who", string(events.Everyone), "who may enter: `everyone|people|bots`")
	fs.BoolVar(&s.private, "private", false, "only members (invited with event invite) see and join it")
	fs.IntVar(&s.bots, "bots", 0, "enter `N` built-in bots")
	fs.StringVar(&s.level, "bot-level", string(ai.Normal), "how well the bots play: `"+ai.LevelNames("|")+"`")
	fs.BoolVar(&s.night, "night", false, "a competition night: bots only, an arena of 60 minutes")
	s.rules = addRulesFlags(fs, engine.DefaultOptions(), events.DefaultSeats)
	return fs, s
}

// eventSettings are the flags of event create.
type eventSettings struct {
	format, starts, who, level string
	lasts                      time.Duration
	rounds, bots               int
	private, night             bool
	rules                      *rulesFlags
}

// parseStarts reads --starts: now, +DURATION from now, or RFC 3339.
func parseStarts(v string, now time.Time) (time.Time, error) {
	switch {
	case v == "":
		return time.Time{}, nil
	case v == "now":
		return now, nil
	case strings.HasPrefix(v, "+"):
		d, err := time.ParseDuration(v[1:])
		if err != nil || d < 0 {
			return time.Time{}, fmt.Errorf("--starts %s: now, +DURATION (+10m) or a time as 2026-11-28T20:00:00Z", words.Echo(v))
		}
		return now.Add(d), nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("--starts %s: now, +DURATION (+10m) or a time as 2026-11-28T20:00:00Z", words.Echo(v))
	}
	return t, nil
}

func runEventCreate(ctx context.Context, c *Call, args []string) int {
	fs, s := eventFlags(c)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return ExitUsage
	}
	if len(rest) != 1 {
		return c.usageError(fs, "event create takes one NAME")
	}
	rules, seats, err := s.rules.rules()
	if err != nil {
		return c.usageError(fs, "%v", err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if s.night && !set["preset"] && !set["ranking"] {
		if p, err := engine.Preset(engine.PresetMaexchen); err == nil {
			rules = words.PresetKept(withTurn(p, rules))
		}
	}
	starts, err := parseStarts(s.starts, c.cfg.Now())
	if err != nil {
		return c.usageError(fs, "%v", err)
	}
	e, err := c.cfg.Events.Create(ctx, c.lobbyPlayer(), events.Settings{
		Name: rest[0], Format: events.Format(s.format), StartsAt: starts, Lasts: s.lasts, Rounds: s.rounds, Seats: seats,
		Rules: rules, Who: events.Who(s.who), Private: s.private, Bots: s.bots, BotLevel: s.level, Night: s.night,
	})
	if err != nil {
		return c.fail("create the event", err)
	}
	c.cfg.Log.Info("event created", "event", e.Name(), "host", c.Person.ID)
	info := e.Info()
	if c.JSON {
		return c.WriteJSON(c.eventDoc(info))
	}
	kind := "public"
	if info.Private {
		kind = "private"
	}
	writeWrapped(c.Stdout, "", "  ", fmt.Sprintf("Event %s is made: %s, %s; tables of %d; %s.", info.Name, kind,
		words.EventFormat(string(info.Format), info.Rounds, info.Lasts), info.Seats, words.RulesSummary(info.Rules)))
	if info.Entrants > 0 {
		fmt.Fprintf(c.Stdout, "Entered: %s.\n", words.Plural(info.Entrants, "1 built-in bot", "built-in bots"))
	}
	if info.StartsAt.IsZero() {
		fmt.Fprintf(c.Stdout, "It starts when you start it:\n  %s\n", c.Hint("event start "+info.Name))
	} else {
		fmt.Fprintf(c.Stdout, "It starts at %s (in %s).\n", info.StartsAt.Format("2006-01-02 15:04 UTC"), words.Countdown(info.StartsAt.Sub(c.cfg.Now())))
	}
	fmt.Fprintf(c.Stdout, "Players join at its screen (J), and are seated while it is open:\n  %s\nBots with:  %s\n",
		c.Session.Hint("-t")+" play --event "+info.Name, c.Session.Hint("-T")+" bot --event "+info.Name)
	if info.Private {
		fmt.Fprintf(c.Stdout, "Only members see a private event. Invite one with:\n  %s\n", c.Hint("event invite "+info.Name))
	}
	return ExitOK
}

// withTurn is the preset p with the turn clock of rules.
func withTurn(p, rules engine.Options) engine.Options {
	p.TurnSeconds = rules.TurnSeconds
	return p
}

// oneName parses a subcommand that takes one NAME and no flags but those
// given.
func oneName(c *Call, usage string, args []string, extra func(fs *flag.FlagSet)) (string, bool) {
	fs := c.flagSet(usage)
	if extra != nil {
		extra(fs)
	}
	rest, err := parseFlags(fs, args)
	if err != nil {
		return "", false
	}
	if len(rest) != 1 {
		c.usageError(fs, "%s takes one NAME", strings.Fields(usage)[0]+" "+strings.Fields(usage)[1])
		return "", false
	}
	return rest[0], true
}

func runEventShow(ctx context.Context, c *Call, args []string) int {
	name, ok := oneName(c, usageEventShow, args, nil)
	if !ok {
		return ExitUsage
	}
	info, err := c.cfg.Events.Lookup(ctx, c.viewer(), name)
	if errors.Is(err, events.ErrNoEvent) {
		return c.noEvent(name)
	}
	if err != nil {
		return c.fail("read the event", err)
	}
	if c.JSON {
		return c.WriteJSON(c.eventDoc(info))
	}
	c.writeEvent(info)
	return ExitOK
}

func runEventAct(ctx context.Context, c *Call, sub string, args []string) int {
	usage := map[string]string{"start": usageEventStart, "stop": usageEventStop, "close": usageEventClose, "leave": usageEventLeave}[sub]
	name, ok := oneName(c, usage, args, nil)
	if !ok {
		return ExitUsage
	}
	e, ok := c.openEvent(name)
	if !ok {
		return ExitRefused
	}
	p := c.lobbyPlayer()
	var err error
	switch sub {
	case "start":
		err = e.Start(ctx, p)
	case "stop":
		err = e.Stop(ctx, p)
	case "close":
		err = e.Close(ctx, p)
	case "leave":
		err = e.Leave(ctx, p)
	}
	if err != nil {
		return c.fail(sub+" the event", err)
	}
	c.cfg.Log.Info("event "+sub, "event", e.Name(), "by", c.Person.ID)
	info := e.Info()
	if c.JSON {
		return c.WriteJSON(c.eventDoc(info))
	}
	switch sub {
	case "start":
		fmt.Fprintf(c.Stdout, "Event %s has started: %s.\n", info.Name, words.EventFormat(string(info.Format), info.Rounds, info.Lasts))
	case "stop":
		fmt.Fprintf(c.Stdout, "Event %s seats nobody more: the games running finish and count.\n", info.Name)
	case "close":
		fmt.Fprintf(c.Stdout, "Event %s is closed. Its standings stay:  %s\n", info.Name, c.Hint("event "+info.Name))
	case "leave":
		fmt.Fprintf(c.Stdout, "You left %s: it seats you no more; your points stay in its standings.\n", info.Name)
	}
	return ExitOK
}

func runEventJoin(ctx context.Context, c *Call, args []string) int {
	fs := c.flagSet(usageEventJoin)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return ExitUsage
	}
	if len(rest) < 1 || len(rest) > 2 {
		return c.usageError(fs, "event join takes a NAME and, to a private event, an invite CODE")
	}
	name, code := rest[0], ""
	if len(rest) == 2 {
		code = strings.ToLower(strings.TrimSpace(rest[1]))
	}
	var e *events.Event
	if code != "" {
		// An unknown event and a wrong code get the same answer, so that
		// nobody learns the names of private events by guessing.
		if e, err = c.cfg.Events.Event(name); err != nil {
			return c.Refuse("%v", events.ErrBadInvite)
		}
	} else if e, err = c.cfg.Events.For(c.viewer(), name); err != nil {
		return c.noEvent(name)
	}
	if err := e.Join(ctx, c.lobbyPlayer(), code); err != nil {
		if errors.Is(err, events.ErrNoEvent) {
			return c.noEvent(name)
		}
		return c.fail("join the event", err)
	}
	c.cfg.Log.Info("joined an event", "event", e.Name(), "person", c.Person.ID)
	info := e.Info()
	if c.JSON {
		return c.WriteJSON(c.eventDoc(info))
	}
	fmt.Fprintf(c.Stdout, "You are in %s (%s).\n", info.Name, words.EventState(string(info.State), info.StartsAt, info.Ends, c.cfg.Now()))
	fmt.Fprintf(c.Stdout, "It seats you while you have its screen open:\n  %s\n", c.Session.Hint("-t")+" play --event "+info.Name)
	return ExitOK
}

func runEventInvite(ctx context.Context, c *Call, args []string) int {
	name, ok := oneName(c, usageEventInvite, args, nil)
	if !ok {
		return ExitUsage
	}
	e, ok := c.openEvent(name)
	if !ok {
		return ExitRefused
	}
	code, err := newInviteCode()
	if err != nil {
		return c.fail("make an invite code", err)
	}
	expires := c.cfg.Now().Add(events.InviteTTL).UTC().Truncate(time.Second)
	if err := e.Invite(ctx, c.lobbyPlayer(), code, expires); err != nil {
		return c.fail("save the invite", err)
	}
	join := c.Hint("event join " + e.Name() + " " + code)
	if c.JSON {
		return c.WriteJSON(EventInviteJSON{Event: e.Name(), Code: code, Expires: expires, Join: join})
	}
	fmt.Fprintf(c.Stdout, "Invite code for %s: %s\n", e.Name(), code)
	fmt.Fprintf(c.Stdout, "It works once, for one person, until %s. The invited player runs:\n  %s\n",
		expires.Format("2006-01-02 15:04 UTC"), join)
	return ExitOK
}

// EventInviteJSON is the document of `event invite --json`.
type EventInviteJSON struct {
	Event   string    `json:"event"`
	Code    string    `json:"code"`
	Expires time.Time `json:"expires"`
	Join    string    `json:"join"`
}

func runEventLink(ctx context.Context, c *Call, args []string) int {
	var revoke *bool
	name, ok := oneName(c, usageEventLink, args, func(fs *flag.FlagSet) {
		revoke = fs.Bool("revoke", false, "end the link")
	})
	if !ok {
		return ExitUsage
	}
	e, ok := c.openEvent(name)
	if !ok {
		return ExitRefused
	}
	token, err := e.Link(ctx, c.lobbyPlayer(), *revoke)
	if err != nil {
		return c.fail("link the event", err)
	}
	url := ""
	if token != "" {
		url = c.eventURL(e.Info())
	}
	if c.JSON {
		return c.WriteJSON(EventLinkJSON{Event: e.Name(), URL: url, Revoked: *revoke})
	}
	switch {
	case *revoke:
		fmt.Fprintf(c.Stdout, "The web link of %s is revoked.\n", e.Name())
	case url == "":
		fmt.Fprintf(c.Stdout, "This server has no web window; the link's token is %s\n", token)
	default:
		fmt.Fprintf(c.Stdout, "Whoever holds this link sees %s on the web:\n  %s\n", e.Name(), url)
	}
	return ExitOK
}

// EventLinkJSON is the document of `event link --json`.
type EventLinkJSON struct {
	Event   string `json:"event"`
	URL     string `json:"url,omitempty"`
	Revoked bool   `json:"revoked,omitempty"`
}

// EventsJSON is the document of `events --json`.
type EventsJSON struct {
	Events []EventHead `json:"events"`
}

func runEvents(_ context.Context, c *Call) int {
	if len(c.Args) != 0 {
		return c.Usage()
	}
	if !c.needEvents() {
		return ExitRefused
	}
	out := EventsJSON{Events: []EventHead{}}
	list := c.cfg.Events.List(c.viewer())
	for _, info := range list {
		out.Events = append(out.Events, headOf(info))
	}
	if c.JSON {
		return c.WriteJSON(out)
	}
	if len(list) == 0 {
		fmt.Fprintln(c.Stdout, "No events. Make one with:  "+c.Hint("event create NAME"))
		return ExitOK
	}
	now := c.cfg.Now()
	rows := make([][]string, len(list))
	for i, info := range list {
		state := words.EventState(string(info.State), info.StartsAt, info.Ends, now)
		if info.Private {
			state += ", private"
		}
		rows[i] = []string{info.Name, words.Clean(info.Host, lobby.MaxNameLen), string(info.Format), strconv.Itoa(info.Entrants), state}
	}
	writeTable(c.Stdout, []string{"NAME", "HOST", "FORMAT", "IN", "STATE"}, rows, "  ")
	fmt.Fprintf(c.Stdout, "Standings:  %s\n", c.Hint("event NAME"))
	return ExitOK
}
