package s3

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// timing is one operation: end to end (total), the gzip part (codec: compress before a put,
// decompress after a get; 0 without gzip), the S3 request (wire), and the object's bytes.
type timing struct {
	total, codec, wire time.Duration
	sent               int
}

// operator does the plan's operations with one client.
type operator struct {
	client *s3.Client
	p      *plan
	runID  string // keeps this run's keys apart from every other run's
}

func (o *operator) key(name string) string { return o.p.KeyPrefix + o.runID + "/" + name }

// put is one upload as the write-up timed it: compress (with gzip) and PutObject, end to end.
// A new gzip.Writer every time, as a service compressing each message would (and as the gzip
// workload does).
func (o *operator) put(ctx context.Context, key string) (timing, error) {
	start := time.Now()
	body := o.p.payload
	var codec time.Duration
	if o.p.Gzip {
		var err error
		if body, err = compress(o.p.payload, o.p.GzipLevel); err != nil {
			return timing{}, err
		}
		codec = time.Since(start)
	}
	in := &s3.PutObjectInput{
		Bucket: aws.String(o.p.Bucket), Key: aws.String(key), Body: bytes.NewReader(body),
		ContentLength: aws.Int64(int64(len(body))), ContentType: aws.String(o.p.ContentType),
	}
	if o.p.Gzip {
		in.ContentEncoding = aws.String("gzip")
	}
	sending := time.Now()
	ctx, cancel := context.WithTimeout(ctx, o.p.timeout)
	defer cancel()
	_, err := o.client.PutObject(ctx, in)
	end := time.Now()
	return timing{total: end.Sub(start), codec: codec, wire: end.Sub(sending), sent: len(body)}, err
}

// get is one download: GetObject and its whole body read, then (with gzip) gunzipped. The SDK
// asks for the stored bytes as they are (Accept-Encoding: identity), so the gunzip is ours and
// timed. The bytes read back must be the payload.
func (o *operator) get(ctx context.Context, key string) (timing, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, o.p.timeout)
	defer cancel()
	out, err := o.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(o.p.Bucket), Key: aws.String(key)})
	if err != nil {
		return timing{}, err
	}
	data, err := io.ReadAll(out.Body)
	_ = out.Body.Close()
	if err != nil {
		return timing{}, fmt.Errorf("reading the object: %w", err)
	}
	received := time.Now()
	t := timing{wire: received.Sub(start), sent: len(data)}
	if o.p.Gzip {
		if data, err = decompress(data); err != nil {
			return timing{}, fmt.Errorf("gunzipping the object: %w", err)
		}
	}
	end := time.Now()
	t.total, t.codec = end.Sub(start), end.Sub(received)
	if !o.p.Gzip {
		t.codec = 0
	}
	if !bytes.Equal(data, o.p.payload) {
		return timing{}, fmt.Errorf("the object read back is %d bytes that are not the payload put (%d bytes)", len(data), len(o.p.payload))
	}
	return t, nil
}

func compress(data []byte, level int) ([]byte, error) {
	var out bytes.Buffer
	zw, err := gzip.NewWriterLevel(&out, level)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(data); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func decompress(data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	return io.ReadAll(zr)
}
