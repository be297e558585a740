package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// watcher is one browser's event stream of a table.
type watcher struct {
	conn   net.Conn
	events atomic.Int64 // "table" events read
	bytes  atomic.Int64
}

// runWeb is the web scenario: tables of built-in bots set up over SSH,
// then c.n browsers' event streams (/tables/NAME/events) on them over
// HTTP, each from its own loopback source address, held for c.hold; it
// reports what they cost the server, as runHold does for SSH sessions.
func runWeb(c config, out io.Writer) error {
	if c.http == "" {
		return errors.New("scenario web: -http ADDR, the server's web window (mia --http-addr), is needed")
	}
	if err := loopbackOnly(c.http); err != nil {
		return err
	}
	if c.tables < 1 || c.tables > c.n {
		return fmt.Errorf("-tables %d: want 1 to -n (%d)", c.tables, c.n)
	}
	perTable := (c.n + c.tables - 1) / c.tables
	playing, err := setUpTables(c)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "scenario web: %d tables of 4 built-in bots (%d playing), %d browsers' event streams a table\n",
		c.tables, playing, perTable)

	rss0, rssErr := procRSS(c.pid)
	ws := make([]*watcher, c.n)
	defer func() {
		for _, w := range ws {
			if w != nil {
				w.conn.Close()
			}
		}
	}()
	var (
		mu       sync.Mutex
		lat      []time.Duration
		failed   int
		firstErr error
		wg       sync.WaitGroup
	)
	sem := make(chan struct{}, c.par)
	start := time.Now()
	for i := range c.n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			t0 := time.Now()
			w, err := watch(c, i, fmt.Sprintf("%st%d", c.prefix, i/perTable))
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				failed++
				if firstErr == nil {
					firstErr = err
				}
				return
			}
			ws[i] = w
			lat = append(lat, time.Since(t0))
		}()
	}
	wg.Wait()
	setup := time.Since(start)
	slices.Sort(lat)
	fmt.Fprintf(out, "connected %d failed %d in %s (%.0f/s); first event p50 %s p90 %s p99 %s max %s\n",
		len(lat), failed, setup.Round(time.Millisecond), float64(len(lat))/setup.Seconds(),
		percentile(lat, .5).Round(time.Millisecond), percentile(lat, .9).Round(time.Millisecond),
		percentile(lat, .99).Round(time.Millisecond), percentile(lat, 1).Round(time.Millisecond))
	if firstErr != nil {
		fmt.Fprintln(out, "first failure:", firstErr)
	}
	ready(c.ready)

	held := time.Now()
	evs0, bytes0 := make([]int64, c.n), int64(0)
	for i, w := range ws {
		if w != nil {
			evs0[i] = w.events.Load()
			bytes0 += w.bytes.Load()
		}
	}
	time.Sleep(2 * time.Second)
	rss1, _ := procRSS(c.pid)
	cpu1, cpuErr := procCPU(c.pid)
	t1 := time.Now()
	time.Sleep(c.hold - 2*time.Second)
	cpu2, _ := procCPU(c.pid)
	rss2, _ := procRSS(c.pid)
	t2 := time.Now()

	live, events, bytes := 0, int64(0), int64(-bytes0)
	for i, w := range ws {
		if w == nil {
			continue
		}
		d := w.events.Load() - evs0[i]
		events += d
		bytes += w.bytes.Load()
		if d > 0 {
			live++
		}
	}
	secs := t2.Sub(held).Seconds()
	fmt.Fprintf(out, "held %s: %d of %d watchers received events; %.0f events/s and %.0f bytes/s from the server in all\n",
		c.hold, live, len(lat), float64(events)/secs, float64(bytes)/secs)
	if c.pid != 0 && rssErr == nil && cpuErr == nil && len(lat) > 0 {
		fmt.Fprintf(out, "server RSS %.1f -> %.1f MiB (%.1f at the end): %.0f KiB per watcher; server CPU while holding: %.1f%% of one core\n",
			float64(rss0)/1024, float64(rss1)/1024, float64(rss2)/1024, float64(rss1-rss0)/float64(len(lat)),
			100*(cpu2-cpu1).Seconds()/t2.Sub(t1).Seconds())
	}
	return nil
}

// watch opens watcher i's event stream of table from its own loopback
// source address, waits for its first event and reads the rest in the
// background.
func watch(c config, i int, table string) (*watcher, error) {
	src := &net.TCPAddr{IP: net.IPv4(127, byte(i/(250*250)), byte(1+i/250%250), byte(1+i%250))}
	d := net.Dialer{LocalAddr: src, Timeout: 30 * time.Second}
	conn, err := d.Dial("tcp", c.http)
	if err != nil {
		return nil, fmt.Errorf("dial from %s: %w", src.IP, err)
	}
	fail := func(err error) (*watcher, error) {
		conn.Close()
		return nil, err
	}
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	req, err := http.NewRequest(http.MethodGet, "http://"+c.http+"/tables/"+table+"/events", nil)
	if err != nil {
		return fail(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	if err := req.Write(conn); err != nil {
		return fail(err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, req)
	if err != nil {
		return fail(fmt.Errorf("%s: %w", table, err))
	}
	if resp.StatusCode != http.StatusOK {
		return fail(fmt.Errorf("%s: %s", table, resp.Status))
	}
	w := &watcher{conn: conn}
	first := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 0, 16<<10), 1<<20)
		seen := false
		for sc.Scan() {
			line := sc.Text()
			w.bytes.Add(int64(len(line) + 1))
			if strings.HasPrefix(line, "event: table") {
				w.events.Add(1)
			}
			if line == "" && !seen && w.events.Load() > 0 {
				seen = true
				first <- nil
			}
		}
		if !seen {
			first <- fmt.Errorf("%s: the stream ended before its first event: %v", table, sc.Err())
		}
	}()
	if err := <-first; err != nil {
		return fail(err)
	}
	_ = conn.SetDeadline(time.Time{})
	return w, nil
}
