package wire

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rollstep/rollstep/internal/arena"
	"github.com/rollstep/rollstep/internal/engine"
)

var updateCorpus = flag.Bool("update-corpus", false, "rewrite the seed corpus under testdata/fuzz")

// seeds returns valid packets of one decoder, for f.Add and the committed
// corpus.
func seeds(t testing.TB, name string) [][]byte {
	for _, d := range decoders(t) {
		if d.name == name {
			r := rand.New(rand.NewPCG(7, 7))
			var out [][]byte
			for range 8 {
				out = append(out, d.valid(r))
			}
			return out
		}
	}
	t.Fatalf("no decoder %s", name)
	return nil
}

// TestWriteSeedCorpus rewrites testdata/fuzz when run with -update-corpus.
func TestWriteSeedCorpus(t *testing.T) {
	if !*updateCorpus {
		t.Skip("run with -update-corpus to rewrite testdata/fuzz")
	}
	targets := map[string]string{
		"FuzzDecodeInput": "input-2", "FuzzDecodeInputMasked": "input-bool",
		"FuzzDecodeHello": "hello", "FuzzDecodeHelloReply": "hello-reply",
		"FuzzDecodeKeepAlive": "keep-alive", "FuzzDecodeLeave": "leave",
		"FuzzDecodeMatch": "match",
	}
	for target, name := range targets {
		dir := filepath.Join("testdata", "fuzz", target)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		files := map[string][]byte{}
		for i, p := range seeds(t, name)[:4] {
			files[fmt.Sprintf("seed%d", i)] = p
		}
		if target == "FuzzDecodeInput" {
			// Desync sections with a query and several answers, which
			// few "input-2" packets have.
			for i, p := range seeds(t, "input-desync")[:4] {
				files[fmt.Sprintf("desync%d", i)] = p
			}
		}
		for file, p := range files {
			body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", p)
			if err := os.WriteFile(filepath.Join(dir, file), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// The tag defeats a byte-mutating fuzzer: almost every mutation fails it.
// So each target decodes its input twice: as given (which must fail or
// round-trip), and re-tagged (resign), so that mutations of the body reach
// the body decoder. Both decode with testWindow, which expands the seeds'
// sequence numbers.

// fuzzInput decodes p; when it succeeds, re-encoding must give p back
// byte for byte (canonical), and decoding that must give the same message.
func fuzzInput[I comparable](t *testing.T, c *Codec[I], p []byte) {
	for _, p := range [][]byte{p, resign(p, testWindow())} {
		var m, viaHeader engine.Message[I]
		h, err := c.DecodeInput(p, testKey, testWindow(), &m)
		// ParseHeader then DecodeInputBody, as the endpoint decodes, must
		// accept exactly what DecodeInput accepts, with the same result.
		hh, herr := ParseHeader(p, testKey, testWindow())
		if herr == nil {
			herr = c.DecodeInputBody(p, hh, &viaHeader)
		}
		if (err == nil) != (herr == nil) {
			t.Fatalf("DecodeInput: %v; ParseHeader and DecodeInputBody: %v", err, herr)
		}
		if hh.Type == TypeInput {
			quickAgrees(t, c, p, hh)
		}
		if err != nil {
			continue
		}
		if d := diffMessage(&viaHeader, &m, h.Seq); d != "" || hh != h {
			t.Fatalf("DecodeInputBody differs from DecodeInput: %s (headers %+v, %+v)", d, hh, h)
		}
		q, fit, err := c.AppendInput(nil, testKey, h.Seq, &m)
		if err != nil {
			t.Fatalf("re-encoding a decoded message: %v", err)
		}
		if !bytes.Equal(p, q) || !fit.Complete() {
			t.Fatalf("not canonical:\n in  %x\n out %x\n fit %+v", p, q, fit)
		}
		if g, _ := c.appendInput(nil, testKey, h.Seq, &m); !bytes.Equal(g, q) {
			t.Fatalf("AppendInput and the general encoder differ:\n %x\n %x", q, g)
		}
		var m2 engine.Message[I]
		if _, err := c.DecodeInput(q, testKey, testWindow(), &m2); err != nil {
			t.Fatal(err)
		}
		if d := diffMessage(&m2, &m, h.Seq); d != "" {
			t.Fatal(d)
		}
	}
}

// quickAgrees checks that the quick decoder, where it decodes p (header
// hd), decodes what body decodes.
func quickAgrees[I comparable](t *testing.T, c *Codec[I], p []byte, hd Header) {
	b := p[:len(p)-TagSize]
	var quick, slow engine.Message[I]
	if !c.quickBody(b, hd, &quick) {
		return
	}
	r := reader{b: b, off: hd.Len}
	if !c.body(&r, hd, &slow) {
		t.Fatalf("quickBody accepts what body rejects (%v): %x", r.err, p)
	}
	if d := diffMessage(&quick, &slow, hd.Seq); d != "" {
		t.Fatalf("quickBody and body differ: %s: %x", d, p)
	}
}

func FuzzDecodeInput(f *testing.F) {
	for _, name := range []string{"input-2", "input-desync"} {
		for _, p := range seeds(f, name) {
			f.Add(p)
		}
	}
	c, _ := NewCodec[input2]()
	f.Fuzz(func(t *testing.T, p []byte) { fuzzInput(t, c, p) })
}

func FuzzDecodeInputMasked(f *testing.F) {
	for _, p := range seeds(f, "input-bool") {
		f.Add(p)
	}
	c, _ := NewCodec[inputBool]()
	f.Fuzz(func(t *testing.T, p []byte) { fuzzInput(t, c, p) })
}

// FuzzDecodeInputSlots decodes packets of core.Slot values, whose control
// words have their own literal (see Codec's slot literal): canonical or
// rejected, like every input packet. The seeds are packets of runs with
// zero control words and with commands, fills and step reports; the
// Masked variant's value (inputBool) has a masked literal of its own.
func FuzzDecodeInputSlots(f *testing.F) {
	fuzzSlots(f, func(k int) input2 { return input2{Buttons: uint8(k / 2)} })
}

func FuzzDecodeInputSlotsMasked(f *testing.F) {
	fuzzSlots(f, func(k int) inputBool { return inputBool{Fire: k%2 == 1, Y: int16(k * 300)} })
}

// FuzzDecodeInputSlots8 is FuzzDecodeInputSlots for 8-byte values (input8),
// the largest the quick decoder takes: its seeds' deltas have up to eight
// low nonzero bytes, which that decoder reads in one word.
func FuzzDecodeInputSlots8(f *testing.F) {
	fuzzSlots(f, func(k int) input8 {
		var b [8]uint8
		for j := range min(k+3, 8) {
			b[j] = uint8(k + 1)
		}
		return input8{A: uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24, B: [4]uint8(b[4:])}
	})
}

func fuzzSlots[I comparable](f *testing.F, value func(k int) I) {
	c, err := NewCodec[engine.Slot[I]]()
	if err != nil {
		f.Fatal(err)
	}
	for _, ctl := range [][8]byte{{}, {0, 1}, {1, 0, 0, 0, 7}, {0, 3, 0xe8, 3}} {
		var cw engine.Control
		_ = arena.DecodeRaw(ctl[:], &cw)
		m := &engine.Message[engine.Slot[I]]{Frame: 40, NoStamp: true}
		m.Held[1] = 40
		run := engine.InputRun[engine.Slot[I]]{Player: 1, Start: 34}
		for k := range 6 {
			v := engine.Slot[I]{Value: value(k)}
			if k == 3 {
				v.Control = cw
			}
			run.Values = append(run.Values, v)
		}
		m.Inputs = append(m.Inputs, run)
		// A sequence number testWindow expands back to itself, so that
		// the seed and its mutations pass the tag (or resign's) and reach
		// the decoders with their frames in range.
		p, _, err := c.AppendInput(nil, testKey, testBase-100, m)
		if err != nil {
			f.Fatal(err)
		}
		var d engine.Message[engine.Slot[I]]
		if _, err := c.DecodeInput(p, testKey, testWindow(), &d); err != nil {
			f.Fatalf("a seed does not decode: %v", err)
		}
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p []byte) { fuzzInput(t, c, p) })
}

// fuzzControl is fuzzInput for a control type.
func fuzzControl[T comparable](f *testing.F, name string, enc encoder[T], dec decoderOf[T]) {
	for _, p := range seeds(f, name) {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		for _, p := range [][]byte{p, resign(p, testWindow())} {
			var v T
			h, err := dec(p, testKey, testWindow(), &v)
			if err != nil {
				continue
			}
			q, err := enc(nil, testKey, h.Seq, &v)
			if err != nil {
				t.Fatalf("re-encoding %+v: %v", v, err)
			}
			if !bytes.Equal(p, q) {
				t.Fatalf("not canonical:\n in  %x\n out %x", p, q)
			}
			var w T
			if _, err := dec(q, testKey, testWindow(), &w); err != nil || w != v {
				t.Fatalf("round trip: %+v, %v; want %+v", w, err, v)
			}
		}
	})
}

func FuzzDecodeHello(f *testing.F) { fuzzControl(f, "hello", AppendHello, DecodeHello) }
func FuzzDecodeHelloReply(f *testing.F) {
	fuzzControl(f, "hello-reply", AppendHelloReply, DecodeHelloReply)
}
func FuzzDecodeKeepAlive(f *testing.F) {
	fuzzControl(f, "keep-alive", AppendKeepAlive, DecodeKeepAlive)
}
func FuzzDecodeLeave(f *testing.F) { fuzzControl(f, "leave", AppendLeave, DecodeLeave) }

// TestSeedCorpus checks that the committed seeds under testdata/fuzz are
// valid encodings of the current format that round-trip: a stale corpus
// after a format change would fuzz nothing but the header checks.
func TestSeedCorpus(t *testing.T) {
	c2, _ := NewCodec[input2]()
	cb, _ := NewCodec[inputBool]()
	for target, decode := range map[string]func([]byte) error{
		"FuzzDecodeInput": func(p []byte) error {
			var m engine.Message[input2]
			_, err := c2.DecodeInput(p, testKey, testWindow(), &m)
			return err
		},
		"FuzzDecodeInputMasked": func(p []byte) error {
			var m engine.Message[inputBool]
			_, err := cb.DecodeInput(p, testKey, testWindow(), &m)
			return err
		},
		"FuzzDecodeHello":      dc(DecodeHello),
		"FuzzDecodeHelloReply": dc(DecodeHelloReply),
		"FuzzDecodeKeepAlive":  dc(DecodeKeepAlive),
		"FuzzDecodeLeave":      dc(DecodeLeave),
		"FuzzDecodeMatch":      dc(DecodeMatch),
	} {
		files, err := filepath.Glob(filepath.Join("testdata", "fuzz", target, "*"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no seeds (%v)", target, err)
		}
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			if len(lines) != 2 || !strings.HasPrefix(lines[1], "[]byte(") {
				t.Fatalf("%s: not a one-[]byte corpus file", name)
			}
			s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if err := decode([]byte(s)); err != nil {
				t.Errorf("%s: %v (regenerate with -update-corpus)", name, err)
			}
		}
	}
}
