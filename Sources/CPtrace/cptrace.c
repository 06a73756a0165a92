#include "cptrace.h"
#include <errno.h>

#ifdef __linux__
#include <signal.h>
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
    regs->rip = r.rip; regs->rsp = r.rsp; regs->rdi = r.rdi; regs->rsi = r.rsi; regs->rdx = r.rdx;
    regs->rcx = r.rcx; regs->r8 = r.r8; regs->r9 = r.r9; regs->rax = r.rax;
    return 0;
}

long cptrace_setregs(pid_t pid, const cptrace_regs *regs) {
    struct user_regs_struct r;
    if (ptrace(PTRACE_GETREGS, pid, NULL, &r) != 0) return -1;
    r.rip = regs->rip; r.rsp = regs->rsp; r.rdi = regs->rdi; r.rsi = regs->rsi; r.rdx = regs->rdx;
    r.rcx = regs->rcx; r.r8 = regs->r8; r.r9 = regs->r9; r.rax = regs->rax;
    return ptrace(PTRACE_SETREGS, pid, NULL, &r);
}

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
#endif
