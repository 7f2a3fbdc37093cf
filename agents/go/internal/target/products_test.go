package target

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"
)

type page struct {
	Page     int
	Products []struct {
		ID       int
		Name     string
		Category string
	}
}

func decodePage(t *testing.T, a answer) page {
	t.Helper()
	if a.status != http.StatusOK || a.header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET /products = %d %q: %s", a.status, a.header.Get("Content-Type"), a.body)
	}
	var p page
	if err := json.Unmarshal(a.body, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestProductsWithoutCacheComputeEveryAnswer(t *testing.T) {
	server := start(t, "--products", "25", "--products-delay", "1ms", "--products-cpu", "1ms")
	for range 2 {
		a := get(t, server.URL+"/products?page=3")
		p := decodePage(t, a)
		if p.Page != 3 || len(p.Products) != 25 || p.Products[0].ID != 51 || p.Products[24].ID != 75 || p.Products[0].Name != "Product 51" {
			t.Fatalf("page 3 of 25 = %+v", p)
		}
		if a.header.Get("X-Cache") != "none" {
			t.Fatalf("X-Cache %q without --cache, want none", a.header.Get("X-Cache"))
		}
	}
	if first := decodePage(t, get(t, server.URL+"/products")); first.Page != 1 || first.Products[0].ID != 1 {
		t.Fatalf("no ?page: page %d from id %d, want page 1 from id 1", first.Page, first.Products[0].ID)
	}
	for _, bad := range []string{"0", "x", "1001"} {
		wantContains(t, errorOf(t, get(t, server.URL+"/products?page="+bad), http.StatusBadRequest), "page:", "from 1 to 1000", bad)
	}
	if metrics := string(get(t, server.URL+"/metrics").body); contains(metrics, "versus_target_products_cache") {
		t.Fatal("/metrics has cache counters without --cache")
	}
}

func TestCacheAnswersTheSecondCallWithoutTheDelayAndCountsTheHit(t *testing.T) {
	const delay = 2 * time.Second
	server := start(t, "--cache", "--products-delay", delay.String())

	began := time.Now()
	miss := get(t, server.URL+"/products?page=2")
	if took := time.Since(began); took < delay {
		t.Fatalf("the first call took %v, less than the %v delay", took, delay)
	}
	if miss.header.Get("X-Cache") != "miss" {
		t.Fatalf("first call X-Cache %q, want miss", miss.header.Get("X-Cache"))
	}
	// The second call must not wait for the delay: it is cancelled if it takes that long.
	ctx, cancel := context.WithTimeout(context.Background(), delay)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, server.URL+"/products?page=2", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("the second call did not come from the cache within the delay: %v", err)
	}
	resp.Body.Close()
	if resp.Header.Get("X-Cache") != "hit" {
		t.Fatalf("second call X-Cache %q, want hit", resp.Header.Get("X-Cache"))
	}
	metrics := get(t, server.URL+"/metrics").body
	if hits, misses := metricValue(t, metrics, "versus_target_products_cache_hits_total"), metricValue(t, metrics, "versus_target_products_cache_misses_total"); hits != 1 || misses != 1 {
		t.Fatalf("cache counters: %v hits, %v misses; want 1 and 1", hits, misses)
	}
}

func TestCachedPagesAreKeptApartAndExpireAfterTheTTL(t *testing.T) {
	server := start(t, "--cache", "--cache-ttl", "50ms", "--products-delay", "0", "--products", "3")
	first := get(t, server.URL+"/products?page=1")
	other := get(t, server.URL+"/products?page=4")
	if other.header.Get("X-Cache") != "miss" || decodePage(t, other).Products[0].ID != 10 {
		t.Fatalf("page 4 after page 1: X-Cache %q, %s", other.header.Get("X-Cache"), other.body)
	}
	if again := get(t, server.URL+"/products?page=1"); again.header.Get("X-Cache") != "hit" || string(again.body) != string(first.body) {
		t.Fatalf("page 1 again: X-Cache %q", again.header.Get("X-Cache"))
	}
	time.Sleep(100 * time.Millisecond)
	if expired := get(t, server.URL+"/products?page=1"); expired.header.Get("X-Cache") != "miss" {
		t.Fatalf("page 1 after its TTL: X-Cache %q, want miss", expired.header.Get("X-Cache"))
	}
}
