package jail

import (
	"errors"
	"sync"
)

// Keeper keeps one jail per session ready, and fresh: the masks are what a scan found, and a file that
// becomes secret later (an approved command writes .env) would not be masked. So whatever may have changed
// which files are secret (a command that ran outside the jail, a file tool's write of a secret file) calls
// Stale, which starts a new scan at once; the next jailed command waits for it, and for a new jail if the
// masks changed. The old jail serves the commands still running in it, and closes after the last.
type Keeper struct {
	cfg Config

	mu   sync.Mutex
	cond *sync.Cond
	cur  *Jail
	all  map[*Jail]bool // every jail not yet closed, retired ones included
	err  error          // why the last start failed
	// want grows with every Stale; have is the generation of the scan cur was built or checked against.
	want, have uint64
	busy       bool // a refresh runs
	closed     bool
	// told are the incomplete scans already reported (Untold), by what stopped them.
	told map[string]bool
}

// NewKeeper returns a keeper that starts nothing until asked.
func NewKeeper(cfg Config) *Keeper {
	cfg.listings = &listings{}
	k := &Keeper{cfg: cfg, all: map[*Jail]bool{}, want: 1}
	k.cond = sync.NewCond(&k.mu)
	return k
}

// Stale says that which files are secret may have changed: a new scan starts now, and the next Get
// waits for it.
func (k *Keeper) Stale() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.closed || (k.cur == nil && !k.busy) {
		return // nothing built yet: the first scan will see the change
	}
	k.want++
	k.kick()
}

// Get returns a running jail whose masks are as fresh as the last Stale asked, starting or refreshing it
// if need be.
func (k *Keeper) Get() (*Jail, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	target := k.want
	tried := false
	for {
		if k.closed {
			return nil, errors.New("jail: Warden is shutting down")
		}
		if k.cur != nil && !k.cur.Alive() {
			k.cur = nil
		}
		if !k.busy {
			if k.cur != nil && k.have >= target {
				return k.cur, nil
			}
			if tried && k.err != nil {
				return nil, k.err
			}
			tried = true
			k.kick()
		}
		k.cond.Wait()
	}
}

// Untold says, once per session for each reason, that the scan behind j could not look at everything, so
// that the person (and the model) learn why some reads in the jail fail; "" when it could, or this was
// said already.
func (k *Keeper) Untold(j *Jail) string {
	why := j.masks.Incomplete
	if why == "" {
		return ""
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.told[why] {
		return ""
	}
	if k.told == nil {
		k.told = map[string]bool{}
	}
	k.told[why] = true
	return "[Warden's read-only jail could not search everything it shows for secrets (" + why + "): what it did " +
		"not look at is hidden from read-only commands, which fail there with \"permission denied\"; a command " +
		"that needs it can run outside the jail with \"dangerously_unsandboxed\": true, which asks the user]"
}

// Masks are what the current jail hides (empty before one started).
func (k *Keeper) Masks() Masks {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.cur == nil {
		return Masks{}
	}
	return k.cur.masks
}

// kick starts a refresh unless one runs. The caller holds mu.
func (k *Keeper) kick() {
	if !k.busy && !k.closed {
		k.busy = true
		go k.refresh()
	}
}

// refresh scans, and starts a new jail when there is none or the masks changed, until the current jail
// is as fresh as the latest Stale asked.
func (k *Keeper) refresh() {
	k.mu.Lock()
	defer func() {
		k.busy = false
		k.cond.Broadcast()
		k.mu.Unlock()
	}()
	for !k.closed {
		g := k.want
		cur := k.cur
		if cur != nil && !cur.Alive() {
			cur = nil
		}
		if cur != nil && k.have >= g {
			return
		}
		k.mu.Unlock()
		masks := scan(k.cfg)
		var nj *Jail
		var err error
		if cur == nil || !masks.equal(cur.masks) {
			nj, err = Start(k.cfg, masks)
			if err != nil {
				// A masked file may have gone between the scan and the start: once more, afresh.
				masks = scan(k.cfg)
				nj, err = Start(k.cfg, masks)
			}
		}
		k.mu.Lock()
		switch {
		case k.closed:
			if nj != nil {
				go nj.Close()
			}
			return
		case err != nil:
			// The masks changed and no jail with the new ones could be had: the old one must not serve
			// (it would show what is now secret), so jailed commands fail until a start succeeds.
			k.err = err
			if old := k.cur; old != nil {
				k.cur = nil
				old.retire()
				k.forgetLater(old)
			}
			k.have = g
			return
		case nj != nil:
			old := k.cur
			k.cur, k.err = nj, nil
			k.all[nj] = true
			if old != nil {
				old.retire()
				k.forgetLater(old)
			}
		}
		k.have = g
		k.cond.Broadcast()
	}
}

// forgetLater drops a retired jail from the list once it has closed.
func (k *Keeper) forgetLater(j *Jail) {
	go func() {
		<-j.cl.Done()
		k.mu.Lock()
		delete(k.all, j)
		k.mu.Unlock()
	}()
}

// Close stops every jail and whatever runs in them.
func (k *Keeper) Close() {
	k.mu.Lock()
	k.closed = true
	var js []*Jail
	for j := range k.all {
		js = append(js, j)
	}
	k.all, k.cur = map[*Jail]bool{}, nil
	k.cond.Broadcast()
	k.mu.Unlock()
	for _, j := range js {
		j.Close()
	}
}
