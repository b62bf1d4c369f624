package atomicfile

import (
	"os"

	"golang.org/x/sys/unix"
)

// syncFS flushes the filesystem that holds dir, which every file and directory of the batch is on (they
// share the store's directory); if syncfs is refused it syncs each one.
func syncFS(dir string, files []string, dirs map[string]bool) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := unix.Syncfs(int(d.Fd())); err == nil {
		return nil
	}
	return syncEach(files, dirs)
}
