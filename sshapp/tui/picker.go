package tui

import (
	"fmt"
	"slices"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mia-game/mia/engine"
)

// pickerItem is one value the claim picker offers.
type pickerItem struct {
	Value engine.Value
	Label string // "64", "21 Mia", "9 pips"
	Truth bool   // the value of the dice the viewer saw
	Same  bool   // passing the standing claim on unchanged
	Beat  int    // the chance that a fresh roll beats it, in percent
}

// picker chooses a value to announce among only the legal ones, lowest
// first, the lowest preselected. Its zero value is closed. Its rows show
// in a viewport that scrolls to keep the cursor in sight.
type picker struct {
	Kind   engine.ActionKind // engine.Claim after a roll, engine.Pass to pass or raise blind
	Items  []pickerItem
	Cursor int
	keys   pickerKeys
	s      *Styles
	vp     viewport.Model // the window on the values, below the title
	labelW int            // the widest label, so that the chances line up
}

// newPicker builds the picker for the view: the values of v.Claims when the
// viewer must announce, else those of v.Passes (the standing claim first,
// when it may be passed on, then the raises). ok is false when the viewer
// may announce nothing now.
func newPicker(s *Styles, v *engine.View) (p picker, ok bool) {
	if v == nil {
		return picker{}, false
	}
	var vals []engine.Value
	switch {
	case v.Can(engine.Claim) && len(v.Claims) > 0:
		p.Kind, vals = engine.Claim, v.Claims
	case v.Can(engine.Pass) && len(v.Passes) > 0:
		p.Kind, vals = engine.Pass, v.Passes
	default:
		return picker{}, false
	}
	r := v.Options.Ranking
	p.Items = make([]pickerItem, 0, len(vals))
	for i, val := range vals {
		if !val.Valid() {
			continue
		}
		it := pickerItem{Value: val, Label: valueLabel(r, val), Truth: v.Dice != engine.NoValue && r.Compare(val, v.Dice) == 0,
			Beat: (r.ChanceToBeat(val)*100 + 18) / 36}
		if p.Kind == engine.Pass && i == 0 && val == v.Claim {
			it.Same = true
		}
		p.Items = append(p.Items, it)
	}
	if len(p.Items) == 0 {
		return picker{}, false
	}
	p.labelW = len("21 Mia") + 1
	for _, it := range p.Items {
		p.labelW = max(p.labelW, len([]rune(it.Label)))
	}
	p.keys = newPickerKeys()
	// d jumps to the viewer's dice: offered only when they are among the
	// values (no dice seen, or dice below the claim: nothing to jump to).
	p.keys.Truth.SetEnabled(slices.ContainsFunc(p.Items, func(it pickerItem) bool { return it.Truth }))
	if p.Kind == engine.Pass {
		p.keys.Choose.SetHelp("enter", "pass/raise")
	}
	p.s, p.vp = s, s.newView()
	p.draw()
	return p, true
}

// valueLabel names a claim as the picker shows it: "21 Mia" for Mia, and
// under pips by its rank: "9 pips".
func valueLabel(r engine.Ranking, v engine.Value) string {
	if v == engine.Mia {
		return "21 Mia"
	}
	return r.Name(v)
}

// Open reports whether the picker is showing (not for a nil picker).
func (p *picker) Open() bool { return p != nil && len(p.Items) > 0 }

// Selected is the value under the cursor, NoValue when closed.
func (p picker) Selected() engine.Value {
	if p.Cursor < 0 || p.Cursor >= len(p.Items) {
		return engine.NoValue
	}
	return p.Items[p.Cursor].Value
}

// Action is the move the selected value makes.
func (p picker) Action() engine.Action {
	return engine.Action{Kind: p.Kind, Value: p.Selected()}
}

// Refresh rebuilds the picker from a newer view, keeping the selected value
// when it is still legal. It closes when nothing may be announced now.
func (p picker) Refresh(v *engine.View) picker {
	np, ok := newPicker(p.s, v)
	if !ok || np.Kind != p.Kind {
		return picker{}
	}
	sel := p.Selected()
	for i, it := range np.Items {
		if it.Value == sel {
			np.Cursor = i
		}
	}
	np.vp = p.vp
	np.draw()
	return np
}

// SetSize fits the picker in w×h cells: a title, then the values.
func (p *picker) SetSize(w, h int) {
	if !p.Open() {
		return
	}
	sizeView(&p.vp, w, h-1)
	p.draw()
}

// Update moves the cursor, or closes the picker on cancel. Choosing (the
// Choose key) is the table screen's, which sends the move.
func (p picker) Update(msg tea.KeyMsg) picker {
	switch {
	case key.Matches(msg, p.keys.Up):
		if p.Cursor > 0 {
			p.Cursor--
		}
	case key.Matches(msg, p.keys.Down):
		if p.Cursor < len(p.Items)-1 {
			p.Cursor++
		}
	case key.Matches(msg, p.keys.Truth):
		for i, it := range p.Items {
			if it.Truth {
				p.Cursor = i
			}
		}
	case key.Matches(msg, p.keys.Cancel):
		return picker{}
	}
	p.draw()
	return p
}

// draw draws the values into the viewport, the cursor's marked.
func (p *picker) draw() {
	rows := make([]string, len(p.Items))
	for i, it := range p.Items {
		line := p.itemLine(it)
		if i == p.Cursor {
			rows[i] = p.s.Selected.Render(fit("› "+line, p.vp.Width))
		} else {
			rows[i] = fit("  "+line, p.vp.Width)
		}
	}
	setRows(&p.vp, rows, p.Cursor)
}

// View draws the title and the window on the values.
func (p picker) View() string {
	if !p.Open() {
		return ""
	}
	title := "Announce (lowest first):"
	if p.Kind == engine.Pass {
		title = "Pass on or raise blind:"
	}
	return p.s.Header.Render(title) + "\n" + viewText(p.vp)
}

func (p picker) itemLine(it pickerItem) string {
	// Never both: only the roller sees the dice, and the roller may not
	// pass them on unchanged.
	var note string
	switch {
	case it.Truth:
		note = "★ your dice"
	case it.Same:
		note = "= pass on"
	}
	return fmt.Sprintf("%-*s %3d%% to beat  %s", p.labelW, it.Label, it.Beat, note)
}
