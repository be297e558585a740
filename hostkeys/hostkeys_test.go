package hostkeys

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

func TestCreateThenReuse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", "host_ed25519")

	first, err := LoadOrCreate(path)
	if err != nil {
		t.Fatalf("first start: %v", err)
	}
	if !first.Created {
		t.Error("first start: Created = false, want true")
	}
	if got := first.Signer.PublicKey().Type(); got != gossh.KeyAlgoED25519 {
		t.Errorf("key type = %s, want %s", got, gossh.KeyAlgoED25519)
	}
	if !strings.HasPrefix(first.Fingerprint, "SHA256:") {
		t.Errorf("fingerprint %q does not start with SHA256:", first.Fingerprint)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := st.Mode().Perm(); perm != 0o600 {
		t.Errorf("key file mode = %04o, want 0600", perm)
	}
	dst, err := os.Stat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if perm := dst.Mode().Perm(); perm != 0o700 {
		t.Errorf("created folder mode = %04o, want 0700", perm)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "-----BEGIN OPENSSH PRIVATE KEY-----") {
		t.Errorf("key file is not in OpenSSH format:\n%s", data)
	}

	second, err := LoadOrCreate(path)
	if err != nil {
		t.Fatalf("second start: %v", err)
	}
	if second.Created {
		t.Error("second start: Created = true, want false")
	}
	if second.Fingerprint != first.Fingerprint {
		t.Errorf("fingerprint changed across starts: %s then %s", first.Fingerprint, second.Fingerprint)
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("folder holds %d files, want only the key (temporary file left behind?)", len(entries))
	}
}

func TestConcurrentFirstStart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "host_ed25519")
	const n = 8
	fps := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k, err := LoadOrCreate(path)
			fps[i], errs[i] = k.Fingerprint, err
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("caller %d: %v", i, errs[i])
		}
		if fps[i] != fps[0] {
			t.Fatalf("callers got different keys: %s and %s", fps[0], fps[i])
		}
	}
}

func TestRefused(t *testing.T) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	good := pem.EncodeToMemory(block)
	encBlock, err := gossh.MarshalPrivateKeyWithPassphrase(priv, "", []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	pub, err := gossh.NewPublicKey(priv.Public())
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name    string
		data    []byte
		mode    os.FileMode
		wantErr error
		wantMsg string
	}{
		{"group readable", good, 0o640, ErrPermissions, "chmod 600"},
		{"world readable", good, 0o604, ErrPermissions, "0604"},
		{"group writable", good, 0o620, ErrPermissions, "chmod 600"},
		{"garbage", []byte("hello, world\n"), 0o600, ErrFormat, "not an unencrypted SSH private key"},
		{"empty", nil, 0o600, ErrFormat, ""},
		{"public key", gossh.MarshalAuthorizedKey(pub), 0o600, ErrFormat, ""},
		{"truncated", good[:len(good)/2], 0o600, ErrFormat, ""},
		{"passphrase", pem.EncodeToMemory(encBlock), 0o600, ErrFormat, "passphrase"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "host_ed25519")
			if err := os.WriteFile(path, tt.data, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, tt.mode); err != nil {
				t.Fatal(err)
			}
			_, err := LoadOrCreate(path)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("LoadOrCreate = %v, want %v", err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error %q should name the file and say %q", err, tt.wantMsg)
			}
			after, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(after) != string(tt.data) {
				t.Error("a refused key file was modified")
			}
		})
	}
}

func TestDirectoryRefused(t *testing.T) {
	path := t.TempDir()
	if err := os.Chmod(path, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOrCreate(path); !errors.Is(err, ErrFormat) {
		t.Fatalf("LoadOrCreate(folder) = %v, want ErrFormat", err)
	}
}

func TestLoadMissing(t *testing.T) {
	if _, err := Load(filepath.Join(t.TempDir(), "nope")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Load(missing) = %v, want ErrNotExist", err)
	}
}
