// Command mia-loadtest measures a running mia server from the same
// machine, over loopback only. It has two kinds of run.
//
// Handshakes: connections opened and closed as fast as it can, from
// parallel workers with Ed25519 keys:
//
//	mia-loadtest -addr 127.0.0.1:23234 -c 8 -d 10s [-cmd whoami] [-pid PID]
//
// The server's per-source cap (16 by default) counts connections from one
// address until the server has seen them close, so keep -c well under it.
//
// Held sessions (-scenario): N people with terminals connect and stay:
//
//	mia-loadtest -scenario prompt -n 2000 -hold 30s -pid PID   # new keys at the name prompt
//	mia-loadtest -scenario lobby  -n 2000 -hold 30s -pid PID   # named, idle in the lobby
//	mia-loadtest -scenario watch  -n 2000 -hold 30s -tables 200 -pid PID
//	                                                            # watching busy tables of 4 built-in bots
//	mia-loadtest -scenario web -http 127.0.0.1:8080 -n 2000 -hold 30s -tables 200 -pid PID
//	                                                            # browsers' event streams of those tables
//	                                                            # (the web window, mia --http-addr)
//	mia-loadtest -scenario event -n 4 -bots 48 -hold 10m -pid PID
//	                                                            # an arena of 48 built-in bots and 4
//	                                                            # bots of the line protocol (bot --event)
//
// Each session (and each browser's stream) dials from its own loopback
// source address (127.0.x.y), so the per-source caps do not apply. It prints the connect rate and
// latency percentiles, how many sessions received output while held and
// the bytes per second sent, and with -pid (Linux, /proc) the server's
// resident memory per session (RSS growth over the sessions) and its CPU
// while holding them. Give each scenario a fresh server: memory a server
// freed stays in its RSS, and would hide the next scenario's growth. With
// -ready FILE the file appears once every session is in, for a script to
// take profiles (mia --debug-addr) while they are held.
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "mia-loadtest:", err)
		os.Exit(1)
	}
}

// config is the command line.
type config struct {
	addr string
	pid  int

	// handshakes
	workers int
	dur     time.Duration
	cmd     string

	// held sessions
	scenario string
	n        int
	hold     time.Duration
	par      int
	tables   int
	prefix   string
	ready    string
	http     string // the web window's address, for the web scenario
	bots     int    // event: built-in bots
	seats    int    // event: seats a table
	maexchen string // event: the Mäxchen gateway's UDP address, a door of the event
	mx       int    // event: Mäxchen bots at the gateway
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("mia-loadtest", flag.ContinueOnError)
	fs.SetOutput(out)
	var c config
	fs.StringVar(&c.addr, "addr", "127.0.0.1:23234", "the server's address (loopback only)")
	fs.IntVar(&c.pid, "pid", 0, "the server's process id, to report its CPU and memory (Linux /proc)")
	fs.IntVar(&c.workers, "c", 8, "handshakes: parallel connections")
	fs.DurationVar(&c.dur, "d", 10*time.Second, "handshakes: how long to run")
	fs.StringVar(&c.cmd, "cmd", "", "handshakes: a command to run on each connection (e.g. whoami); empty: handshake only")
	fs.StringVar(&c.scenario, "scenario", "", "hold sessions instead: prompt, lobby, watch, web or event")
	fs.IntVar(&c.n, "n", 100, "sessions to hold")
	fs.DurationVar(&c.hold, "hold", 20*time.Second, "how long to hold them (at least 5s)")
	fs.IntVar(&c.par, "par", 32, "sessions connecting at once")
	fs.IntVar(&c.tables, "tables", 10, "watch, web: tables of 4 built-in bots, n/tables watchers each")
	fs.StringVar(&c.http, "http", "", "web: the server's web window (mia --http-addr), loopback only")
	fs.IntVar(&c.bots, "bots", 48, "event: built-in bots entered (at most 48)")
	fs.IntVar(&c.seats, "seats", 4, "event: seats at each of its tables")
	fs.StringVar(&c.maexchen, "maexchen", "", "event: the Mäxchen gateway's UDP address (mia --maexchen-udp, with --maexchen-event the event's name), loopback only")
	fs.IntVar(&c.mx, "mx", 4, "event: Mäxchen bots playing at the gateway, with -maexchen")
	fs.StringVar(&c.prefix, "prefix", "", "lobby, watch, web: names PREFIX<i> and tables PREFIXt<i> (default: random, so runs do not collide)")
	fs.StringVar(&c.ready, "ready", "", "create this file once every session is in (for scripts that profile the hold)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err := loopbackOnly(c.addr); err != nil {
		return err
	}
	if c.scenario == "" {
		return runHandshakes(c, out)
	}
	return runHold(c, out)
}

// loopbackOnly refuses an address off this machine: the tool opens
// thousands of connections and must not be pointed at someone else's server.
func loopbackOnly(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("address %q: only a loopback server may be loaded (127.0.0.1:PORT)", addr)
	}
	return nil
}
