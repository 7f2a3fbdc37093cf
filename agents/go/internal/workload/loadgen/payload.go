package loadgen

import "math/rand/v2"

// Payload is n bytes of a fixed pseudo-random sequence: the same in every run and every
// operation (so variants compare like with like), and incompressible like a real binary payload
// (an alphabet would shrink to nothing under any compression on the way).
func Payload(n int) []byte {
	b := make([]byte, n)
	r := rand.NewChaCha8([32]byte{'v', 'e', 'r', 's', 'u', 's'})
	_, _ = r.Read(b)
	return b
}
