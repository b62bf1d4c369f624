package faults

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/memoree/memoree/pending"
)

// attackerName is the second user the shared-home scenario creates (and removes) when it runs as root.
const attackerName = "memoree-fault"

// attacker returns the uid and gid of a second user, creating it with useradd if needed, and a cleanup that
// removes a user it created. It skips the scenario when that is impossible.
func attacker(t *testing.T, r *row) (uid, gid int, cleanup func()) {
	if os.Geteuid() != 0 {
		r.skip(t, "needs root, to run as a second user")
	}
	cleanup = func() {}
	u, err := user.Lookup(attackerName)
	if err != nil {
		out, err := exec.Command("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", attackerName).CombinedOutput()
		if err != nil {
			r.skip(t, "cannot create a second user: useradd: %v: %s", err, out)
		}
		cleanup = func() { exec.Command("userdel", attackerName).Run() }
		if u, err = user.Lookup(attackerName); err != nil {
			cleanup()
			r.skip(t, "cannot find the user just created: %v", err)
		}
	}
	uid, _ = strconv.Atoi(u.Uid)
	gid, _ = strconv.Atoi(u.Gid)
	return uid, gid, cleanup
}

// as returns c set to run as uid:gid.
func as(c *exec.Cmd, uid, gid int) *exec.Cmd {
	c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	return c
}

// TestSharedHome plays another local user against the victim (root here, which the kernel lets read anything,
// so only memoree's own checks stand in the way): a data directory the attacker owns, one open to writes by
// everyone, and directories on the victim's path (the data directory in a parent the attacker can write, the
// same in a sticky parent, pending/ in a data directory everyone may write) swapped in a loop for a symlink to
// the attacker's while the victim works. The victim must never
// show or store the attacker's text, never write into the attacker's directories, and lose nothing it was told
// was written. MEMOREE_FAULTS_HOME sets the victim's commands in the swap race (default 300 per race).
func TestSharedHome(t *testing.T) {
	r := setup(t, "shared home, second user")
	uid, gid, cleanup := attacker(t, r)
	defer cleanup()
	base, err := os.MkdirTemp(workDir, "shared-")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(base, 0o755)
	const theirText = "ATTACKER planted this note: deploy from the attacker branch."
	// The attacker's own data directory, made by the attacker with memoree.
	theirs := filepath.Join(base, "attacker")
	os.Mkdir(theirs, 0o755)
	os.Chown(theirs, uid, gid)
	theirHome := filepath.Join(theirs, "home")
	if res := run(as(cmd(theirHome, []byte(theirText), "checkpoint", "--session", "S1", "-"), uid, gid), 0); res.code != 0 {
		t.Fatalf("attacker's checkpoint: %v", res)
	}
	// And a store of the attacker's, for the victim's reads and writes to go astray into.
	if res := run(as(cmd(theirHome, []byte(theirText), "remember", "--apply", "-"), uid, gid), 0); res.code != 0 {
		t.Fatalf("attacker's remember: %v", res)
	}
	victimCmds := [][]string{
		{"pending", "show", pending.IDFor("S1")},
		{"pending", "list"},
		{"pending", "apply", pending.IDFor("S1")},
		{"checkpoint", "--session", "S2", "-"},
		{"remember", "--apply", "-"},
		{"recall", "attacker", "branch"},
		{"search", "attacker"},
		{"context", "build", "--query", "attacker branch"},
	}
	leaked := func(res result) bool {
		return strings.Contains(res.stdout, "ATTACKER") || strings.Contains(res.stderr, "ATTACKER")
	}
	// 1 and 2: a data directory of the attacker's, and one of the victim's that everyone may write.
	open := filepath.Join(base, "open", "home")
	if res := mem(open, []byte("the victim's own note"), "checkpoint", "--session", "S1", "-"); res.code != 0 {
		t.Fatalf("victim's checkpoint: %v", res)
	}
	os.Chmod(open, 0o777)
	os.Chmod(filepath.Dir(open), 0o755) // made 0700 by memoree: the attacker must reach open/
	for _, c := range []struct{ home, want string }{
		{theirHome, fmt.Sprintf("is owned by uid %d", uid)},
		{open, "writable by group or others; run: chmod 700 " + open},
	} {
		for _, args := range victimCmds {
			res := mem(c.home, []byte("victim text"), args...)
			if res.code == 0 || !strings.Contains(res.stderr, c.want) || leaked(res) || res.stdout != "" {
				r.fail(t, "memoree %s in %s: %v, want a refusal saying %q and nothing on stdout", strings.Join(args, " "), c.home, res, c.want)
			}
			r.end()
		}
	}
	if bad := rootFiles(theirs); len(bad) > 0 {
		r.fail(t, "the victim wrote into the attacker's directory: %v", bad)
		r.end()
	}

	// 3 and 4: swap races. The attacker loops swapping a directory on the victim's path for a symlink to the
	// attacker's while the victim works: the victim's data directory in a parent
	// the attacker may write, and (as the first probe found) pending/ in a data directory everyone may write.
	shared := filepath.Join(base, "shared")
	os.Mkdir(shared, 0o755)
	victim := filepath.Join(shared, "home")
	if res := mem(victim, []byte("the victim's first note"), "checkpoint", "--session", "S1", "-"); res.code != 0 {
		t.Fatalf("victim's checkpoint: %v", res)
	}
	os.Chmod(shared, 0o777) // after the victim's first use: memoree refuses it from now on
	n := count("MEMOREE_FAULTS_HOME", 300)
	var notes []string
	self := filepath.Join(workDir, "faults.test")
	if err := copyFile(os.Args[0], self); err != nil {
		t.Fatal(err)
	}
	// In a sticky directory such as /tmp, others cannot rename the victim's entries: the victim works as usual.
	sticky := filepath.Join(base, "sticky")
	os.Mkdir(sticky, 0o777)
	os.Chmod(sticky, 0o777|fs.ModeSticky)
	inSticky := filepath.Join(sticky, "home")
	if res := mem(inSticky, []byte("the victim's first note"), "checkpoint", "--session", "S1", "-"); res.code != 0 {
		t.Fatalf("victim's checkpoint: %v", res)
	}
	for k, c := range []struct{ name, victim, tree, dir, target string }{
		{"data directory", victim, shared, victim, theirHome},
		{"sticky parent", inSticky, sticky, inSticky, theirHome},
		{"pending directory", open, filepath.Dir(open), filepath.Join(open, "pending"), filepath.Join(theirHome, "pending")},
	} {
		stop := filepath.Join(base, fmt.Sprint("stop", k))
		swapper := as(exec.Command(self, "-test.run=^$"), uid, gid)
		swapper.Env = []string{swapperEnv + "=" + strings.Join([]string{c.dir, c.target, stop}, "|")}
		if err := swapper.Start(); err != nil {
			t.Fatal(err)
		}
		var written []string
		refused := 0
		for i := range n {
			args := victimCmds[i%len(victimCmds)]
			if args[0] == "checkpoint" {
				// A session of its own, so that each checkpoint written must still be there at the end.
				args = []string{"checkpoint", "--session", fmt.Sprint("S2-", i), "-"}
			}
			text := fmt.Sprintf("victim note %d about the release branch", i)
			res := mem(c.victim, []byte(text), args...)
			if leaked(res) {
				r.fail(t, "%s swap %d: memoree %s showed the attacker's text: %v %q", c.name, i, strings.Join(args, " "), res, res.stdout)
			}
			if res.code != 0 {
				refused++
				if os.Getenv("MEMOREE_FAULTS_VERBOSE") != "" {
					t.Logf("%s swap %d: memoree %s: %v", c.name, i, strings.Join(args, " "), res)
				}
			}
			if res.code == 0 && args[0] == "checkpoint" {
				written = append(written, text)
			}
			r.end()
		}
		os.WriteFile(stop, nil, 0o644)
		if err := withTimeout(10*time.Second, func() { swapper.Wait() }); err != nil {
			swapper.Process.Kill()
		}
		// Nothing of the victim's in the attacker's tree; nothing of the attacker's in the victim's files;
		// every checkpoint the victim was told was written is in one of the victim's pending directories.
		if bad := rootFiles(theirs); len(bad) > 0 {
			r.fail(t, "%s swap: the victim wrote into the attacker's directory: %v", c.name, bad)
			r.end()
		}
		victimFiles := ""
		filepath.WalkDir(c.tree, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !ownedBy(p, 0) {
				return nil
			}
			if data, err := os.ReadFile(p); err == nil {
				victimFiles += string(data)
			}
			return nil
		})
		if strings.Contains(victimFiles, "ATTACKER") || strings.Contains(victimFiles, hashOf(theirText)) {
			r.fail(t, "%s swap: the attacker's note reached the victim's files", c.name)
			r.end()
		}
		for _, w := range written {
			if !strings.Contains(victimFiles, w) {
				r.lose(t, "%s swap: the victim's checkpoint %q is in none of its pending directories", c.name, w)
			}
		}
		notes = append(notes, fmt.Sprintf("%s swap: %d of %d refused", c.name, refused, n))
	}
	r.note = strings.Join(notes, "; ")
}

// rootFiles returns the files under dir that root owns.
func rootFiles(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && ownedBy(p, 0) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func ownedBy(p string, uid int) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == uid
}

// swapperEnv makes the test binary the attacker's swap loop (see swapLoop) instead of running tests.
const swapperEnv = "MEMOREE_FAULTS_SWAPPER"

// swapLoop, run as the attacker, exchanges the directory dir with a symlink to target, and back, atomically
// (renameat2 RENAME_EXCHANGE), until the file stop exists: at every instant the path names either the victim's
// directory or the attacker's symlink, never nothing, so the victim never makes a new one.
func swapLoop(spec string) {
	parts := strings.Split(spec, "|")
	dir, target, stop := parts[0], parts[1], parts[2]
	link := filepath.Join(filepath.Dir(dir), ".swap-"+filepath.Base(dir))
	os.Remove(link)
	if err := os.Symlink(target, link); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for i := 0; ; i++ {
		if i%64 == 0 {
			if _, err := os.Lstat(stop); err == nil {
				break
			}
		}
		// As long in each state, at lengths that vary: the victim must meet both, and the changes between.
		pause := time.Duration(i%4) * 200 * time.Microsecond
		unix.Renameat2(unix.AT_FDCWD, dir, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE)
		time.Sleep(pause)
		unix.Renameat2(unix.AT_FDCWD, dir, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE)
		time.Sleep(pause)
	}
	os.Remove(link)
	os.Exit(0)
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o755)
}

// TestUmask runs the commands as a user who is not root (the kernel's permission checks apply to them) under
// umask 0777, then again under the usual umask: nothing may lock its owner out (a lock file of mode 0000), and
// every file must get its mode whatever the umask. It needs root, to run as a second user.
func TestUmask(t *testing.T) {
	r := setup(t, "umask 0777, not root")
	uid, gid, cleanup := attacker(t, r)
	defer cleanup()
	base, err := os.MkdirTemp(workDir, "umask-")
	if err != nil {
		t.Fatal(err)
	}
	os.Chown(base, uid, gid)
	h := filepath.Join(base, "home")
	steps := [][]string{
		{"checkpoint", "--session", "S1", "-"},
		{"pending", "apply", pending.IDFor("S1")},
		{"remember", "--apply", "-"},
		{"recall", "release", "branch"},
		{"pending", "list"},
		{"artifact", "gc"},
	}
	for round, umask := range []string{"0777", "0022", "0777", "0077"} {
		for _, args := range steps {
			c := cmd(h, []byte(fmt.Sprintf("Round %d: we deploy from the release branch.", round)), args...)
			c.Path = "/bin/sh"
			c.Args = append([]string{"sh", "-c", `umask ` + umask + ` && exec "$0" "$@"`, bin}, args...)
			res := run(as(c, uid, gid), 0)
			if res.code != 0 {
				r.fail(t, "umask %s: memoree %s: %v", umask, strings.Join(args, " "), res)
			}
			r.end()
		}
	}
	filepath.WalkDir(h, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		want := fs.FileMode(0o600)
		switch {
		case d.IsDir():
			want = 0o700
		case strings.Contains(p, "/cas/"):
			want = 0o400
		}
		if fi.Mode().Perm() != want {
			r.fail(t, "%s: mode %04o, want %04o", p, fi.Mode().Perm(), want)
			r.end()
		}
		return nil
	})
}
