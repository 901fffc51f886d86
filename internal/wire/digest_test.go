package wire

import (
	"errors"
	"strings"
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
)

// TestDigestOfNamesField checks the digest of a valid match and that each
// value out of range is refused by a *core.ConfigError naming the digest field.
func TestDigestOfNamesField(t *testing.T) {
	game := [16]byte{1, 2, 3}
	d, err := DigestOf[uint16](2, 60, 0, game)
	if err != nil {
		t.Fatal(err)
	}
	if d.Players != 2 || d.InputSize != 2 || d.TickRate != 60 || d.ChecksumInterval != 1 || d.Game != game || d.InputLayout == 0 {
		t.Fatalf("got %+v", d)
	}
	for _, tc := range []struct {
		field string
		f     func() error
	}{
		{"Players", func() error { _, err := DigestOf[uint16](0, 60, 1, game); return err }},
		{"Players", func() error { _, err := DigestOf[uint16](core.MaxPlayers+1, 60, 1, game); return err }},
		{"TickRate", func() error { _, err := DigestOf[uint16](2, 0, 1, game); return err }},
		{"ChecksumInterval", func() error { _, err := DigestOf[uint16](2, 60, 70000, game); return err }},
		{"InputSize", func() error { _, err := DigestOf[[MaxInputSize + 1]byte](2, 60, 1, game); return err }},
	} {
		var ce *engine.ConfigError
		if err := tc.f(); !errors.As(err, &ce) || !errors.Is(err, ErrInvalidConfig) || ce.Field != tc.field {
			t.Errorf("got %v, want a *core.ConfigError for %s", err, tc.field)
		}
	}
	if _, err := DigestOf[*int](2, 60, 1, game); err == nil {
		t.Error("pointer input type accepted")
	}
}

// TestCompareNamesField changes one field at a time and checks that both
// directions name it.
func TestCompareNamesField(t *testing.T) {
	base, _ := DigestOf[uint16](2, 60, 1, [16]byte{9})
	other, _ := DigestOf[uint32](2, 60, 1, [16]byte{9})
	sameSize, _ := DigestOf[[2]uint8](2, 60, 1, [16]byte{9})
	tests := []struct {
		field string
		edit  func(d *ConfigDigest)
	}{
		{"Players", func(d *ConfigDigest) { d.Players = 3 }},
		{"InputSize", func(d *ConfigDigest) { *d = other }},
		{"TickRate", func(d *ConfigDigest) { d.TickRate = 30 }},
		{"ChecksumInterval", func(d *ConfigDigest) { d.ChecksumInterval = 4 }},
		{"InputLayout", func(d *ConfigDigest) { *d = sameSize }},
		{"Game", func(d *ConfigDigest) { d.Game[15] = 1 }},
	}
	if err := base.Compare(base); err != nil {
		t.Fatalf("equal digests: %v", err)
	}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			remote := base
			tt.edit(&remote)
			for _, err := range []error{base.Compare(remote), remote.Compare(base)} {
				var ce *ConfigMismatchError
				if !errors.As(err, &ce) || !errors.Is(err, ErrConfigMismatch) || ce.Field != tt.field {
					t.Fatalf("got %v, want a *ConfigMismatchError for %s", err, tt.field)
				}
				if !strings.Contains(err.Error(), tt.field) || ce.Local == ce.Remote {
					t.Errorf("message %q", err)
				}
			}
		})
	}
}
