package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// client is one key's SSH connection to the server.
type client struct{ c *gossh.Client }

func newSigner() (gossh.Signer, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	return gossh.NewSignerFromKey(priv)
}

// dial connects with key to the server, whose host key must be the one it
// logged.
func dial(s *server, key gossh.Signer) (*client, error) {
	c, err := gossh.Dial("tcp", s.addr, &gossh.ClientConfig{
		User: "chaos",
		Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: func(_ string, _ net.Addr, k gossh.PublicKey) error {
			if fp := gossh.FingerprintSHA256(k); fp != s.hostFP {
				return fmt.Errorf("host key %s, the server logged %s", fp, s.hostFP)
			}
			return nil
		},
		Timeout: 10 * time.Second,
	})
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	return &client{c: c}, nil
}

func (c *client) close() { c.c.Close() }

// run runs a command and returns its stdout, stderr and exit status.
func (c *client) run(cmd string) (stdout, stderr string, code int, err error) {
	s, err := c.c.NewSession()
	if err != nil {
		return "", "", -1, fmt.Errorf("%s: %w", cmd, err)
	}
	defer s.Close()
	var out, errb bytes.Buffer
	s.Stdout, s.Stderr = &out, &errb
	err = s.Run(cmd)
	var ee *gossh.ExitError
	switch {
	case err == nil:
		return out.String(), errb.String(), 0, nil
	case errors.As(err, &ee):
		return out.String(), errb.String(), ee.ExitStatus(), nil
	}
	return out.String(), errb.String(), -1, fmt.Errorf("%s: %w", cmd, err)
}

// must runs a command that has to succeed.
func (c *client) must(cmd string) (string, error) {
	out, errs, code, err := c.run(cmd)
	if err == nil && code != 0 {
		err = fmt.Errorf("%s: exit %d: %s", cmd, code, errs)
	}
	return out, err
}

// history lists every finished game of a table that the client may see,
// newest first, page after page.
func (c *client) history(table string) ([]string, error) {
	var ids []string
	before := ""
	for {
		cmd := "history --limit 200 --json --table " + table
		if before != "" {
			cmd += " --before " + before
		}
		out, err := c.must(cmd)
		if err != nil {
			return nil, err
		}
		var doc struct {
			Games []struct {
				ID string `json:"id"`
			} `json:"games"`
			Next string `json:"next"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			return nil, fmt.Errorf("history of %s: %w", table, err)
		}
		for _, g := range doc.Games {
			ids = append(ids, g.ID)
		}
		if doc.Next == "" {
			return ids, nil
		}
		before = doc.Next
	}
}

// newest is the newest finished game of a table that the client may see,
// "" if none.
func (c *client) newest(table string) (string, error) {
	out, err := c.must("history --limit 1 --json --table " + table)
	if err != nil {
		return "", err
	}
	var doc struct {
		Games []struct {
			ID string `json:"id"`
		} `json:"games"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		return "", fmt.Errorf("history of %s: %w", table, err)
	}
	if len(doc.Games) == 0 {
		return "", nil
	}
	return doc.Games[0].ID, nil
}
