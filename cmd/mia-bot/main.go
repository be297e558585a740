// Command mia-bot is an example bot for the Mia server: it connects over
// SSH, runs `bot TABLE` and plays the bot line protocol (PROTOCOL.md §2)
// with a simple odds-based strategy. Copy it as the start of your own bot:
// main.go is the plumbing (SSH, the name, reading and writing lines),
// strategy.go the play.
//
//	ssh-keygen -t ed25519 -N '' -f bot_key     # the bot's identity
//	go run ./cmd/mia-bot -key bot_key -host localhost -table arena -name robo
//
// The key is the bot's identity, as for any player; -name sets its
// display name on the first run (the server refuses a nameless bot). The
// server's host key is checked against -known-hosts (default
// ~/.ssh/known_hosts); an unknown host is trusted on first use and added
// to it, a changed key is refused. -insecure skips the check (tests only).
//
// Without -table the server seats the bot at the first public table
// waiting for players. -games N stops after N games; -v prints every line.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"
)

// options are the command line.
type options struct {
	key, host, table, event, name, knownHosts string
	port, games                               int
	insecure, verbose                         bool
}

func main() {
	var o options
	flag.StringVar(&o.key, "key", "", "the bot's private key file (OpenSSH format, no passphrase)")
	flag.StringVar(&o.host, "host", "localhost", "the server")
	flag.IntVar(&o.port, "port", 23234, "the server's port")
	flag.StringVar(&o.table, "table", "", "the table to sit at (default: the first public table waiting)")
	flag.StringVar(&o.event, "event", "", "an event to enter and play through (bot --event NAME), in place of a table")
	flag.StringVar(&o.name, "name", "", "the bot's display name, set on the first run")
	flag.StringVar(&o.knownHosts, "known-hosts", "", "known_hosts file (default ~/.ssh/known_hosts)")
	flag.BoolVar(&o.insecure, "insecure", false, "do not check the server's host key (tests only)")
	flag.IntVar(&o.games, "games", 0, "stop after this many games (0: play on)")
	flag.BoolVar(&o.verbose, "v", false, "print every line sent and received")
	flag.Parse()
	if o.key == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, o, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "mia-bot:", err)
		os.Exit(1)
	}
}

// run connects, makes sure the bot has a name, and plays.
func run(ctx context.Context, o options, logw io.Writer) error {
	lg := log.New(logw, "mia-bot: ", log.Ltime)
	client, err := dial(o)
	if err != nil {
		return err
	}
	defer client.Close()
	go func() { <-ctx.Done(); client.Close() }()
	if err := ensureName(client, o.name, lg); err != nil {
		return err
	}
	return play(client, o, lg)
}

func dial(o options) (*ssh.Client, error) {
	pem, err := os.ReadFile(o.key)
	if err != nil {
		return nil, fmt.Errorf("read key: %w", err)
	}
	signer, err := ssh.ParsePrivateKey(pem)
	if err != nil {
		return nil, fmt.Errorf("key %s: %w (a bot's key has no passphrase)", o.key, err)
	}
	check := ssh.InsecureIgnoreHostKey()
	if !o.insecure {
		if check, err = trustOnFirstUse(o.knownHosts); err != nil {
			return nil, err
		}
	}
	cfg := &ssh.ClientConfig{User: "bot", Auth: []ssh.AuthMethod{ssh.PublicKeys(signer)},
		HostKeyCallback: check, Timeout: 10 * time.Second}
	addr := net.JoinHostPort(o.host, strconv.Itoa(o.port))
	c, err := ssh.Dial("tcp", addr, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", addr, err)
	}
	return c, nil
}

// command runs one server command and returns its output.
func command(c *ssh.Client, cmd string) (string, error) {
	s, err := c.NewSession()
	if err != nil {
		return "", fmt.Errorf("%s: %w", cmd, err)
	}
	defer s.Close()
	var out, errb strings.Builder
	s.Stdout, s.Stderr = &out, &errb
	if err := s.Run(cmd); err != nil {
		return "", fmt.Errorf("%s: %w: %s", cmd, err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

// ensureName gives the key a display name if it has none yet.
func ensureName(c *ssh.Client, name string, lg *log.Logger) error {
	out, err := command(c, "whoami --json")
	if err != nil {
		return err
	}
	var me struct{ Name string }
	if err := json.Unmarshal([]byte(out), &me); err != nil {
		return fmt.Errorf("whoami: %w", err)
	}
	switch {
	case me.Name != "":
		if name != "" && name != me.Name {
			lg.Printf("this key is %s already (not renamed to %s)", me.Name, name)
		}
		return nil
	case name == "":
		return errors.New("this key has no name yet: give one with -name")
	}
	if _, err := command(c, "name "+name); err != nil {
		return err
	}
	lg.Printf("named %s", name)
	return nil
}

// play runs `bot TABLE` and answers every prompt until the server ends
// the session or -games games are over.
func play(c *ssh.Client, o options, lg *log.Logger) error {
	s, err := c.NewSession()
	if err != nil {
		return fmt.Errorf("session: %w", err)
	}
	defer s.Close()
	in, err := s.StdinPipe()
	if err != nil {
		return err
	}
	out, err := s.StdoutPipe()
	if err != nil {
		return err
	}
	s.Stderr = os.Stderr
	line := strings.TrimSpace("bot " + o.table)
	if o.event != "" {
		line = "bot --event " + o.event
	}
	if err := s.Start(line); err != nil {
		return fmt.Errorf("bot: %w", err)
	}
	p := &player{rng: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))}
	games := 0
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		line := sc.Text()
		if o.verbose {
			lg.Printf("< %s", line)
		}
		f := strings.Split(line, ";")
		switch f[0] {
		case "ERROR":
			lg.Printf("server: %s", line)
		case "JOINED":
			lg.Printf("seated at %s", f[1])
		case "EVENT OVER":
			lg.Printf("event %s over: place %s, %s points", f[1], f[2], f[3])
		case "GAME OVER":
			games++
			lg.Printf("game %s won by %s", f[2], f[1])
			if o.games > 0 && games >= o.games {
				return hangUp(s, in)
			}
		}
		if a := p.answer(f); a != "" {
			if o.verbose {
				lg.Printf("> %s", a)
			}
			if _, err := io.WriteString(in, a+"\n"); err != nil {
				return fmt.Errorf("send: %w", err)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read: %w", err)
	}
	if err := s.Wait(); err != nil {
		return fmt.Errorf("the server ended the bot: %w", err)
	}
	return nil
}

// hangUp closes the bot's input, which gives its seat back, and waits for
// the server to be done with it.
func hangUp(s *ssh.Session, in io.Closer) error {
	in.Close()
	done := make(chan error, 1)
	go func() { done <- s.Wait() }()
	select {
	case err := <-done:
		var ee *ssh.ExitError
		if err != nil && !errors.As(err, &ee) {
			return fmt.Errorf("hang up: %w", err)
		}
	case <-time.After(10 * time.Second):
	}
	return nil
}
