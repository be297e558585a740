package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
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
	// The bots are rated like anyone, beside their Mäxchen points (rounds
	// played less lives lost, the SCORE's).
	out, code = command(t, c, "leaderboard --bots --all-time --json")
	var board struct {
		Players []struct {
			Person         string `json:"person"`
			Bot            bool   `json:"bot"`
			Rating         int    `json:"rating"`
			Games          int    `json:"games"`
			MaexchenPoints *int   `json:"maexchen_points"`
		} `json:"players"`
	}
	if err := json.Unmarshal([]byte(out), &board); code != 0 || err != nil || len(board.Players) != 2 {
		t.Fatalf("leaderboard --bots: %d %v %s", code, err, out)
	}
	for _, p := range board.Players {
		if !p.Bot || !strings.HasPrefix(p.Person, "maexchen:") || p.Games != len(hist.Games) || p.MaexchenPoints == nil ||
			*p.MaexchenPoints > p.Games || *p.MaexchenPoints < -p.Games {
			t.Errorf("a Mäxchen bot on the board: %+v", p)
		}
	}
	if out, code := command(t, c, "stats maexchen:alpha"); code != 0 || !strings.Contains(out, "Mäxchen points") || !strings.Contains(out, "alpha (bot)") {
		t.Errorf("stats of a Mäxchen bot: %d %s", code, out)
	}
	if out, code := command(t, c, "leaderboard --people --all-time"); code != 0 || strings.Contains(out, "alpha") {
		t.Errorf("the people's board holds a bot: %d %s", code, out)
	}
	stopRun(t, cancel, done)
}

// udpClient is a Mäxchen bot's socket from a chosen local address.
type udpClient struct {
	t    *testing.T
	conn *net.UDPConn
}

func udpFrom(t *testing.T, local, server string) *udpClient {
	t.Helper()
	la, err := net.ResolveUDPAddr("udp", local+":0")
	if err != nil {
		t.Fatal(err)
	}
	ra, err := net.ResolveUDPAddr("udp", server)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.DialUDP("udp", la, ra)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &udpClient{t: t, conn: conn}
}

func (u *udpClient) send(msg string) {
	u.t.Helper()
	if _, err := u.conn.Write([]byte(msg)); err != nil {
		u.t.Fatal(err)
	}
}

// await reads until a datagram that starts with want, within 20 s.
func (u *udpClient) await(want string) string {
	u.t.Helper()
	buf := make([]byte, 2048)
	deadline := time.Now().Add(20 * time.Second)
	for {
		_ = u.conn.SetReadDeadline(deadline)
		n, err := u.conn.Read(buf)
		if err != nil {
			u.t.Fatalf("waiting for %q: %v", want, err)
		}
		if m := string(buf[:n]); strings.HasPrefix(m, want) {
			return m
		}
	}
}

// TestMaexchenGatewayLimits runs the server with the gateway on and drives
// its limits as a host and its admin would: seven bots from one address
// with the default settings, bans of a bot's name and of an address over SSH, the name of a bot gone
// quiet held across a restart until an admin frees it, no person taking a
// bot's name (registered or held) nor one like it, and the gateway table's
// host named after the restart.
func TestMaexchenGatewayLimits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	admin := newKey(t)
	admins := filepath.Join(dir, "admins")
	if err := os.WriteFile(admins, gossh.MarshalAuthorizedKey(admin.PublicKey()), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"MIA_DATA": filepath.Join(dir, "data"), "MIA_LOG_FORMAT": "json", "MIA_ADMIN_KEYS": admins,
		"MIA_MAEXCHEN_UDP": "127.0.0.1:0"}
	args := []string{"--addr", "127.0.0.1:0", "--maexchen-timeout", "2s"}
	logs, stop := runInProcess(t, env, args...)
	addr, _ := logs.address(t)
	udp, _ := logs.line(t, "Mäxchen gateway listening")["udp"].(string)
	c, _ := dial(t, addr, admin)
	if out, code := command(t, c, "name boss"); code != 0 {
		t.Fatalf("name boss: %d %s", code, out)
	}

	// Seven bots from one machine, as a dojo starts them, all get in.
	var dojo []*udpClient
	for i := range 7 {
		u := udpFrom(t, "127.0.0.30", udp)
		u.send(fmt.Sprintf("REGISTER;dojo%d", i))
		if got := u.await("RE"); got != "REGISTERED" {
			t.Fatalf("dojo%d: %q, want REGISTERED", i, got)
		}
		dojo = append(dojo, u)
	}
	u1 := udpFrom(t, "127.0.0.31", udp)
	u1.send("REGISTER;u1")
	u1.await("REGISTERED")
	// No person takes the name of a bot registered, nor one like it.
	eve, _ := dial(t, addr, newKey(t))
	for _, name := range []string{"u1", "U1"} {
		if out, code := command(t, eve, "name "+name); code != 1 || !strings.Contains(out, "Mäxchen bot") {
			t.Errorf("a person takes the name %s beside the bot u1: %d %s", name, code, out)
		}
	}

	// Bans over SSH: the name, then the address; each bot is dropped.
	out, code := command(t, c, "ban maexchen:u1")
	if code != 0 || !strings.Contains(out, "Banned the Mäxchen bot u1") {
		t.Fatalf("ban maexchen:u1: %d %s", code, out)
	}
	u1.await("REJECTED;BANNED")
	if out, code := command(t, c, "ban udp:127.0.0.30"); code != 0 || !strings.Contains(out, "Banned the UDP address 127.0.0.30") {
		t.Fatalf("ban udp:127.0.0.30: %d %s", code, out)
	}
	for _, u := range dojo {
		u.await("REJECTED;BANNED")
	}
	if out, code := command(t, c, "ban"); code != 0 || !strings.Contains(out, "maexchen:u1") || !strings.Contains(out, "udp:127.0.0.30") {
		t.Fatalf("ban: %d %s", code, out)
	}
	if out, code := command(t, c, "ban udp:nowhere"); code != 1 || !strings.Contains(out, "not an address") {
		t.Errorf("ban udp:nowhere: %d %s", code, out)
	}
	if out, code := command(t, c, "unban maexchen:u1"); code != 0 || !strings.Contains(out, "The Mäxchen bot u1 may register again") {
		t.Fatalf("unban: %d %s", code, out)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		u1.send("REGISTER;u1")
		if u1.await("RE") == "REGISTERED" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("u1 still refused after unban")
		}
		time.Sleep(200 * time.Millisecond)
	}
	u1.send("UNREGISTER")

	// Two bots play a round and leave: their names are held for 127.0.0.1.
	heard := make(chan string, 1024)
	errs := make(chan error, 2)
	for _, name := range []string{"alpha", "beta"} {
		go func() { errs <- udpBot(udp, name, 1, heard) }()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	// (The round's end is stored a moment after the bots heard it.)
	waitUntil(t, 10*time.Second, "alpha's and beta's names held", func() bool {
		out, code := command(t, c, "maexchen names --json")
		var names struct {
			Names []struct{ Name, Addr string } `json:"names"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &names) != nil {
			t.Fatalf("maexchen names --json: %d %s", code, out)
		}
		held := 0
		for _, n := range names.Names {
			if (n.Name == "alpha" || n.Name == "beta") && n.Addr == "127.0.0.1" {
				held++
			}
		}
		return held == 2
	})
	if out, code := command(t, c, "maexchen names"); code != 0 || !strings.Contains(out, "NAME") || !strings.Contains(out, "alpha") {
		t.Fatalf("maexchen names: %d %s", code, out)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}

	logs, stop = runInProcess(t, env, args...)
	addr, _ = logs.address(t)
	udp, _ = logs.line(t, "Mäxchen gateway listening")["udp"].(string)
	c, _ = dial(t, addr, admin)
	var tables struct {
		Tables []struct {
			Name string `json:"name"`
			Host string `json:"host"`
		} `json:"tables"`
	}
	out, _ = command(t, c, "tables --json")
	if err := json.Unmarshal([]byte(out), &tables); err != nil {
		t.Fatalf("tables --json: %v\n%s", err, out)
	}
	if len(tables.Tables) != 1 || tables.Tables[0].Name != "maexchen" || tables.Tables[0].Host != "maexchen" {
		t.Errorf("after a restart, tables: %s", out)
	}
	squatter := udpFrom(t, "127.0.0.32", udp)
	squatter.send("REGISTER;alpha")
	squatter.await("REJECTED;NAME_ALREADY_TAKEN")
	squatter.send("REGISTER;ALPHA")
	squatter.await("REJECTED;NAME_ALREADY_TAKEN")
	// The held names, across the restart, are no person's to take either.
	eve, _ = dial(t, addr, newKey(t))
	if out, code := command(t, eve, "name Alpha"); code != 1 || !strings.Contains(out, "Mäxchen bot") {
		t.Errorf("a person takes the name Alpha beside the held alpha: %d %s", code, out)
	}
	if out, code := command(t, c, "maexchen free alpha"); code != 0 || !strings.Contains(out, "Freed the name alpha") {
		t.Fatalf("maexchen free alpha: %d %s", code, out)
	}
	squatter.send("REGISTER;alpha")
	squatter.await("REGISTERED")
	other := udpFrom(t, "127.0.0.33", udp)
	other.send("REGISTER;beta")
	other.await("REJECTED;NAME_ALREADY_TAKEN")
	if out, code := command(t, c, "maexchen free nobody"); code != 1 || !strings.Contains(out, "no address holds the name nobody") {
		t.Errorf("maexchen free nobody: %d %s", code, out)
	}
	// Freed, a held name is a person's to take; then no bot's.
	if out, code := command(t, c, "maexchen free beta"); code != 0 {
		t.Fatalf("maexchen free beta: %d %s", code, out)
	}
	if out, code := command(t, eve, "name beta"); code != 0 {
		t.Fatalf("name beta once freed: %d %s", code, out)
	}
	other.send("REGISTER;Beta")
	other.await("REJECTED;NAME_ALREADY_TAKEN")
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

// TestProxyFromFlag: --proxy-from reaches the server: a connection from
// the trusted address without a PROXY header is refused, one from
// elsewhere is not.
func TestProxyFromFlag(t *testing.T) {
	t.Parallel()
	logs, stop := runInProcess(t, map[string]string{"MIA_DATA": filepath.Join(t.TempDir(), "data"), "MIA_LOG_FORMAT": "json",
		"MIA_PROXY_FROM": "127.0.0.2"}, "--addr", "127.0.0.1:0")
	addr, _ := logs.address(t)
	d := net.Dialer{Timeout: 5 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}
	nc, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	_ = nc.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := nc.Write([]byte("SSH-2.0-direct\r\n")); err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(nc)
	nc.Close()
	if !strings.Contains(string(got), "PROXY header") {
		t.Errorf("a headerless connection from the trusted address read %q", got)
	}
	c, _ := dial(t, addr, newKey(t))
	if out, code := command(t, c, "whoami"); code != 0 {
		t.Errorf("whoami from 127.0.0.1: %d %s", code, out)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

// TestMaexchenEventDoor runs the gateway as the door of an event (mia
// --maexchen-event): while the competition night runs, the UDP bots that
// play rounds at the gateway's table are its entrants, each of their
// rounds counts in its standings as a game of its own would, with the
// Mäxchen points beside; the rounds played before it started count
// nothing.
func TestMaexchenEventDoor(t *testing.T) {
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
		done <- run(ctx, []string{"--addr", "127.0.0.1:0", "--maexchen-timeout", "2s", "--maexchen-event", "night"}, env, io.Discard, logs)
	}()
	addr, _ := logs.address(t)
	gw := logs.line(t, "Mäxchen gateway listening")
	udp, _ := gw["udp"].(string)
	c, _ := dial(t, addr, newKey(t))
	if out, code := command(t, c, "name hostess"); code != 0 {
		t.Fatalf("name: %d %s", code, out)
	}
	heard := make(chan string, 4096)
	play := func(rounds int, names ...string) {
		t.Helper()
		errs := make(chan error, len(names))
		for _, n := range names {
			go func() { errs <- udpBot(udp, n, rounds, heard) }()
		}
		for range names {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
	}
	play(1, "early", "bird") // before the event: nothing counts
	if out, code := command(t, c, "event create night --night --bots 2 --seats 2 --lasts 10m"); code != 0 {
		t.Fatalf("create: %d %s", code, out)
	}
	if out, code := command(t, c, "event start night"); code != 0 {
		t.Fatalf("start: %d %s", code, out)
	}
	play(3, "alpha", "beta")
	var doc struct {
		Event struct {
			Door      string `json:"door"`
			DoorGames int    `json:"door_games"`
		} `json:"event"`
		Standings []struct {
			Person   string `json:"person"`
			Points   int    `json:"points"`
			Games    int    `json:"games"`
			Where    string `json:"where"`
			Maexchen *int   `json:"maexchen"`
		} `json:"standings"`
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		out, code := command(t, c, "event night --json")
		if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil {
			t.Fatalf("event --json: %d %v %s", code, err, out)
		}
		games := 0
		for _, s := range doc.Standings {
			if s.Person == "maexchen:alpha" {
				games = s.Games
			}
		}
		if doc.Event.DoorGames >= 3 && games == doc.Event.DoorGames {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d rounds at the door counted, alpha has %d games:\n%s", doc.Event.DoorGames, games, out)
		}
		time.Sleep(50 * time.Millisecond) // polls the server, as a client would
	}
	if doc.Event.Door != "maexchen" {
		t.Errorf("the door: %q", doc.Event.Door)
	}
	// The recount: the rounds alpha and beta played (after the start), in
	// the order they ended, from the door table's history.
	out, code := command(t, c, "history --table maexchen --player alpha --json")
	var hist struct {
		Games []struct {
			ID      string `json:"id"`
			Players []struct {
				Person string `json:"fingerprint"`
				Place  int    `json:"place"`
			} `json:"players"`
			Standings []int `json:"standings"`
		} `json:"games"`
	}
	if err := json.Unmarshal([]byte(out), &hist); code != 0 || err != nil {
		t.Fatalf("history: %d %v %s", code, err, out)
	}
	if len(hist.Games) != doc.Event.DoorGames {
		t.Fatalf("%d rounds of alpha in history, %d counted at the door", len(hist.Games), doc.Event.DoorGames)
	}
	points, games, mx, streak := map[string]int{}, map[string]int{}, map[string]int{}, map[string]int{}
	for i := len(hist.Games) - 1; i >= 0; i-- { // newest first: the oldest first here
		g := hist.Games[i]
		for place, seat := range g.Standings {
			id := g.Players[seat].Person
			p := len(g.Standings) - 1 - place
			if place == 0 {
				if streak[id] >= 2 {
					p *= 2
				}
				streak[id]++
			} else {
				streak[id] = 0
			}
			points[id] += p
			games[id]++
			mx[id]++
			if place == len(g.Standings)-1 {
				mx[id]--
			}
		}
	}
	found := 0
	for _, s := range doc.Standings {
		switch s.Person {
		case "maexchen:early", "maexchen:bird":
			t.Errorf("%s entered from a round before the event", s.Person)
		case "maexchen:alpha", "maexchen:beta":
			found++
			if s.Where != "door" || s.Maexchen == nil || *s.Maexchen != mx[s.Person] || s.Games != games[s.Person] {
				t.Errorf("%s: %+v; want %d games, %d Mäxchen points", s.Person, s, games[s.Person], mx[s.Person])
			}
			if s.Points != points[s.Person] {
				t.Errorf("%s has %d points; its games at the door give %d", s.Person, s.Points, points[s.Person])
			}
		}
	}
	if found != 2 {
		t.Fatalf("the door's bots in the standings: %d of 2: %+v", found, doc.Standings)
	}
	out, _ = command(t, c, "event night")
	if !strings.Contains(out, "MÄXCHEN") || !strings.Contains(out, "at the Mäxchen gateway's maexchen") {
		t.Errorf("event night does not show the door:\n%s", out)
	}
	stopRun(t, cancel, done)
}
