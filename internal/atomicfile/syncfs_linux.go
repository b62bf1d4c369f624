package atomicfile

import "golang.org/x/sys/unix"

// syncFS flushes the filesystem that holds d, which every file and directory of the batch is on; if syncfs is
// refused it syncs each one.
func syncFS(d *Dir, files []File, dirs map[*Dir]bool) error {
	f, err := d.root.Open(".")
	if err != nil {
		return d.pathError("sync", ".", err)
	}
	defer f.Close()
	if err := unix.Syncfs(int(f.Fd())); err == nil {
		return nil
	}
	return syncEach(files, dirs)
}
