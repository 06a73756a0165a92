// How a call reaches the agent and goes on: on x86-64 Linux an assembly trampoline per target
// (any signature passes, the return is seen through a shadow stack of return addresses), with
// each request's stack unwound in-process; elsewhere C wrappers of six integer arguments.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <unwind.h>

#include "agent_parts.h"
#include "cfi_unwind.h"

#if defined(__x86_64__) && defined(__linux__)
// x86-64: an assembly trampoline per target saves every argument register (six integer, eight
// vector), lets `imgtrace_agent_enter` record, restores them and calls the original from a frame
// of its own, so any signature passes (floats, stack arguments, variadic calls): the caller's
// stack arguments are copied below that frame, where the original finds them. The frame carries
// CFI, so an exception thrown by the original (C++, Objective-C) unwinds through it to the
// caller's handler, and the caller's return address stays where it was for the program's own
// unwinder and backtraces. When the original returns, `imgtrace_agent_leave` records the return
// (result registers saved) and the trampoline returns to the caller.
// Each thread keeps where each wrapped call it is inside returned to (its return slot): a call
// left by longjmp or an exception never comes back through its trampoline, and the next call
// (or return) whose slot is at or above it finds it over. The request's frames are walked by
// frames.c, from what the trampoline gives it.
// Static TLS comes out of every thread's stack: 256 entries (4 KiB) left a thread created with
// PTHREAD_STACK_MIN no stack at all, even with the agent merely preloaded. On a CPU whose extended
// state is 11 KiB (AMX), the lazy binding of the program's first call into libc saves all of it
// on that stack: a 16 KiB thread using 8 KiB then had room for 512 bytes of static TLS. 16 nested
// wrapped calls (144 bytes) is still twice the deepest chain of Apple's image paths (7: a nib's
// placeholder through _UIAssetManager's wrappers to CoreUI); a deeper one goes on without a frame
// and is counted as returned at once.
#define SHADOW_DEPTH 16
static __thread void **shadow_slot[SHADOW_DEPTH];
static __thread unsigned char shadow_api[SHADOW_DEPTH];
_Static_assert(IMGTRACE_AGENT_MAX_APIS <= 256, "an API's index fits the shadow's byte");
static __thread int shadow_top;
/// The end of this thread's stack (0: not looked up yet; 1: not known).
static __thread uintptr_t thread_stack_high;

/// Bytes of the caller's stack arguments copied for the original: 32 arguments beyond the
/// registers. Image APIs take at most a few (CoreUI's ten-argument lookups, three).
#define STACK_ARGUMENT_BYTES 256

__attribute__((visibility("hidden"))) extern char imgtrace_agent_common[], imgtrace_agent_common_end[];

/// The loader's stack pointer at the program's start: the main thread's stack ends above it.
extern void *__libc_stack_end;

/// Where this thread's stack ends, found once: the main thread's at the program's start, another
/// thread's at its descriptor, which glibc puts at the top of the thread's stack (given or
/// allocated). 0 when `sp` is not on it (a signal's alternate stack, a coroutine's).
static uintptr_t stack_high(uintptr_t sp) {
    if (thread_stack_high == 0) {
        int main_thread = syscall(SYS_gettid) == getpid();
        thread_stack_high = main_thread ? (uintptr_t)__libc_stack_end : (uintptr_t)pthread_self();
        if (thread_stack_high < 2) thread_stack_high = 1;
    }
    uintptr_t high = thread_stack_high;
    return high > 1 && sp < high && high - sp < ((uintptr_t)1 << 30) ? high : 0;
}

/// How many bytes above `from` (the caller's stack pointer) can be copied for the original's
/// stack arguments: up to the stack's end, or to the end of the page unless the next is readable.
static intptr_t stack_argument_bytes(uintptr_t from) {
    uintptr_t high = stack_high(from), end = from + STACK_ARGUMENT_BYTES;
    if (high) return (intptr_t)((end <= high ? STACK_ARGUMENT_BYTES : high - from) & ~(uintptr_t)15);
    uintptr_t page_end = (from | 4095) + 1;
    char probe;
    if (end > page_end && copy_untrusted(&probe, (const char *)(end - 1), 1, 0) != 1) return (intptr_t)((page_end - from) & ~(uintptr_t)15);
    return STACK_ARGUMENT_BYTES;
}

/// The calls a new call (or a return) at `slot` shows over: those whose slot is below it.
static void leave_abandoned(void **slot, int including_slot) {
    while (shadow_top > 0 && (shadow_slot[shadow_top - 1] < slot || (including_slot && shadow_slot[shadow_top - 1] == slot))) {
        shadow_top--;
        leave_request(shadow_api[shadow_top], 0, NULL);
    }
}

void forget_open_calls(void) {
    while (shadow_top > 0) {
        shadow_top--;
        leave_request(shadow_api[shadow_top], 0, NULL);
    }
}

/// What the trampoline does next: call `target` with `copy_bytes` of the caller's stack
/// arguments from a frame of its own, or (`copy_bytes` < 0) jump to it.
struct enter_result {
    void *target;
    intptr_t copy_bytes;
};

__attribute__((visibility("hidden"), used)) struct enter_result imgtrace_agent_enter(int index, void *const *registers, void **return_slot) {
    leave_abandoned(return_slot, 1);
    struct request_stack stack = {return_slot, agent.targets[index].original, stack_high((uintptr_t)return_slot),
                                  (uintptr_t)imgtrace_agent_common, (uintptr_t)imgtrace_agent_common_end};
    enter_request(index, registers, &stack);
    if (shadow_top < SHADOW_DEPTH) {
        shadow_slot[shadow_top] = return_slot;
        shadow_api[shadow_top] = (unsigned char)index;
        shadow_top++;
        return (struct enter_result){agent.targets[index].original, stack_argument_bytes((uintptr_t)(return_slot + 1))};
    }
    if (agent.targets[index].kind == TARGET_METHOD || agent.targets[index].kind == TARGET_SYMBOL || agent.targets[index].kind == TARGET_DECODE) {
        this_thread.depth--;  // too deep to see the return: count it as returned now
    }
    return (struct enter_result){agent.targets[index].original, -1};
}

__attribute__((visibility("hidden"), used)) void imgtrace_agent_leave(void *result, void **return_slot) {
    leave_abandoned(return_slot, 0);
    if (shadow_top > 0 && shadow_slot[shadow_top - 1] == return_slot) {
        shadow_top--;
        leave_request(shadow_api[shadow_top], 1, result);
    }
}

#define TRAMPOLINE(i)                                   \
    ".p2align 4\n"                                      \
    ".globl imgtrace_agent_trampoline_" #i "\n"         \
    ".hidden imgtrace_agent_trampoline_" #i "\n"        \
    "imgtrace_agent_trampoline_" #i ":\n"               \
    "    movl $" #i ", %r11d\n"                         \
    "    jmp imgtrace_agent_common\n"

__asm__(
    ".text\n"
    ".p2align 4\n"
    ".globl imgtrace_agent_common\n"
    ".hidden imgtrace_agent_common\n"
    "imgtrace_agent_common:\n"
    FRAME_WITH_CFI
    "    subq $192, %rsp\n"              // 6 integer + 8 vector registers + %rax, 16-byte aligned
    "    movq %rdi, 0(%rsp)\n"
    "    movq %rsi, 8(%rsp)\n"
    "    movq %rdx, 16(%rsp)\n"
    "    movq %rcx, 24(%rsp)\n"
    "    movq %r8, 32(%rsp)\n"
    "    movq %r9, 40(%rsp)\n"
    "    movq %rax, 48(%rsp)\n"          // %al: vector registers of a variadic call
    "    movdqu %xmm0, 56(%rsp)\n"
    "    movdqu %xmm1, 72(%rsp)\n"
    "    movdqu %xmm2, 88(%rsp)\n"
    "    movdqu %xmm3, 104(%rsp)\n"
    "    movdqu %xmm4, 120(%rsp)\n"
    "    movdqu %xmm5, 136(%rsp)\n"
    "    movdqu %xmm6, 152(%rsp)\n"
    "    movdqu %xmm7, 168(%rsp)\n"
    "    movl %r11d, %edi\n"
    "    movq %rsp, %rsi\n"
    "    leaq 8(%rbp), %rdx\n"           // where the return address is
    "    call imgtrace_agent_enter\n"
    "    movq %rax, %r11\n"
    "    testq %rdx, %rdx\n"
    "    js 1f\n"
    // A frame of its own: the caller's stack arguments copied below it (16-byte multiples).
    "    subq %rdx, %rsp\n"
    "    movq %rdx, %rcx\n"
    "    shrq $3, %rcx\n"
    "    leaq 16(%rbp), %rsi\n"
    "    movq %rsp, %rdi\n"
    "    rep movsq\n"
    "    movq -192(%rbp), %rdi\n"
    "    movq -184(%rbp), %rsi\n"
    "    movq -176(%rbp), %rdx\n"
    "    movq -168(%rbp), %rcx\n"
    "    movq -160(%rbp), %r8\n"
    "    movq -152(%rbp), %r9\n"
    "    movq -144(%rbp), %rax\n"
    "    movdqu -136(%rbp), %xmm0\n"
    "    movdqu -120(%rbp), %xmm1\n"
    "    movdqu -104(%rbp), %xmm2\n"
    "    movdqu -88(%rbp), %xmm3\n"
    "    movdqu -72(%rbp), %xmm4\n"
    "    movdqu -56(%rbp), %xmm5\n"
    "    movdqu -40(%rbp), %xmm6\n"
    "    movdqu -24(%rbp), %xmm7\n"
    "    call *%r11\n"
    "    leaq -192(%rbp), %rsp\n"
    "    movq %rax, 0(%rsp)\n"          // the result: integer, vector and x87 registers untouched
    "    movq %rdx, 8(%rsp)\n"
    "    movdqu %xmm0, 16(%rsp)\n"
    "    movdqu %xmm1, 32(%rsp)\n"
    "    movq %rax, %rdi\n"              // a lookup's image object
    "    leaq 8(%rbp), %rsi\n"
    "    call imgtrace_agent_leave\n"
    "    movq 0(%rsp), %rax\n"
    "    movq 8(%rsp), %rdx\n"
    "    movdqu 16(%rsp), %xmm0\n"
    "    movdqu 32(%rsp), %xmm1\n"
    "    .cfi_remember_state\n"
    "    leave\n"
    "    .cfi_def_cfa %rsp, 8\n"
    "    ret\n"
    // Too deep to keep a frame: the registers back, and on to the original.
    "1:\n"
    "    .cfi_restore_state\n"
    "    movq 0(%rsp), %rdi\n"
    "    movq 8(%rsp), %rsi\n"
    "    movq 16(%rsp), %rdx\n"
    "    movq 24(%rsp), %rcx\n"
    "    movq 32(%rsp), %r8\n"
    "    movq 40(%rsp), %r9\n"
    "    movq 48(%rsp), %rax\n"
    "    movdqu 56(%rsp), %xmm0\n"
    "    movdqu 72(%rsp), %xmm1\n"
    "    movdqu 88(%rsp), %xmm2\n"
    "    movdqu 104(%rsp), %xmm3\n"
    "    movdqu 120(%rsp), %xmm4\n"
    "    movdqu 136(%rsp), %xmm5\n"
    "    movdqu 152(%rsp), %xmm6\n"
    "    movdqu 168(%rsp), %xmm7\n"
    "    leave\n"
    "    .cfi_def_cfa %rsp, 8\n"
    "    jmp *%r11\n"
    "    .cfi_endproc\n"
    ".globl imgtrace_agent_common_end\n"
    ".hidden imgtrace_agent_common_end\n"
    "imgtrace_agent_common_end:\n"
    TRAMPOLINE(0) TRAMPOLINE(1) TRAMPOLINE(2) TRAMPOLINE(3) TRAMPOLINE(4) TRAMPOLINE(5) TRAMPOLINE(6) TRAMPOLINE(7)
    TRAMPOLINE(8) TRAMPOLINE(9) TRAMPOLINE(10) TRAMPOLINE(11) TRAMPOLINE(12) TRAMPOLINE(13) TRAMPOLINE(14) TRAMPOLINE(15)
    TRAMPOLINE(16) TRAMPOLINE(17) TRAMPOLINE(18) TRAMPOLINE(19) TRAMPOLINE(20) TRAMPOLINE(21) TRAMPOLINE(22) TRAMPOLINE(23)
    TRAMPOLINE(24) TRAMPOLINE(25) TRAMPOLINE(26) TRAMPOLINE(27) TRAMPOLINE(28) TRAMPOLINE(29) TRAMPOLINE(30) TRAMPOLINE(31));

#define DECLARE(i) __attribute__((visibility("hidden"))) extern char imgtrace_agent_trampoline_##i[];
DECLARE(0) DECLARE(1) DECLARE(2) DECLARE(3) DECLARE(4) DECLARE(5) DECLARE(6) DECLARE(7)
DECLARE(8) DECLARE(9) DECLARE(10) DECLARE(11) DECLARE(12) DECLARE(13) DECLARE(14) DECLARE(15)
DECLARE(16) DECLARE(17) DECLARE(18) DECLARE(19) DECLARE(20) DECLARE(21) DECLARE(22) DECLARE(23)
DECLARE(24) DECLARE(25) DECLARE(26) DECLARE(27) DECLARE(28) DECLARE(29) DECLARE(30) DECLARE(31)
AGENT_HIDDEN void *const wrappers[MAX_TARGETS] = {
    imgtrace_agent_trampoline_0, imgtrace_agent_trampoline_1, imgtrace_agent_trampoline_2, imgtrace_agent_trampoline_3,
    imgtrace_agent_trampoline_4, imgtrace_agent_trampoline_5, imgtrace_agent_trampoline_6, imgtrace_agent_trampoline_7,
    imgtrace_agent_trampoline_8, imgtrace_agent_trampoline_9, imgtrace_agent_trampoline_10, imgtrace_agent_trampoline_11,
    imgtrace_agent_trampoline_12, imgtrace_agent_trampoline_13, imgtrace_agent_trampoline_14, imgtrace_agent_trampoline_15,
    imgtrace_agent_trampoline_16, imgtrace_agent_trampoline_17, imgtrace_agent_trampoline_18, imgtrace_agent_trampoline_19,
    imgtrace_agent_trampoline_20, imgtrace_agent_trampoline_21, imgtrace_agent_trampoline_22, imgtrace_agent_trampoline_23,
    imgtrace_agent_trampoline_24, imgtrace_agent_trampoline_25, imgtrace_agent_trampoline_26, imgtrace_agent_trampoline_27,
    imgtrace_agent_trampoline_28, imgtrace_agent_trampoline_29, imgtrace_agent_trampoline_30, imgtrace_agent_trampoline_31,
};
/// Every argument travels untouched: only the name must be an object in a register.
const int agent_trampolines = 1;
#else
// Elsewhere (Apple's arm64, other Linux): C wrappers that take the six integer-register
// arguments and pass them on, enough for self, _cmd and four pointer or integer arguments; the
// type encoding refuses anything else.

static void *wrapped(int index, void *a0, void *a1, void *a2, void *a3, void *a4, void *a5) {
    void *arguments[6] = {a0, a1, a2, a3, a4, a5};
    enter_request(index, arguments, NULL);
    void *result = ((generic_fn)agent.targets[index].original)(a0, a1, a2, a3, a4, a5);
    leave_request(index, 1, result);
    return result;
}

#define WRAPPER(i) \
    static void *wrapper_##i(void *a0, void *a1, void *a2, void *a3, void *a4, void *a5) { return wrapped(i, a0, a1, a2, a3, a4, a5); }
WRAPPER(0) WRAPPER(1) WRAPPER(2) WRAPPER(3) WRAPPER(4) WRAPPER(5) WRAPPER(6) WRAPPER(7)
WRAPPER(8) WRAPPER(9) WRAPPER(10) WRAPPER(11) WRAPPER(12) WRAPPER(13) WRAPPER(14) WRAPPER(15)
WRAPPER(16) WRAPPER(17) WRAPPER(18) WRAPPER(19) WRAPPER(20) WRAPPER(21) WRAPPER(22) WRAPPER(23)
WRAPPER(24) WRAPPER(25) WRAPPER(26) WRAPPER(27) WRAPPER(28) WRAPPER(29) WRAPPER(30) WRAPPER(31)
AGENT_HIDDEN void *const wrappers[MAX_TARGETS] = {
    wrapper_0, wrapper_1, wrapper_2, wrapper_3, wrapper_4, wrapper_5, wrapper_6, wrapper_7,
    wrapper_8, wrapper_9, wrapper_10, wrapper_11, wrapper_12, wrapper_13, wrapper_14, wrapper_15,
    wrapper_16, wrapper_17, wrapper_18, wrapper_19, wrapper_20, wrapper_21, wrapper_22, wrapper_23,
    wrapper_24, wrapper_25, wrapper_26, wrapper_27, wrapper_28, wrapper_29, wrapper_30, wrapper_31,
};
const int agent_trampolines = 0;

void forget_open_calls(void) { this_thread.depth = 0; }
#endif

