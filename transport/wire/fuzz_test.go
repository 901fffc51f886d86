package wire

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/rollstep/rollstep/core"
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
		"FuzzDecodeKeepAlive": "keep-alive", "FuzzDecodeLeave": "leave", "FuzzDecodeQuality": "quality",
	}
	for target, name := range targets {
		dir := filepath.Join("testdata", "fuzz", target)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i, p := range seeds(t, name)[:4] {
			body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", p)
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed%d", i)), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// fuzzInput decodes p; when it succeeds, re-encoding must give p back
// byte for byte (canonical), and decoding that must give the same message.
func fuzzInput[I comparable](t *testing.T, c *Codec[I], p []byte) {
	var m core.Message[I]
	h, err := c.DecodeInput(p, testToken, &m)
	if err != nil {
		return
	}
	q, fit, err := c.AppendInput(nil, testToken, h.Seq, &m)
	if err != nil {
		t.Fatalf("re-encoding a decoded message: %v", err)
	}
	if !bytes.Equal(p, q) || !fit.Complete() {
		t.Fatalf("not canonical:\n in  %x\n out %x\n fit %+v", p, q, fit)
	}
	var m2 core.Message[I]
	if _, err := c.DecodeInput(q, testToken, &m2); err != nil {
		t.Fatal(err)
	}
	if d := diffMessage(&m2, &m, h.Seq); d != "" {
		t.Fatal(d)
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

// fuzzControl is fuzzInput for a control type.
func fuzzControl[T comparable](f *testing.F, name string, enc func([]byte, uint64, uint64, *T) ([]byte, error), dec func([]byte, uint64, *T) (Header, error)) {
	for _, p := range seeds(f, name) {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		var v T
		h, err := dec(p, testToken, &v)
		if err != nil {
			return
		}
		q, err := enc(nil, testToken, h.Seq, &v)
		if err != nil {
			t.Fatalf("re-encoding %+v: %v", v, err)
		}
		if !bytes.Equal(p, q) {
			t.Fatalf("not canonical:\n in  %x\n out %x", p, q)
		}
		var w T
		if _, err := dec(q, testToken, &w); err != nil || w != v {
			t.Fatalf("round trip: %+v, %v; want %+v", w, err, v)
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
func FuzzDecodeLeave(f *testing.F)   { fuzzControl(f, "leave", AppendLeave, DecodeLeave) }
func FuzzDecodeQuality(f *testing.F) { fuzzControl(f, "quality", AppendQuality, DecodeQuality) }
