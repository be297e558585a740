package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/mia-game/mia/engine"
)

// The pages' templates and the assets (style, scripts, icon), in the
// binary: no build step, nothing fetched from elsewhere.
//
//go:embed templates/*.html
var templateFS embed.FS

//go:embed assets/*
var assetFS embed.FS

// pageNames are the pages, each a template of templates/NAME.html that
// defines "main" inside the layout of base.html.
var pageNames = []string{"lobby", "table", "game", "player", "leaderboard", "notfound", "message", "events", "event"}

// templates are the parsed pages by name, and "live": a table's fragment.
type templates map[string]*template.Template

func parsePages() (templates, error) {
	base, err := template.New("base.html").Funcs(funcs).ParseFS(templateFS, "templates/base.html", "templates/live.html",
		"templates/svg.html", "templates/eventlive.html")
	if err != nil {
		return nil, err
	}
	out := templates{"live": base}
	for _, name := range pageNames {
		t, err := base.Clone()
		if err != nil {
			return nil, err
		}
		if _, err := t.ParseFS(templateFS, "templates/"+name+".html"); err != nil {
			return nil, err
		}
		out[name] = t
	}
	return out, nil
}

// funcs are the templates' helpers.
var funcs = template.FuncMap{
	"asset":    assetURL,
	"add":      func(a, b int) int { return a + b },
	"pips":     pips,
	"die1":     func(v engine.Value) int { hi, _ := v.Dice(); return hi },
	"die2":     func(v engine.Value) int { _, lo := v.Dice(); return lo },
	"diceName": func(v engine.Value) string { return strconv.Itoa(int(v)) },
}

// pips are the centres of a die's pips in a 30×30 square.
func pips(n int) [][2]int {
	const a, m, z = 8, 15, 22
	switch n {
	case 1:
		return [][2]int{{m, m}}
	case 2:
		return [][2]int{{a, a}, {z, z}}
	case 3:
		return [][2]int{{a, a}, {m, m}, {z, z}}
	case 4:
		return [][2]int{{a, a}, {z, a}, {a, z}, {z, z}}
	case 5:
		return [][2]int{{a, a}, {z, a}, {m, m}, {a, z}, {z, z}}
	case 6:
		return [][2]int{{a, a}, {a, m}, {a, z}, {z, a}, {z, m}, {z, z}}
	}
	return nil
}

// asset is one embedded file, served with its type and a long cache life:
// its address carries its hash (assetURL).
type asset struct {
	body  []byte
	ctype string
	hash  string
}

// assets are the embedded files by name.
var assets = func() map[string]asset {
	out := map[string]asset{}
	err := fs.WalkDir(assetFS, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := assetFS.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		ct := mime.TypeByExtension(path.Ext(p))
		switch path.Ext(p) { // not left to the system's MIME table
		case ".js":
			ct = "text/javascript; charset=utf-8"
		case ".css":
			ct = "text/css; charset=utf-8"
		case ".svg":
			ct = "image/svg+xml"
		}
		out[path.Base(p)] = asset{body: b, ctype: ct, hash: hex.EncodeToString(sum[:6])}
		return nil
	})
	if err != nil {
		panic(fmt.Sprintf("web: embedded assets: %v", err))
	}
	return out
}()

// assetURL is the address of an embedded file, with its hash so that a
// browser may keep it as long as it likes.
func assetURL(name string) string {
	return "/assets/" + name + "?v=" + assets[name].hash
}

// serveAsset answers /assets/NAME.
func (s *Server) serveAsset(w http.ResponseWriter, r *http.Request) {
	a, ok := assets[r.PathValue("file")]
	if !ok {
		s.notFound(w, r)
		return
	}
	w.Header().Set("Content-Type", a.ctype)
	w.Header().Set("Cache-Control", "public, max-age=86400")
	w.Header().Set("ETag", `"`+a.hash+`"`)
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, a.hash) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	_, _ = w.Write(a.body)
}

// layout is what every page's frame shows.
type layout struct {
	Title   string
	SSH     string // how to play over SSH, or ""
	Refresh int    // without scripts, reload every this many seconds (0: never)
	Scripts []string
	// Wall lays the page out for a projector: large type, no navigation
	// (an event's wall, ?wall).
	Wall bool
	Main any // the page's own data
}

// render writes page name with status, in answer to r.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, name string, l layout) {
	l.SSH = s.sshHint(r)
	var b bytes.Buffer
	if err := s.pages[name].ExecuteTemplate(&b, "base", l); err != nil {
		s.log.Error("draw a page", "page", name, "err", err)
		s.plain(w, http.StatusInternalServerError, "The page could not be drawn; please try again later.")
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}

// sshHint is how to play over SSH, as the pages say it: "ssh -p 23234
// mia.example.org", at the host the page was asked of unless the
// config names one; "" when the config names no port.
func (s *Server) sshHint(r *http.Request) string {
	if s.cfg.SSHPort == 0 {
		return ""
	}
	host := s.cfg.SSHHost
	if host == "" && r != nil {
		host = r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if !validHost(host) {
			host = "HOST"
		}
	}
	if strings.Contains(host, ":") { // an IPv6 address
		host = "[" + host + "]"
	}
	if s.cfg.SSHPort == 22 {
		return "ssh " + host
	}
	return "ssh -p " + strconv.Itoa(s.cfg.SSHPort) + " " + host
}

// validHost reports whether h may be a host name or address (the Host
// header is the client's to write).
func validHost(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	for _, c := range h {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '-', c == ':', c == '_':
		default:
			return false
		}
	}
	return true
}

// plain answers with a line of text.
func (s *Server) plain(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(text + "\n"))
}
