package plain

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
)

// createForm asks for a new table one question at a time, each with its
// default said (enter takes it), then opens the table with its host
// seated, as the screens' form does. A wrong answer is said and asked
// again; cancel stops.
type createForm struct {
	step    int
	name    string
	opts    engine.Options
	seats   int
	private bool
}

// question is one step of the form: what it asks (its default said), and
// how an answer is taken: "" when taken, else why not.
type question struct {
	ask  func(f *createForm) string
	take func(f *createForm, said string) string
}

var questions = []question{
	{
		ask: func(f *createForm) string {
			return fmt.Sprintf("The table's name? Enter for %s. (%s.)", f.name, lobby.NameHint())
		},
		take: func(f *createForm, said string) string {
			if err := lobby.CheckTableName(said); err != nil {
				return capital(words.Sentence(lobby.Shown(err)))
			}
			f.name = said
			return ""
		},
	},
	{
		ask: func(*createForm) string {
			return "The rules to start from: " + strings.Join(engine.PresetNames(), " or ") + "? Enter for " +
				engine.PresetClassic + ". " + words.Sentence(capital(words.OptionSays("preset").Help))
		},
		take: func(f *createForm, said string) string {
			o, err := engine.Preset(strings.ToLower(said))
			if err != nil {
				return "A preset is one of " + strings.Join(engine.PresetNames(), ", ") + "."
			}
			f.opts = o
			return ""
		},
	},
	{
		ask: func(f *createForm) string {
			return fmt.Sprintf("Seats, %d to %d? Enter for %d. The game starts by itself when they are all taken.",
				engine.MinSeats, engine.MaxSeats, f.seats)
		},
		take: func(f *createForm, said string) string {
			n, err := strconv.Atoi(said)
			if err != nil || n < engine.MinSeats || n > engine.MaxSeats {
				return fmt.Sprintf("A table has %d to %d seats.", engine.MinSeats, engine.MaxSeats)
			}
			f.seats = n
			return ""
		},
	},
	{
		ask: func(f *createForm) string {
			return fmt.Sprintf("Lives each, %d to %d? Enter for %d.", engine.MinLives, engine.MaxLives, f.opts.Lives)
		},
		take: func(f *createForm, said string) string {
			n, err := strconv.Atoi(said)
			if err != nil {
				return fmt.Sprintf("Say a number from %d to %d.", engine.MinLives, engine.MaxLives)
			}
			return f.try(func(o *engine.Options) { o.Lives = n })
		},
	},
	{
		ask: func(f *createForm) string {
			names := make([]string, len(engine.Rankings))
			for i, r := range engine.Rankings {
				names[i] = string(r)
			}
			return fmt.Sprintf("The ranking, %s? Enter for %s. %s", strings.Join(names, ", "), f.opts.Ranking,
				words.Sentence(capital(words.OptionSays("ranking").Help)))
		},
		take: func(f *createForm, said string) string {
			r, err := engine.ParseRanking(strings.ReplaceAll(strings.ToLower(said), " ", "-"))
			if err != nil {
				return capital(words.Sentence(lobby.Shown(err)))
			}
			return f.try(func(o *engine.Options) { o.Ranking = r })
		},
	},
	{
		ask: func(f *createForm) string {
			return fmt.Sprintf("Seconds a turn, %d to %d? Enter for %d. A player out of time loses a life; "+
				"one who listens to the table may want 120 or more.", engine.MinTurnSeconds, engine.MaxTurnSeconds, f.opts.TurnSeconds)
		},
		take: func(f *createForm, said string) string {
			n, err := strconv.Atoi(said)
			if err != nil {
				return fmt.Sprintf("Say a number of seconds from %d to %d.", engine.MinTurnSeconds, engine.MaxTurnSeconds)
			}
			return f.try(func(o *engine.Options) { o.TurnSeconds = n })
		},
	},
	{
		ask: func(*createForm) string {
			return "Private, yes or no? Enter for no. Only people you invite see a private table."
		},
		take: func(f *createForm, said string) string {
			switch strings.ToLower(said) {
			case "yes", "y":
				f.private = true
			case "no", "n":
				f.private = false
			default:
				return "Say yes or no."
			}
			return ""
		},
	},
}

// try changes the rules, unless the change makes rules that cannot be;
// it returns why not.
func (f *createForm) try(change func(*engine.Options)) string {
	o := f.opts
	change(&o)
	if err := o.Validate(); err != nil {
		return capital(words.Sentence(lobby.Shown(err)))
	}
	f.opts = o
	return ""
}

// capital is s with its first letter a capital.
func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// startForm begins the questions for a new table.
func (d *door) startForm() {
	d.form = &createForm{name: lobby.SuggestTableName(d.cfg.Lobby.Name(d.me.ID)), opts: engine.DefaultOptions(), seats: 6}
	d.menu = menu{}
	d.say(fmt.Sprintf("A new table, in %d questions; say cancel to stop.", len(questions)))
	d.say(questions[0].ask(d.form))
}

// answer takes the answer to the question asked.
func (f *createForm) answer(d *door, text, said string) {
	switch said {
	case "cancel", "stop":
		d.form = nil
		d.say("No table was made.")
		d.toLobby()
		return
	case "help", "?":
		d.say("Answer the question, press enter for the default it says, or say cancel.")
		d.say(questions[f.step].ask(f))
		return
	}
	if said != "" && said != "default" {
		if no := questions[f.step].take(f, text); no != "" {
			d.say(no + " " + questions[f.step].ask(f))
			return
		}
	}
	f.step++
	if f.step < len(questions) {
		d.say(questions[f.step].ask(f))
		return
	}
	d.form = nil
	f.create(d)
}

// create opens the table, and seats its host at it.
func (f *createForm) create(d *door) {
	ctx, cancel := context.WithTimeout(d.ctx, callTimeout)
	defer cancel()
	t, err := d.cfg.Lobby.CreateTable(ctx, d.me, lobby.TableConfig{Name: f.name, Rules: f.opts, Seats: f.seats, Private: f.private})
	if err != nil {
		d.say("No table was made: " + words.Sentence(d.said("create the table", err)))
		d.toLobby()
		return
	}
	d.say(fmt.Sprintf("Table %s is open, %d seats: %s.", t.Name(), f.seats, words.RulesSummary(f.opts)))
	if err := t.Sit(ctx, d.me); err != nil {
		d.say("You could not sit down: " + words.Sentence(d.said("sit down", err)))
	}
	d.open(t.Name())
}
