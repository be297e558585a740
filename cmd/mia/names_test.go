package main

import (
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// TestNamesAtEveryDoor tries names that impersonate at every door that
// names a person or a table, on the whole server with its gateway: the
// name command (which names the bots of the line protocol too: a bot
// plays as its key's person), the screen's name prompt, the Mäxchen
// gateway's REGISTER, and a table's name at table create and the
// screen's create-table form. Each door answers by the one rule: the
// reserved words, a name that passes for a built-in bot, and names that
// look like one taken, separators and digits for letters aside. A key
// joining a person (keys join) takes that person's name: no door of its
// own.
func TestNamesAtEveryDoor(t *testing.T) {
	t.Parallel()
	// A door tries a name on a server of its own (where carol and the
	// table pub1 are taken, and nothing a door let in before counts
	// against another); it says whether it took it and what it said.
	type door struct {
		name string
		try  func(t *testing.T, s *namesServer, name string) (took bool, said string)
	}
	nameCommand := door{"name command", func(t *testing.T, s *namesServer, name string) (bool, string) {
		c, _ := dial(t, s.addr, newKey(t))
		out, code := command(t, c, "name "+name)
		return code == 0, out
	}}
	namePrompt := door{"name prompt", func(t *testing.T, s *namesServer, name string) (bool, string) {
		c, _ := dial(t, s.addr, newKey(t))
		sc := typeOnScreen(t, c)
		sc.await(t, "Choose a display name")
		sc.typeKeys(t, name+"\r")
		said := sc.await(t, "choose another", "you are "+name)
		return strings.Contains(said, "you are "+name), said
	}}
	gateway := door{"gateway", func(t *testing.T, s *namesServer, name string) (bool, string) {
		u := udpFrom(t, "127.0.0.1", s.udp)
		u.send("REGISTER;" + name)
		got := u.await("RE")
		if got == "REGISTERED" {
			u.send("UNREGISTER")
		}
		return got == "REGISTERED", got
	}}
	tableCommand := door{"table create", func(t *testing.T, s *namesServer, name string) (bool, string) {
		out, code := command(t, s.host, "table create "+name)
		return code == 0, out
	}}
	tableForm := door{"create-table form", func(t *testing.T, s *namesServer, name string) (bool, string) {
		sc := typeOnScreen(t, s.host)
		sc.await(t, "mia lobby")
		sc.typeKeys(t, "n")
		sc.await(t, "Preset")
		sc.typeKeys(t, "\x15"+name+"\r") // ctrl+u clears the name suggested
		said := sc.await(t, "open already", "looks like", "mia "+name+" · ")
		return strings.Contains(said, "mia "+name+" · "), said
	}}

	const (
		reservedSays = "keeps for itself"
		gatewaySays  = "the name of the server's Mäxchen gateway"
		builtinSays  = "the name of a built-in bot"
		botSays      = "reads as a bot's name"
		takenSays    = "looks too much like one that is"
		tableSays    = "looks like pub1, which is taken"
		rejected     = "REJECTED;NAME_ALREADY_TAKEN"
	)
	type name struct {
		name string
		says map[string]string // by door ("" for the others): what the refusal says; "" takes the name
	}
	people := []name{
		{"admin", map[string]string{"": reservedSays, "gateway": rejected}},
		{"SYSTEM", map[string]string{"": reservedSays, "gateway": rejected}},
		{"server", map[string]string{"": reservedSays, "gateway": rejected}},
		{"root_", map[string]string{"": reservedSays, "gateway": rejected}},
		{"r00t", map[string]string{"": reservedSays, "gateway": rejected}},
		{"m4exchen", map[string]string{"": gatewaySays, "gateway": rejected}},
		{"ada_bot", map[string]string{"": botSays, "gateway": rejected}},
		{"ada.bot", map[string]string{"": botSays, "gateway": rejected}},
		{"ada_", map[string]string{"": builtinSays, "gateway": rejected}},
		{"c.a.r.o.l", map[string]string{"": takenSays, "gateway": rejected}},
		{"Car0l_", map[string]string{"": takenSays, "gateway": rejected}},
		// Only a person may not say they are a bot; a Mäxchen bot is one.
		{"my_bot", map[string]string{"": botSays, "gateway": ""}},
		{"dave", map[string]string{"": ""}}, // a name of one's own
	}
	tables := []name{
		{"pub_1", map[string]string{"": tableSays}},
		{"pub1.", map[string]string{"": tableSays}},
		{"PUB-1", map[string]string{"": tableSays}},
		{"pub2", map[string]string{"": ""}},
	}
	for _, c := range []struct {
		doors []door
		names []name
	}{
		{[]door{nameCommand, namePrompt, gateway}, people},
		{[]door{tableCommand, tableForm}, tables},
	} {
		for _, d := range c.doors {
			t.Run(d.name, func(t *testing.T) {
				t.Parallel()
				s := startNamesServer(t)
				for _, n := range c.names {
					t.Run(n.name, func(t *testing.T) {
						want, ok := n.says[d.name]
						if !ok {
							want = n.says[""]
						}
						took, said := d.try(t, s, n.name)
						switch {
						case want == "" && !took:
							t.Errorf("%s refused %s: %s", d.name, n.name, said)
						case want != "" && (took || !strings.Contains(said, want)):
							t.Errorf("%s answered %s with %q, want a refusal saying %q", d.name, n.name, said, want)
						}
					})
				}
			})
		}
	}
}

// namesServer is the whole server with its gateway, where carol (host)
// hosts the table pub1.
type namesServer struct {
	addr, udp string
	host      *gossh.Client
}

func startNamesServer(t *testing.T) *namesServer {
	t.Helper()
	env := map[string]string{"MIA_DATA": filepath.Join(t.TempDir(), "data"), "MIA_LOG_FORMAT": "json", "MIA_MAEXCHEN_UDP": "127.0.0.1:0"}
	logs, stop := runInProcess(t, env, "--addr", "127.0.0.1:0")
	s := &namesServer{}
	s.addr, _ = logs.address(t)
	s.udp, _ = logs.line(t, "Mäxchen gateway listening")["udp"].(string)
	s.host, _ = dial(t, s.addr, newKey(t))
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("run: %v", err)
		}
	})
	for _, cmd := range []string{"name carol", "table create pub1"} {
		if out, code := command(t, s.host, cmd); code != 0 {
			t.Fatalf("%s: %d %s", cmd, code, out)
		}
	}
	return s
}

func (s *screen) typeKeys(t *testing.T, keys string) {
	t.Helper()
	s.from = len(s.out.String()) // what comes next answers these keys
	if _, err := io.WriteString(s.in, keys); err != nil {
		t.Fatal(err)
	}
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]`)

// await waits until the screen, since the keys typed last, its escapes
// dropped, shows one of texts, and returns what it shows (with the lines
// joined, a sentence wrapped whole again), within 20 s.
func (s *screen) await(t *testing.T, texts ...string) string {
	t.Helper()
	changed := s.out.changed()
	timeout := time.After(20 * time.Second)
	for {
		shown := strings.Join(strings.Fields(ansi.ReplaceAllString(s.out.String()[s.from:], "")), " ")
		for _, text := range texts {
			if strings.Contains(shown, text) {
				return shown
			}
		}
		select {
		case <-changed:
		case <-timeout:
			t.Fatalf("the screen never showed %q; it shows:\n%s", texts, shown)
			return ""
		}
	}
}
