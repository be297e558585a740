package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/netip"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/log"

	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/sshapp"
	"github.com/mia-game/mia/sshapp/alerts"
	sshcmd "github.com/mia-game/mia/sshapp/command"
	"github.com/mia-game/mia/sshapp/maexchen"
)

// options are the settings of PROTOCOL.md §0. Each is a flag and a MIA_*
// environment variable; the flag wins.
type options struct {
	addr      string
	data      string
	hostKey   string
	adminKeys string
	allowKeys string
	debugAddr string // "" or a loopback address serving net/http/pprof
	logLevel  log.Level
	logFormat log.Formatter
	botDelay  time.Duration // the built-in bots' least pause; lobby.NoDelay: none
	metrics   string        // address of the Prometheus metrics; "": off
	// The Mäxchen gateway (MAEXCHEN.md): off while maexchenUDP is "".
	maexchenUDP      string
	maexchenTable    string
	maexchenEvent    string // the event the gateway is a door of; "" for none
	maexchenTimeout  time.Duration
	maexchenPlayers  int           // players registered at once
	maexchenNameHold time.Duration // a quiet bot's name stays its address's; -1: not held
	// Limits per source (cmd/mia/README.md, "Limits").
	proxyFrom     []netip.Prefix // load balancers whose PROXY header is taken
	penaltyExempt []netip.Prefix // sources never penalised, whose Mäxchen bots keep their places
	maxPerSource  int            // connections per source; -1: no cap
	maxHandshakes int            // connections in their handshake at once
	// Limits per person (every key of theirs; admins exempt).
	maxTables   int // open tables one person hosts; lobby.NoLimit: no cap
	maxSessions int // sessions one person holds open; -1: no cap
	// The budget by source address, whatever the keys (lobby/budget.go;
	// admins exempt): lobby.NoLimit for no cap, lobby.NoRest for never.
	maxTablesPerAddress, maxBotTablesPerAddress, maxBotTables int
	maxEventsPerPerson, maxEventsPerAddress                   int
	maxSolvesPerAddress                                       int // new rule sets solved for one source an hour; lobby.NoLimit: none
	botTableIdle                                              time.Duration
	// The web window (sshapp/web): off while httpAddr is "".
	httpAddr string
	httpURL  string        // the public base of its links, "" for none
	season   rating.Period // how the boards are cut into seasons
	// The alerts (sshapp/alerts): the server's webhooks, what signs them,
	// and where a table's own hook may go.
	webhooks      []alerts.ServerHook
	webhookSecret string
	webhookAllow  alerts.Allow
}

// count reads the number of a flag, at least least and at most a million.
func count(name, v string, least int) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < least || n > 1_000_000 {
		return 0, &usageError{fmt.Errorf("%s %q: want a whole number from %d", name, v, least)}
	}
	return n, nil
}

// usageError is a bad command line: exit status 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// parseOptions reads flags over environment over defaults. -h prints the
// usage to out and returns flag.ErrHelp.
func parseOptions(args []string, env func(string) string, out io.Writer) (options, error) {
	def := func(name, fallback string) string {
		if v := env(name); v != "" {
			return v
		}
		return fallback
	}
	fs := flag.NewFlagSet("mia", flag.ContinueOnError)
	addr := fs.String("addr", def("MIA_ADDR", ":23234"), "listen address (MIA_ADDR)")
	data := fs.String("data", def("MIA_DATA", "./mia-data"), "data folder: the database mia.db and the host key (MIA_DATA)")
	hostKey := fs.String("host-key", def("MIA_HOST_KEY", ""), "host key file, created if missing (MIA_HOST_KEY; default DATA/host_ed25519)")
	adminKeys := fs.String("admin-keys", def("MIA_ADMIN_KEYS", ""), "authorized_keys file of server admins (MIA_ADMIN_KEYS)")
	allowKeys := fs.String("allow-keys", def("MIA_ALLOW_KEYS", ""), "authorized_keys file: if set, only these keys may connect (MIA_ALLOW_KEYS)")
	debugAddr := fs.String("debug-addr", def("MIA_DEBUG_ADDR", ""), "serve Go profiles (net/http/pprof) on this loopback address, e.g. 127.0.0.1:6060; off if empty (MIA_DEBUG_ADDR)")
	level := fs.String("log-level", def("MIA_LOG_LEVEL", "info"), "debug, info, warn or error (MIA_LOG_LEVEL)")
	format := fs.String("log-format", def("MIA_LOG_FORMAT", "text"), "text, json or logfmt (MIA_LOG_FORMAT)")
	metrics := fs.String("metrics-addr", def("MIA_METRICS_ADDR", ""), "serve Prometheus metrics at http://ADDR/metrics, such as 127.0.0.1:9234; off if empty (MIA_METRICS_ADDR)")
	botDelay := fs.String("bot-delay", def("MIA_BOT_DELAY", lobby.DefaultBotDelay.String()), "a built-in bot's least pause before it moves, up to twice as long; 0 for none (MIA_BOT_DELAY)")
	mxUDP := fs.String("maexchen-udp", def("MIA_MAEXCHEN_UDP", ""), "UDP address of the Mäxchen bot gateway, such as 127.0.0.1:9000 (MIA_MAEXCHEN_UDP; default off)")
	mxTable := fs.String("maexchen-table", def("MIA_MAEXCHEN_TABLE", maexchen.DefaultTable), "the table the Mäxchen bots play at (MIA_MAEXCHEN_TABLE)")
	mxEvent := fs.String("maexchen-event", def("MIA_MAEXCHEN_EVENT", ""), "the gateway is a door of this event: while it runs (a public arena), the Mäxchen bots are its entrants and their games count (MIA_MAEXCHEN_EVENT; default none)")
	httpAddr := fs.String("http-addr", def("MIA_HTTP_ADDR", ""), "serve the read-only web window on this address, such as :8080 or 127.0.0.1:8080; off if empty (MIA_HTTP_ADDR)")
	httpURL := fs.String("http-url", def("MIA_HTTP_URL", ""), "the web window's public address, printed in links, such as https://mia.example.org (MIA_HTTP_URL; default http:// and the listening address, and no game links on screens)")
	mxTimeout := fs.String("maexchen-timeout", def("MIA_MAEXCHEN_TIMEOUT", maexchen.DefaultTimeout.String()), "how long a Mäxchen bot has to answer (MIA_MAEXCHEN_TIMEOUT)")
	mxPlayers := fs.String("maexchen-max-players", def("MIA_MAEXCHEN_MAX_PLAYERS", strconv.Itoa(maexchen.DefaultMaxPlayers)), "Mäxchen bots registered at once (MIA_MAEXCHEN_MAX_PLAYERS)")
	mxHold := fs.String("maexchen-name-hold", def("MIA_MAEXCHEN_NAME_HOLD", "24h"), "how long a quiet Mäxchen bot's name stays its address's after it was last heard; 0: not held (MIA_MAEXCHEN_NAME_HOLD)")
	lim := sshapp.DefaultLimits()
	proxyFrom := fs.String("proxy-from", def("MIA_PROXY_FROM", ""), "addresses and networks (CIDR, comma-separated) of load balancers whose connections begin with a PROXY header naming the client; off if empty (MIA_PROXY_FROM)")
	exempt := fs.String("penalty-exempt", def("MIA_PENALTY_EXEMPT", ""), "addresses and networks (CIDR, comma-separated) never penalised for unfinished connections, such as a NAT your players share; their Mäxchen bots keep their places beyond their address's share (MIA_PENALTY_EXEMPT)")
	perSource := fs.String("max-per-source", def("MIA_MAX_PER_SOURCE", strconv.Itoa(lim.MaxPerSource)), "connections at once from one address (an IPv6 /64); 0 for no cap (MIA_MAX_PER_SOURCE)")
	season := fs.String("season", def("MIA_SEASON", rating.DefaultPeriod.String()), "how the leaderboards are cut into seasons, in UTC: monthly, weekly or off (MIA_SEASON)")
	handshakes := fs.String("max-handshakes", def("MIA_MAX_HANDSHAKES", strconv.Itoa(lim.MaxUnauthenticated)), "connections in their SSH handshake at once, from everyone (MIA_MAX_HANDSHAKES)")
	tables := fs.String("max-tables-per-person", def("MIA_MAX_TABLES_PER_PERSON", strconv.Itoa(lobby.DefaultMaxTables)), "open tables one person may host at once, every key of theirs counted; admins are exempt; 0 for no cap (MIA_MAX_TABLES_PER_PERSON)")
	tablesHere := fs.String("max-tables-per-address", def("MIA_MAX_TABLES_PER_ADDRESS", strconv.Itoa(lobby.DefaultMaxTablesPerSource)), "open tables opened from one address (an IPv6 /64) at once, whatever its keys; admins, loopback and --penalty-exempt sources are exempt; 0 for no cap (MIA_MAX_TABLES_PER_ADDRESS)")
	botTablesHere := fs.String("max-bot-tables-per-address", def("MIA_MAX_BOT_TABLES_PER_ADDRESS", strconv.Itoa(lobby.DefaultMaxBotTablesPerSource)), "tables filled with built-in bots only from one address at once, whatever its keys; 0 for no cap (MIA_MAX_BOT_TABLES_PER_ADDRESS)")
	solvesHere := fs.String("max-solves-per-address", def("MIA_MAX_SOLVES_PER_ADDRESS", strconv.Itoa(lobby.DefaultMaxSolvesPerSource)), "rule sets neither solved nor kept that the verdicts on moves may have solved for one address (an IPv6 /64) in an hour, whatever its keys (a solve takes a core for seconds to minutes); the verdicts past it wait, the replays are shown; admins, loopback and --penalty-exempt SSH sources are exempt; 0 for no cap (MIA_MAX_SOLVES_PER_ADDRESS)")
	botTables := fs.String("max-bot-tables", def("MIA_MAX_BOT_TABLES", strconv.Itoa(lobby.DefaultMaxBotTables)), "tables of built-in bots only the server runs at once, admins' aside; 0 for no cap (MIA_MAX_BOT_TABLES)")
	botIdle := fs.String("bot-table-idle", def("MIA_BOT_TABLE_IDLE", lobby.DefaultBotTableIdle.String()), "how long a table of bots only plays on while nobody has it open before it rests (until someone opens it); admins' tables play on; 0: never rests (MIA_BOT_TABLE_IDLE)")
	var hookURLs, hookFormats []string
	fs.Func("webhook", "send the news of public tables to this URL (more than once: each URL; MIA_WEBHOOK: comma-separated)", func(v string) error {
		hookURLs = append(hookURLs, v)
		return nil
	})
	fs.Func("webhook-format", "the format of the --webhook of the same place: json, slack or ntfy (once: every hook's; MIA_WEBHOOK_FORMAT: comma-separated; default json)", func(v string) error {
		hookFormats = append(hookFormats, v)
		return nil
	})
	hookSecret := fs.String("webhook-secret", def("MIA_WEBHOOK_SECRET", ""), "sign the server's webhooks' deliveries with this secret: X-Mia-Signature-256 (MIA_WEBHOOK_SECRET)")
	hookAllow := fs.String("webhook-allow", def("MIA_WEBHOOK_ALLOW", ""), "hosts a table's own hook may go to (table hook): names, *.example.org, addresses and CIDR networks, comma-separated; loopback, link-local and private addresses only where a listed network holds them; none if empty (MIA_WEBHOOK_ALLOW)")
	eventsMine := fs.String("max-events-per-person", def("MIA_MAX_EVENTS_PER_PERSON", strconv.Itoa(events.DefaultMaxPerPerson)), "events not closed one person may host, every key of theirs counted; admins are exempt; 0 for no cap (MIA_MAX_EVENTS_PER_PERSON)")
	eventsHere := fs.String("max-events-per-address", def("MIA_MAX_EVENTS_PER_ADDRESS", strconv.Itoa(events.DefaultMaxPerSource)), "events not closed made from one address (an IPv6 /64), whatever its keys; admins, loopback and --penalty-exempt sources are exempt; 0 for no cap (MIA_MAX_EVENTS_PER_ADDRESS)")
	sessions := fs.String("max-sessions-per-person", def("MIA_MAX_SESSIONS_PER_PERSON", strconv.Itoa(lim.MaxSessionsPerPerson)), "sessions one person may hold open at once (screens, bots, commands), every key of theirs counted; admins are exempt; 0 for no cap (MIA_MAX_SESSIONS_PER_PERSON)")
	// The flag package's own words ("flag provided but not defined:
	// -bogus") are said again in the server's (sshcmd.FlagError).
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	if err := sshcmd.ParseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(out, "Usage: mia [flags]\n\nServes the dice game Mia over SSH. Flags (each also an environment variable; the flag wins):\n\n")
			fs.SetOutput(out)
			fs.PrintDefaults()
			return options{}, err
		}
		return options{}, &usageError{fmt.Errorf("%w (mia --help lists the flags)", err)}
	}
	if fs.NArg() > 0 {
		return options{}, &usageError{fmt.Errorf("unexpected argument %q (mia takes flags only)", fs.Arg(0))}
	}
	o := options{addr: *addr, data: *data, hostKey: *hostKey, adminKeys: *adminKeys, allowKeys: *allowKeys, metrics: *metrics,
		maexchenUDP: *mxUDP, maexchenTable: *mxTable, maexchenEvent: *mxEvent, debugAddr: *debugAddr, httpAddr: *httpAddr}
	if o.debugAddr != "" {
		if err := checkDebugAddr(o.debugAddr); err != nil {
			return options{}, &usageError{err}
		}
	}
	var err error
	if o.httpURL, err = checkHTTPURL(*httpURL, o.httpAddr); err != nil {
		return options{}, &usageError{err}
	}
	if o.maexchenTimeout, err = time.ParseDuration(*mxTimeout); err != nil || o.maexchenTimeout < time.Millisecond || o.maexchenTimeout > time.Minute {
		return options{}, &usageError{fmt.Errorf("maexchen timeout %q: want a duration from 1ms to 1m, such as 250ms", *mxTimeout)}
	}
	if o.hostKey == "" {
		o.hostKey = filepath.Join(o.data, "host_ed25519")
	}
	if o.proxyFrom, err = sshapp.ParseNetworks(*proxyFrom); err != nil {
		return options{}, &usageError{fmt.Errorf("proxy-from: %w", err)}
	}
	if o.penaltyExempt, err = sshapp.ParseNetworks(*exempt); err != nil {
		return options{}, &usageError{fmt.Errorf("penalty-exempt: %w", err)}
	}
	if o.maxPerSource, err = count("max-per-source", *perSource, 0); err != nil {
		return options{}, err
	}
	if o.maxPerSource == 0 {
		o.maxPerSource = -1 // sshapp's zero is its default
	}
	if o.maxHandshakes, err = count("max-handshakes", *handshakes, 1); err != nil {
		return options{}, err
	}
	if o.maxTables, err = count("max-tables-per-person", *tables, 0); err != nil {
		return options{}, err
	}
	if o.maxSessions, err = count("max-sessions-per-person", *sessions, 0); err != nil {
		return options{}, err
	}
	if o.maxTables == 0 {
		o.maxTables = lobby.NoLimit // the flag's 0 is none; lobby.Config's 0 its default
	}
	for _, c := range []struct {
		name, v string
		n       *int
	}{
		{"max-tables-per-address", *tablesHere, &o.maxTablesPerAddress},
		{"max-bot-tables-per-address", *botTablesHere, &o.maxBotTablesPerAddress},
		{"max-bot-tables", *botTables, &o.maxBotTables},
		{"max-events-per-person", *eventsMine, &o.maxEventsPerPerson},
		{"max-events-per-address", *eventsHere, &o.maxEventsPerAddress},
		{"max-solves-per-address", *solvesHere, &o.maxSolvesPerAddress},
	} {
		if *c.n, err = count(c.name, c.v, 0); err != nil {
			return options{}, err
		}
		if *c.n == 0 {
			*c.n = lobby.NoLimit
		}
	}
	if o.botTableIdle, err = time.ParseDuration(strings.TrimSpace(*botIdle)); err != nil || o.botTableIdle < 0 || o.botTableIdle > 7*24*time.Hour {
		return options{}, &usageError{fmt.Errorf("bot table idle %q: want a duration from 0 to 168h, such as 10m", *botIdle)}
	}
	if o.botTableIdle == 0 {
		o.botTableIdle = lobby.NoRest
	}
	if o.maxSessions == 0 {
		o.maxSessions = -1 // sshapp's zero is its default
	}
	if o.maexchenPlayers, err = count("maexchen-max-players", *mxPlayers, 1); err != nil {
		return options{}, err
	}
	if o.maexchenNameHold, err = time.ParseDuration(*mxHold); err != nil || o.maexchenNameHold < 0 || o.maexchenNameHold > 365*24*time.Hour {
		return options{}, &usageError{fmt.Errorf("maexchen name hold %q: want a duration from 0 to 8760h, such as 24h", *mxHold)}
	}
	if o.maexchenNameHold == 0 {
		o.maexchenNameHold = -1 // the gateway's zero is its default
	}
	if o.webhooks, err = serverHooks(hookURLs, hookFormats, env); err != nil {
		return options{}, &usageError{err}
	}
	o.webhookSecret = *hookSecret
	if o.webhookAllow, err = alerts.ParseAllow(*hookAllow); err != nil {
		return options{}, &usageError{fmt.Errorf("webhook-allow: %w", err)}
	}
	if o.season, err = rating.ParsePeriod(strings.TrimSpace(*season)); err != nil {
		return options{}, &usageError{fmt.Errorf("season %q: want monthly, weekly or off", *season)}
	}
	lv, err := log.ParseLevel(strings.ToLower(*level))
	if err != nil {
		return options{}, &usageError{fmt.Errorf("log level %q: want debug, info, warn or error", *level)}
	}
	o.logLevel = lv
	if o.botDelay, err = time.ParseDuration(*botDelay); err != nil || o.botDelay < 0 || o.botDelay > time.Minute {
		return options{}, &usageError{fmt.Errorf("bot delay %q: want a duration from 0 to 1m, such as 1s or 250ms", *botDelay)}
	}
	if o.botDelay == 0 {
		o.botDelay = lobby.NoDelay // the flag's 0 is none; lobby.Config's 0 its default
	}
	switch strings.ToLower(*format) {
	case "text":
		o.logFormat = log.TextFormatter
	case "json":
		o.logFormat = log.JSONFormatter
	case "logfmt":
		o.logFormat = log.LogfmtFormatter
	default:
		return options{}, &usageError{fmt.Errorf("log format %q: want text, json or logfmt", *format)}
	}
	return o, nil
}

// checkHTTPURL checks --http-url: an absolute http or https address with
// a host, at the root (the web window's paths start there), and only with
// --http-addr. It returns it without a trailing slash.
func checkHTTPURL(raw, addr string) (string, error) {
	if raw == "" {
		return "", nil
	}
	if addr == "" {
		return "", errors.New("--http-url needs --http-addr: the web window is off without it")
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil, u.Scheme != "http" && u.Scheme != "https", u.Host == "":
		return "", fmt.Errorf("http url %q: want an address such as https://mia.example.org", raw)
	case u.Path != "" && u.Path != "/", u.RawQuery != "", u.Fragment != "", u.User != nil:
		return "", fmt.Errorf("http url %q: the web window is served at the root of its address: give only the scheme and the host", raw)
	}
	return strings.TrimRight(raw, "/"), nil
}

// serverHooks are the server's webhooks of --webhook and --webhook-format
// (else MIA_WEBHOOK and MIA_WEBHOOK_FORMAT, comma-separated): the Nth
// format is the Nth URL's; one format is every URL's; none is json.
func serverHooks(urls, formats []string, env func(string) string) ([]alerts.ServerHook, error) {
	split := func(s string) []string {
		var out []string
		for _, f := range strings.Split(s, ",") {
			if f = strings.TrimSpace(f); f != "" {
				out = append(out, f)
			}
		}
		return out
	}
	if len(urls) == 0 {
		urls = split(env("MIA_WEBHOOK"))
	}
	if len(formats) == 0 {
		formats = split(env("MIA_WEBHOOK_FORMAT"))
	}
	switch {
	case len(urls) == 0 && len(formats) == 0:
		return nil, nil
	case len(urls) == 0:
		return nil, errors.New("a webhook format without a webhook: give --webhook URL")
	}
	if len(formats) > 1 && len(formats) != len(urls) {
		return nil, fmt.Errorf("%d webhook formats for %d webhooks: give one format for all, or one for each", len(formats), len(urls))
	}
	hooks := make([]alerts.ServerHook, len(urls))
	for i, u := range urls {
		f := alerts.JSON
		if len(formats) > 0 {
			var err error
			if f, err = alerts.ParseFormat(formats[min(i, len(formats)-1)]); err != nil {
				return nil, fmt.Errorf("webhook format %q: want json, slack or ntfy", formats[min(i, len(formats)-1)])
			}
		}
		pu, err := url.Parse(u)
		if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" || pu.User != nil {
			return nil, fmt.Errorf("webhook %q: want an http:// or https:// URL with a host", u)
		}
		hooks[i] = alerts.ServerHook{URL: u, Format: f}
	}
	return hooks, nil
}
