package grpc

import (
	"fmt"
	"strings"

	"github.com/versus/agents/go/internal/workload/loadgen"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// requests are the messages one call sends, encoded once before the load starts (every call
// sends the same bytes, so the load generator spends no CPU on encoding them again).
func requests(p *plan, md protoreflect.MethodDescriptor) ([][]byte, error) {
	in := md.Input()
	streaming := md.IsStreamingClient()
	if !streaming {
		for _, field := range []string{"chunkBytes", "messagesPerCall"} {
			if p.given[field] {
				return nil, badSetting(field, fmt.Sprintf("is for methods that stream requests; %s is %s", md.FullName(), kindOf(md)))
			}
		}
		if len(p.dataList) > 1 {
			return nil, badSetting("data", fmt.Sprintf("a list of messages is for methods that stream requests; %s is %s: give one object", md.FullName(), kindOf(md)))
		}
	}
	if p.ChunkBytes > 0 && len(p.dataList) > 1 {
		return nil, badSetting("chunkBytes", "splits the payload over copies of one message: give data as one object")
	}

	var payload []byte
	var setPayload func(m *dynamicpb.Message, b []byte)
	if p.PayloadBytes != nil {
		set, err := payloadSetter(in, p.PayloadField)
		if err != nil {
			return nil, err
		}
		payload, setPayload = loadgen.Payload(*p.PayloadBytes), set
	}

	var msgs []*dynamicpb.Message
	for i, data := range p.dataList {
		m := dynamicpb.NewMessage(in)
		if err := protojson.Unmarshal(data, m); err != nil {
			field := "data"
			if len(p.dataList) > 1 {
				field = fmt.Sprintf("data.%d", i)
			}
			return nil, badSetting(field, fmt.Sprintf("is not a %s in protobuf's JSON mapping: %s", in.FullName(), strings.TrimPrefix(err.Error(), "proto: ")))
		}
		msgs = append(msgs, m)
	}
	switch {
	case setPayload != nil && p.ChunkBytes > 0:
		// One message per chunk, each a copy of the data message carrying its chunk.
		base := msgs[0]
		msgs = msgs[:0]
		for off := 0; off < len(payload) || off == 0; off += p.ChunkBytes {
			m := proto.Clone(base).(*dynamicpb.Message)
			setPayload(m, payload[off:min(off+p.ChunkBytes, len(payload))])
			msgs = append(msgs, m)
			if len(payload) == 0 {
				break
			}
		}
	case setPayload != nil:
		for _, m := range msgs {
			setPayload(m, payload)
		}
	}

	var out [][]byte
	for range p.MessagesPerCall {
		for _, m := range msgs {
			b, err := proto.Marshal(m)
			if err != nil {
				return nil, fmt.Errorf("encoding the request: %w", err)
			}
			out = append(out, b)
		}
	}
	return out, nil
}

// payloadSetter finds the bytes field a.b.c of the request (nested messages on the way) and
// returns what puts a payload there.
func payloadSetter(in protoreflect.MessageDescriptor, path string) (func(m *dynamicpb.Message, b []byte), error) {
	steps := strings.Split(path, ".")
	var fields []protoreflect.FieldDescriptor
	desc := in
	for i, step := range steps {
		fd := desc.Fields().ByName(protoreflect.Name(step))
		if fd == nil {
			fd = desc.Fields().ByJSONName(step)
		}
		last := i == len(steps)-1
		switch {
		case fd == nil:
			return nil, badSetting("payloadField", fmt.Sprintf("%s has no field %s; its bytes fields are %s", desc.FullName(), step, listOrNone(bytesFields(desc))))
		case fd.IsList() || fd.IsMap():
			return nil, badSetting("payloadField", fmt.Sprintf("%s is repeated; the payload goes into a single bytes field", fd.FullName()))
		case last && fd.Kind() != protoreflect.BytesKind:
			return nil, badSetting("payloadField", fmt.Sprintf("%s is %s, not bytes; the bytes fields of %s are %s", fd.FullName(), fd.Kind(), desc.FullName(), listOrNone(bytesFields(desc))))
		case !last && fd.Kind() != protoreflect.MessageKind:
			return nil, badSetting("payloadField", fmt.Sprintf("%s is %s, not a message to look into for %s", fd.FullName(), fd.Kind(), steps[i+1]))
		}
		fields = append(fields, fd)
		if !last {
			desc = fd.Message()
		}
	}
	return func(m *dynamicpb.Message, b []byte) {
		var msg protoreflect.Message = m
		for _, fd := range fields[:len(fields)-1] {
			msg = msg.Mutable(fd).Message()
		}
		msg.Set(fields[len(fields)-1], protoreflect.ValueOfBytes(b))
	}, nil
}

func bytesFields(desc protoreflect.MessageDescriptor) []string {
	var names []string
	for i := 0; i < desc.Fields().Len(); i++ {
		if fd := desc.Fields().Get(i); fd.Kind() == protoreflect.BytesKind && !fd.IsList() {
			names = append(names, string(fd.Name()))
		}
	}
	return names
}
