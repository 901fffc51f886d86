package secret_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/examples/internal/secret"
)

func TestRoundTrip(t *testing.T) {
	for range 100 {
		tok := secret.NewToken()
		require.NotZero(t, tok)
		got, err := secret.Parse(secret.Format(tok))
		require.NoError(t, err)
		require.Equal(t, tok, got)
	}
	assert.NotEqual(t, secret.NewToken(), secret.NewToken(), "two draws")
}

func TestParse(t *testing.T) {
	got, err := secret.Parse(" 0x00000000000000ff ")
	require.NoError(t, err)
	assert.Equal(t, uint64(0xff), got)
	_, err = secret.Parse("")
	assert.True(t, errors.Is(err, secret.ErrNoToken))
	for _, bad := range []string{"0", "xyz", "0x", "11112222333344445", "-1"} {
		_, err := secret.Parse(bad)
		assert.Error(t, err, "Parse(%q)", bad)
	}
}

func TestFromPSK(t *testing.T) {
	a, b := secret.FromPSK([]byte("key one")), secret.FromPSK([]byte("key two"))
	assert.NotZero(t, a)
	assert.NotEqual(t, a, b)
	assert.Equal(t, a, secret.FromPSK([]byte("key one")))
}

// FuzzParse: Parse never panics, and what it accepts Format spells back.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "0", "1", "0xdeadbeef", "ffffffffffffffff", "g"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tok, err := secret.Parse(s)
		if err != nil {
			return
		}
		back, err := secret.Parse(secret.Format(tok))
		if err != nil || back != tok || tok == 0 {
			t.Fatalf("Parse(%q) = %x, and back %x, %v", s, tok, back, err)
		}
	})
}
