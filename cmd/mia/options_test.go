package main

import (
	"errors"
	"flag"
	"io"
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/log"

	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/sshapp/alerts"
)

func mustAllow(t *testing.T, s string) alerts.Allow {
	t.Helper()
	a, err := alerts.ParseAllow(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestParseOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		want    options
		wantErr string // "" for none, "help" for flag.ErrHelp
	}{
		{
			name: "defaults",
			want: options{addr: ":23234", data: "./mia-data", hostKey: "mia-data/host_ed25519", logLevel: log.InfoLevel, logFormat: log.TextFormatter, botDelay: time.Second},
		},
		{
			name: "environment",
			env: map[string]string{
				"MIA_ADDR": "127.0.0.1:1", "MIA_DATA": "/srv/mia", "MIA_ADMIN_KEYS": "/etc/admins",
				"MIA_ALLOW_KEYS": "/etc/allow", "MIA_LOG_LEVEL": "debug", "MIA_LOG_FORMAT": "json", "MIA_BOT_DELAY": "250ms",
				"MIA_METRICS_ADDR": "127.0.0.1:9234",
			},
			want: options{addr: "127.0.0.1:1", data: "/srv/mia", hostKey: "/srv/mia/host_ed25519", adminKeys: "/etc/admins",
				allowKeys: "/etc/allow", logLevel: log.DebugLevel, logFormat: log.JSONFormatter, botDelay: 250 * time.Millisecond,
				metrics: "127.0.0.1:9234"},
		},
		{
			name: "flags win over environment",
			args: []string{"--addr", "127.0.0.1:2", "--data=/d", "--host-key", "/k", "--admin-keys", "/a", "--allow-keys", "/w", "--log-level", "WARN", "--log-format", "logfmt", "--bot-delay", "0", "--metrics-addr", ":9"},
			env:  map[string]string{"MIA_ADDR": "127.0.0.1:1", "MIA_DATA": "/srv/mia", "MIA_HOST_KEY": "/env/key", "MIA_LOG_LEVEL": "debug", "MIA_LOG_FORMAT": "json", "MIA_BOT_DELAY": "2s", "MIA_METRICS_ADDR": "127.0.0.1:1"},
			want: options{addr: "127.0.0.1:2", data: "/d", hostKey: "/k", adminKeys: "/a", allowKeys: "/w", logLevel: log.WarnLevel, logFormat: log.LogfmtFormatter, metrics: ":9",
				botDelay: lobby.NoDelay},
		},
		{
			name: "host key from the environment",
			env:  map[string]string{"MIA_HOST_KEY": "/env/key"},
			want: options{addr: ":23234", data: "./mia-data", hostKey: "/env/key", logLevel: log.InfoLevel, logFormat: log.TextFormatter, botDelay: time.Second},
		},
		{
			name: "debug address from the environment",
			env:  map[string]string{"MIA_DEBUG_ADDR": "127.0.0.1:6060"},
			want: options{addr: ":23234", data: "./mia-data", hostKey: "mia-data/host_ed25519", debugAddr: "127.0.0.1:6060", logLevel: log.InfoLevel, logFormat: log.TextFormatter, botDelay: time.Second},
		},
		{
			name: "debug address flag on IPv6 loopback",
			args: []string{"--debug-addr", "[::1]:0"},
			env:  map[string]string{"MIA_DEBUG_ADDR": "127.0.0.1:6060"},
			want: options{addr: ":23234", data: "./mia-data", hostKey: "mia-data/host_ed25519", debugAddr: "[::1]:0", logLevel: log.InfoLevel, logFormat: log.TextFormatter, botDelay: time.Second},
		},
		{
			name: "debug address on localhost",
			args: []string{"--debug-addr", "localhost:6060"},
			want: options{addr: ":23234", data: "./mia-data", hostKey: "mia-data/host_ed25519", debugAddr: "localhost:6060", logLevel: log.InfoLevel, logFormat: log.TextFormatter, botDelay: time.Second},
		},
		{name: "debug address on every interface", args: []string{"--debug-addr", ":6060"}, wantErr: "only a loopback address"},
		{name: "debug address on 0.0.0.0", args: []string{"--debug-addr", "0.0.0.0:6060"}, wantErr: "only a loopback address"},
		{name: "debug address on a LAN", env: map[string]string{"MIA_DEBUG_ADDR": "192.168.1.5:6060"}, wantErr: "only a loopback address"},
		{name: "debug address by a host name", args: []string{"--debug-addr", "example.com:6060"}, wantErr: "only a loopback address"},
		{name: "debug address without a port", args: []string{"--debug-addr", "127.0.0.1"}, wantErr: "debug address"},
		{
			name: "maexchen gateway from the environment",
			env:  map[string]string{"MIA_MAEXCHEN_UDP": "127.0.0.1:9000", "MIA_MAEXCHEN_TABLE": "dojo", "MIA_MAEXCHEN_TIMEOUT": "1s"},
			want: options{addr: ":23234", data: "./mia-data", hostKey: "mia-data/host_ed25519", logLevel: log.InfoLevel, logFormat: log.TextFormatter,
				maexchenUDP: "127.0.0.1:9000", maexchenTable: "dojo", maexchenTimeout: time.Second, botDelay: time.Second},
		},
		{
			name: "maexchen flags win over environment",
			args: []string{"--maexchen-udp", ":9001", "--maexchen-table", "bots", "--maexchen-timeout", "100ms"},
			env:  map[string]string{"MIA_MAEXCHEN_UDP": "127.0.0.1:9000", "MIA_MAEXCHEN_TIMEOUT": "1s"},
			want: options{addr: ":23234", data: "./mia-data", hostKey: "mia-data/host_ed25519", logLevel: log.InfoLevel, logFormat: log.TextFormatter,
				maexchenUDP: ":9001", maexchenTable: "bots", maexchenTimeout: 100 * time.Millisecond, botDelay: time.Second},
		},
		{
			name: "web window from the environment",
			env:  map[string]string{"MIA_HTTP_ADDR": ":8080", "MIA_HTTP_URL": "https://mia.example.org/"},
			want: options{addr: ":23234", data: "./mia-data", hostKey: "mia-data/host_ed25519", logLevel: log.InfoLevel, logFormat: log.TextFormatter,
				botDelay: time.Second, httpAddr: ":8080", httpURL: "https://mia.example.org"},
		},
		{
			name: "web flags win over environment",
			args: []string{"--http-addr", "127.0.0.1:8081", "--http-url", "http://10.0.0.2:8081"},
			env:  map[string]string{"MIA_HTTP_ADDR": ":8080", "MIA_HTTP_URL": "https://mia.example.org"},
			want: options{addr: ":23234", data: "./mia-data", hostKey: "mia-data/host_ed25519", logLevel: log.InfoLevel, logFormat: log.TextFormatter,
				botDelay: time.Second, httpAddr: "127.0.0.1:8081", httpURL: "http://10.0.0.2:8081"},
		},
		{name: "web url without the window", args: []string{"--http-url", "https://mia.example.org"}, wantErr: "needs --http-addr"},
		{name: "web url not http", args: []string{"--http-addr", ":1", "--http-url", "ftp://mia.example.org"}, wantErr: "http url"},
		{name: "web url without a host", args: []string{"--http-addr", ":1", "--http-url", "https://"}, wantErr: "http url"},
		{name: "web url with a path", args: []string{"--http-addr", ":1", "--http-url", "https://example.org/mia"}, wantErr: "root of its address"},
		{name: "web url with a query", args: []string{"--http-addr", ":1", "--http-url", "https://example.org/?x=1"}, wantErr: "root of its address"},
		{name: "bad maexchen timeout", args: []string{"--maexchen-timeout", "soon"}, wantErr: "maexchen timeout"},
		{name: "maexchen timeout too long", env: map[string]string{"MIA_MAEXCHEN_TIMEOUT": "2m"}, wantErr: "maexchen timeout"},
		{
			name: "limits from the environment",
			env: map[string]string{"MIA_PROXY_FROM": "10.0.0.0/8, 192.0.2.7", "MIA_PENALTY_EXEMPT": "198.51.100.0/24",
				"MIA_MAX_PER_SOURCE": "40", "MIA_MAX_HANDSHAKES": "200"},
			want: options{addr: ":23234", data: "./mia-data", hostKey: "mia-data/host_ed25519", logLevel: log.InfoLevel, logFormat: log.TextFormatter, botDelay: time.Second,
				proxyFrom:     []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.0.2.7/32")},
				penaltyExempt: []netip.Prefix{netip.MustParsePrefix("198.51.100.0/24")}, maxPerSource: 40, maxHandshakes: 200},
		},
		{
			name: "limit flags win over environment; no cap per source",
			args: []string{"--proxy-from", "2001:db8::/32", "--penalty-exempt", "", "--max-per-source", "0", "--max-handshakes", "8"},
			env:  map[string]string{"MIA_PROXY_FROM": "10.0.0.0/8", "MIA_PENALTY_EXEMPT": "198.51.100.0/24", "MIA_MAX_PER_SOURCE": "40"},
			want: options{addr: ":23234", data: "./mia-data", hostKey: "mia-data/host_ed25519", logLevel: log.InfoLevel, logFormat: log.TextFormatter, botDelay: time.Second,
				proxyFrom: []netip.Prefix{netip.MustParsePrefix("2001:db8::/32")}, maxPerSource: -1, maxHandshakes: 8},
		},
		{
			name: "gateway limits",
			args: []string{"--maexchen-max-players", "64", "--maexchen-name-hold", "0"},
			env:  map[string]string{"MIA_MAEXCHEN_MAX_PLAYERS": "2", "MIA_MAEXCHEN_NAME_HOLD": "1h"},
			want: options{addr: ":23234", data: "./mia-data", hostKey: "mia-data/host_ed25519", logLevel: log.InfoLevel, logFormat: log.TextFormatter, botDelay: time.Second,
				maxPerSource: 16, maxHandshakes: 64, maexchenPlayers: 64, maexchenNameHold: -1},
		},
		{
			name: "seasons from the environment",
			env:  map[string]string{"MIA_SEASON": "Weekly"},
			want: options{addr: ":23234", data: "./mia-data", hostKey: "mia-data/host_ed25519", logLevel: log.InfoLevel, logFormat: log.TextFormatter, botDelay: time.Second,
				maxPerSource: 16, maxHandshakes: 64, maexchenPlayers: 32, maexchenNameHold: 24 * time.Hour, season: rating.Weekly},
		},
		{
			name: "the season flag wins",
			args: []string{"--season", "off"},
			env:  map[string]string{"MIA_SEASON": "weekly"},
			want: options{addr: ":23234", data: "./mia-data", hostKey: "mia-data/host_ed25519", logLevel: log.InfoLevel, logFormat: log.TextFormatter, botDelay: time.Second,
				maxPerSource: 16, maxHandshakes: 64, maexchenPlayers: 32, maexchenNameHold: 24 * time.Hour, season: rating.Off},
		},
		{name: "bad season", args: []string{"--season", "yearly"}, wantErr: `season "yearly": want monthly, weekly or off`},
		{
			name: "per person",
			args: []string{"--max-tables-per-person", "3"},
			env:  map[string]string{"MIA_MAX_SESSIONS_PER_PERSON": "20", "MIA_MAX_TABLES_PER_PERSON": "5"},
			want: options{addr: ":23234", data: "./mia-data", hostKey: "mia-data/host_ed25519", logLevel: log.InfoLevel, logFormat: log.TextFormatter, botDelay: time.Second,
				maxTables: 3, maxSessions: 20},
		},
		{
			name: "no cap per person",
			args: []string{"--max-tables-per-person", "0", "--max-sessions-per-person", "0"},
			want: options{addr: ":23234", data: "./mia-data", hostKey: "mia-data/host_ed25519", logLevel: log.InfoLevel, logFormat: log.TextFormatter, botDelay: time.Second,
				maxTables: lobby.NoLimit, maxSessions: -1},
		},
		{
			name: "budget by address",
			args: []string{"--max-tables-per-address", "4", "--max-bot-tables", "0", "--bot-table-idle", "0"},
			env:  map[string]string{"MIA_MAX_BOT_TABLES_PER_ADDRESS": "1"},
			want: options{addr: ":23234", data: "./mia-data", hostKey: "mia-data/host_ed25519", logLevel: log.InfoLevel, logFormat: log.TextFormatter, botDelay: time.Second,
				maxTablesPerAddress: 4, maxBotTablesPerAddress: 1, maxBotTables: lobby.NoLimit, botTableIdle: lobby.NoRest},
		},
		{
			name: "solves per address",
			args: []string{"--max-solves-per-address", "0"},
			want: options{addr: ":23234", data: "./mia-data", hostKey: "mia-data/host_ed25519", logLevel: log.InfoLevel, logFormat: log.TextFormatter, botDelay: time.Second,
				maxSolvesPerAddress: lobby.NoLimit},
		},
		{
			name: "solves per address from the environment",
			env:  map[string]string{"MIA_MAX_SOLVES_PER_ADDRESS": "9"},
			want: options{addr: ":23234", data: "./mia-data", hostKey: "mia-data/host_ed25519", logLevel: log.InfoLevel, logFormat: log.TextFormatter, botDelay: time.Second,
				maxSolvesPerAddress: 9},
		},
		{name: "bad solves per address", args: []string{"--max-solves-per-address", "-1"}, wantErr: "max-solves-per-address"},
		{name: "bad tables per address", args: []string{"--max-tables-per-address", "-3"}, wantErr: "max-tables-per-address"},
		{name: "bad bot table idle", env: map[string]string{"MIA_BOT_TABLE_IDLE": "never"}, wantErr: "bot table idle"},
		{name: "bad sessions per person", args: []string{"--max-sessions-per-person", "-2"}, wantErr: "max-sessions-per-person"},
		{name: "bad tables per person", env: map[string]string{"MIA_MAX_TABLES_PER_PERSON": "many"}, wantErr: "max-tables-per-person"},
		{name: "bad name hold", env: map[string]string{"MIA_MAEXCHEN_NAME_HOLD": "forever"}, wantErr: "maexchen name hold"},
		{name: "no bot at the gateway", args: []string{"--maexchen-max-players", "0"}, wantErr: "maexchen-max-players"},
		{name: "bad proxy list", args: []string{"--proxy-from", "10.0.0.0/8,lb.example.org"}, wantErr: `proxy-from: not a list of addresses and networks: "lb.example.org"`},
		{name: "bad exempt list", env: map[string]string{"MIA_PENALTY_EXEMPT": "10.0.0.0/40"}, wantErr: "penalty-exempt"},
		{name: "bad cap per source", args: []string{"--max-per-source", "-1"}, wantErr: "max-per-source"},
		{name: "no handshakes", args: []string{"--max-handshakes", "0"}, wantErr: "max-handshakes"},
		{name: "bad level", args: []string{"--log-level", "loud"}, wantErr: "log level"},
		{name: "bad level in env", env: map[string]string{"MIA_LOG_LEVEL": "loud"}, wantErr: "log level"},
		{name: "bad format", args: []string{"--log-format", "xml"}, wantErr: "log format"},
		{name: "bad bot delay", args: []string{"--bot-delay", "soon"}, wantErr: "bot delay"},
		{name: "negative bot delay", env: map[string]string{"MIA_BOT_DELAY": "-1s"}, wantErr: "bot delay"},
		{
			name: "webhooks, a format each",
			args: []string{"--webhook", "https://hooks.slack.com/services/T/B/x", "--webhook-format", "slack", "--webhook", "https://ntfy.sh/mia",
				"--webhook-format", "NTFY", "--webhook-secret", "s3cret", "--webhook-allow", "hooks.example.org, 10.0.0.0/8"},
			env: map[string]string{"MIA_WEBHOOK": "https://ignored.example", "MIA_WEBHOOK_SECRET": "env"},
			want: options{addr: ":23234", data: "./mia-data", hostKey: "mia-data/host_ed25519", logLevel: log.InfoLevel, logFormat: log.TextFormatter, botDelay: time.Second,
				webhooks:      []alerts.ServerHook{{URL: "https://hooks.slack.com/services/T/B/x", Format: alerts.Slack}, {URL: "https://ntfy.sh/mia", Format: alerts.Ntfy}},
				webhookSecret: "s3cret", webhookAllow: mustAllow(t, "hooks.example.org,10.0.0.0/8")},
		},
		{
			name: "webhooks from the environment, one format for all",
			env: map[string]string{"MIA_WEBHOOK": "https://a.example/h, http://b.example:8080/h", "MIA_WEBHOOK_FORMAT": "slack",
				"MIA_WEBHOOK_SECRET": "env", "MIA_WEBHOOK_ALLOW": "*.example.org"},
			want: options{addr: ":23234", data: "./mia-data", hostKey: "mia-data/host_ed25519", logLevel: log.InfoLevel, logFormat: log.TextFormatter, botDelay: time.Second,
				webhooks:      []alerts.ServerHook{{URL: "https://a.example/h", Format: alerts.Slack}, {URL: "http://b.example:8080/h", Format: alerts.Slack}},
				webhookSecret: "env", webhookAllow: mustAllow(t, "*.example.org")},
		},
		{name: "a webhook that is no URL", args: []string{"--webhook", "hooks.example.org"}, wantErr: `webhook "hooks.example.org": want an http:// or https:// URL`},
		{name: "a webhook of no format", args: []string{"--webhook", "https://a.example", "--webhook-format", "xml"}, wantErr: `webhook format "xml"`},
		{name: "webhook formats to count", args: []string{"--webhook", "https://a.example", "--webhook-format", "json", "--webhook-format", "slack"},
			wantErr: "2 webhook formats for 1 webhooks"},
		{name: "a webhook format alone", args: []string{"--webhook-format", "json"}, wantErr: "a webhook format without a webhook"},
		{name: "a bad allow-list", args: []string{"--webhook-allow", "10.0.0.0/99"}, wantErr: "webhook-allow: --webhook-allow takes"},
		{name: "unknown flag", args: []string{"--port", "22"}, wantErr: "unknown flag --port (mia --help lists the flags)"},
		{name: "flag without its value", args: []string{"--addr"}, wantErr: "flag --addr needs a value"},
		{name: "stray argument", args: []string{"serve"}, wantErr: "unexpected argument"},
		{name: "help", args: []string{"-h"}, wantErr: "help"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := func(k string) string { return tt.env[k] }
			got, err := parseOptions(tt.args, env, io.Discard)
			switch {
			case tt.wantErr == "help":
				if !errors.Is(err, flag.ErrHelp) {
					t.Fatalf("err = %v, want flag.ErrHelp", err)
				}
				return
			case tt.wantErr != "":
				var ue *usageError
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want a usage error with %q", err, tt.wantErr)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			if tt.want.maexchenTable == "" { // the gateway's defaults, off
				tt.want.maexchenTable, tt.want.maexchenTimeout = "maexchen", 250*time.Millisecond
			}
			if tt.want.maxPerSource == 0 {
				tt.want.maxPerSource, tt.want.maxHandshakes = 16, 64
			}
			if tt.want.maxTables == 0 {
				tt.want.maxTables, tt.want.maxSessions = 10, 8
			}
			if tt.want.maxTablesPerAddress == 0 {
				tt.want.maxTablesPerAddress, tt.want.maxBotTablesPerAddress, tt.want.maxBotTables = 10, 2, 8
				tt.want.botTableIdle = 5 * time.Minute
			}
			if tt.want.maxEventsPerPerson == 0 {
				tt.want.maxEventsPerPerson, tt.want.maxEventsPerAddress = 3, 3
			}
			if tt.want.maexchenPlayers == 0 {
				tt.want.maexchenPlayers, tt.want.maexchenNameHold = 32, 24*time.Hour
			}
			if tt.want.maxSolvesPerAddress == 0 {
				tt.want.maxSolvesPerAddress = lobby.DefaultMaxSolvesPerSource
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("options = %+v\nwant      %+v", got, tt.want)
			}
		})
	}
}
