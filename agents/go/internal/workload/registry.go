package workload

import (
	"fmt"
	"sort"
	"sync"
)

// Registry holds the workloads an agent can run; the agent advertises exactly what it holds.
type Registry struct {
	mu        sync.RWMutex
	workloads map[string]Workload
}

// NewRegistry returns a registry holding the given workloads.
func NewRegistry(ws ...Workload) *Registry {
	r := &Registry{workloads: map[string]Workload{}}
	for _, w := range ws {
		r.MustRegister(w)
	}
	return r
}

// Register adds a workload; a second workload of the same name is an error.
func (r *Registry) Register(w Workload) error {
	name := w.Info().Name
	if name == "" {
		return fmt.Errorf("workload has no name")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.workloads[name]; ok {
		return fmt.Errorf("workload %q is registered twice", name)
	}
	r.workloads[name] = w
	return nil
}

// MustRegister is Register for built-in workloads, where a clash is a programming error.
func (r *Registry) MustRegister(w Workload) {
	if err := r.Register(w); err != nil {
		panic(err)
	}
}

// Get returns the named workload.
func (r *Registry) Get(name string) (Workload, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	w, ok := r.workloads[name]
	return w, ok
}

// All returns the workloads sorted by name.
func (r *Registry) All() []Workload {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Workload, 0, len(r.workloads))
	for _, w := range r.workloads {
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Info().Name < out[j].Info().Name })
	return out
}

// Capabilities returns what the agent advertises: every workload's name and its extra
// capabilities, sorted and without repeats.
func (r *Registry) Capabilities() []string {
	seen := map[string]bool{}
	for _, w := range r.All() {
		seen[w.Info().Name] = true
		if c, ok := w.(Capabilities); ok {
			for _, name := range c.Capabilities() {
				seen[name] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for name := range seen {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}
