// Package targetstest lets a test binary stand in for versus-agent when the targets setting
// starts a target: the agent starts its own executable with `target` and the target's flags,
// and in a test that executable is the test binary.
package targetstest

import (
	"net"
	"os"
	"testing"

	"github.com/versus/agents/go/internal/target"
)

// asTarget is set in the tests' environment, so their children know to serve as a target.
const asTarget = "VERSUS_TARGETSTEST_SERVE"

// Main is the TestMain of a package whose tests start targets: started as a target it serves
// until it is stopped; otherwise it runs the tests.
func Main(m *testing.M) {
	if os.Getenv(asTarget) == "1" && len(os.Args) > 1 && os.Args[1] == "target" {
		os.Exit(target.Main("versus-agent target", os.Args[2:], os.Stdout, os.Stderr))
	}
	if err := os.Setenv(asTarget, "1"); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

// FreeAddr is a loopback address whose port nothing listens on now (a target needs a fixed one).
func FreeAddr(t testing.TB) string {
	t.Helper()
	return FreeAddrs(t, 1)[0]
}

// FreeAddrs is n different loopback addresses nothing listens on now. Each port is held until
// all are chosen: closed one by one, the kernel may hand the same port out twice.
func FreeAddrs(t testing.TB, n int) []string {
	t.Helper()
	addrs := make([]string, 0, n)
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		addrs = append(addrs, ln.Addr().String())
	}
	return addrs
}
