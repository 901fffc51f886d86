package sim

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/rollstep/rollstep/transport"
)

func TestConfigValidate(t *testing.T) {
	spike := Spike{Height: 400 * time.Millisecond, Length: 600 * time.Millisecond, Period: 2 * time.Second}
	for _, tc := range []struct {
		name  string
		cfg   Config
		want  error
		field string
	}{
		{"Zero", Config{}, nil, ""},
		{"Full", Config{Seed: 1, InboxLimit: 10, Link: impairedLink}, nil, ""},
		{"NegativeInbox", Config{InboxLimit: -1}, transport.ErrInvalidConfig, "InboxLimit"},
		{"NegativeBase", Config{Link: LinkConfig{Latency: Latency{Base: -1}}}, transport.ErrInvalidConfig, "Link.Latency.Base"},
		{"TooLong", Config{Link: LinkConfig{Latency: Latency{Base: maxLatency + 1}}}, transport.ErrInvalidConfig, "Link.Latency.Base"},
		{"JitterAboveBase", Config{Link: LinkConfig{Latency: Latency{Base: 5, Jitter: 6}}}, transport.ErrInvalidConfig, "Link.Latency.Jitter"},
		{"LossAboveOne", Config{Link: LinkConfig{Loss: 1.5}}, transport.ErrInvalidConfig, "Link.Loss"},
		{"NaNDuplicate", Config{Link: LinkConfig{Duplicate: math.NaN()}}, transport.ErrInvalidConfig, "Link.Duplicate"},
		{"NegativeReorder", Config{Link: LinkConfig{Reorder: -0.1}}, transport.ErrInvalidConfig, "Link.Reorder"},
		{"ReorderWithoutDelay", Config{Link: LinkConfig{Reorder: 0.1}}, transport.ErrInvalidConfig, "Link.ReorderDelay"},
		{"NegativeBandwidth", Config{Link: LinkConfig{Bandwidth: -1}}, transport.ErrInvalidConfig, "Link.Bandwidth"},
		{"NegativeQueue", Config{Link: LinkConfig{QueueLimit: -1}}, transport.ErrInvalidConfig, "Link.QueueLimit"},
		{"SpikeZeroPeriod", Config{Link: LinkConfig{Latency: Latency{Spike: Spike{Height: time.Second}}}}, transport.ErrInvalidConfig, "Link.Latency.Spike.Period"},
		{"SpikeLongerThanPeriod", Config{Link: LinkConfig{Latency: Latency{Spike: Spike{Height: 1, Length: 3, Period: 2}}}}, transport.ErrInvalidConfig, "Link.Latency.Spike.Length"},
		{"SpikeNegativeHeight", Config{Link: LinkConfig{Latency: Latency{Spike: Spike{Height: -1, Length: 1, Period: 2}}}}, transport.ErrInvalidConfig, "Link.Latency.Spike.Height"},
		{"SpikeValid", Config{Link: LinkConfig{Latency: Latency{Spike: spike}}}, nil, ""},
		{"ScheduleUnordered", Config{Link: LinkConfig{Schedule: []Step{{At: 2}, {At: 2}}}}, transport.ErrInvalidConfig, "Link.Schedule[1].At"},
		{"ScheduleNegative", Config{Link: LinkConfig{Schedule: []Step{{At: -1}}}}, transport.ErrInvalidConfig, "Link.Schedule[0].At"},
		{"ScheduleBadProfile", Config{Link: LinkConfig{Schedule: []Step{{At: 1, Latency: Latency{Jitter: 1}}}}}, transport.ErrInvalidConfig, "Link.Schedule[0].Latency.Jitter"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.cfg.validate()
			if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if err == nil {
				if _, err := New(tc.cfg); err != nil {
					t.Fatalf("New: got %v, want nil", err)
				}
				return
			}
			var ce *transport.ConfigError
			if !errors.As(err, &ce) || ce.Field != "sim.Config."+tc.field {
				t.Fatalf("got %#v, want a *transport.ConfigError for field sim.Config.%s", err, tc.field)
			}
			if !strings.Contains(err.Error(), "sim.Config."+tc.field+": ") {
				t.Fatalf("message %q does not name %s", err, tc.field)
			}
			if _, err := New(tc.cfg); !errors.Is(err, tc.want) {
				t.Fatalf("New: got %v, want %v", err, tc.want)
			}
		})
	}
}

// TestConfigErrorMessages pins a few messages: they name the field and
// say what is wrong with its value.
func TestConfigErrorMessages(t *testing.T) {
	for _, tc := range []struct {
		link LinkConfig
		want string
	}{
		{LinkConfig{Latency: Latency{Base: 5 * time.Millisecond, Jitter: 10 * time.Millisecond}},
			"transport: invalid config: sim.LinkConfig.Latency.Jitter: 10ms exceeds Base 5ms"},
		{LinkConfig{Latency: Latency{Spike: Spike{Height: time.Second, Length: 3 * time.Second, Period: 2 * time.Second}}},
			"transport: invalid config: sim.LinkConfig.Latency.Spike.Length: 3s exceeds Period 2s"},
		{LinkConfig{Loss: 1.5}, "transport: invalid config: sim.LinkConfig.Loss: 1.5 is not a probability in [0, 1]"},
		{LinkConfig{Latency: Latency{Base: 25 * time.Hour}}, "transport: invalid config: sim.LinkConfig.Latency.Base: 25h0m0s exceeds the maximum of 24h"},
	} {
		net, _ := New(Config{})
		if err := net.SetLink(0, 1, tc.link); err == nil || err.Error() != tc.want {
			t.Errorf("SetLink: got %v, want %s", err, tc.want)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{Latency{Base: 50 * time.Millisecond}.String(), "50ms"},
		{Latency{Base: 50 * time.Millisecond, Jitter: time.Millisecond}.String(), "50ms±1ms"},
		{Latency{Base: 50 * time.Millisecond, Spike: Spike{time.Second, time.Second, 3 * time.Second}}.String(), "50ms spike 1s/1s/3s"},
		{Spike{time.Second, time.Second, 3 * time.Second}.String(), "1s/1s/3s"},
		{Spike{}.String(), "none"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
