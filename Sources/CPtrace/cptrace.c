#define _GNU_SOURCE
#include "cptrace.h"
#include <errno.h>
#include <string.h>

#ifdef __linux__
#include <signal.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <unistd.h>

const unsigned long cptrace_o_exitkill = PTRACE_O_EXITKILL, cptrace_o_traceclone = PTRACE_O_TRACECLONE,
    cptrace_o_tracefork = PTRACE_O_TRACEFORK, cptrace_o_tracevfork = PTRACE_O_TRACEVFORK,
    cptrace_o_traceexec = PTRACE_O_TRACEEXEC, cptrace_o_tracesysgood = PTRACE_O_TRACESYSGOOD;
const int cptrace_event_clone = PTRACE_EVENT_CLONE, cptrace_event_fork = PTRACE_EVENT_FORK,
    cptrace_event_vfork = PTRACE_EVENT_VFORK, cptrace_event_exec = PTRACE_EVENT_EXEC,
    cptrace_event_stop = PTRACE_EVENT_STOP;

long cptrace_traceme(void) { return ptrace(PTRACE_TRACEME, 0, NULL, NULL); }
long cptrace_seize(pid_t pid, unsigned long options) { return ptrace(PTRACE_SEIZE, pid, NULL, (void *)options); }
long cptrace_attach(pid_t pid) { return ptrace(PTRACE_ATTACH, pid, NULL, NULL); }
long cptrace_interrupt(pid_t pid) { return ptrace(PTRACE_INTERRUPT, pid, NULL, NULL); }
long cptrace_setoptions(pid_t pid, unsigned long options) { return ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)options); }
long cptrace_cont(pid_t pid, int signal) { return ptrace(PTRACE_CONT, pid, NULL, (void *)(long)signal); }
long cptrace_singlestep(pid_t pid, int signal) { return ptrace(PTRACE_SINGLESTEP, pid, NULL, (void *)(long)signal); }
long cptrace_detach(pid_t pid, int signal) { return ptrace(PTRACE_DETACH, pid, NULL, (void *)(long)signal); }
long cptrace_geteventmsg(pid_t pid, unsigned long *message) { return ptrace(PTRACE_GETEVENTMSG, pid, NULL, message); }

long cptrace_peek(pid_t pid, uint64_t address, uint64_t *word) {
    errno = 0;
    long value = ptrace(PTRACE_PEEKDATA, pid, (void *)address, NULL);
    if (value == -1 && errno != 0) return -1;
    *word = (uint64_t)value;
    return 0;
}

long cptrace_poke(pid_t pid, uint64_t address, uint64_t word) {
    return ptrace(PTRACE_POKEDATA, pid, (void *)address, (void *)word);
}

long cptrace_getregs(pid_t pid, cptrace_regs *regs) {
    struct user_regs_struct r;
    if (ptrace(PTRACE_GETREGS, pid, NULL, &r) != 0) return -1;
    uint64_t g[16] = {r.rax, r.rcx, r.rdx, r.rbx, r.rsp, r.rbp, r.rsi, r.rdi, r.r8, r.r9, r.r10, r.r11, r.r12, r.r13, r.r14, r.r15};
    for (int i = 0; i < 16; i++) regs->gpr[i] = g[i];
    regs->rip = r.rip;
    _Static_assert(sizeof(r) <= sizeof(regs->whole), "user_regs_struct fits");
    memcpy(regs->whole, &r, sizeof(r));
    regs->whole_valid = 1;
    return 0;
}

long cptrace_setregs(pid_t pid, const cptrace_regs *regs) {
    struct user_regs_struct r;
    if (regs->whole_valid) {
        memcpy(&r, regs->whole, sizeof(r));
    } else if (ptrace(PTRACE_GETREGS, pid, NULL, &r) != 0) {
        return -1;
    }
    const uint64_t *g = regs->gpr;
    r.rax = g[0]; r.rcx = g[1]; r.rdx = g[2]; r.rbx = g[3]; r.rsp = g[4]; r.rbp = g[5]; r.rsi = g[6]; r.rdi = g[7];
    r.r8 = g[8]; r.r9 = g[9]; r.r10 = g[10]; r.r11 = g[11]; r.r12 = g[12]; r.r13 = g[13]; r.r14 = g[14]; r.r15 = g[15];
    r.rip = regs->rip;
    return ptrace(PTRACE_SETREGS, pid, NULL, &r);
}

long cptrace_read(pid_t pid, uint64_t address, void *buffer, unsigned long length) {
    struct iovec local = {buffer, length};
    struct iovec remote = {(void *)address, length};
    return (long)process_vm_readv(pid, &local, 1, &remote, 1, 0);
}

long cptrace_readv(pid_t pid, const uint64_t *addresses, void *const *buffers, const unsigned long *lengths, int count) {
    struct iovec local[4], remote[4];
    if (count < 1 || count > 4) return -1;
    for (int i = 0; i < count; i++) {
        local[i] = (struct iovec){buffers[i], lengths[i]};
        remote[i] = (struct iovec){(void *)addresses[i], lengths[i]};
    }
    return (long)process_vm_readv(pid, local, (unsigned long)count, remote, (unsigned long)count, 0);
}

const void *cptrace_memmem(const void *haystack, unsigned long length, const void *needle, unsigned long needle_length) {
    return memmem(haystack, length, needle, needle_length);
}

pid_t cptrace_wait(pid_t pid, int *status, int nohang) { return waitpid(pid, status, __WALL | (nohang ? WNOHANG : 0)); }

int cptrace_status_kind(int status) {
    if (WIFEXITED(status)) return 0;
    if (WIFSIGNALED(status)) return 1;
    if (WIFSTOPPED(status)) return 2;
    return 3;
}

int cptrace_status_value(int status) {
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return WTERMSIG(status);
    if (WIFSTOPPED(status)) return WSTOPSIG(status);
    return 0;
}

int cptrace_status_event(int status) { return (status >> 16) & 0xff; }

pid_t cptrace_spawn(const char *path, char *const argv[], int error_fd) {
    pid_t pid = fork();
    if (pid != 0) return pid;
    if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0) {
        int e = errno;
        (void)!write(error_fd, &e, sizeof e);
        _exit(127);
    }
    execv(path, argv);
    int e = errno;
    (void)!write(error_fd, &e, sizeof e);
    _exit(127);
}
#else
const unsigned long cptrace_o_exitkill = 0, cptrace_o_traceclone = 0, cptrace_o_tracefork = 0,
    cptrace_o_tracevfork = 0, cptrace_o_traceexec = 0, cptrace_o_tracesysgood = 0;
const int cptrace_event_clone = 0, cptrace_event_fork = 0, cptrace_event_vfork = 0, cptrace_event_exec = 0,
    cptrace_event_stop = 0;
static long unsupported(void) { errno = ENOSYS; return -1; }
long cptrace_traceme(void) { return unsupported(); }
long cptrace_seize(pid_t pid, unsigned long options) { (void)pid; (void)options; return unsupported(); }
long cptrace_attach(pid_t pid) { (void)pid; return unsupported(); }
long cptrace_interrupt(pid_t pid) { (void)pid; return unsupported(); }
long cptrace_setoptions(pid_t pid, unsigned long options) { (void)pid; (void)options; return unsupported(); }
long cptrace_cont(pid_t pid, int signal) { (void)pid; (void)signal; return unsupported(); }
long cptrace_singlestep(pid_t pid, int signal) { (void)pid; (void)signal; return unsupported(); }
long cptrace_detach(pid_t pid, int signal) { (void)pid; (void)signal; return unsupported(); }
long cptrace_geteventmsg(pid_t pid, unsigned long *message) { (void)pid; (void)message; return unsupported(); }
long cptrace_peek(pid_t pid, uint64_t address, uint64_t *word) { (void)pid; (void)address; (void)word; return unsupported(); }
long cptrace_poke(pid_t pid, uint64_t address, uint64_t word) { (void)pid; (void)address; (void)word; return unsupported(); }
long cptrace_getregs(pid_t pid, cptrace_regs *regs) { (void)pid; (void)regs; return unsupported(); }
long cptrace_setregs(pid_t pid, const cptrace_regs *regs) { (void)pid; (void)regs; return unsupported(); }
pid_t cptrace_spawn(const char *path, char *const argv[], int error_fd) { (void)path; (void)argv; (void)error_fd; return (pid_t)unsupported(); }
long cptrace_read(pid_t pid, uint64_t address, void *buffer, unsigned long length) { (void)pid; (void)address; (void)buffer; (void)length; return unsupported(); }
long cptrace_readv(pid_t pid, const uint64_t *addresses, void *const *buffers, const unsigned long *lengths, int count) {
    (void)pid; (void)addresses; (void)buffers; (void)lengths; (void)count; return unsupported();
}
const void *cptrace_memmem(const void *haystack, unsigned long length, const void *needle, unsigned long needle_length) {
    (void)haystack; (void)length; (void)needle; (void)needle_length; return NULL;
}
pid_t cptrace_wait(pid_t pid, int *status, int nohang) { (void)pid; (void)status; (void)nohang; return (pid_t)unsupported(); }
int cptrace_status_kind(int status) { (void)status; return 3; }
int cptrace_status_value(int status) { (void)status; return 0; }
int cptrace_status_event(int status) { (void)status; return 0; }
#endif
