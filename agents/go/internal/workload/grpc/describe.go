package grpc

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/reporter"
	"github.com/jhump/protoreflect/grpcreflect"
	"github.com/versus/agents/go/internal/workload"
	ggrpc "google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// methodFromProto compiles the .proto file on the agent's machine (protocompile: the same parser
// buf uses, no protoc needed) and finds the method in it. A problem names protoFile or method.
func methodFromProto(p *plan) (protoreflect.MethodDescriptor, error) {
	paths := p.ImportPaths
	file := p.ProtoFile
	if len(paths) == 0 {
		paths = []string{filepath.Dir(file)}
		file = filepath.Base(file)
	} else {
		file = relativeToImportPaths(file, paths)
	}
	var problems []string
	compiler := protocompile.Compiler{
		Resolver: protocompile.WithStandardImports(&protocompile.SourceResolver{ImportPaths: paths}),
		Reporter: reporter.NewReporter(func(err reporter.ErrorWithPos) error {
			problems = append(problems, err.Error())
			return nil
		}, nil),
	}
	files, err := compiler.Compile(context.Background(), file)
	if err != nil {
		if len(problems) > 0 {
			return nil, badSetting("protoFile", "does not compile: "+strings.Join(problems, "; "))
		}
		return nil, badSetting("protoFile", "cannot be compiled: "+err.Error())
	}
	for _, f := range files {
		if svc := f.FindDescriptorByName(protoreflect.FullName(p.service)); svc != nil {
			if sd, ok := svc.(protoreflect.ServiceDescriptor); ok {
				return methodOf(sd, p.methodName)
			}
		}
	}
	var services []string
	for _, f := range files {
		for i := 0; i < f.Services().Len(); i++ {
			services = append(services, string(f.Services().Get(i).FullName()))
		}
	}
	return nil, badSetting("method", fmt.Sprintf("service %s is not in %s; it defines %s", p.service, p.ProtoFile, listOrNone(services)))
}

// relativeToImportPaths is the file as the compiler looks it up: relative to the import path it
// is under (an absolute path under none is looked up as written).
func relativeToImportPaths(file string, paths []string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return file
	}
	for _, dir := range paths {
		d, err := filepath.Abs(dir)
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(d, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return file
}

// methodFromReflection asks the server's reflection service (v1, falling back to v1alpha) for
// the service and its message types.
func methodFromReflection(ctx context.Context, conn *ggrpc.ClientConn, p *plan) (protoreflect.MethodDescriptor, error) {
	client := grpcreflect.NewClientAuto(ctx, conn)
	defer client.Reset()
	svc, err := client.ResolveService(p.service)
	if err != nil {
		if grpcreflect.IsElementNotFoundError(err) {
			names, _ := client.ListServices()
			return nil, badSetting("method", fmt.Sprintf("the server's reflection does not know service %s; it lists %s", p.service, listOrNone(names)))
		}
		if status.Code(errors.Unwrap(err)) == codes.Unimplemented || status.Code(err) == codes.Unimplemented {
			return nil, badSetting("protoFile", fmt.Sprintf("is needed: the server at %s has no reflection service to describe %s", p.Target, p.service))
		}
		return nil, fmt.Errorf("asking the server at %s for %s by reflection: %w", p.Target, p.service, err)
	}
	return methodOf(svc.UnwrapService(), p.methodName)
}

func methodOf(sd protoreflect.ServiceDescriptor, name string) (protoreflect.MethodDescriptor, error) {
	if md := sd.Methods().ByName(protoreflect.Name(name)); md != nil {
		return md, nil
	}
	var names []string
	for i := 0; i < sd.Methods().Len(); i++ {
		names = append(names, string(sd.Methods().Get(i).Name()))
	}
	return nil, badSetting("method", fmt.Sprintf("service %s has no method %s; its methods are %s", sd.FullName(), name, listOrNone(names)))
}

// badSetting is a setting the method or its messages refuse: a settings error, so the job is not
// retried (another attempt would be refused the same way).
func badSetting(field, message string) error {
	return workload.SettingsErrors{{Field: field, Message: message}}
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// kindOf names a method's kind as the write-ups do.
func kindOf(md protoreflect.MethodDescriptor) string {
	switch {
	case md.IsStreamingClient() && md.IsStreamingServer():
		return "bidi"
	case md.IsStreamingClient():
		return "clientStreaming"
	case md.IsStreamingServer():
		return "serverStreaming"
	default:
		return "unary"
	}
}
