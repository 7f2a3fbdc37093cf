package loadgen

import (
	"net"
	"sync/atomic"
)

// Wire counts bytes read and written on every connection (below TLS). One atomic add per read
// or write call, not per operation.
type Wire struct{ in, out atomic.Int64 }

// Count wraps a connection so its bytes are counted.
func (w *Wire) Count(c net.Conn) net.Conn { return &countedConn{Conn: c, wire: w} }

type countedConn struct {
	net.Conn
	wire *Wire
}

func (c *countedConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	c.wire.in.Add(int64(n))
	return n, err
}

func (c *countedConn) Write(b []byte) (int, error) {
	n, err := c.Conn.Write(b)
	c.wire.out.Add(int64(n))
	return n, err
}
