package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/versus/agents/go/internal/agent"
	"github.com/versus/agents/go/internal/builtin"
)

// agentCommand takes jobs from a Versus server until it is stopped; it returns the exit code:
// 0 stopped (a signal, the server asked, the parent went away), 78 the configuration or the
// credential was refused (restarting will not help), 1 a crash.
func agentCommand(args []string) int {
	opts, err := parseAgentOptions(args, os.Getenv, os.Stderr)
	if errors.Is(err, errHelp) {
		return agent.ExitOK
	}
	log := newLogger(os.Stderr, opts.LogFormat)
	if err != nil {
		log.Error("agent.bad_config", "reason", err.Error())
		return agent.ExitConfig
	}
	defer func() {
		if p := recover(); p != nil {
			log.Error("agent.crashed", "error", fmt.Sprint(p))
			os.Exit(agent.ExitCrash)
		}
	}()

	config := opts.Config
	config.Version, config.Registry, config.Log = version, builtin.Registry(), log
	a := agent.New(config)

	// The first SIGTERM or SIGINT stops gracefully; a second one exits at once.
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGTERM, os.Interrupt)
	defer signal.Stop(signals)
	go func() {
		first := <-signals
		a.Stop(first.String())
		second := <-signals
		log.Warn("agent.exit_now", "signal", second.String())
		os.Exit(130)
	}()
	if opts.ExitWithParent {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go watchParent(ctx, time.Second, func() { a.Stop("the parent process exited") })
	}
	return a.Run(context.Background())
}

// watchParent calls gone once the process's parent has exited (the process is then re-parented,
// so its parent id changes). `npm start` runs the agent with --exit-with-parent, so a server that
// was killed outright leaves no orphan agent behind.
func watchParent(ctx context.Context, every time.Duration, gone func()) {
	parent := os.Getppid()
	ticker := time.NewTicker(every)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			if os.Getppid() != parent {
				gone()
				return
			}
		}
	}
}

// newLogger writes one event per line: `ts=… level=info event=job.started job=…` (text, like the
// reference agent's logs) or the same fields as JSON.
func newLogger(w io.Writer, format string) *slog.Logger {
	opts := &slog.HandlerOptions{ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
		if len(groups) > 0 {
			return a
		}
		switch a.Key {
		case slog.TimeKey:
			a.Key = "ts"
			a.Value = slog.StringValue(a.Value.Time().UTC().Format("2006-01-02T15:04:05.000Z07:00"))
		case slog.LevelKey:
			a.Value = slog.StringValue(strings.ToLower(a.Value.String()))
		case slog.MessageKey:
			a.Key = "event"
		}
		return a
	}}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
