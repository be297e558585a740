package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// trustOnFirstUse checks the server's host key against a known_hosts file
// (default ~/.ssh/known_hosts) like `ssh -o StrictHostKeyChecking=accept-new`:
// an unknown host is added, a known host with another key is refused.
func trustOnFirstUse(path string) (ssh.HostKeyCallback, error) {
	if path == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, fmt.Errorf("known hosts: %w", err)
		}
		path = filepath.Join(home, ".ssh", "known_hosts")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("known hosts: %w", err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("known hosts: %w", err)
	}
	f.Close()
	known, err := knownhosts.New(path)
	if err != nil {
		return nil, fmt.Errorf("known hosts %s: %w", path, err)
	}
	return func(host string, remote net.Addr, key ssh.PublicKey) error {
		err := known(host, remote, key)
		var ke *knownhosts.KeyError
		if !errors.As(err, &ke) || len(ke.Want) > 0 {
			return err // nil (known), or a changed key: refused
		}
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			return fmt.Errorf("known hosts: %w", err)
		}
		defer f.Close()
		line := knownhosts.Line([]string{knownhosts.Normalize(host)}, key)
		if _, err := fmt.Fprintln(f, line); err != nil {
			return fmt.Errorf("known hosts: %w", err)
		}
		fmt.Fprintf(os.Stderr, "mia-bot: added %s to %s (%s)\n", knownhosts.Normalize(host), path, ssh.FingerprintSHA256(key))
		return nil
	}, nil
}
