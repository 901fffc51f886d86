package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// runSimArgs runs rollstep sim in process and returns its stdout; it fails
// the test on a non-zero exit code.
func runSimArgs(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := run(append([]string{"sim"}, args...), &out, &errOut); code != 0 {
		t.Fatalf("rollstep sim %s: exit %d: %s", strings.Join(args, " "), code, errOut.String())
	}
	return out.String()
}

// runSimJSON runs rollstep sim -json with args and decodes its reports,
// one per mode.
func runSimJSON(t *testing.T, args ...string) []simReport {
	t.Helper()
	var reports []simReport
	dec := json.NewDecoder(strings.NewReader(runSimArgs(t, append(args, "-json")...)))
	for dec.More() {
		var r simReport
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		reports = append(reports, r)
	}
	return reports
}

func TestSimFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"spike without the rest", []string{"-spike", "400ms"}, "want H/S/P"},
		{"negative loss", []string{"-loss", "-0.1"}, "-loss -0.1: want a probability in [0, 1]"},
		{"loss above one", []string{"-loss", "1.5"}, "-loss 1.5: want a probability in [0, 1]"},
		{"unknown mode", []string{"-mode", "turbo"}, `-mode "turbo": want lockstep, rollback, auto or both`},
		{"no peers", []string{"-peers", "0"}, "-peers 0: want 1 to 16"},
		{"too many units", []string{"-units", "99999"}, "-units 99999: want 0 to 16384"},
		{"nudge without frame", []string{"-nudge", "1"}, `-nudge "1": want PEER:FRAME`},
		{"nudge of a missing peer", []string{"-nudge", "5:3"}, "-nudge 5:3: there are only 2 peers"},
		{"negative nudge frame", []string{"-nudge", "1:-3"}, `frame "-3" is not a frame ≥ 0`},
		{"zero check interval", []string{"-check-every", "0"}, "-check-every 0: want 1 to 1000"},
		{"jitter twice", []string{"-latency", "50ms±5ms", "-jitter", "5ms"}, "already has a jitter"},
		{"stray argument", []string{"lockstep"}, `unexpected argument "lockstep"`},
		{"bad latency", []string{"-latency", "fast"}, "-latency"},
		{"negative turn", []string{"-turn", "-1s"}, "-turn -1s: want a positive duration"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(append([]string{"sim"}, tc.args...), &out, &errOut)
			if code != 2 {
				t.Errorf("exit code %d, want 2", code)
			}
			if !strings.Contains(errOut.String(), tc.want) {
				t.Errorf("stderr %q does not say %q", errOut.String(), tc.want)
			}
		})
	}
	t.Run("unknown flag", func(t *testing.T) {
		var out, errOut bytes.Buffer
		if code := run([]string{"sim", "-warp", "9"}, &out, &errOut); code != 2 {
			t.Errorf("exit code %d, want 2", code)
		}
	})
}

func TestSimSameSeedSameOutput(t *testing.T) {
	for _, args := range [][]string{
		{"-mode", "both", "-turns", "60", "-frames", "240", "-loss", "0.1", "-seed", "9"},
		{"-mode", "rollback", "-frames", "240", "-json", "-reorder", "0.1", "-dup", "0.05", "-seed", "3"},
	} {
		a, b := runSimArgs(t, args...), runSimArgs(t, args...)
		if a != b {
			t.Errorf("rollstep sim %s printed two different outputs:\n%s\n---\n%s", strings.Join(args, " "), a, b)
		}
	}
}

// TestSimJSONGolden pins the JSON schema and the results of one small
// seeded run. Regenerate with go test ./cmd/rollstep -run TestSimJSONGolden
// -update only when a change of behaviour is intended, and say why in the
// commit.
func TestSimJSONGolden(t *testing.T) {
	got := runSimArgs(t, "-mode", "both", "-peers", "3", "-turns", "40", "-frames", "120", "-units", "50",
		"-latency", "60ms±10ms", "-loss", "0.05", "-seed", "2026", "-json")
	path := filepath.Join("testdata", "sim_golden.jsonl")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (rerun with -update if the change is intended):\ngot:\n%s\nwant:\n%s", path, got, want)
	}
	for _, key := range []string{`"peers":[`, `"stall_seconds":`, `"turn_ms_mean":`, `"rollbacks":`,
		`"resimulated_frames":`, `"upload_bytes_per_sec":`, `"desyncs":[`, `"final_checksums_equal":`} {
		if !strings.Contains(got, key) {
			t.Errorf("the JSON lacks %s", key)
		}
	}
}

func TestSimFinalChecksumsAgree(t *testing.T) {
	for _, mode := range []string{"lockstep", "rollback", "auto"} {
		t.Run(mode, func(t *testing.T) {
			for _, r := range runSimJSON(t, "-mode", mode, "-peers", "3", "-turns", "80", "-frames", "300",
				"-loss", "0.1", "-reorder", "0.05", "-dup", "0.02") {
				if !r.FinalChecksumsEqual || len(r.Desyncs) != 0 {
					t.Errorf("%s: final checksums equal %v, desyncs %v", r.Mode, r.FinalChecksumsEqual, r.Desyncs)
				}
				for _, p := range r.Peers {
					if p.FinalChecksum == "missing" {
						t.Errorf("%s: peer %d has no final checksum", r.Mode, p.Peer)
					}
				}
			}
		})
	}
}

func TestSimNudgeIsReportedWithItsField(t *testing.T) {
	for _, tc := range []struct {
		mode          string
		every         string
		detected, min int32
	}{
		{"rollback", "1", 61, 61},
		{"rollback", "10", 70, 61},
		{"lockstep", "1", 61, 61},
		{"lockstep", "10", 70, 61},
	} {
		t.Run(tc.mode+"/every "+tc.every, func(t *testing.T) {
			r := runSimJSON(t, "-mode", tc.mode, "-nudge", "1:61", "-check-every", tc.every,
				"-turns", "120", "-frames", "200", "-latency", "30ms", "-loss", "0")[0]
			if len(r.Desyncs) == 0 {
				t.Fatal("the nudge was not reported")
			}
			for _, d := range r.Desyncs {
				if d.FrameDetected != tc.detected || d.FrameEarliest != tc.min {
					t.Errorf("peer %d reports frame %d (earliest %d), want %d (earliest %d)",
						d.Peer, d.FrameDetected, d.FrameEarliest, tc.detected, tc.min)
				}
				if tc.every == "1" && (len(d.Fields) != 1 || d.Fields[0] != "Units[0].Pos.X") {
					t.Errorf("peer %d names fields %v, want [Units[0].Pos.X]", d.Peer, d.Fields)
				}
				if len(d.Fields) == 0 {
					t.Errorf("peer %d names no field", d.Peer)
				}
			}
			if r.FinalChecksumsEqual {
				t.Error("final checksums equal after a nudge")
			}
		})
	}
}

func TestSimLockstepPace(t *testing.T) {
	// With T = 100 ms and D = 2 on a 300 ms one-way link, an input made at
	// turn n arrives 300 ms later and is needed at turn n+2: the pace
	// settles at max(T, L/D) = 150 ms per turn.
	r := runSimJSON(t, "-mode", "lockstep", "-turn", "100ms", "-delay", "2", "-latency", "300ms", "-loss", "0", "-turns", "200")[0]
	for _, p := range r.Peers {
		if p.TurnMsMean < 147 || p.TurnMsMean > 153 {
			t.Errorf("peer %d: %.1f ms per turn, want 150 ± 3", p.Peer, p.TurnMsMean)
		}
	}
}

func TestSimHigherDelayNeverStallsMore(t *testing.T) {
	for _, mode := range []string{"lockstep", "rollback"} {
		t.Run(mode, func(t *testing.T) {
			prev := -1.0
			for _, d := range []string{"1", "2", "4", "8"} {
				r := runSimJSON(t, "-mode", mode, "-delay", d, "-latency", "120ms±30ms", "-spike", "300ms/400ms/3s",
					"-loss", "0.05", "-turns", "100", "-frames", "400")[0]
				stall := 0.0
				for _, p := range r.Peers {
					stall += p.StallSeconds
				}
				if prev >= 0 && stall > prev+1e-9 {
					t.Errorf("-delay %s stalls %.3f s, more than the lower delay's %.3f s", d, stall, prev)
				}
				prev = stall
			}
		})
	}
}

func TestSimLockstepUploadIndependentOfUnits(t *testing.T) {
	rate := func(units string) float64 {
		r := runSimJSON(t, "-mode", "lockstep", "-units", units, "-latency", "50ms", "-loss", "0", "-turns", "200")[0]
		return r.Peers[0].UploadBytesPerSec
	}
	few, many := rate("10"), rate("10000")
	if d := (many - few) / few; d > 0.01 || d < -0.01 {
		t.Errorf("upload %.1f B/s at 10 units and %.1f B/s at 10,000: differ by %.2f %%, want within 1 %%", few, many, d*100)
	}
}

func TestSimChart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "timeline.svg")
	runSimArgs(t, "-mode", "both", "-turns", "50", "-frames", "200", "-chart", path)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	svg := string(b)
	for _, want := range []string{"<svg", "lockstep: 2 peers", "rollback: 2 peers", "peer 0", "peer 1", "#e04040", "polyline", "</svg>"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the chart lacks %q", want)
		}
	}
}

func TestSimDefaultRun(t *testing.T) {
	if testing.Short() {
		t.Skip("the default run plays two whole matches")
	}
	out := runSimArgs(t)
	for _, want := range []string{"lockstep: 2 peers, 300 turns", "rollback: 2 peers, 1200 frames", "final checksums: all equal"} {
		if !strings.Contains(out, want) {
			t.Errorf("the default run's output lacks %q:\n%s", want, out)
		}
	}
}
