package faults

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/memoree/memoree/pending"
)

// fillTo grows the file fill until the filesystem at dir has about free bytes left (tmpfs counts pages).
func fillTo(t *testing.T, dir, fill string, free int64) {
	t.Helper()
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(fill)
	if err != nil {
		t.Fatal(err)
	}
	size := fi.Size() + int64(st.Bavail)*st.Bsize - free
	if size < 0 {
		size = 0
	}
	if err := os.Truncate(fill, size); err != nil {
		t.Fatal(err)
	}
	// Truncate makes a sparse file on most filesystems: write the bytes so they take the space.
	f, err := os.OpenFile(fill, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for off := fi.Size(); off < size; off += int64(len(buf)) {
		n := min(int64(len(buf)), size-off)
		f.WriteAt(buf[:n], off)
	}
}

// TestDiskFull runs the commands on a 1 MiB tmpfs filled to a random level, MEMOREE_FAULTS_DISK times (default
// 120): a command that fails must say "no space left on device" and name a path in the data directory; reading
// (recall, pending list and show) must keep working; and, once space is freed, the invariants hold and nothing
// reported written is lost. It needs root, to mount the tmpfs.
func TestDiskFull(t *testing.T) {
	r := setup(t, "disk full (1 MiB tmpfs)")
	mnt := filepath.Join(workDir, "tmpfs")
	os.MkdirAll(mnt, 0o700)
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=1m,mode=0700"); err != nil {
		r.skip(t, "cannot mount a tmpfs (needs root): %v", err)
	}
	defer syscall.Unmount(mnt, syscall.MNT_DETACH)
	rng := rngFor(t)
	h := filepath.Join(mnt, "home")
	st := newState(h)
	seed := "We deploy from the release branch only."
	if res := mem(h, []byte(seed), "remember", "--apply", "-"); res.code != 0 {
		t.Fatalf("seed: %v", res)
	}
	st.stored[hashOf(seed)] = "seed"
	current := noteText(rng, "seed checkpoint", 1000)
	if res := mem(h, []byte(current), "checkpoint", "--session", "S", "-"); res.code != 0 {
		t.Fatalf("seed: %v", res)
	}
	st.allowed["S"] = []string{current}
	fill := filepath.Join(mnt, "fill")
	if err := os.WriteFile(fill, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	refused := 0
	for i := range count("MEMOREE_FAULTS_DISK", 120) {
		fillTo(t, mnt, fill, int64(rng.IntN(96))<<10)
		text := noteText(rng, fmt.Sprintf("disk trial %d", i), 200+rng.IntN(3800))
		var res result
		var done func()
		switch i % 4 {
		case 0:
			st.allowed["S"] = []string{current, text}
			res = mem(h, []byte(text), "checkpoint", "--session", "S", "-")
			done = func() { st.allowed["S"] = []string{text} }
		case 1:
			applied := current
			res = mem(h, nil, "pending", "apply", pending.IDFor("S"))
			done = func() { st.stored[hashOf(applied)] = fmt.Sprintf("pending apply (trial %d)", i) }
		case 2:
			res = mem(h, []byte(text), "remember", "--apply", "-")
			done = func() { st.stored[hashOf(text)] = fmt.Sprintf("remember (trial %d)", i) }
		case 3:
			res = mem(h, nil, "artifact", "gc", "--grace", "0s")
			done = func() {}
		}
		switch {
		case res.code == 0:
			done()
		case !strings.Contains(res.stderr, "no space left on device") || !strings.Contains(res.stderr, h):
			r.fail(t, "trial %d: a failure on a full disk that does not say so or name the path: %v", i, res)
		default:
			refused++
		}
		// Reading works whatever the writes did.
		for _, args := range [][]string{{"recall", "release", "branch"}, {"pending", "list"}, {"pending", "show", pending.IDFor("S")}} {
			if rd := mem(h, nil, args...); rd.code != 0 {
				r.fail(t, "trial %d: %s on a full disk after %v: %v", i, strings.Join(args, " "), res, rd)
			} else if args[0] == "recall" && !strings.Contains(rd.stdout, "release branch") {
				r.fail(t, "trial %d: recall lost the stored claim: %q", i, rd.stdout)
			}
		}
		os.Truncate(fill, 0)
		for s, text := range st.check(t, r, fmt.Sprintf("trial %d (%v)", i, res)) {
			if s == "S" {
				current = text
				st.allowed["S"] = []string{text}
			}
		}
		r.end()
	}
	r.note = fmt.Sprintf("%d commands refused for lack of space, each saying so", refused)
}
