package sqlite

import (
	"context"
	"database/sql"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/sqlstore"
)

// The read cache keeps workflow list pages (with their encoded bytes), API
// keys by hash and workflow rows by id: the reads every listing request and
// every version submission make. Correctness rests on one generation counter
// per kind of entry (list pages, keys, rows):
//
//   - every write transaction of this Store bumps, after its commit, the
//     counters of the kinds it can change (its scope: a version or a run
//     leaves the API keys alone, see writeScope);
//   - every cached read first checks whether any other connection, in this
//     process or another one (`edgeflow admin bootstrap`), has committed to
//     the file since the last check (the WAL-index header or PRAGMA
//     data_version on a dedicated connection, see current); a change bumps
//     every counter;
//   - a read loads its kind's counter after that check and before its query,
//     and an entry serves only readers holding the counter it was filled
//     under.
//
// So an entry never outlives a commit that happened before a reader
// started: either the commit is seen by the check (and every counter moves
// on), or it is this Store's own and bumped the counters of what it changed
// before the writing call returned. An entry filled from a snapshot taken
// just before a commit carries the counter of before the bump and is never
// served. When the check fails (a closed or cancelled connection), the read
// bypasses the cache.
//
// The Store's own commits also change the WAL-index header. So that they do
// not count as foreign, a write reads the header while it holds the write
// lock (nobody else can commit then) and again after its commit: when the
// check had seen everything before the write and the header after it is one
// commit further (the change counter, iChange, grows by exactly one per
// commit), that one commit is the write's own and the check adopts the new
// header. Anything else is left for the check to see as a foreign change.
type readCache struct {
	listGen atomic.Uint64 // generation of workflow list pages
	keyGen  atomic.Uint64 // generation of API keys
	rowGen  atomic.Uint64 // generation of workflow rows by id

	watchMu   sync.Mutex // guards the fields up to lastOK
	checked   sync.Cond  // on watchMu: a check finished
	watchDB   *sql.DB
	watch     *sql.Conn
	watchStmt *sql.Stmt // used by the one running check only
	lastDV    int64
	watchOK   bool   // the watch connection is open
	checking  bool   // a check is running
	started   uint64 // number of checks started
	finished  uint64 // number of the last finished check
	lastOK    bool   // whether check number finished succeeded

	shmMu   sync.Mutex // guards shm and shmLast
	shm     *shmWatch  // nil: check PRAGMA data_version instead
	shmGone *shmWatch  // shm after close, to release once the connections are closed
	shmLast [shmHeaderWords]uint32

	mu         sync.Mutex
	listMapGen uint64 // generation of every entry in lists
	keyMapGen  uint64 // generation of every entry in keys
	rowMapGen  uint64 // generation of every entry in rows
	lists      map[listKey]*listEntry
	keys       map[string]edgeflow.APIKey
	rows       map[string]*rowSlot
}

// rowSlot is a workflow row by id. ver counts CreateVersion's commits to the
// row, which do not end the rows' generation (a submission would otherwise
// empty the cache of every other workflow): CreateVersion bumps ver and
// patches the cached row instead (patchRow), and a reader stores what it
// read only if ver did not move meanwhile.
type rowSlot struct {
	ver uint64
	w   *edgeflow.Workflow // nil: not cached (the slot only keeps ver)
}

// writeScope says which kinds of cache entries a write transaction can
// change (sqlstore.Scope, which the shared store's writes name).
type writeScope = sqlstore.Scope

const (
	scopeNone  = sqlstore.ScopeNone
	scopePages = sqlstore.ScopePages
	scopeKeys  = sqlstore.ScopeKeys
	scopeRows  = sqlstore.ScopeRows
	scopeLists = sqlstore.ScopeLists
	scopeAll   = sqlstore.ScopeAll
)

// maxCachedPages and maxCachedKeys bound the cache (about 30 KB per page of 50
// workflows); when full it starts over.
const (
	maxCachedPages = 128
	maxCachedKeys  = 1024
	maxCachedRows  = 4096
)

type listKey struct {
	project, cursor string
	limit           int
}

type listEntry struct {
	page     edgeflow.Page[edgeflow.Workflow]
	encoding string
	encoded  []byte
}

// openWatch opens the connection that reads PRAGMA data_version.
func (c *readCache) openWatch(ctx context.Context, dsn string) error {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return err
	}
	st, err := conn.PrepareContext(ctx, `PRAGMA data_version`)
	if err != nil {
		conn.Close()
		db.Close()
		return err
	}
	c.checked.L = &c.watchMu
	c.watchDB, c.watch, c.watchStmt = db, conn, st
	if err := st.QueryRowContext(ctx).Scan(&c.lastDV); err != nil {
		c.close()
		return err
	}
	c.watchOK = true
	return nil
}

// watchShm makes current read the WAL-index header of w instead of asking
// PRAGMA data_version.
func (c *readCache) watchShm(w *shmWatch) {
	c.shmMu.Lock()
	defer c.shmMu.Unlock()
	c.shm = w
	w.read(&c.shmLast)
}

// releaseShm lets go of the WAL-index file; call it after every connection
// of the Store is closed.
func (c *readCache) releaseShm() error {
	c.shmMu.Lock()
	defer c.shmMu.Unlock()
	if c.shmGone == nil {
		return nil
	}
	err := c.shmGone.release()
	c.shmGone = nil
	return err
}

func (c *readCache) close() error {
	c.shmMu.Lock()
	if c.shm != nil {
		c.shm.unmap()
		c.shmGone, c.shm = c.shm, nil
	}
	c.shmMu.Unlock()
	c.watchMu.Lock()
	defer c.watchMu.Unlock()
	c.watchOK = false
	for c.checking {
		c.checked.Wait()
	}
	if c.watchDB == nil {
		return nil
	}
	c.watchStmt.Close()
	c.watch.Close()
	err := c.watchDB.Close()
	c.watchDB = nil
	return err
}

// invalidate ends the current generation of the kinds in sc.
func (c *readCache) invalidate(sc writeScope) {
	if sc&scopePages != 0 {
		c.listGen.Add(1)
	}
	if sc&scopeKeys != 0 {
		c.keyGen.Add(1)
	}
	if sc&scopeRows != 0 {
		c.rowGen.Add(1)
	}
}

// hdrIChange is the index of iChange, the commit counter, in the WAL-index
// header (after iVersion and an unused word).
const hdrIChange = 2

// beginWrite reads the WAL-index header for endWrite; call it while holding
// the write lock (after BEGIN IMMEDIATE). ok is false without a mapped
// WAL-index.
func (c *readCache) beginWrite() (h [shmHeaderWords]uint32, ok bool) {
	c.shmMu.Lock()
	defer c.shmMu.Unlock()
	if c.shm == nil {
		return h, false
	}
	c.shm.read(&h)
	return h, true
}

// endWrite ends the generation of the kinds in sc after a write transaction
// is over, committed or not, and when the header changed by exactly the
// write's own commit since beginWrite read h0 (and the check had seen h0),
// adopts the new header so that the commit does not count as foreign.
func (c *readCache) endWrite(h0 [shmHeaderWords]uint32, ok bool, sc writeScope) {
	c.invalidate(sc)
	if !ok {
		return
	}
	c.shmMu.Lock()
	defer c.shmMu.Unlock()
	if c.shm == nil || c.shmLast != h0 {
		return
	}
	var h [shmHeaderWords]uint32
	c.shm.read(&h)
	const half = shmHeaderWords / 2
	if [half]uint32(h[:half]) != [half]uint32(h[half:]) {
		return // a header being written: leave it to the check
	}
	if h[hdrIChange] == h0[hdrIChange]+1 {
		c.shmLast = h
	}
}

// current checks for commits by other connections and returns the generation
// of kind (scopeLists or scopeKeys) a read may use; ok is false when the
// check failed and the read must go to the database.
//
// Where the WAL-index can be mapped (unix), the check compares its header
// with the one seen last: SQLite rewrites it, with a new change counter, on
// every commit of any connection of any process, and readers find the
// current snapshot through it, so a commit is visible to readers exactly
// when the header has changed. That costs a few loads, no lock and no
// syscall. Otherwise it asks PRAGMA data_version:
//
// The check has to start after the caller arrived (a check already running
// may have read data_version before a commit the caller must see), but one
// check serves every caller that arrived before it started: concurrent
// readers wait for the running check to end and then share the next one, so
// under load there are far fewer checks than reads, one at a time.
func (c *readCache) current(ctx context.Context, kind writeScope) (gen uint64, ok bool) {
	c.shmMu.Lock()
	if c.shm != nil {
		var h [shmHeaderWords]uint32
		c.shm.read(&h)
		if h != c.shmLast {
			c.shmLast = h
			c.invalidate(scopeAll)
		}
		c.shmMu.Unlock()
		return c.load(kind), true
	}
	c.shmMu.Unlock()
	c.watchMu.Lock()
	need := c.started + 1 // the first check that starts after now
	for c.finished < need {
		if !c.watchOK {
			c.watchMu.Unlock()
			return 0, false
		}
		if c.checking {
			c.checked.Wait()
			continue
		}
		c.checking = true
		c.started++
		seq := c.started
		c.watchMu.Unlock()
		var dv int64
		err := c.watchStmt.QueryRowContext(ctx).Scan(&dv)
		c.watchMu.Lock()
		if err == nil && dv != c.lastDV {
			c.lastDV = dv
			c.invalidate(scopeAll)
		}
		c.lastOK = err == nil
		c.finished = seq
		c.checking = false
		c.checked.Broadcast()
	}
	ok = c.lastOK
	c.watchMu.Unlock()
	if !ok {
		return 0, false
	}
	return c.load(kind), true
}

// load returns the generation of kind.
func (c *readCache) load(kind writeScope) uint64 {
	switch kind {
	case scopeKeys:
		return c.keyGen.Load()
	case scopeRows:
		return c.rowGen.Load()
	}
	return c.listGen.Load()
}

// resetLocked drops every entry of *m when gen is newer than *mapGen, and
// reports whether an entry of gen may be stored. c.mu must be held.
func resetLocked[K comparable, V any](m *map[K]V, mapGen *uint64, gen uint64) bool {
	if gen < *mapGen {
		return false // a reader of an older generation: do not store
	}
	if gen > *mapGen || *m == nil {
		*mapGen = gen
		*m = map[K]V{}
	}
	return true
}

func (c *readCache) page(gen uint64, k listKey) *listEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.listMapGen {
		return nil
	}
	return c.lists[k]
}

func (c *readCache) putPage(gen uint64, k listKey, e *listEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !resetLocked(&c.lists, &c.listMapGen, gen) {
		return
	}
	if len(c.lists) >= maxCachedPages {
		clear(c.lists)
	}
	c.lists[k] = e
}

// row returns the cached workflow id of generation gen (a copy the caller
// owns), or nil and the slot's ver to store the row read under.
func (c *readCache) row(gen uint64, id string) (*edgeflow.Workflow, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.rowMapGen {
		return nil, 0
	}
	slot := c.rows[id]
	if slot == nil {
		return nil, 0
	}
	if slot.w == nil {
		return nil, slot.ver
	}
	return cloneWorkflow(slot.w), slot.ver
}

// putRow stores w, read under generation gen and slot version ver.
func (c *readCache) putRow(gen, ver uint64, w *edgeflow.Workflow) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !resetLocked(&c.rows, &c.rowMapGen, gen) {
		return
	}
	var cur uint64
	if slot := c.rows[w.ID]; slot != nil {
		cur = slot.ver
	}
	if cur != ver {
		return // CreateVersion committed to the row meanwhile
	}
	if len(c.rows) >= maxCachedRows {
		clear(c.rows)
	}
	c.rows[w.ID] = &rowSlot{ver: ver, w: cloneWorkflow(w)}
}

// patchRow records CreateVersion's commit of version versionID to workflow
// id: the row's current version moved, nothing else did.
func (c *readCache) patchRow(id, versionID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rows == nil {
		c.rows = map[string]*rowSlot{}
	}
	slot := c.rows[id]
	if slot == nil {
		slot = &rowSlot{}
		c.rows[id] = slot
	}
	slot.ver++
	if slot.w != nil {
		slot.w.CurrentVersionID = versionID
	}
}

// cloneWorkflow copies w with its slices and maps.
func cloneWorkflow(w *edgeflow.Workflow) *edgeflow.Workflow {
	c := *w
	c.EnvVars = slices.Clone(w.EnvVars)
	if w.Dependencies != nil {
		c.Dependencies = make(map[string]string, len(w.Dependencies))
		for k, v := range w.Dependencies {
			c.Dependencies[k] = v
		}
	}
	if w.DeployConfig != nil {
		dc := *w.DeployConfig
		dc.Route = clonePtr(w.DeployConfig.Route)
		dc.Retention = clonePtr(w.DeployConfig.Retention)
		dc.RateLimit = clonePtr(w.DeployConfig.RateLimit)
		c.DeployConfig = &dc
	}
	return &c
}

func (c *readCache) key(gen uint64, hash []byte) (edgeflow.APIKey, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.keyMapGen {
		return edgeflow.APIKey{}, false
	}
	k, ok := c.keys[string(hash)]
	return k, ok
}

func (c *readCache) putKey(gen uint64, k edgeflow.APIKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !resetLocked(&c.keys, &c.keyMapGen, gen) {
		return
	}
	if len(c.keys) >= maxCachedKeys {
		clear(c.keys)
	}
	c.keys[string(k.Hash)] = k
}

// cloneKey copies k's slices and times so the caller cannot reach the cache.
func cloneKey(k edgeflow.APIKey) *edgeflow.APIKey {
	k.Hash = slices.Clone(k.Hash)
	k.Scopes = slices.Clone(k.Scopes)
	k.ExpiresAt, k.LastUsedAt, k.RevokedAt = clonePtr(k.ExpiresAt), clonePtr(k.LastUsedAt), clonePtr(k.RevokedAt)
	return &k
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// listWorkflows returns the page of ListWorkflows with the cache entry it
// came from (nil when the cache was bypassed).
func (s *Store) listWorkflows(ctx context.Context, projectID string, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.Workflow], *listEntry, uint64, error) {
	gen, ok := s.cache.current(ctx, scopeLists)
	k := listKey{project: projectID, cursor: opts.Cursor, limit: sqlstore.PageLimit(opts.Limit)}
	if ok {
		if e := s.cache.page(gen, k); e != nil {
			return e.page, e, gen, nil
		}
	}
	page, err := s.shared.ListWorkflows(ctx, projectID, opts)
	if err != nil || !ok {
		return page, nil, gen, err
	}
	e := &listEntry{page: page}
	s.cache.putPage(gen, k, e)
	return page, e, gen, nil
}

// ListWorkflowsEncoded returns encode(page), where page is what ListWorkflows
// returns for the same arguments, and caches the bytes with the page: as
// long as nothing has been written to the database, a repeated call returns
// the same bytes without running encode. encoding names what encode produces
// (callers with different encoders must use different names). The returned
// bytes are shared: callers must not modify them.
func (s *Store) ListWorkflowsEncoded(ctx context.Context, projectID string, opts edgeflow.ListOptions, encoding string,
	encode func(edgeflow.Page[edgeflow.Workflow]) ([]byte, error)) ([]byte, error) {
	page, e, gen, err := s.listWorkflows(ctx, projectID, opts)
	if err != nil {
		return nil, err
	}
	if e != nil {
		s.cache.mu.Lock()
		b, enc := e.encoded, e.encoding
		s.cache.mu.Unlock()
		if b != nil && enc == encoding {
			return b, nil
		}
	}
	b, err := encode(page)
	if err != nil {
		return nil, err
	}
	if e != nil {
		s.cache.mu.Lock()
		if gen == s.cache.listMapGen {
			e.encoded, e.encoding = b, encoding
		}
		s.cache.mu.Unlock()
	}
	return b, nil
}
