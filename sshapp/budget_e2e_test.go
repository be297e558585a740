package sshapp

import (
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/mia-game/mia/lobby"
)

// claimingLB is a trusted load balancer that names every client it
// forwards as coming from claim (a public address), as many clients
// behind one NAT, or fresh keys of one stranger, come.
func claimingLB(t *testing.T, server, claim string) string {
	t.Helper()
	return startClaimingLB(t, server, "127.0.0.2", 2, &net.TCPAddr{IP: net.ParseIP(claim), Port: 40000}).addr()
}

// TestBudgetByAddressOverSSH: the source a session comes from reaches the
// lobby's caps by address through the real door: fresh keys behind one
// public address (named by a trusted balancer's PROXY header) open at
// most the address's share of tables, whatever their keys; another
// address has its own; a loopback client is not counted.
func TestBudgetByAddressOverSSH(t *testing.T) {
	t.Parallel()
	var lob *lobby.Lobby
	ts := startServer(t, func(c *Config) {
		withLobby(t, &lob)(c)
		c.ProxyFrom = trusted(t, "127.0.0.2")
		c.Limits.MaxPerSource = 64
	})
	one := claimingLB(t, ts.addr, "203.0.113.7")
	other := claimingLB(t, ts.addr, "198.51.100.9")
	run := func(via string, n int, cmd string) result {
		t.Helper()
		c, err := dialFrom(via, "", clientConfig(newKey(t)))
		if err != nil {
			t.Fatalf("connect: %v", err)
		}
		defer c.Close()
		if r := runOn(t, c, fmt.Sprintf("name fresh%d", n)); r.code != 0 {
			t.Fatalf("name: %+v", r)
		}
		return runOn(t, c, cmd)
	}
	for i := range lobby.DefaultMaxTablesPerSource {
		if r := run(one, i, fmt.Sprintf("table create t%d", i)); r.code != 0 {
			t.Fatalf("table %d from 203.0.113.7: %+v", i, r)
		}
	}
	r := run(one, 50, "table create t50")
	if r.code != 1 || !strings.Contains(r.stderr, "10 open tables were opened from your address, the most one address may, whatever its keys") {
		t.Fatalf("an 11th table from one address, a fresh key: %+v", r)
	}
	if r := run(other, 51, "table create t51"); r.code != 0 {
		t.Fatalf("a table from another address: %+v", r)
	}
	for i := range lobby.DefaultMaxTablesPerSource + 1 {
		if r := run(ts.addr, 60+i, fmt.Sprintf("table create local%d", i)); r.code != 0 {
			t.Fatalf("a table from loopback (not counted): %+v", r)
		}
	}
}
