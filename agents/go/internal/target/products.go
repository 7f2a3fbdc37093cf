package target

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// products answers GET /products?page=N: a page of --products products, as a shop's list
// endpoint would. An uncached answer waits --products-delay (the database query) and keeps a core
// busy for --products-cpu (mapping rows, rendering), then encodes the page as JSON. With --cache
// the encoded page is kept in memory and later requests for it skip all three: the before/after
// of the cache write-up. Concurrent misses of one page each do the work (no request
// coalescing), as a plain read-through cache would.
type products struct {
	perPage    int
	delay, cpu time.Duration
	cache      *pageCache // nil without --cache
}

// maxPage bounds the pages (and so the cache's size).
const maxPage = 1000

type product struct {
	ID         int    `json:"id"`
	Name       string `json:"name"`
	Category   string `json:"category"`
	PriceCents int    `json:"priceCents"`
	Stock      int    `json:"stock"`
}

type productPage struct {
	Page     int       `json:"page"`
	Products []product `json:"products"`
}

var categories = [...]string{"books", "garden", "kitchen", "music", "outdoor", "toys"}

func newProducts(o Options, registry prometheus.Registerer) *products {
	p := &products{perPage: o.Products, delay: o.ProductsDelay, cpu: o.ProductsCPU}
	if o.Cache {
		p.cache = newPageCache(o.CacheTTL, registry)
	}
	return p
}

func (p *products) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	page := 1
	if raw := r.URL.Query().Get("page"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > maxPage {
			problem(w, http.StatusBadRequest, fmt.Sprintf("page: must be a whole number from 1 to %d (got %q)", maxPage, raw))
			return
		}
		page = n
	}
	var body []byte
	source := "none"
	if p.cache != nil {
		if cached, ok := p.cache.get(page); ok {
			body, source = cached, "hit"
		} else {
			source = "miss"
		}
	}
	if body == nil {
		var err error
		if body, err = p.query(r, page); err != nil {
			return // the client went away during the wait
		}
		if p.cache != nil {
			p.cache.put(page, body)
		}
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", itoa(len(body)))
	h.Set("X-Cache", source)
	_, _ = w.Write(body)
}

// query is the uncached answer: the database's wait, the CPU, the page encoded.
func (p *products) query(r *http.Request, page int) ([]byte, error) {
	if p.delay > 0 {
		timer := time.NewTimer(p.delay)
		select {
		case <-timer.C:
		case <-r.Context().Done():
			timer.Stop()
			return nil, r.Context().Err()
		}
	}
	spin(p.cpu)
	list := make([]product, p.perPage)
	first := (page-1)*p.perPage + 1
	for i := range list {
		id := first + i
		list[i] = product{
			ID:         id,
			Name:       fmt.Sprintf("Product %d", id),
			Category:   categories[id%len(categories)],
			PriceCents: 199 + id*37%10000,
			Stock:      id * 13 % 250,
		}
	}
	return json.Marshal(productPage{Page: page, Products: list})
}

// spin keeps the calling goroutine on a core for d of wall time.
func spin(d time.Duration) {
	if d <= 0 {
		return
	}
	for end := time.Now().Add(d); time.Now().Before(end); {
	}
}

// pageCache keeps encoded pages, each until its TTL ends (0: forever); hits and misses are
// counted on /metrics (versus_target_products_cache_hits_total, …_misses_total).
type pageCache struct {
	ttl          time.Duration
	mu           sync.RWMutex
	pages        map[int]cachedPage
	hits, misses prometheus.Counter
}

type cachedPage struct {
	body    []byte
	expires time.Time // zero: never
}

func newPageCache(ttl time.Duration, registry prometheus.Registerer) *pageCache {
	c := &pageCache{
		ttl:    ttl,
		pages:  map[int]cachedPage{},
		hits:   prometheus.NewCounter(prometheus.CounterOpts{Name: "versus_target_products_cache_hits_total", Help: "/products answers served from the cache."}),
		misses: prometheus.NewCounter(prometheus.CounterOpts{Name: "versus_target_products_cache_misses_total", Help: "/products answers the cache did not have (computed, then kept)."}),
	}
	registry.MustRegister(c.hits, c.misses)
	return c
}

func (c *pageCache) get(page int) ([]byte, bool) {
	c.mu.RLock()
	entry, ok := c.pages[page]
	c.mu.RUnlock()
	if ok && (entry.expires.IsZero() || time.Now().Before(entry.expires)) {
		c.hits.Inc()
		return entry.body, true
	}
	c.misses.Inc()
	return nil, false
}

func (c *pageCache) put(page int, body []byte) {
	entry := cachedPage{body: body}
	if c.ttl > 0 {
		entry.expires = time.Now().Add(c.ttl)
	}
	c.mu.Lock()
	c.pages[page] = entry
	c.mu.Unlock()
}
