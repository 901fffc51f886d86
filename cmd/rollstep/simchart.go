package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

// Chart geometry, in SVG user units.
const (
	chartWidth  = 1000 // plot width
	chartLeft   = 90   // room for the lane labels
	laneHeight  = 46
	laneGap     = 10
	runHeader   = 34
	chartFooter = 40
)

// writeChartFile writes the SVG timeline of runs to path.
func writeChartFile(path string, runs []*simRun) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := writeChart(f, runs); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeChart draws, for every run and every peer, a lane on a shared time
// axis: a thin tick for every turn (frame) that ran, red bands where the
// peer waited for inputs, orange triangles where it rolled back, and the
// input delay D as a blue step line (scale on the right).
func writeChart(w io.Writer, runs []*simRun) error {
	var span time.Duration
	lanes := 0
	for _, r := range runs {
		span = max(span, time.Duration(r.report.Seconds*float64(time.Second)))
		lanes += len(r.trace)
	}
	if span <= 0 {
		span = time.Second
	}
	height := len(runs)*runHeader + lanes*(laneHeight+laneGap) + chartFooter
	x := func(t time.Duration) float64 { return chartLeft + float64(t)/float64(span)*chartWidth }
	p := &svg{w: w}
	p.printf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", chartLeft+chartWidth+40, height)
	p.printf(`<rect width="100%%" height="100%%" fill="white"/>` + "\n")
	y := 0
	for _, r := range runs {
		p.printf(`<text x="4" y="%d" font-size="14" font-weight="bold">%s: %d peers, %d turns/frames, final checksums %s</text>`+"\n",
			y+22, r.report.Mode, len(r.trace), r.report.FinalFrame, equalWord(r.report.FinalChecksumsEqual))
		y += runHeader
		for i, tr := range r.trace {
			rep := r.report.Peers[i]
			top := float64(y)
			p.printf(`<text x="4" y="%.0f">peer %d</text>`+"\n", top+20, i)
			p.printf(`<text x="4" y="%.0f" font-size="10" fill="#555">stall %.1fs</text>`+"\n", top+34, rep.StallSeconds)
			p.printf(`<rect x="%d" y="%.0f" width="%d" height="%d" fill="#f4f4f4"/>`+"\n", chartLeft, top, chartWidth, laneHeight)
			for _, s := range tr.stalls {
				p.printf(`<rect x="%.1f" y="%.0f" width="%.1f" height="%d" fill="#e04040" fill-opacity="0.55"/>`+"\n",
					x(s.from), top, max(x(s.to)-x(s.from), 0.8), laneHeight)
			}
			for _, t := range tr.steps {
				p.printf(`<line x1="%.1f" x2="%.1f" y1="%.0f" y2="%.0f" stroke="#333" stroke-width="0.6"/>`+"\n", x(t), x(t), top+laneHeight-14, top+laneHeight)
			}
			for _, t := range tr.rolls {
				p.printf(`<path d="M%.1f %.0f l-3 -6 h6 z" fill="#f08c00"/>`+"\n", x(t), top+12)
			}
			p.delayLine(rep.Delay, x, top, span)
			y += laneHeight + laneGap
		}
	}
	for s := time.Duration(0); s <= span; s += axisStep(span) {
		p.printf(`<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#999"/><text x="%.1f" y="%d" text-anchor="middle" font-size="10">%gs</text>`+"\n",
			x(s), x(s), y, y+5, x(s), y+17, s.Seconds())
	}
	p.printf(`<text x="%d" y="%d" font-size="10" fill="#555">ticks: turns/frames run · red: waiting for inputs · orange: rollback · blue: input delay D (0–%d, right scale)</text>`+"\n",
		chartLeft, y+33, delayScale)
	p.printf("</svg>\n")
	return p.err
}

// delayScale is the D at the top of a lane.
const delayScale = 10

// delayLine draws D over time as a step line in a lane.
func (p *svg) delayLine(pts []timePoint, x func(time.Duration) float64, top float64, span time.Duration) {
	if len(pts) == 0 {
		return
	}
	yOf := func(d int) float64 {
		return top + laneHeight - 2 - float64(min(d, delayScale))*(laneHeight-4)/delayScale
	}
	p.printf(`<polyline fill="none" stroke="#2060d0" stroke-width="1.5" points="`)
	for i, pt := range pts {
		t := time.Duration(pt.Ms) * time.Millisecond
		if i > 0 {
			p.printf("%.1f,%.1f ", x(t), yOf(pts[i-1].Value))
		}
		p.printf("%.1f,%.1f ", x(t), yOf(pt.Value))
	}
	p.printf(`%.1f,%.1f"/>`+"\n", x(span), yOf(pts[len(pts)-1].Value))
	p.printf(`<text x="%d" y="%.0f" font-size="10" fill="#2060d0">D=%d</text>`+"\n", chartLeft+chartWidth+4, yOf(pts[len(pts)-1].Value)+4, pts[len(pts)-1].Value)
}

// axisStep picks a round tick spacing for a time axis of length span.
func axisStep(span time.Duration) time.Duration {
	for _, s := range []time.Duration{time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 30 * time.Second, time.Minute} {
		if span/s <= 12 {
			return s
		}
	}
	return 5 * time.Minute
}

func equalWord(eq bool) string {
	if eq {
		return "equal"
	}
	return "DIFFERENT"
}

// svg writes formatted SVG text and keeps the first write error.
type svg struct {
	w   io.Writer
	err error
}

func (p *svg) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}
