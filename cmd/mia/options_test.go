package main

import (
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/log"
)

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
			want: options{addr: "127.0.0.1:2", data: "/d", hostKey: "/k", adminKeys: "/a", allowKeys: "/w", logLevel: log.WarnLevel, logFormat: log.LogfmtFormatter, metrics: ":9"},
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
		{name: "bad maexchen timeout", args: []string{"--maexchen-timeout", "soon"}, wantErr: "maexchen timeout"},
		{name: "maexchen timeout too long", env: map[string]string{"MIA_MAEXCHEN_TIMEOUT": "2m"}, wantErr: "maexchen timeout"},
		{name: "bad level", args: []string{"--log-level", "loud"}, wantErr: "log level"},
		{name: "bad level in env", env: map[string]string{"MIA_LOG_LEVEL": "loud"}, wantErr: "log level"},
		{name: "bad format", args: []string{"--log-format", "xml"}, wantErr: "log format"},
		{name: "bad bot delay", args: []string{"--bot-delay", "soon"}, wantErr: "bot delay"},
		{name: "negative bot delay", env: map[string]string{"MIA_BOT_DELAY": "-1s"}, wantErr: "bot delay"},
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
			if got != tt.want {
				t.Errorf("options = %+v\nwant      %+v", got, tt.want)
			}
		})
	}
}
