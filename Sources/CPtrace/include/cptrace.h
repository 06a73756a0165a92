#ifndef IMGTRACE_CPTRACE_H
#define IMGTRACE_CPTRACE_H
// Fixed-arity wrappers around glibc's variadic ptrace(2), which Swift cannot call. Linux only;
// elsewhere every call fails with ENOSYS.
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Registers of a stopped x86-64 thread that the tracer reads and writes.
typedef struct {
    uint64_t rip, rsp, rdi, rsi, rdx, rcx, r8, r9, rax;
} cptrace_regs;

long cptrace_traceme(void);
long cptrace_seize(pid_t pid, unsigned long options);
long cptrace_attach(pid_t pid);
long cptrace_interrupt(pid_t pid);
long cptrace_setoptions(pid_t pid, unsigned long options);
long cptrace_cont(pid_t pid, int signal);
long cptrace_singlestep(pid_t pid, int signal);
long cptrace_detach(pid_t pid, int signal);
long cptrace_geteventmsg(pid_t pid, unsigned long *message);
/// Reads one word at `address` into `*word`; returns 0 or -1 (errno set).
long cptrace_peek(pid_t pid, uint64_t address, uint64_t *word);
long cptrace_poke(pid_t pid, uint64_t address, uint64_t word);
long cptrace_getregs(pid_t pid, cptrace_regs *regs);
/// Writes back rip and the argument registers of `regs`, keeping every other register.
long cptrace_setregs(pid_t pid, const cptrace_regs *regs);

/// The option bits (PTRACE_O_*) and event numbers (PTRACE_EVENT_*) as plain values.
extern const unsigned long cptrace_o_exitkill, cptrace_o_traceclone, cptrace_o_tracefork,
    cptrace_o_tracevfork, cptrace_o_traceexec, cptrace_o_tracesysgood;
extern const int cptrace_event_clone, cptrace_event_fork, cptrace_event_vfork, cptrace_event_exec,
    cptrace_event_stop;

/// fork() then, in the child, PTRACE_TRACEME and execv(path, argv); returns the child's pid or
/// -1. A child that cannot exec exits with status 127 after writing errno to `error_fd`.
pid_t cptrace_spawn(const char *path, char *const argv[], int error_fd);

#ifdef __cplusplus
}
#endif
#endif
