package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// udpBot is a plain Mäxchen bot for the end-to-end test: it joins every
// round, rolls when it opens, sees otherwise, and announces what it
// rolled. It reports what it heard; it plays rounds rounds, then leaves.
func udpBot(addr, name string, rounds int, heard chan<- string) error {
	conn, err := net.Dial("udp", addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	send := func(s string) error { _, err := conn.Write([]byte(s)); return err }
	if err := send("REGISTER;" + name); err != nil {
		return err
	}
	buf := make([]byte, 1024)
	claimed := false
	for rounds > 0 {
		if err := conn.SetReadDeadline(time.Now().Add(20 * time.Second)); err != nil {
			return err
		}
		n, err := conn.Read(buf)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		m := string(buf[:n])
		heard <- name + " " + m
		f := strings.Split(m, ";")
		switch f[0] {
		case "REJECTED":
			return fmt.Errorf("%s: %s", name, m)
		case "ROUND STARTING":
			err = send("JOIN;" + f[1])
		case "ROUND STARTED":
			claimed = false
		case "ANNOUNCED":
			claimed = true
		case "YOUR TURN":
			if claimed {
				err = send("SEE;" + f[1])
			} else {
				err = send("ROLL;" + f[1])
			}
		case "ROLLED":
			err = send("ANNOUNCE;" + f[1] + ";" + f[2])
		case "PLAYER LOST": // a round played (a cancelled one has none)
			rounds--
		}
		if err != nil {
			return err
		}
	}
	return send("UNREGISTER")
}

// TestMaexchenGateway runs the server with the gateway on: two UDP bots
// play rounds at the table "maexchen" while SSH lists it, and every round
// is in history with the bots under their Mäxchen names. A name an SSH
// player holds is refused to a bot.
func TestMaexchenGateway(t *testing.T) {
	t.Parallel()
	data := filepath.Join(t.TempDir(), "data")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logs := newLogWatch()
	done := make(chan error, 1)
	env := func(k string) string {
		return map[string]string{"MIA_DATA": data, "MIA_LOG_FORMAT": "json", "MIA_MAEXCHEN_UDP": "127.0.0.1:0"}[k]
	}
	go func() {
		done <- run(ctx, []string{"--addr", "127.0.0.1:0", "--maexchen-timeout", "2s"}, env, io.Discard, logs)
	}()
	addr, _ := logs.address(t)
	gw := logs.line(t, "Mäxchen gateway listening")
	udp, _ := gw["udp"].(string)
	c, _ := dial(t, addr, newKey(t))
	if out, code := command(t, c, "name carol"); code != 0 {
		t.Fatalf("name carol: %d %s", code, out)
	}
	if out, code := command(t, c, "tables"); code != 0 || !strings.Contains(out, "maexchen") {
		t.Fatalf("tables: %d %s", code, out)
	}

	heard := make(chan string, 1024)
	errs := make(chan error, 3)
	go func() { errs <- udpBot(udp, "Carol", 1, heard) }()
	for _, name := range []string{"alpha", "beta-bot-with-20-chr"} {
		go func() { errs <- udpBot(udp, name, 3, heard) }()
	}
	err := <-errs
	if err == nil || !strings.Contains(err.Error(), "REJECTED;NAME_ALREADY_TAKEN") {
		t.Fatalf("a bot named like the SSH player carol: %v", err)
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	out, code := command(t, c, "history --table maexchen --json")
	if code != 0 {
		t.Fatalf("history: %d %s", code, out)
	}
	var hist struct {
		Games []struct {
			ID      string `json:"id"`
			Players []struct {
				Name        string `json:"name"`
				Fingerprint string `json:"fingerprint"`
				Bot         bool   `json:"bot"`
			} `json:"players"`
		} `json:"games"`
	}
	if err := json.Unmarshal([]byte(out), &hist); err != nil {
		t.Fatalf("history --json: %v\n%s", err, out)
	}
	if len(hist.Games) < 3 {
		t.Fatalf("%d rounds in history, want 3 or more:\n%s", len(hist.Games), out)
	}
	for _, p := range hist.Games[0].Players {
		if !p.Bot || p.Fingerprint != "maexchen:"+p.Name {
			t.Errorf("player %+v: want a bot with its Mäxchen name", p)
		}
	}
	out, code = command(t, c, "replay "+hist.Games[0].ID+" --json")
	if code != 0 || !strings.Contains(out, `"preset": "maexchen"`) || !strings.Contains(out, `"beta-bot-with-20-chr"`) {
		t.Fatalf("replay: %d %s", code, out)
	}
	stopRun(t, cancel, done)
}
