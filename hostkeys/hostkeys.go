// Package hostkeys loads the server's SSH host key, creating an Ed25519 key
// on first start, and reports its fingerprint.
//
// The key file is an OpenSSH private key ("-----BEGIN OPENSSH PRIVATE
// KEY-----"), unencrypted, readable by its owner only (mode 0600). A file
// that group or others may read or write, a passphrase-protected key or a
// file that is not a private key is refused with an error that says so:
// the server never silently replaces a host key, because every client
// that knows it would then see a "host key changed" warning.
package hostkeys

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	gossh "golang.org/x/crypto/ssh"
)

// ErrPermissions is wrapped by the error for a key file that group or
// others may access.
var ErrPermissions = errors.New("host key file is accessible by group or others")

// ErrFormat is wrapped by the error for a key file that is not an
// unencrypted private key in OpenSSH (or PEM) format.
var ErrFormat = errors.New("host key file is not an unencrypted SSH private key")

// Key is a loaded host key.
type Key struct {
	// Signer signs the SSH handshake.
	Signer gossh.Signer
	// Path is the file the key was read from or written to.
	Path string
	// Fingerprint is the SHA256 fingerprint of the public key, as
	// ssh-keygen -l prints it ("SHA256:…").
	Fingerprint string
	// Created is true when this call generated the key.
	Created bool
}

// LoadOrCreate reads the host key at path, or, if no file exists there,
// generates an Ed25519 key and writes it with mode 0600 (creating missing
// folders with mode 0700).
func LoadOrCreate(path string) (Key, error) {
	k, err := Load(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return k, err
	}
	created, err := create(path)
	if errors.Is(err, fs.ErrExist) {
		// Another process created it between our look and our write.
		return Load(path)
	}
	if err != nil {
		return Key{}, err
	}
	k, err = Load(path)
	if err != nil {
		return Key{}, err
	}
	k.Created = created
	return k, nil
}

// Load reads an existing host key, refusing a file with permissions looser
// than 0600 or in a format other than an unencrypted private key.
func Load(path string) (Key, error) {
	st, err := os.Stat(path)
	if err != nil {
		return Key{}, fmt.Errorf("host key %s: %w", path, err)
	}
	if !st.Mode().IsRegular() {
		return Key{}, fmt.Errorf("host key %s: not a regular file: %w", path, ErrFormat)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return Key{}, fmt.Errorf("host key %s has mode %04o (run chmod 600 %s): %w", path, perm, path, ErrPermissions)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Key{}, fmt.Errorf("host key %s: %w", path, err)
	}
	signer, err := gossh.ParsePrivateKey(data)
	if err != nil {
		var missing *gossh.PassphraseMissingError
		if errors.As(err, &missing) {
			return Key{}, fmt.Errorf("host key %s is protected by a passphrase: %w", path, ErrFormat)
		}
		return Key{}, fmt.Errorf("host key %s: %v: %w", path, err, ErrFormat)
	}
	return Key{
		Signer:      signer,
		Path:        path,
		Fingerprint: gossh.FingerprintSHA256(signer.PublicKey()),
	}, nil
}

// create writes a fresh Ed25519 key to path without ever replacing an
// existing file: it writes a temporary file in the same folder and links it
// into place, which fails with fs.ErrExist if path appeared meanwhile.
func create(path string) (bool, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return false, fmt.Errorf("create host key folder: %w", err)
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return false, fmt.Errorf("generate host key: %w", err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "mia host key")
	if err != nil {
		return false, fmt.Errorf("encode host key: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".host_key-*")
	if err != nil {
		return false, fmt.Errorf("write host key: %w", err)
	}
	defer os.Remove(tmp.Name())
	// CreateTemp makes the file 0600; Chmod again in case the platform's
	// defaults differ.
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return false, fmt.Errorf("write host key: %w", err)
	}
	if _, err := tmp.Write(pem.EncodeToMemory(block)); err != nil {
		tmp.Close()
		return false, fmt.Errorf("write host key: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return false, fmt.Errorf("write host key: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return false, fmt.Errorf("write host key: %w", err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return false, err
		}
		return false, fmt.Errorf("write host key %s: %w", path, err)
	}
	return true, nil
}
