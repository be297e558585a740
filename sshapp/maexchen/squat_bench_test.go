package maexchen

import (
	"context"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// BenchmarkSquattedNewcomer measures a newcomer's wait at a squatted
// gateway as a probe would, on the real clock and with the default
// settings: 8 addresses × 4 bots take every place, each registration
// kept alive with a HEARTBEAT and playing no round; then a newcomer from
// a ninth address sends REGISTER once and waits for REGISTERED. From
// addresses that are not exempt (loopback sockets the gateway sees as
// 198.51.100.1–9) the fair share lets it in at once; from loopback
// addresses (127.0.0.2–10, exempt from the fair share) it waits for a
// squatter to give way, GiveWay after the squatters let their first
// round pass. wait-s is the median wait. Run it with
// -run '^$' -bench SquattedNewcomer -benchtime 3x (about 25 s a run on
// loopback).
func BenchmarkSquattedNewcomer(b *testing.B) {
	for _, c := range []struct {
		name string
		via  disguise
		addr func(a int) string
	}{
		{"eight-addresses", elsewhere{}, func(a int) string { return fmt.Sprintf("127.0.1.%d", a+1) }},
		{"eight-loopback-addresses", nil, func(a int) string { return fmt.Sprintf("127.0.0.%d", a+2) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			var waits []time.Duration
			for range b.N {
				w, err := squattedWait(b.TempDir(), c.via, c.addr)
				if err != nil {
					b.Fatal(err)
				}
				waits = append(waits, w)
			}
			slices.Sort(waits)
			b.ReportMetric(waits[len(waits)/2].Seconds(), "wait-s")
		})
	}
}

// squattedWait starts a gateway on a fresh store in dir, squats it from 8
// addresses × 4 sockets (addr(0)…addr(7)) and returns how long a newcomer
// from addr(8) waits for REGISTERED.
func squattedWait(dir string, via disguise, addr func(a int) string) (time.Duration, error) {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(dir, "mia.db"))
	if err != nil {
		return 0, err
	}
	defer st.Close()
	l, err := lobby.New(ctx, lobby.Config{Store: lobbystore.New(st), Dice: lobbytest.NewDice(5)})
	if err != nil {
		return 0, err
	}
	defer l.Close()
	gw, err := New(ctx, Config{Addr: "127.0.0.1:0", Lobby: l, Records: records{st}, via: via})
	if err != nil {
		return 0, err
	}
	defer gw.Close()
	var squat squatters
	defer squat.stop()
	for a := range 8 {
		for i := range 4 {
			c, err := udpDial(addr(a), gw.Addr().String())
			if err != nil {
				return 0, err
			}
			if err := register(c, fmt.Sprintf("squat%d-%d", a, i)); err != nil {
				c.Close()
				return 0, err
			}
			squat.hold(c)
		}
	}
	newcomer, err := udpDial(addr(8), gw.Addr().String())
	if err != nil {
		return 0, err
	}
	defer newcomer.Close()
	start := time.Now()
	if err := register(newcomer, "newcomer"); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

// udpDial opens a socket from the IP from to the gateway at to.
func udpDial(from, to string) (*net.UDPConn, error) {
	ra, err := net.ResolveUDPAddr("udp", to)
	if err != nil {
		return nil, err
	}
	return net.DialUDP("udp", &net.UDPAddr{IP: net.ParseIP(from)}, ra)
}

// register sends REGISTER;name once and reads until REGISTERED, within a
// minute and a half.
func register(c *net.UDPConn, name string) error {
	if _, err := c.Write([]byte("REGISTER;" + name)); err != nil {
		return err
	}
	buf := make([]byte, 2048)
	_ = c.SetReadDeadline(time.Now().Add(90 * time.Second))
	for {
		n, err := c.Read(buf)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		switch m := string(buf[:n]); {
		case m == msgRegistered:
			return c.SetReadDeadline(time.Time{})
		case strings.HasPrefix(m, "REJECTED"):
			return fmt.Errorf("%s: %s", name, m)
		}
	}
}

// squatters keep their registrations alive (one HEARTBEAT each) and read
// everything they hear without ever answering.
type squatters struct {
	conns []*net.UDPConn
	wg    sync.WaitGroup
}

func (s *squatters) hold(c *net.UDPConn) {
	s.conns = append(s.conns, c)
	_, _ = c.Write([]byte("HEARTBEAT"))
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		buf := make([]byte, 2048)
		for {
			if _, err := c.Read(buf); errors.Is(err, net.ErrClosed) {
				return
			}
		}
	}()
}

func (s *squatters) stop() {
	for _, c := range s.conns {
		c.Close()
	}
	s.wg.Wait()
}
