#ifndef IMGTRACE_CPTRACE_H
#define IMGTRACE_CPTRACE_H
// Fixed-arity wrappers around glibc's variadic ptrace(2), which Swift cannot call. Linux only;
// elsewhere every call fails with ENOSYS.
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The general registers of a stopped x86-64 thread, in instruction-encoding order (rax, rcx,
/// rdx, rbx, rsp, rbp, rsi, rdi, r8 … r15), and rip.
typedef struct {
    uint64_t gpr[16];
    uint64_t rip;
    /// The whole register set as the kernel gave it (flags, segments, orig_rax), so that writing
    /// the registers back needs no second read; `whole_valid` says it was filled.
    uint64_t whole[32];
    int whole_valid;
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
/// Writes back rip and the general registers of `regs`, keeping every other register (from
/// `regs->whole` when `cptrace_getregs` filled it, else read again).
long cptrace_setregs(pid_t pid, const cptrace_regs *regs);

/// The option bits (PTRACE_O_*) and event numbers (PTRACE_EVENT_*) as plain values.
extern const unsigned long cptrace_o_exitkill, cptrace_o_traceclone, cptrace_o_tracefork,
    cptrace_o_tracevfork, cptrace_o_traceexec, cptrace_o_tracesysgood;
extern const int cptrace_event_clone, cptrace_event_fork, cptrace_event_vfork, cptrace_event_exec,
    cptrace_event_stop;

/// Reads `length` bytes of the process's memory in one call (process_vm_readv); returns the
/// number read or -1.
long cptrace_read(pid_t pid, uint64_t address, void *buffer, unsigned long length);
/// Reads `count` remote ranges in one process_vm_readv: the bytes read in all, in order (a
/// range that cannot be read ends the transfer there), or -1.
long cptrace_readv(pid_t pid, const uint64_t *addresses, void *const *buffers, const unsigned long *lengths, int count);

/// memmem(3), which Swift's Glibc module does not import (a GNU extension).
const void *cptrace_memmem(const void *haystack, unsigned long length, const void *needle, unsigned long needle_length);

/// waitpid(pid, &status, __WALL | flags): any child, threads included.
pid_t cptrace_wait(pid_t pid, int *status, int nohang);

/// What a wait status says: 0 exited (value: exit code), 1 killed by a signal (value: signal),
/// 2 stopped (value: stop signal; event: the PTRACE_EVENT_* in the status' high bits), 3 other.
int cptrace_status_kind(int status);
int cptrace_status_value(int status);
int cptrace_status_event(int status);

/// fork() then, in the child, PTRACE_TRACEME and execv(path, argv); returns the child's pid or
/// -1. A child that cannot exec exits with status 127 after writing errno to `error_fd`.
pid_t cptrace_spawn(const char *path, char *const argv[], int error_fd);

#ifdef __cplusplus
}
#endif
#endif
