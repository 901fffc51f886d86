package secret_test

import (
	"errors"
	"strings"
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

// ForMatch takes a given token, draws and prints one for the host, and
// refuses a joiner without one and a token that does not parse.
func TestForMatch(t *testing.T) {
	var out strings.Builder
	tok, err := secret.ForMatch("00000000000000ff", false, "player 1", &out)
	require.NoError(t, err)
	assert.Equal(t, uint64(0xff), tok)
	assert.Empty(t, out.String(), "nothing printed for a given token")

	tok, err = secret.ForMatch("", true, "player 1", &out)
	require.NoError(t, err)
	assert.NotZero(t, tok)
	assert.Equal(t, "token: "+secret.Format(tok)+" (start player 1 with -token "+secret.Format(tok)+")\n", out.String())

	_, err = secret.ForMatch("", false, "player 1", &out)
	assert.ErrorContains(t, err, "-token: required to join")
	_, err = secret.ForMatch("not hex", true, "player 1", &out)
	assert.ErrorContains(t, err, "-token: session token")
}
