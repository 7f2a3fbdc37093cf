module github.com/versus/agents/go

go 1.23.0

require (
	github.com/HdrHistogram/hdrhistogram-go v1.4.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
)

require (
	github.com/valyala/fasthttp v1.65.0
	golang.org/x/net v0.43.0
	golang.org/x/text v0.28.0
)

require (
	github.com/andybalholm/brotli v1.2.0 // indirect
	github.com/klauspost/compress v1.18.0 // indirect
	github.com/valyala/bytebufferpool v1.0.0 // indirect
)
