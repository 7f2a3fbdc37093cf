package targets

import "syscall"

// sysProcAttr: the kernel kills a target when the agent dies, whatever kills it (the signal
// goes when the thread that started the target ends; Go keeps its threads for the process's
// life unless a goroutine locked to one exits). Its own process group keeps a Ctrl-C in the
// agent's terminal from reaching the targets before the agent stops them in order.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
}
