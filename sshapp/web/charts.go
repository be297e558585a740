package web

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"net/url"
	"strings"
)

// The charts, drawn on the server as SVG in the page: shapes with
// presentation attributes and classes (the style sheet colours them),
// nothing a strict Content-Security-Policy refuses. Only numbers go into
// the drawing, and names escaped.

func pathEscape(s string) string { return url.PathEscape(s) }

// livesChart draws each seat's lives after every round, a line per seat
// from the full lives at the start.
func livesChart(chart [][]int, most int) template.HTML {
	if len(chart) == 0 || len(chart[0]) == 0 || most <= 0 {
		return ""
	}
	rounds := len(chart[0])
	const (
		w, h       = 640.0, 200.0
		left, top  = 34.0, 12.0
		right, bot = 12.0, 30.0
	)
	pw, ph := w-left-right, h-top-bot
	x := func(r int) float64 { return left + pw*float64(r)/float64(rounds) }
	y := func(l int) float64 { return top + ph*(1-float64(l)/float64(most)) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart lives" viewBox="0 0 %.0f %.0f" role="img" aria-label="lives after each round">`, w, h)
	for l := 0; l <= most; l++ {
		if most > 8 && l%2 == 1 && l != most {
			continue
		}
		fmt.Fprintf(&b, `<line class="grid" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"></line>`, left, y(l), w-right, y(l))
		fmt.Fprintf(&b, `<text class="axis" x="%.1f" y="%.1f" text-anchor="end">%d</text>`, left-6, y(l)+4, l)
	}
	step := max(1, int(math.Ceil(float64(rounds)/12)))
	for r := 0; r <= rounds; r += step {
		fmt.Fprintf(&b, `<text class="axis" x="%.1f" y="%.1f" text-anchor="middle">%d</text>`, x(r), h-bot+16, r)
	}
	fmt.Fprintf(&b, `<text class="axis" x="%.1f" y="%.1f" text-anchor="end">round</text>`, w-right, h-4)
	for seat, lives := range chart {
		// Lines of equal lives would hide one another: each seat's is
		// nudged by a pixel or two.
		dy := float64(seat%5-2) * 1.5
		// A step: the lives held through each round, changed at its end.
		prev := most
		pts := []string{fmt.Sprintf("%.1f,%.1f", x(0), y(prev)+dy)}
		for r, l := range lives {
			l = max(l, 0)
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(r+1), y(prev)+dy), fmt.Sprintf("%.1f,%.1f", x(r+1), y(l)+dy))
			prev = l
		}
		fmt.Fprintf(&b, `<polyline class="line %s" points="%s"></polyline>`, seatClass(seat), strings.Join(pts, " "))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// ratingBars draws ratings as bars from the start rating, each with its
// label and its figure as shown (words.Figure), escaped: above the start
// to the right, below it to the left.
func ratingBars(labels, figures []string, ratings []float64, start float64) template.HTML {
	if len(ratings) == 0 {
		return ""
	}
	span := 50.0
	for _, r := range ratings {
		span = max(span, math.Abs(r-start))
	}
	const (
		w     = 420.0
		row   = 24.0
		label = 130.0
	)
	h := row * float64(len(ratings))
	mid := label + (w-label)/2
	half := (w-label)/2 - 50 // room for the widest figure, "1999?"
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart ratings" viewBox="0 0 %.0f %.0f" role="img" aria-label="ratings from %.0f">`, w, h+18, start)
	for i, r := range ratings {
		d := (r - start) / span * half
		x0, x1 := mid, mid+d
		cls := "up"
		if d < 0 {
			x0, x1, cls = mid+d, mid, "down"
		}
		yy := float64(i) * row
		fmt.Fprintf(&b, `<text class="label" x="%.1f" y="%.1f" text-anchor="end">%s</text>`, label-8, yy+row/2+4,
			html.EscapeString(labels[i]))
		fmt.Fprintf(&b, `<rect class="bar %s" x="%.1f" y="%.1f" width="%.1f" height="%.1f"></rect>`, cls, x0, yy+3, max(x1-x0, 1), row-6)
		anchor, tx := "start", x1+4
		if d < 0 {
			anchor, tx = "end", x0-4
		}
		fmt.Fprintf(&b, `<text class="axis" x="%.1f" y="%.1f" text-anchor="%s">%s</text>`, tx, yy+row/2+4, anchor, html.EscapeString(figures[i]))
	}
	fmt.Fprintf(&b, `<line class="base" x1="%.1f" y1="0" x2="%.1f" y2="%.1f"></line>`, mid, mid, h)
	fmt.Fprintf(&b, `<text class="axis" x="%.1f" y="%.1f" text-anchor="middle">%.0f</text>`, mid, h+14, start)
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// placesShown is how many of a player's games the places chart shows.
const placesShown = 30

// placesChart draws a player's recent games, oldest first: a bar per game
// as high as the place was good (first: full height), the winner's bars
// marked.
func placesChart(places, players []int) template.HTML {
	if len(places) == 0 {
		return ""
	}
	const (
		h   = 90.0
		bw  = 16.0
		gap = 4.0
	)
	// Room for the most games the page lists, so that a bar is as wide
	// with two games as with thirty.
	w := float64(max(len(places), placesShown)) * (bw + gap)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart places" viewBox="0 0 %.0f %.0f" role="img" aria-label="%s">`, w, h,
		html.EscapeString("places in the last games, oldest left"))
	for i, p := range places {
		n := max(players[i], 2)
		share := float64(n-p+1) / float64(n) // 1 for first place, 1/n for last
		bh := (h - 4) * share
		cls := "bar"
		if p == 1 {
			cls = "bar won"
		}
		fmt.Fprintf(&b, `<rect class="%s" x="%.1f" y="%.1f" width="%.1f" height="%.1f"><title>place %d of %d</title></rect>`,
			cls, float64(i)*(bw+gap), h-bh, bw, bh, p, n)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}
