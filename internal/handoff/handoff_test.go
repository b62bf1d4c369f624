package handoff

import "testing"

func TestCommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"memoree", "recall", "x"}, "recall"},
		{[]string{"memoree", "remember"}, "remember"},
		{[]string{"memoree", "context", "build", "--budget", "9"}, "context build"},
		{[]string{"memoree", "pending", "apply", "ck-1"}, "pending apply"},
		{[]string{"memoree", "pending", "preview"}, "pending preview"},
		{[]string{"memoree", "artifact", "show", "ab12"}, "artifact show"},
		{[]string{"memoree", "artifact", "gc", "--grace", "0s"}, "artifact gc"},
		{[]string{"memoree", "search", "q"}, "search"},
		{[]string{"memoree"}, ""},
		{[]string{"memoree", "context"}, ""},
		{[]string{"memoree", "pending", "list"}, ""},
		{[]string{"memoree", "checkpoint", "recall"}, ""},
		{[]string{"memoree", "--help", "recall"}, ""},
		{[]string{"memoree", "pending", "--json", "apply"}, ""},
		{[]string{"memoree", "build", "context"}, ""},
	} {
		got, ok := Command(c.args)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("Command(%q) = %q, %v; want %q", c.args, got, ok, c.want)
		}
	}
}
