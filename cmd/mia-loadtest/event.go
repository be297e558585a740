package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// runEvent is the event scenario: an arena of -bots built-in bots and -n
// bots of the line protocol (bot --event), for -hold; then the server's
// CPU and memory over it, the games a minute, and each entrant's idle
// time between two of its games (from the games' starts and ends in
// `event NAME --json`).
func runEvent(c config, out io.Writer) error {
	if c.bots < 0 || c.bots > 48 || c.n < 0 || c.n+c.bots < 2 {
		return fmt.Errorf("-bots %d and -n %d: from 0 to 48 built-in bots, and at least 2 entrants", c.bots, c.n)
	}
	name := strings.ReplaceAll(c.prefix, "-", "")
	if len(name) > 9 {
		name = name[:9]
	}
	name += "e"
	host, err := dialFrom(c, 250*250-1)
	if err != nil {
		return err
	}
	defer func() { host.Close() }()
	if _, err := execute(host, "name "+c.prefix+"host"); err != nil {
		return fmt.Errorf("name the host: %w", err)
	}
	create := fmt.Sprintf("event create %s --seats %d --bots %d --lasts %s --lives 3", name, c.seats, c.bots, c.hold.Round(time.Minute))
	if _, err := execute(host, create); err != nil {
		return fmt.Errorf("%s: %w", create, err)
	}
	var (
		wg     sync.WaitGroup
		over   atomic.Int64
		errs   = make(chan error, c.n)
		joined = make(chan struct{}, c.n)
	)
	for i := range c.n {
		wg.Go(func() {
			if err := eventBot(c, i, name, joined, &over); err != nil {
				errs <- err
			}
		})
	}
	for range c.n {
		select {
		case <-joined:
		case err := <-errs:
			return err
		case <-time.After(time.Minute):
			return errors.New("the protocol bots did not enter within a minute")
		}
	}
	cpu0, _ := procCPU(c.pid)
	rss0, _ := procRSS(c.pid)
	t0 := time.Now()
	if _, err := execute(host, "event start "+name); err != nil {
		return fmt.Errorf("start: %w", err)
	}
	fmt.Fprintf(out, "event %s: an arena of %s, %d built-in bots and %d protocol bots at tables of %d\n", name, c.hold, c.bots, c.n, c.seats)
	var peak int64
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	var mxRounds atomic.Int64
	if c.maexchen != "" {
		if err := loopbackOnly(c.maexchen); err != nil {
			return err
		}
		fmt.Fprintf(out, "and %d Mäxchen bots at the gateway %s, the event's door\n", c.mx, c.maexchen)
		for i := range c.mx {
			go func() {
				if err := maexchenBot(c.maexchen, fmt.Sprintf("%sm%d", c.prefix, i), done, &mxRounds); err != nil {
					fmt.Fprintf(out, "Mäxchen bot %d: %v\n", i, err)
				}
			}()
		}
	}
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
wait:
	for {
		select {
		case <-done:
			break wait
		case <-tick.C:
			if r, err := procRSS(c.pid); err == nil {
				peak = max(peak, r)
			}
		case <-time.After(c.hold + 10*time.Minute):
			return fmt.Errorf("the event did not end within %s of its time", 10*time.Minute)
		}
	}
	took := time.Since(t0)
	cpu1, _ := procCPU(c.pid)
	select {
	case err := <-errs:
		return err
	default:
	}
	// The host's connection has been idle for the whole event: the
	// server's idle timeout may have ended it. A new one reads the end.
	host.Close()
	if host, err = dialFrom(c, 250*250-2); err != nil {
		return err
	}
	if _, err := execute(host, "name "+c.prefix+"reader"); err != nil {
		return fmt.Errorf("name the reader: %w", err)
	}
	doc, err := execute(host, "event "+name+" --json")
	if err != nil {
		return fmt.Errorf("event --json: %w", err)
	}
	var ev struct {
		Event struct {
			Started, Ended time.Time
			DoorGames      int `json:"door_games"`
		}
		Games []struct {
			ID             string
			Players        []string
			Started, Ended time.Time
			Standings      []int
		}
	}
	if err := json.Unmarshal([]byte(doc), &ev); err != nil {
		return fmt.Errorf("event --json: %w", err)
	}
	spent := ev.Event.Ended.Sub(ev.Event.Started)
	byPlayer := map[string][][2]time.Time{}
	scored, longest := 0, time.Duration(0)
	for _, g := range ev.Games {
		if g.Standings != nil {
			scored++
		}
		longest = max(longest, g.Ended.Sub(g.Started))
		for _, p := range g.Players {
			byPlayer[p] = append(byPlayer[p], [2]time.Time{g.Started, g.Ended})
		}
	}
	var idle []time.Duration
	for _, gs := range byPlayer {
		slices.SortFunc(gs, func(a, b [2]time.Time) int { return a[0].Compare(b[0]) })
		for i := 1; i < len(gs); i++ {
			idle = append(idle, gs[i][0].Sub(gs[i-1][1]))
		}
	}
	slices.Sort(idle)
	fmt.Fprintf(out, "games at the event's tables: %d (%d with a result) in %s: %.1f a minute; the longest %s\n", len(ev.Games), scored,
		spent.Round(time.Second), float64(len(ev.Games))/spent.Minutes(), longest.Round(time.Millisecond))
	if len(idle) > 0 {
		fmt.Fprintf(out, "idle between two games of an entrant (%d gaps of %d entrants): median %s, p99 %s, max %s\n", len(idle),
			len(byPlayer), percentile(idle, 0.5).Round(time.Millisecond), percentile(idle, 0.99).Round(time.Millisecond),
			idle[len(idle)-1].Round(time.Millisecond))
	}
	fmt.Fprintf(out, "protocol bots told EVENT OVER: %d of %d\n", over.Load(), c.n)
	if c.maexchen != "" {
		fmt.Fprintf(out, "Mäxchen rounds the bots played: %d; counted at the door: %d (%.1f a minute)\n", mxRounds.Load(),
			ev.Event.DoorGames, float64(ev.Event.DoorGames)/spent.Minutes())
	}
	if c.pid != 0 {
		fmt.Fprintf(out, "server: %.1f%% of a core over %s; resident memory %d KiB before, %d KiB at most\n",
			100*float64(cpu1-cpu0)/float64(took), took.Round(time.Second), rss0, max(peak, rss0))
	}
	return nil
}

// dialFrom connects as a new key from the i-th loopback source.
func dialFrom(c config, i int) (*gossh.Client, error) {
	signer, err := newSigner()
	if err != nil {
		return nil, err
	}
	src := &net.TCPAddr{IP: net.IPv4(127, byte(i/(250*250)), byte(1+i/250%250), byte(1+i%250))}
	d := net.Dialer{LocalAddr: src, Timeout: 30 * time.Second}
	nc, err := d.Dial("tcp", c.addr)
	if err != nil {
		return nil, fmt.Errorf("dial from %s: %w", src.IP, err)
	}
	cfg := &gossh.ClientConfig{User: "load", Auth: []gossh.AuthMethod{gossh.PublicKeys(signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 30 * time.Second}
	cc, chans, reqs, err := gossh.NewClientConn(nc, c.addr, cfg)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("handshake: %w", err)
	}
	return gossh.NewClient(cc, chans, reqs), nil
}

// eventBot is one bot of the line protocol in the event: it opens each
// round by rolling and announcing its dice, and calls every claim, until
// EVENT OVER.
func eventBot(c config, i int, event string, joined chan<- struct{}, over *atomic.Int64) error {
	cl, err := dialFrom(c, i)
	if err != nil {
		return err
	}
	defer cl.Close()
	if _, err := execute(cl, fmt.Sprintf("name %sb%d", c.prefix, i)); err != nil {
		return fmt.Errorf("name: %w", err)
	}
	s, err := cl.NewSession()
	if err != nil {
		return err
	}
	defer s.Close()
	in, err := s.StdinPipe()
	if err != nil {
		return err
	}
	pipe, err := s.StdoutPipe()
	if err != nil {
		return err
	}
	if err := s.Start("bot --event " + event); err != nil {
		return err
	}
	sc := bufio.NewScanner(pipe)
	for sc.Scan() {
		f := strings.Split(sc.Text(), ";")
		switch f[0] {
		case "HELLO":
			joined <- struct{}{}
		case "YOUR TURN":
			if f[1] == "-" {
				fmt.Fprintf(in, "ROLL;%s\n", f[2])
			} else {
				fmt.Fprintf(in, "SEE;%s\n", f[2])
			}
		case "ROLLED":
			fmt.Fprintf(in, "ANNOUNCE;%s;%s\n", f[1], f[2])
		case "EVENT OVER":
			over.Add(1)
			return nil
		}
	}
	return fmt.Errorf("bot %d: the session ended before EVENT OVER", i)
}

// maexchenBot is a Mäxchen bot over UDP: it joins every round, rolls
// when it opens, sees otherwise, announces what it rolled, until done.
func maexchenBot(addr, name string, done <-chan struct{}, rounds *atomic.Int64) error {
	conn, err := net.Dial("udp", addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	send := func(s string) { _, _ = conn.Write([]byte(s)) }
	send("REGISTER;" + name)
	buf := make([]byte, 1024)
	claimed := false
	for {
		select {
		case <-done:
			send("UNREGISTER")
			return nil
		default:
		}
		_ = conn.SetReadDeadline(time.Now().Add(time.Second))
		n, err := conn.Read(buf)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return err
		}
		f := strings.Split(string(buf[:n]), ";")
		switch f[0] {
		case "REJECTED":
			return fmt.Errorf("%s: %s", name, strings.Join(f, ";"))
		case "ROUND STARTING":
			send("JOIN;" + f[1])
		case "ROUND STARTED":
			claimed = false
		case "ANNOUNCED":
			claimed = true
		case "YOUR TURN":
			if claimed {
				send("SEE;" + f[1])
			} else {
				send("ROLL;" + f[1])
			}
		case "ROLLED":
			send("ANNOUNCE;" + f[1] + ";" + f[2])
		case "PLAYER LOST":
			rounds.Add(1)
		}
	}
}
