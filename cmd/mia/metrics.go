package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/log"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/sshapp"
	"github.com/mia-game/mia/sshapp/alerts"
	"github.com/mia-game/mia/sshapp/web"
	"github.com/mia-game/mia/store"
)

// miaCollector turns what the server, the lobby and the store count
// (their Stats and CommitLatency, which know nothing of Prometheus) into
// metrics, read at each scrape.
type miaCollector struct {
	srv *sshapp.Server
	lob *lobby.Lobby
	st  *store.Store
	al  *alerts.Alerts
	web atomic.Pointer[web.Server] // the web window, once it runs; nil without one

	sessions, connections, unauth, handshakes, refusals, dropped *prometheus.Desc
	tables, moves, mailboxDrops, commit                          *prometheus.Desc
	paused, failing                                              *prometheus.Desc
	webWatchers, webFeeds, webFrames, webDropped, webLimited     *prometheus.Desc
	hookDeliveries, hookQueued, hooks, newsDropped               *prometheus.Desc
}

func newMiaCollector(srv *sshapp.Server, lob *lobby.Lobby, st *store.Store, al *alerts.Alerts) *miaCollector {
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc("mia_"+name, help, labels, nil)
	}
	return &miaCollector{srv: srv, lob: lob, st: st, al: al,
		sessions:     d("sessions", "Open SSH sessions by kind: screen (the game screen), bot (the bot line protocol), command.", "kind"),
		connections:  d("connections", "Open TCP connections."),
		unauth:       d("connections_unauthenticated", "Open TCP connections still in their handshake."),
		handshakes:   d("handshakes_total", "Connections by how their handshake ended: ok, timeout, noauth (closed before authenticating).", "result"),
		refusals:     d("refusals_total", "Connections refused before their handshake, by reason: shutdown, penalised, per_source, busy.", "reason"),
		dropped:      d("sessions_dropped_total", "Sessions dropped because their client stopped reading: stalled (owed the bound), flush (did not take the end of its output).", "reason"),
		tables:       d("tables", "Open tables by state: waiting, playing.", "state"),
		moves:        d("moves_total", "Actions applied at the tables, by kind.", "kind"),
		mailboxDrops: d("mailbox_drops_total", "Snapshots a viewer's mailbox replaced before the viewer read them (a viewer slower than its table)."),
		commit:       d("store_commit_seconds", "Time of the store's writes, from the call to the fsynced commit."),
		paused:       d("tables_paused", "Open tables paused because a write to the store was not saved (it did not answer in time, or the disk failed it)."),
		failing:      d("store_write_failing", "1 while the disk fails the store's writes, by the reason in words (full, read-only, an I/O error); absent while writes are saved.", "reason"),
		webWatchers:  d("web_watchers", "The web window's open event streams (browsers watching a table)."),
		webFeeds:     d("web_feeds", "Tables the web window follows for its watchers."),
		webFrames:    d("web_frames_total", "Table fragments the web window drew: one per snapshot of a watched table, whatever its watchers."),
		webDropped:   d("web_watchers_dropped_total", "Web watchers dropped because their browser stopped reading."),
		webLimited:   d("web_limited_total", "Requests and connections the web window refused by a per-address limit."),
		hookDeliveries: d("webhook_deliveries_total", "Webhook deliveries by news type and result: ok (2xx), failed (after its retries), refused (its address refused, or a redirect not followed), dropped (its hook's queue full, or the hook paused).",
			"type", "result"),
		hookQueued:  d("webhook_queued", "Webhook deliveries waiting in their hooks' queues, by owner: server, table.", "owner"),
		hooks:       d("webhooks", "Webhooks by owner (server, table) and state (active, paused).", "owner", "state"),
		newsDropped: d("news_dropped_total", "The lobby's news a reader's queue dropped unread (the alerts', a screen's notices)."),
	}
}

// Describe sends every metric's description.
func (c *miaCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.sessions, c.connections, c.unauth, c.handshakes, c.refusals, c.dropped,
		c.tables, c.moves, c.mailboxDrops, c.commit, c.paused, c.failing, c.webWatchers, c.webFeeds, c.webFrames, c.webDropped, c.webLimited,
		c.hookDeliveries, c.hookQueued, c.hooks, c.newsDropped} {
		ch <- d
	}
}

// Collect reads the counts now.
func (c *miaCollector) Collect(ch chan<- prometheus.Metric) {
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	counter := func(d *prometheus.Desc, v uint64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), labels...)
	}
	ss := c.srv.Stats()
	for kind, n := range ss.Sessions {
		gauge(c.sessions, float64(n), kind)
	}
	gauge(c.connections, float64(ss.Connections))
	gauge(c.unauth, float64(ss.Unauthenticated))
	for r, n := range ss.Handshakes {
		counter(c.handshakes, n, r)
	}
	for r, n := range ss.Refusals {
		counter(c.refusals, n, r)
	}
	for r, n := range ss.Dropped {
		counter(c.dropped, n, r)
	}
	ls := c.lob.Stats()
	for state, n := range ls.Tables {
		gauge(c.tables, float64(n), state)
	}
	for kind, n := range ls.Moves {
		counter(c.moves, n, strings.ReplaceAll(kind, " ", "_"))
	}
	counter(c.mailboxDrops, ls.MailboxDrops)
	gauge(c.paused, float64(ls.Paused))
	if f := c.st.Fault(); f != nil {
		gauge(c.failing, 1, f.Err.Reason())
	}
	cl := c.st.CommitLatency()
	buckets := make(map[float64]uint64, len(cl.Bounds))
	var cum uint64
	for i, b := range cl.Bounds {
		cum += cl.Counts[i]
		buckets[b.Seconds()] = cum
	}
	ch <- prometheus.MustNewConstHistogram(c.commit, cl.Count, cl.Sum.Seconds(), buckets)
	counter(c.newsDropped, c.lob.NewsStats().Dropped)
	if c.al != nil {
		as := c.al.Stats()
		for kind, m := range as.Deliveries {
			for result, n := range m {
				counter(c.hookDeliveries, n, kind, result)
			}
		}
		for owner, n := range as.Queued {
			gauge(c.hookQueued, float64(n), owner)
		}
		for owner, m := range as.Hooks {
			for state, n := range m {
				gauge(c.hooks, float64(n), owner, state)
			}
		}
	}
	if w := c.web.Load(); w != nil {
		ws := w.Stats()
		gauge(c.webWatchers, float64(ws.Watchers))
		gauge(c.webFeeds, float64(ws.Feeds))
		counter(c.webFrames, ws.Frames)
		counter(c.webDropped, ws.Dropped)
		counter(c.webLimited, ws.Limited)
	}
}

// serveMetrics serves /metrics on addr (Prometheus' text format: mia's
// metrics, Go's runtime and the process) until stop is called.
func serveMetrics(addr string, c *miaCollector, lg *log.Logger) (stop func(ctx context.Context) error, err error) {
	reg := prometheus.NewRegistry()
	if err := reg.Register(c); err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorLog: lg.StandardLog(), Timeout: 10 * time.Second}))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintln(w, "mia: metrics at /metrics")
	})
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics: listen: %w", err)
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: time.Minute, ErrorLog: lg.StandardLog()}
	lg.Info("metrics listening", "addr", ln.Addr().String())
	if host, _, err := net.SplitHostPort(ln.Addr().String()); err != nil || !loopbackHost(host) {
		lg.Warn("metrics are served beyond this machine with no authentication: anyone who reaches the address reads them; serve them on 127.0.0.1 or keep the port behind a firewall",
			"addr", ln.Addr().String())
	}
	go func() {
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			lg.Error("metrics server stopped", "err", err)
		}
	}()
	return hs.Shutdown, nil
}
