package age

import (
	"testing"
	"time"
)

func TestFormat(t *testing.T) {
	day := 24 * time.Hour
	tests := []struct {
		d    time.Duration
		want string
	}{
		{-time.Hour, "just now"},
		{59 * time.Second, "just now"},
		{time.Minute, "1m ago"},
		{59 * time.Minute, "59m ago"},
		{23 * time.Hour, "23h ago"},
		{day, "1d ago"},
		{13 * day, "13d ago"},
		{14 * day, "2w ago"},
		{31 * day, "4w ago"},
		{60 * day, "2mo ago"},
		{729 * day, "24mo ago"},
		{730 * day, "2y ago"},
	}
	for _, tt := range tests {
		if got := Format(tt.d); got != tt.want {
			t.Errorf("Format(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}
