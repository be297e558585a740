package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"io"
	"net"
	"slices"
	"sync"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// runHandshakes opens and closes connections from c.workers goroutines for
// c.dur and reports handshakes per second.
func runHandshakes(c config, out io.Writer) error {
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

	ctx, cancel := context.WithTimeout(context.Background(), c.dur)
	defer cancel()
	cpu0, cpuErr := procCPU(c.pid)
	start := time.Now()
	var mu sync.Mutex
	var lat []time.Duration
	var failures int
	var firstErr error
	var wg sync.WaitGroup
	for range c.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				t := time.Now()
				err := connect(c.addr, cfg, c.cmd)
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
	cpu1, _ := procCPU(c.pid)

	slices.Sort(lat)
	n := len(lat)
	fmt.Fprintf(out, "%d handshakes in %s with %d workers: %.0f handshakes/s, %d failed\n",
		n, elapsed.Round(time.Millisecond), c.workers, float64(n)/elapsed.Seconds(), failures)
	if n > 0 {
		fmt.Fprintf(out, "latency p50 %s, p99 %s\n", percentile(lat, 0.5).Round(time.Microsecond), percentile(lat, 0.99).Round(time.Microsecond))
	}
	if c.pid != 0 && cpuErr == nil && n > 0 {
		fmt.Fprintf(out, "server CPU %s, %.0f µs per handshake\n", (cpu1 - cpu0).Round(time.Millisecond),
			float64((cpu1-cpu0).Microseconds())/float64(n))
	}
	if firstErr != nil {
		fmt.Fprintln(out, "first failure:", firstErr)
	}
	return nil
}

// percentile of sorted durations (nearest rank below).
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[int(p*float64(len(sorted)-1))]
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
