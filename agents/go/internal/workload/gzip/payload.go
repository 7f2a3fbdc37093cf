package gzip

import (
	"math"
	"strconv"
	"strings"
)

// The generated payload is the TypeScript reference agent's (agents/reference/workloads/
// text-payload.ts) byte for byte, so Plain and Gzip measure the same bytes on either agent: an
// HTML e-mail body from a small vocabulary, where gzip finds the repetition it finds in real
// templated text.
var (
	words = strings.Split("the order your account payment delivery invoice customer service update please confirm "+
		"shipping address total amount discount member coupon notice thank you for we have received "+
		"request details below status pending completed schedule today tomorrow week month contact "+
		"support team help center privacy policy terms unsubscribe settings profile password security", " ")
	tags = []string{"p", "td", "span", "li", "strong", "a"}
)

// mulberry32 is the reference agent's seeded generator. JavaScript's `>>> 0` and Math.imul are
// 32-bit unsigned wrap-around, which uint32 arithmetic is; `t ^= t + imul(…)` adds two int32s
// without wrapping and then truncates to 32 bits with ^, which comes to the same low 32 bits.
type mulberry32 struct{ state uint32 }

func (m *mulberry32) next() float64 {
	m.state += 0x6d2b79f5
	t := m.state
	t = (t ^ t>>15) * (t | 1)
	t ^= t + (t^t>>7)*(t|61)
	return float64(t^t>>14) / 4294967296
}

// below is Math.floor(random() * n).
func (m *mulberry32) below(n int) int {
	return int(math.Floor(m.next() * float64(n)))
}

// TextPayload returns sizeBytes of generated text, the same for the same seed. Only the seed's
// low 32 bits count (JavaScript's `seed >>> 0`).
func TextPayload(sizeBytes int, seed int64) []byte {
	random := &mulberry32{state: uint32(uint64(seed))}
	var b strings.Builder
	b.Grow(sizeBytes + 256)
	b.WriteString("<html><body>")
	for b.Len() < sizeBytes {
		tag := tags[random.below(len(tags))]
		count := 3 + random.below(10)
		b.WriteString("<")
		b.WriteString(tag)
		b.WriteString(` class="c`)
		// The class comes last in the reference's draw order, after the words and the number,
		// so the element is built in a scratch slice first.
		picked := make([]string, 0, count+1)
		for i := 0; i < count; i++ {
			picked = append(picked, words[random.below(len(words))])
		}
		if random.next() < 0.2 {
			picked = append(picked, strconv.Itoa(random.below(100_000)))
		}
		b.WriteString(strconv.Itoa(random.below(8)))
		b.WriteString(`">`)
		b.WriteString(strings.Join(picked, " "))
		b.WriteString("</")
		b.WriteString(tag)
		b.WriteString(">\n")
	}
	// ASCII only, so the cut lands exactly on sizeBytes.
	return []byte(b.String()[:sizeBytes])
}
