package wire

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDirectionKey(t *testing.T) {
	const token = 0x5e55_1015
	base := DirectionKey(token, 1, 2, 10, 20)
	assert.Equal(t, base, DirectionKey(token, 1, 2, 10, 20), "deterministic")
	for name, other := range map[string]Key{
		"reverse direction": DirectionKey(token, 2, 1, 20, 10),
		"swapped nonces":    DirectionKey(token, 1, 2, 20, 10),
		"another receiver":  DirectionKey(token, 1, 3, 10, 20),
		"another handshake": DirectionKey(token, 1, 2, 11, 20),
		"another token":     DirectionKey(token+1, 1, 2, 10, 20),
		"the token key":     NewKey(token),
	} {
		assert.NotEqual(t, base, other, name)
	}
	// A packet tagged in one direction fails in the other.
	p, err := AppendKeepAlive(nil, base, 7, &KeepAlive{})
	assert.NoError(t, err)
	_, err = ParseHeader(p, DirectionKey(token, 2, 1, 20, 10), nil)
	assert.ErrorIs(t, err, ErrWrongToken)
	_, err = ParseHeader(p, base, nil)
	assert.NoError(t, err)
}

func TestPacketType(t *testing.T) {
	key := NewKey(1)
	hello, _ := AppendHello(nil, key, 0, &Hello{Protocol: Protocol})
	ka, _ := AppendKeepAlive(nil, key, 0, &KeepAlive{})
	for _, tc := range []struct {
		name string
		p    []byte
		want Type
	}{
		{"hello", hello, TypeHello},
		{"keep-alive", ka, TypeKeepAlive},
		{"empty", nil, TypeUnknown},
		{"other version", []byte{0x08}, TypeUnknown},
		{"type zero", []byte{Version << 6}, TypeUnknown},
		{"match", []byte{Version<<6 | byte(TypeMatch)<<3}, TypeMatch},
	} {
		assert.Equal(t, tc.want, PacketType(tc.p), tc.name)
	}
	assert.True(t, TypeHello.Handshake())
	assert.True(t, TypeHelloReply.Handshake())
	assert.False(t, TypeInput.Handshake())
}
