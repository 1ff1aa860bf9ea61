//go:build unix

package sqlite

import (
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// shmHeaderWords is the size of the two copies of the WAL-index header at the
// start of the -shm file (2 × 48 bytes, https://sqlite.org/walformat.html).
// Every committed transaction rewrites both copies with a new change counter
// (iChange) and checksum, in any process.
const shmHeaderWords = 2 * 48 / 4

// shmWatch is a read-only mapping of the header of a database's WAL-index, read without locks and without a syscall: a commit by any
// connection shows as a different header.
type shmWatch struct {
	mem []byte
	key shmKey
}

type shmKey struct{ dev, ino uint64 }

// shmFiles holds one descriptor per -shm file for the whole process. A
// descriptor of that file must never be closed while SQLite connections of
// this process use it: closing any descriptor of a file drops every POSIX
// lock the process holds on it, including SQLite's. So the descriptor stays
// open until the last Store on the file has closed its connections.
var shmFiles = struct {
	sync.Mutex
	m      map[shmKey]*shmFile
	leaked []int
}{m: map[shmKey]*shmFile{}}

type shmFile struct {
	fd   int
	refs int
}

// openShmWatch maps the WAL-index of the database at dbPath, which must be
// open (in WAL mode) by this process.
func openShmWatch(dbPath string) (*shmWatch, error) {
	name := dbPath + "-shm"
	shmFiles.Lock()
	defer shmFiles.Unlock()
	var st syscall.Stat_t
	if err := syscall.Stat(name, &st); err != nil {
		return nil, err
	}
	key := shmKey{uint64(st.Dev), uint64(st.Ino)}
	f := shmFiles.m[key]
	if f == nil {
		fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			return nil, err
		}
		if err := syscall.Fstat(fd, &st); err != nil || (shmKey{uint64(st.Dev), uint64(st.Ino)}) != key {
			// Replaced between Stat and Open: keep the descriptor open for
			// the life of the process (closing it could drop SQLite's locks)
			// and let the cache fall back to PRAGMA data_version.
			shmFiles.leaked = append(shmFiles.leaked, fd)
			return nil, fmt.Errorf("%s changed while opening it", name)
		}
		f = &shmFile{fd: fd}
		shmFiles.m[key] = f
	}
	const size = 4 * shmHeaderWords
	if st.Size < size {
		return nil, fmt.Errorf("%s holds no WAL-index yet", name)
	}
	mem, err := syscall.Mmap(f.fd, 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	f.refs++
	return &shmWatch{mem: mem, key: key}, nil
}

// read loads both header copies.
func (w *shmWatch) read(dst *[shmHeaderWords]uint32) {
	for i := range dst {
		dst[i] = atomic.LoadUint32((*uint32)(unsafe.Pointer(&w.mem[4*i])))
	}
}

// unmap drops the mapping; the descriptor stays until release.
func (w *shmWatch) unmap() error { return syscall.Munmap(w.mem) }

// release gives up this watch's hold on the -shm descriptor, closing it when
// no Store of this process uses the file any more. Call it only after the
// Store's connections are closed.
func (w *shmWatch) release() error {
	shmFiles.Lock()
	defer shmFiles.Unlock()
	f := shmFiles.m[w.key]
	if f == nil {
		return nil
	}
	f.refs--
	if f.refs > 0 {
		return nil
	}
	delete(shmFiles.m, w.key)
	return syscall.Close(f.fd)
}
