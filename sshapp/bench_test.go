//go:build unix

package sshapp

import (
	"net"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// BenchmarkHandshake measures full SSH handshakes (TCP connect, key
// exchange, Ed25519 host key, Ed25519 public key auth) per second against
// the real server on 127.0.0.1, clients in parallel. Client and server
// share the machine's cores, so the figure is a floor for the server;
// cpu-µs/handshake is the CPU both sides spent on one handshake.
//
//	go test -run '^$' -bench Handshake -benchtime 3s ./sshapp/
func BenchmarkHandshake(b *testing.B) {
	for _, bc := range []struct {
		name string
		cmd  string // run this command too, "" for the handshake only
	}{
		{"handshake", ""},
		{"handshake+whoami", "whoami"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			ts := startServer(b, func(c *Config) {
				c.Limits.MaxPerSource = -1
				c.Limits.MaxUnauthenticated = -1
			})
			cfg := clientConfig(newKey(b))
			b.SetParallelism(4)
			b.ResetTimer()
			start, cpu0 := time.Now(), cpuTime()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := handshake(ts.addr, cfg, bc.cmd); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "handshakes/s")
			// Client and server together; the machine's load by others
			// does not change this one.
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/handshake")
		})
	}
}

// cpuTime is the CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func handshake(addr string, cfg *gossh.ClientConfig, cmd string) error {
	nc, err := net.Dial("tcp", addr)
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
