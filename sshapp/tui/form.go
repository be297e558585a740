package tui

import (
	"context"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
)

// formField is one row of the create-table form.
type formField int

// The rows of the form, top to bottom.
const (
	fieldName formField = iota
	fieldPreset
	fieldSeats
	fieldLives
	fieldRanking
	fieldPass
	fieldEqual
	fieldLowClaim
	fieldMiaReveal
	fieldMiaPenalty
	fieldMiaBoth
	fieldMiaPass
	fieldNextOpener
	fieldEnd
	fieldTurn
	fieldPrivate
	fieldCoach
	fieldCreate
	fieldCount
)

var fieldLabels = [fieldCount]string{
	fieldName: "Name", fieldPreset: "Preset", fieldSeats: "Seats", fieldLives: "Lives", fieldRanking: "Ranking",
	fieldPass: "Pass", fieldEqual: "Equal claims", fieldLowClaim: "Low claim", fieldMiaReveal: "Mia reveal",
	fieldMiaPenalty: "Mia penalty", fieldMiaBoth: "Mia penalty both", fieldMiaPass: "Mia pass",
	fieldNextOpener: "Next opener", fieldEnd: "End",
	fieldTurn: "Turn time", fieldPrivate: "Private", fieldCoach: "Coach", fieldCreate: "",
}

// fieldHints are the few words beside each row: the rules' own
// (words.OptionSays), the name rule's for the name.
var fieldHints = [fieldCount]string{
	fieldName:       lobby.NameHint(),
	fieldPreset:     words.OptionSays("preset").Hint,
	fieldSeats:      words.OptionSays("seats").Hint,
	fieldLives:      words.OptionSays("lives").Hint,
	fieldRanking:    words.OptionSays("ranking").Hint,
	fieldPass:       words.OptionSays("pass").Hint,
	fieldEqual:      words.OptionSays("equal-claims").Hint,
	fieldLowClaim:   words.OptionSays("low-claim").Hint,
	fieldMiaReveal:  words.OptionSays("mia-reveal").Hint,
	fieldMiaPenalty: words.OptionSays("mia-penalty").Hint,
	fieldMiaBoth:    words.OptionSays("mia-penalty-both").Hint,
	fieldMiaPass:    words.OptionSays("mia-pass").Hint,
	fieldNextOpener: words.OptionSays("next-opener").Hint,
	fieldEnd:        words.OptionSays("end").Hint,
	fieldTurn:       words.OptionSays("turn-seconds").Hint,
	fieldPrivate:    "only people you invite see it",
	fieldCoach:      words.CoachHint,
}

// turnSteps are the turn times the form offers, in seconds.
var turnSteps = []int{5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600, 900, 1800, 3600}

// createForm is the create-table form. It creates the table itself, then
// shows it with its host seated.
type createForm struct {
	frame
	name    textinput.Model
	seats   int
	opts    engine.Options
	private bool
	coach   bool
	focus   formField
	err     string
	busy    bool
	left    bool // another screen shows: a late answer shows nothing
	keys    formKeys
}

// createdMsg answers the form's request to create its table.
type createdMsg struct {
	name string
	err  error
}

func newCreateForm(c *common) *createForm {
	in := c.newInput("", "table name", lobby.MaxNameLen)
	in.SetValue(lobby.SuggestTableName(c.myName()))
	f := &createForm{frame: frame{c: c}, name: in, seats: 6, opts: engine.DefaultOptions(), keys: newFormKeys()}
	f.shown = func() help.KeyMap { return f.keys }
	// Keys typed while the table is created wait: for the form again if
	// it is refused, else for the table.
	f.ready = func() bool { return !f.busy }
	f.leaves = func(k tea.KeyMsg) bool { return key.Matches(k, f.keys.Back) }
	f.name.Focus()
	return f
}

// Typing implements Component: the name row is a text input.
func (f *createForm) Typing() bool { return f.focus == fieldName }

// Leave implements Component.
func (f *createForm) Leave() tea.Cmd {
	f.left = true
	return nil
}

// config is the table the form describes.
func (f *createForm) config() lobby.TableConfig {
	return lobby.TableConfig{Name: strings.TrimSpace(f.name.Value()), Rules: f.opts, Seats: f.seats, Private: f.private, Coach: f.coach}
}

func (f *createForm) setFocus(to formField) {
	f.focus = (to + fieldCount) % fieldCount
	if f.focus == fieldName {
		f.name.Focus()
	} else {
		f.name.Blur()
	}
}

// presetChoices are the form's presets: none, then each preset.
var presetChoices = append([]string{""}, engine.PresetNames()...)

// step returns the value one step from cur in dir among vals, round.
func step[T comparable](vals []T, cur T, dir int) T {
	i := 0
	for j, v := range vals {
		if v == cur {
			i = j
		}
	}
	n := len(vals)
	return vals[((i+dir)%n+n)%n]
}

// change moves the focused option one step in dir (+1 or -1). A preset
// puts its rules in place (the turn clock kept); a change on top of it
// leaves the preset unless the rules are still its own.
func (f *createForm) change(dir int) {
	f.changeOption(dir)
	f.opts = words.PresetKept(f.opts)
}

func (f *createForm) changeOption(dir int) {
	o := &f.opts
	switch f.focus {
	case fieldPreset:
		name := step(presetChoices, o.Preset, dir)
		turn := o.TurnSeconds
		if p, err := engine.Preset(name); err == nil {
			*o = p
		} else {
			*o = engine.DefaultOptions()
		}
		o.TurnSeconds = turn
	case fieldLowClaim:
		o.LowClaim = step([]engine.LowClaim{engine.LowClaimRefused, engine.LowClaimLoses}, o.LowClaim, dir)
	case fieldMiaReveal:
		o.MiaReveal = step([]engine.MiaReveal{engine.MiaRevealChallenge, engine.MiaRevealAtOnce}, o.MiaReveal, dir)
		if o.MiaReveal == engine.MiaRevealAtOnce {
			o.MiaPass = engine.MiaPassOff // the engine refuses both
		}
	case fieldMiaPass:
		o.MiaPass = step([]engine.MiaPass{engine.MiaPassOff, engine.MiaPassReroll, engine.MiaPassWins}, o.MiaPass, dir)
		if o.MiaPass != engine.MiaPassOff { // it needs passing, and a Mia looked at when challenged
			o.Pass, o.EqualClaims, o.MiaReveal = true, false, engine.MiaRevealChallenge
		}
	case fieldSeats:
		f.seats = clamp(f.seats+dir, engine.MinSeats, engine.MaxSeats)
	case fieldLives:
		o.Lives = clamp(o.Lives+dir, engine.MinLives, engine.MaxLives)
	case fieldRanking:
		o.Ranking = step(engine.Rankings, o.Ranking, dir)
	case fieldPass:
		o.Pass = !o.Pass
		if o.Pass {
			o.EqualClaims = false
		} else {
			o.MiaPass = engine.MiaPassOff // a Mia is passed only where passing is on
		}
	case fieldEqual:
		o.EqualClaims = !o.EqualClaims
		if o.EqualClaims {
			o.Pass, o.MiaPass = false, engine.MiaPassOff // the engine refuses both
		}
	case fieldMiaPenalty:
		o.MiaPenalty = 3 - o.MiaPenalty // 1 <-> 2
	case fieldMiaBoth:
		o.MiaPenaltyBoth = !o.MiaPenaltyBoth
	case fieldNextOpener:
		o.NextOpener = step([]engine.NextOpener{engine.AfterLoser, engine.Loser, engine.BeforeLoser}, o.NextOpener, dir)
	case fieldEnd:
		o.End = step([]engine.End{engine.LastStanding, engine.FirstOut}, o.End, dir)
	case fieldTurn:
		i := 0
		for j, s := range turnSteps {
			if s <= o.TurnSeconds {
				i = j
			}
		}
		if dir < 0 && turnSteps[i] < o.TurnSeconds {
			i++ // between two steps: the lower one is one step down
		}
		o.TurnSeconds = turnSteps[clamp(i+dir, 0, len(turnSteps)-1)]
	case fieldPrivate:
		f.private = !f.private
	case fieldCoach:
		f.coach = !f.coach
	}
}

// create opens the table the form describes, hosted by the player.
func (f *createForm) create() tea.Cmd {
	l, p, tc := f.c.cfg.Lobby, f.c.cfg.Player, f.config()
	return ask(f, func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		t, err := l.CreateTable(ctx, p, tc)
		if err != nil {
			return createdMsg{err: err}
		}
		return createdMsg{name: t.Name()}
	})
}

// Update implements tea.Model.
func (f *createForm) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case createdMsg:
		f.busy = false
		if f.left {
			return f, nil
		}
		if msg.err != nil {
			f.err = f.c.said("create the table", msg.err)
			return f, f.release(f.key)
		}
		return f, tea.Batch(f.c.nav.goTo(goTo{to: screenTable, table: msg.name, sit: true}), f.handOn())
	case tea.KeyMsg:
		return f, f.take(msg, f.key)
	}
	return f, nil
}

func (f *createForm) key(msg tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(msg, f.keys.Back):
		return f.c.nav.goTo(goTo{to: screenLobby})
	case key.Matches(msg, f.keys.Create):
		if f.busy {
			return nil
		}
		f.err = ""
		f.busy = true
		return f.create()
	case key.Matches(msg, f.keys.Up):
		f.setFocus(f.focus - 1)
		return nil
	case key.Matches(msg, f.keys.Down):
		f.setFocus(f.focus + 1)
		return nil
	}
	if f.focus == fieldName {
		if msg.Type == tea.KeyRunes && lobby.Overflows(f.name.Value(), len(msg.Runes)) {
			// said by the name rule, not cut without a word
			if err := lobby.CheckTableName(f.name.Value() + string(msg.Runes)); err != nil {
				f.err = f.c.said("check the name", err)
			}
			return nil
		}
		before := f.name.Value()
		var cmd tea.Cmd
		f.name, cmd = f.name.Update(msg)
		if f.name.Value() != before {
			f.err = ""
		}
		return cmd
	}
	switch {
	case key.Matches(msg, f.keys.Left):
		f.change(-1)
	case key.Matches(msg, f.keys.Right), key.Matches(msg, f.keys.Toggle):
		f.change(+1)
	}
	return nil
}

// value is the shown value of a row.
func (f *createForm) value(fl formField) string {
	o := f.opts
	onOff := func(b bool) string {
		if b {
			return "on"
		}
		return "off"
	}
	switch fl {
	case fieldPreset:
		if o.Preset == "" {
			return "none"
		}
		return o.Preset
	case fieldLowClaim:
		return string(o.LowClaim)
	case fieldMiaReveal:
		return string(o.MiaReveal)
	case fieldMiaPass:
		return string(o.MiaPass)
	case fieldSeats:
		return fmt.Sprint(f.seats)
	case fieldLives:
		return fmt.Sprint(o.Lives)
	case fieldRanking:
		return string(o.Ranking)
	case fieldPass:
		return onOff(o.Pass)
	case fieldEqual:
		return onOff(o.EqualClaims)
	case fieldMiaPenalty:
		return words.Plural(o.MiaPenalty, "1 life", "lives")
	case fieldMiaBoth:
		return onOff(o.MiaPenaltyBoth)
	case fieldNextOpener:
		return string(o.NextOpener)
	case fieldEnd:
		return string(o.End)
	case fieldTurn:
		return seconds(o.TurnSeconds)
	case fieldPrivate:
		return onOff(f.private)
	case fieldCoach:
		return onOff(f.coach)
	}
	return ""
}

// View draws the form: the rows, then what the focused option does,
// whole (wrapped, never cut: the rules are told where they are chosen),
// then the help.
func (f *createForm) View() string {
	s, w, h := f.c.s, f.w, f.h
	var b strings.Builder
	b.WriteString(s.Title.Render("mia"))
	b.WriteString(s.TitleBar.Render(" new table"))
	b.WriteByte('\n')
	const labelW, valueW = 18, 18
	for fl := formField(0); fl < fieldCount; fl++ {
		marker := "  "
		if fl == f.focus {
			marker = "› "
		}
		switch fl {
		case fieldName:
			hint := fieldHints[fl]
			if ansi.StringWidth(hint) > w-labelW-30 {
				hint = "" // never cut: the rule is told whole below (explain)
			}
			b.WriteString(marker + fit(fieldLabels[fl], labelW) + fit(f.name.View(), 28) + s.Subtle.Render(hint))
		case fieldCreate:
			btn := "[ create table ]"
			if fl == f.focus {
				btn = s.Selected.Render(btn)
			}
			b.WriteString(marker + spaces(labelW) + btn)
		default:
			v := f.value(fl)
			if fl == f.focus {
				v = s.Selected.Render("‹ " + v + " ›")
			} else {
				v = "  " + v + "  "
			}
			b.WriteString(marker + fit(fieldLabels[fl], labelW) + fit(v, valueW+4) + s.Subtle.Render(cut(fieldHints[fl], w-labelW-valueW-6)))
		}
		b.WriteByte('\n')
	}
	var below []string
	switch {
	case f.err != "":
		below = []string{s.Error.Render(cut(f.err, w))}
	case f.busy:
		below = []string{s.Info.Render("creating…")}
	default:
		for _, l := range words.Wrap(f.explain(), w) {
			below = append(below, s.Subtle.Render(l))
		}
	}
	used := 1 + int(fieldCount) + len(below)
	if used+2 <= h { // a blank line apart, where the help still fits
		b.WriteByte('\n')
		used++
	}
	for _, l := range below {
		b.WriteString(l + "\n")
	}
	b.WriteString(f.c.helpView(f, max(1, h-used)))
	return b.String()
}

// formOptions are the rule options of RULES.md the rows set.
var formOptions = map[formField]string{
	fieldPreset: "preset", fieldLives: "lives", fieldRanking: "ranking", fieldPass: "pass", fieldEqual: "equal-claims",
	fieldLowClaim: "low-claim", fieldMiaReveal: "mia-reveal", fieldMiaPenalty: "mia-penalty",
	fieldMiaBoth: "mia-penalty-both", fieldMiaPass: "mia-pass", fieldNextOpener: "next-opener", fieldEnd: "end",
	fieldTurn: "turn-seconds",
}

// explain is what the focused option does with its value now, in the
// words of the rules command (words.ExplainRules).
func (f *createForm) explain() string {
	switch f.focus {
	case fieldCoach:
		return "Coach: " + words.CoachSays + "."
	case fieldName:
		return "Name: " + fieldHints[fieldName] + "."
	}
	opt := formOptions[f.focus]
	if opt == "" {
		return ""
	}
	for _, r := range words.ExplainRules(f.opts) {
		if r.Option == opt {
			return r.Text
		}
	}
	return ""
}
