package tui

import (
	"io"
	"strings"
	"sync"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/textinput"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Styles holds every style of the screens. It is built once per session
// from the session's renderer, so colours follow that client's terminal
// (and its NO_COLOR, through an Ascii colour profile), and no style is made
// while drawing a frame.
type Styles struct {
	Title     lipgloss.Style // the top bar's name
	TitleBar  lipgloss.Style // the rest of the top bar
	Header    lipgloss.Style // section and column headers
	Subtle    lipgloss.Style // hints and secondary text
	Dim       lipgloss.Style // players who are out, empty seats
	Bold      lipgloss.Style
	Error     lipgloss.Style // refused requests
	Info      lipgloss.Style // neutral status lines
	Accent    lipgloss.Style // the claim, the winner
	Turn      lipgloss.Style // the seat whose turn it is
	Selected  lipgloss.Style // the selected row of a list
	Heart     lipgloss.Style // a life left
	HeartLost lipgloss.Style // a life lost
	Die       lipgloss.Style // a die face
	Cup       lipgloss.Style // the closed cup
	ChatName  lipgloss.Style // the speaker of a chat line
	Notice    lipgloss.Style // a notice from the server
	Center    lipgloss.Style // the "window too small" message

	Help  help.Styles
	r     *lipgloss.Renderer
	input textinput.Model // a text input styled for this session, copied by newInput
	help  help.Model      // a help view styled for this session, copied by newHelp
	// placed keeps the last screens centred (centred): nil, none kept.
	placed *placedCache
}

// placedCache is what Styles.centred keeps: the screens centred in a
// window, by window and text, shared by the sessions of those styles.
type placedCache struct {
	mu sync.Mutex
	m  map[placedKey]string
}

type placedKey struct {
	w, h int
	text string
}

// maxPlaced bounds placedCache; when full it is emptied.
const maxPlaced = 32

// centred is text in the middle of a window of w×h (lipgloss's Place).
// A screen every newcomer sees alike (the name prompt) is centred once
// for them all: centring it was a twentieth of a connection's CPU.
func (s *Styles) centred(w, h int, text string) string {
	if s.placed == nil {
		return s.r.Place(w, h, lipgloss.Center, lipgloss.Center, text)
	}
	k := placedKey{w, h, text}
	c := s.placed
	c.mu.Lock()
	v, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = s.r.Place(w, h, lipgloss.Center, lipgloss.Center, text)
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= maxPlaced {
		clear(c.m)
	}
	c.m[k] = v
	return v
}

// NewStyles builds the styles of one session from its renderer. A nil
// renderer gets lipgloss's default renderer (tests and tools only: a
// session must pass its own).
func NewStyles(r *lipgloss.Renderer) *Styles {
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	c := func(light, dark string) lipgloss.AdaptiveColor {
		return lipgloss.AdaptiveColor{Light: light, Dark: dark}
	}
	subtle := c("#8A8A8A", "#7A7A7A")
	accent := c("#B8860B", "#F2C94C")
	red := c("#C0392B", "#FF6B6B")
	green := c("#1E8449", "#6BCB77")
	s := &Styles{
		placed:    &placedCache{m: make(map[placedKey]string)},
		r:         r,
		Title:     r.NewStyle().Bold(true).Foreground(c("#FFFFFF", "#1B1B1B")).Background(c("#8E44AD", "#C39BD3")).Padding(0, 1),
		TitleBar:  r.NewStyle().Foreground(subtle),
		Header:    r.NewStyle().Bold(true).Foreground(c("#5B2C6F", "#D7BDE2")),
		Subtle:    r.NewStyle().Foreground(subtle),
		Dim:       r.NewStyle().Foreground(c("#B0B0B0", "#555555")),
		Bold:      r.NewStyle().Bold(true),
		Error:     r.NewStyle().Foreground(red),
		Info:      r.NewStyle().Foreground(green),
		Accent:    r.NewStyle().Bold(true).Foreground(accent),
		Turn:      r.NewStyle().Bold(true).Foreground(accent),
		Selected:  r.NewStyle().Bold(true).Foreground(c("#5B2C6F", "#E8DAEF")).Background(c("#E8DAEF", "#4A235A")),
		Heart:     r.NewStyle().Foreground(red),
		HeartLost: r.NewStyle().Foreground(subtle),
		Die:       r.NewStyle().Foreground(c("#1B1B1B", "#F5F5F5")),
		Cup:       r.NewStyle().Foreground(c("#6E2C00", "#D4A373")),
		ChatName:  r.NewStyle().Bold(true).Foreground(c("#1F618D", "#85C1E9")),
		Notice:    r.NewStyle().Italic(true).Foreground(accent),
		Center:    r.NewStyle().Bold(true),
	}
	key := r.NewStyle().Foreground(c("#5B2C6F", "#C39BD3"))
	desc := r.NewStyle().Foreground(subtle)
	sep := r.NewStyle().Foreground(c("#CCCCCC", "#444444"))
	s.Help = help.Styles{
		Ellipsis: sep, ShortKey: key, ShortDesc: desc, ShortSeparator: sep,
		FullKey: key, FullDesc: desc, FullSeparator: sep,
	}
	in := textinput.New()
	in.PromptStyle = r.NewStyle().Foreground(accent)
	in.TextStyle = r.NewStyle()
	in.PlaceholderStyle = r.NewStyle().Foreground(subtle)
	in.CompletionStyle = r.NewStyle().Foreground(subtle)
	in.Cursor.Style = r.NewStyle()
	in.Cursor.TextStyle = r.NewStyle()
	s.input = in
	s.help = help.New()
	s.help.Styles = s.Help
	return s
}

// NewRenderer is the renderer of a session that writes to w, for a
// terminal of type term whose client sent environ (NO_COLOR, COLORTERM,
// COLORFGBG…): its colour profile comes from them (Ascii for no terminal
// type or "dumb"). It asks the terminal nothing, so the screen draws at
// once: the background counts as dark (or as COLORFGBG says) until the
// caller learns otherwise and says so with SetHasDarkBackground (then
// RestyleMsg).
func NewRenderer(w io.Writer, term string, environ []string) *lipgloss.Renderer {
	if term == "" || term == "dumb" {
		return lipgloss.NewRenderer(w, termenv.WithProfile(termenv.Ascii))
	}
	env := clientEnv(append(append([]string(nil), environ...), "TERM="+term))
	return lipgloss.NewRenderer(w, termenv.WithEnvironment(env), termenv.WithUnsafe(), termenv.WithColorCache(true))
}

// clientEnv is a client's environment as termenv reads it; the last of
// a name wins, as TERM given last.
type clientEnv []string

func (e clientEnv) Environ() []string { return e }

func (e clientEnv) Getenv(k string) string {
	v := ""
	for _, kv := range e {
		if name, val, ok := strings.Cut(kv, "="); ok && name == k {
			v = val
		}
	}
	return v
}

// RestyleMsg gives a session the styles it draws with from now on: its
// terminal has said what its background is (see NewRenderer).
type RestyleMsg struct{ Styles *Styles }

// newHelp returns a help view drawn with the session's styles.
func (s *Styles) newHelp() help.Model {
	return s.help
}

// newInput returns a text input drawn with the session's styles. Its
// cursor does not blink: a blink is a redraw twice a second per session.
func (s *Styles) newInput(prompt, placeholder string, limit int) textinput.Model {
	in := s.input
	in.Prompt = prompt
	in.Placeholder = placeholder
	in.CharLimit = limit
	in.Cursor.SetMode(cursor.CursorStatic)
	return in
}

// newInput is a text input of the session (Styles.newInput) whose colours
// follow the session's renderer: a line open when the terminal tells its
// background (RestyleMsg) takes the new colours too.
func (c *common) newInput(prompt, placeholder string, limit int) textinput.Model {
	in := c.s.newInput(prompt, placeholder, limit)
	if r := c.cfg.Renderer; r != nil {
		for _, st := range []*lipgloss.Style{&in.PromptStyle, &in.TextStyle, &in.PlaceholderStyle,
			&in.CompletionStyle, &in.Cursor.Style, &in.Cursor.TextStyle} {
			*st = st.Renderer(r)
		}
	}
	return in
}

// StyleCache shares Styles between sessions whose terminals draw alike.
// A session's styles depend on its renderer only through the renderer's
// colour profile and whether the background is dark; one Styles per such
// pair, built from a renderer of its own with those settings, draws
// exactly what the session's renderer would (rendering a style writes
// nothing to the renderer's output). A Styles is some 20 KB: with
// thousands of sessions, one each was a fifth of the server's heap. The
// zero StyleCache is ready to use; it is safe for concurrent use.
type StyleCache struct {
	mu sync.Mutex
	m  map[styleKey]*Styles
}

type styleKey struct {
	profile termenv.Profile
	dark    bool
}

// For returns the Styles that r would build.
func (c *StyleCache) For(r *lipgloss.Renderer) *Styles {
	k := styleKey{r.ColorProfile(), r.HasDarkBackground()}
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.m[k]; ok {
		return s
	}
	own := lipgloss.NewRenderer(io.Discard)
	own.SetColorProfile(k.profile)
	own.SetHasDarkBackground(k.dark)
	s := NewStyles(own)
	if c.m == nil {
		c.m = make(map[styleKey]*Styles)
	}
	c.m[k] = s
	return s
}
