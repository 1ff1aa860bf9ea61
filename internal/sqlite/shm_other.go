//go:build !unix

package sqlite

import "errors"

const shmHeaderWords = 24

// shmWatch is unavailable here: the cache checks PRAGMA data_version.
type shmWatch struct{}

func openShmWatch(string) (*shmWatch, error) {
	return nil, errors.New("no shared memory watch on this system")
}

func (w *shmWatch) read(*[shmHeaderWords]uint32) {}
func (w *shmWatch) unmap() error                 { return nil }
func (w *shmWatch) release() error               { return nil }
