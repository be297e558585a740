// Command mia-loadtest opens SSH connections to a mia server as fast as it
// can, from parallel workers with Ed25519 keys, and reports full
// handshakes per second:
//
//	mia-loadtest -addr 127.0.0.1:23234 -c 16 -d 10s [-cmd whoami] [-pid PID]
//
// With -pid (Linux), it also reports the server process's CPU time per
// handshake, read from /proc. The server's per-source cap (16 by default)
// counts connections from one address until the server has seen them
// close, so keep -c well under it (12 still sees an odd refusal).
package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "mia-loadtest:", err)
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("mia-loadtest", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:23234", "server address")
	workers := fs.Int("c", 8, "parallel connections")
	dur := fs.Duration("d", 10*time.Second, "how long to run")
	cmd := fs.String("cmd", "", "a command to run on each connection (e.g. whoami); empty: handshake only")
	pid := fs.Int("pid", 0, "the server's process id, to report its CPU per handshake (Linux)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return fmt.Errorf("key: %w", err)
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		return fmt.Errorf("key: %w", err)
	}
	cfg := &gossh.ClientConfig{
		User:            "loadtest",
		Auth:            []gossh.AuthMethod{gossh.PublicKeys(signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(),
		Timeout:         10 * time.Second,
	}

	ctx, cancel := context.WithTimeout(context.Background(), *dur)
	defer cancel()
	cpu0, cpuErr := procCPU(*pid)
	start := time.Now()
	var mu sync.Mutex
	var lat []time.Duration
	var failures int
	var firstErr error
	var wg sync.WaitGroup
	for range *workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				t := time.Now()
				err := connect(*addr, cfg, *cmd)
				mu.Lock()
				if err != nil {
					failures++
					if firstErr == nil {
						firstErr = err
					}
				} else {
					lat = append(lat, time.Since(t))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu1, _ := procCPU(*pid)

	slices.Sort(lat)
	n := len(lat)
	fmt.Fprintf(out, "%d handshakes in %s with %d workers: %.0f handshakes/s, %d failed\n",
		n, elapsed.Round(time.Millisecond), *workers, float64(n)/elapsed.Seconds(), failures)
	if n > 0 {
		fmt.Fprintf(out, "latency p50 %s, p99 %s\n", lat[n/2].Round(time.Microsecond), lat[n*99/100].Round(time.Microsecond))
	}
	if *pid != 0 && cpuErr == nil && n > 0 {
		fmt.Fprintf(out, "server CPU %s, %.0f µs per handshake\n", (cpu1 - cpu0).Round(time.Millisecond),
			float64((cpu1-cpu0).Microseconds())/float64(n))
	}
	if firstErr != nil {
		fmt.Fprintln(out, "first failure:", firstErr)
	}
	return nil
}

func connect(addr string, cfg *gossh.ClientConfig, cmd string) error {
	nc, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		return err
	}
	c, chans, reqs, err := gossh.NewClientConn(nc, addr, cfg)
	if err != nil {
		nc.Close()
		return err
	}
	client := gossh.NewClient(c, chans, reqs)
	defer client.Close()
	if cmd == "" {
		return nil
	}
	s, err := client.NewSession()
	if err != nil {
		return err
	}
	defer s.Close()
	_, err = s.Output(cmd)
	return err
}

// procCPU is a process's user+system CPU time from /proc (clock ticks of
// 1/100 s, the Linux default).
func procCPU(pid int) (time.Duration, error) {
	if pid == 0 {
		return 0, errors.New("no pid")
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// The command name (field 2) may hold spaces; fields after ")".
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0, errors.New("short /proc stat")
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return time.Duration(ut+st) * 10 * time.Millisecond, nil
}
