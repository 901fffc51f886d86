package sim

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
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
		{"NegativeInbox", Config{InboxLimit: -1}, ErrRange, "InboxLimit"},
		{"NegativeBase", Config{Link: LinkConfig{Latency: Latency{Base: -1}}}, ErrRange, "Link.Latency.Base"},
		{"TooLong", Config{Link: LinkConfig{Latency: Latency{Base: MaxLatency + 1}}}, ErrRange, "Link.Latency.Base"},
		{"JitterAboveBase", Config{Link: LinkConfig{Latency: Latency{Base: 5, Jitter: 6}}}, ErrRange, "Link.Latency.Jitter"},
		{"LossAboveOne", Config{Link: LinkConfig{Loss: 1.5}}, ErrRange, "Link.Loss"},
		{"NaNDuplicate", Config{Link: LinkConfig{Duplicate: math.NaN()}}, ErrRange, "Link.Duplicate"},
		{"NegativeReorder", Config{Link: LinkConfig{Reorder: -0.1}}, ErrRange, "Link.Reorder"},
		{"ReorderWithoutDelay", Config{Link: LinkConfig{Reorder: 0.1}}, ErrRange, "Link.ReorderDelay"},
		{"NegativeBandwidth", Config{Link: LinkConfig{Bandwidth: -1}}, ErrRange, "Link.Bandwidth"},
		{"NegativeQueue", Config{Link: LinkConfig{QueueLimit: -1}}, ErrRange, "Link.QueueLimit"},
		{"SpikeZeroPeriod", Config{Link: LinkConfig{Latency: Latency{Spike: Spike{Height: time.Second}}}}, ErrSpikePeriod, "Link.Latency.Spike.Period"},
		{"SpikeLongerThanPeriod", Config{Link: LinkConfig{Latency: Latency{Spike: Spike{Height: 1, Length: 3, Period: 2}}}}, ErrSpikeLength, "Link.Latency.Spike.Length"},
		{"SpikeNegativeHeight", Config{Link: LinkConfig{Latency: Latency{Spike: Spike{Height: -1, Length: 1, Period: 2}}}}, ErrRange, "Link.Latency.Spike.Height"},
		{"SpikeValid", Config{Link: LinkConfig{Latency: Latency{Spike: spike}}}, nil, ""},
		{"ScheduleUnordered", Config{Link: LinkConfig{Schedule: []Step{{At: 2}, {At: 2}}}}, ErrScheduleOrder, "Link.Schedule[1].At"},
		{"ScheduleNegative", Config{Link: LinkConfig{Schedule: []Step{{At: -1}}}}, ErrScheduleOrder, "Link.Schedule[0].At"},
		{"ScheduleBadProfile", Config{Link: LinkConfig{Schedule: []Step{{At: 1, Latency: Latency{Jitter: 1}}}}}, ErrRange, "Link.Schedule[0].Latency.Jitter"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.cfg.Validate()
			if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if err == nil {
				if _, err := New(tc.cfg); err != nil {
					t.Fatalf("New: got %v, want nil", err)
				}
				return
			}
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Field != tc.field {
				t.Fatalf("got %#v, want a *ConfigError for field %s", err, tc.field)
			}
			if !strings.Contains(err.Error(), tc.field) || !strings.HasPrefix(err.Error(), "sim: ") {
				t.Fatalf("message %q does not name %s", err, tc.field)
			}
			if _, err := New(tc.cfg); !errors.Is(err, tc.want) {
				t.Fatalf("New: got %v, want %v", err, tc.want)
			}
		})
	}
}
