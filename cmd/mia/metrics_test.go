package main

import (
	"bufio"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// scrape reads /metrics and returns every series ("name{labels}") with
// its value.
func scrape(t *testing.T, addr string) map[string]float64 {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %s", resp.Status)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("metrics line %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}

// The metrics count what happens: sessions, handshakes, tables by state,
// moves, the store's commits; off unless --metrics-addr is given.
func TestMetrics(t *testing.T) {
	t.Parallel()
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer hook.Close()
	logs, stop := runInProcess(t, map[string]string{"MIA_DATA": filepath.Join(t.TempDir(), "data"), "MIA_LOG_FORMAT": "json",
		"MIA_BOT_DELAY": "10ms"}, "--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0", "--webhook", hook.URL)
	addr, _ := logs.address(t)
	var maddr string
	select {
	case maddr = <-logs.metrics:
	case <-time.After(10 * time.Second):
		t.Fatalf("no metrics line; logs:\n%s", logs.String())
	}
	c, _ := dial(t, addr, newKey(t))
	for _, line := range []string{"name host", "table create lazy --seats 4", "table create busy --seats 3 --bots 3 --lives 1"} {
		if out, code := command(t, c, line); code != 0 {
			t.Fatalf("%s: exit %d: %s", line, code, out)
		}
	}
	// A person on the game screen.
	screen := openScreen(t, c)
	waitUntil(t, 10*time.Second, "the screen", func() bool { return strings.Contains(screen.String(), "lazy") })
	waitUntil(t, 30*time.Second, "moves and a finished game, told to the webhook", func() bool {
		m := scrape(t, maddr)
		return m[`mia_moves_total{kind="roll"}`] > 0 && m[`mia_moves_total{kind="challenge"}`] > 0 &&
			m[`mia_webhook_deliveries_total{result="ok",type="table.opened"}`] == 2 &&
			m[`mia_webhook_deliveries_total{result="ok",type="game.ended"}`] >= 1
	})
	m := scrape(t, maddr)
	for series, check := range map[string]func(float64) bool{
		`mia_tables{state="waiting"}`:                  func(v float64) bool { return v >= 1 },
		`mia_handshakes_total{result="ok"}`:            func(v float64) bool { return v == 1 },
		`mia_handshakes_total{result="timeout"}`:       func(v float64) bool { return v == 0 },
		`mia_refusals_total{reason="busy"}`:            func(v float64) bool { return v == 0 },
		`mia_refusals_total{reason="proxy"}`:           func(v float64) bool { return v == 0 },
		`mia_handshakes_total{result="evicted"}`:       func(v float64) bool { return v == 0 },
		`mia_sessions{kind="screen"}`:                  func(v float64) bool { return v == 1 },
		`mia_sessions{kind="command"}`:                 func(v float64) bool { return v == 0 },
		`mia_connections`:                              func(v float64) bool { return v == 1 },
		`mia_sessions_dropped_total{reason="stalled"}`: func(v float64) bool { return v == 0 },
		`mia_store_commit_seconds_count`:               func(v float64) bool { return v >= 5 },
		`mia_store_commit_seconds_bucket{le="+Inf"}`:   func(v float64) bool { return v == m["mia_store_commit_seconds_count"] },
		`mia_mailbox_drops_total`:                      func(v float64) bool { return v >= 0 },
		`mia_tables_paused`:                            func(v float64) bool { return v == 0 },
		`go_goroutines`:                                func(v float64) bool { return v > 0 },
		`mia_webhooks{owner="server",state="active"}`:  func(v float64) bool { return v == 1 },
		`mia_webhooks{owner="table",state="active"}`:   func(v float64) bool { return v == 0 },
		`mia_webhook_queued{owner="server"}`:           func(v float64) bool { return v >= 0 },
		`mia_news_dropped_total`:                       func(v float64) bool { return v == 0 },
	} {
		v, ok := m[series]
		if !ok || !check(v) {
			t.Errorf("%s = %v (present %v)", series, v, ok)
		}
	}
	for series := range m {
		if strings.HasPrefix(series, "mia_store_write_failing") {
			t.Errorf("%s while every write is saved", series)
		}
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(logs.String(), metricsExposed) {
		t.Errorf("metrics on 127.0.0.1 were warned of:\n%s", logs.String())
	}
}

// metricsExposed starts the warning of metrics served beyond loopback.
const metricsExposed = "metrics are served beyond this machine with no authentication"

// Metrics on an address other machines reach are served, with a warning:
// they have no authentication.
func TestMetricsBeyondLoopbackWarns(t *testing.T) {
	t.Parallel()
	logs, stop := runInProcess(t, map[string]string{"MIA_DATA": filepath.Join(t.TempDir(), "data"), "MIA_LOG_FORMAT": "json"},
		"--addr", "127.0.0.1:0", "--metrics-addr", "0.0.0.0:0")
	logs.address(t)
	var maddr string
	select {
	case maddr = <-logs.metrics:
	case <-time.After(10 * time.Second):
		t.Fatalf("no metrics line; logs:\n%s", logs.String())
	}
	var warn map[string]any
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.Contains(l, metricsExposed) {
			if err := json.Unmarshal([]byte(l), &warn); err != nil {
				t.Fatal(err)
			}
		}
	}
	if warn["level"] != "warn" || warn["addr"] != maddr {
		t.Errorf("warning %v, want one at level warn naming %s; logs:\n%s", warn, maddr, logs.String())
	}
	_, port, _ := net.SplitHostPort(maddr)
	if m := scrape(t, "127.0.0.1:"+port); m["go_goroutines"] <= 0 {
		t.Errorf("metrics not served: %v", m)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}
