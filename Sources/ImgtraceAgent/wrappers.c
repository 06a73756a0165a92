// How a call reaches the agent and goes on: on x86-64 Linux an assembly trampoline per target
// (any signature passes, the return is seen through a shadow stack of return addresses), with
// each request's stack unwound in-process; elsewhere C wrappers of six integer arguments.
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unwind.h>

#include "agent_parts.h"
#include "cfi_unwind.h"

int unwind_with_libgcc;

#if defined(__x86_64__) && defined(__linux__)
// x86-64: an assembly trampoline per target saves every argument register (six integer, eight
// vector), lets `imgtrace_agent_enter` record, restores them and jumps to the original with the
// caller's stack untouched, so any signature passes: floats, stack arguments, variadic calls.
// To see the return, enter swaps the return address for `imgtrace_agent_return` and keeps the
// real one on a per-thread shadow stack; the original then returns into the agent, which calls
// `imgtrace_agent_leave` (result registers saved) and jumps back to the real caller.
// Static TLS comes out of every thread's stack: 256 entries (4 KiB) left a thread created with
// PTHREAD_STACK_MIN no stack at all, even with the agent merely preloaded. On a CPU whose extended
// state is 11 KiB (AMX), the lazy binding of the program's first call into libc saves all of it
// on that stack: a 16 KiB thread using 8 KiB then had room for 512 bytes of static TLS, not the
// 864 that 32 entries made. 16 nested wrapped calls (272 bytes) is still twice the deepest chain
// of Apple's image paths (7: a nib's placeholder through _UIAssetManager's wrappers to CoreUI); a
// deeper one is counted as returned at once.
#define SHADOW_DEPTH 16
static __thread struct {
    void *address;
    /// Where the return address was on the stack: an entry whose slot is not above a new call's
    /// was left without returning (longjmp, an exception caught outside).
    void **slot;
} shadow[SHADOW_DEPTH];
/// Each entry's API, apart: beside two pointers it would pad every entry to 24 bytes.
static __thread unsigned char shadow_api[SHADOW_DEPTH];
_Static_assert(IMGTRACE_AGENT_MAX_APIS <= 256, "an API's index fits the shadow's byte");
static __thread int shadow_top;

__attribute__((visibility("hidden"))) extern char imgtrace_agent_return[];

__attribute__((visibility("hidden"), used)) void *imgtrace_agent_enter(int index, void *const *registers, void **return_slot) {
    // Calls the program left by longjmp never return through the stub: a wrapped call whose
    // frame is below this one's is over, and its request with it (else the thread's depth stays
    // above 0 and every later request is taken for a nested one, unseen). The same slot is a
    // tail call from that call when the slot holds the stub (keep it), an abandoned call else.
    while (shadow_top > 0 && (shadow[shadow_top - 1].slot < return_slot ||
                              (shadow[shadow_top - 1].slot == return_slot && *return_slot != (void *)imgtrace_agent_return))) {
        shadow_top--;
        leave_request(shadow_api[shadow_top], 0, NULL);
    }
    enter_request(index, registers, return_slot);
    if (shadow_top < SHADOW_DEPTH) {
        shadow[shadow_top].address = *return_slot;
        shadow[shadow_top].slot = return_slot;
        shadow_api[shadow_top] = (unsigned char)index;
        shadow_top++;
        *return_slot = (void *)imgtrace_agent_return;
    } else if (targets[index].kind == TARGET_METHOD || targets[index].kind == TARGET_SYMBOL || targets[index].kind == TARGET_DECODE) {
        depth--;  // too deep to see the return: count it as returned now
    }
    return targets[index].original;
}

__attribute__((visibility("hidden"), used)) void *imgtrace_agent_leave(void *result) {
    shadow_top--;
    leave_request(shadow_api[shadow_top], 1, result);
    return shadow[shadow_top].address;
}

struct frame_walk {
    uint64_t *out;
    int count;
    /// The caller's return address: frames before it are the agent's own.
    uintptr_t first;
};

static _Unwind_Reason_Code collect_frame(struct _Unwind_Context *unwind, void *argument) {
    struct frame_walk *walk = argument;
    uintptr_t pc = _Unwind_GetIP(unwind);
    if (pc == 0) return _URC_END_OF_STACK;  // the outermost frame's undefined return address
    if (walk->count == 1 && pc != walk->first) return _URC_NO_REASON;
    walk->out[walk->count++] = pc;
    return walk->count >= frames_wanted ? _URC_END_OF_STACK : _URC_NO_REASON;
}

static void walk_frames(void *walk) { _Unwind_Backtrace(collect_frame, walk); }

/// A frame on %rbp, with the CFI that lets an unwinder walk through it to its caller.
#define FRAME_WITH_CFI                  \
    "    .cfi_startproc\n"              \
    "    pushq %rbp\n"                  \
    "    .cfi_def_cfa_offset 16\n"      \
    "    .cfi_offset %rbp, -16\n"       \
    "    movq %rsp, %rbp\n"             \
    "    .cfi_def_cfa_register %rbp\n"

/// Calls `function(argument)` with the stack pointer at `top`; its CFI finds the caller's frame
/// through %rbp, so an unwinder running there walks on into the program's stack.
__attribute__((visibility("hidden"))) void imgtrace_agent_on_stack(void (*function)(void *), void *argument, void *top);
__asm__(
    ".text\n"
    ".p2align 4\n"
    ".hidden imgtrace_agent_on_stack\n"
    "imgtrace_agent_on_stack:\n"
    FRAME_WITH_CFI
    "    movq %rdx, %rsp\n"
    "    movq %rdi, %rax\n"
    "    movq %rsi, %rdi\n"
    "    call *%rax\n"
    "    movq %rbp, %rsp\n"
    "    popq %rbp\n"
    "    .cfi_def_cfa %rsp, 8\n"
    "    ret\n"
    "    .cfi_endproc\n");

/// libgcc's unwinder needs a few KiB of stack, which a thread created with the smallest stack
/// does not have left: it runs on a stack of the agent's, one per ring (so per recording
/// thread), mapped at the thread's first stack walk beside the thread's cache of unwind rules.
#define UNWIND_STACK_BYTES (64 * 1024)
struct unwind_space {
    struct cfi_cache rules;
    char stack[UNWIND_STACK_BYTES];
};
static struct unwind_space *unwind_spaces[IMGTRACE_AGENT_RINGS];


/// The return address saved at `slot`: the real one where a wrapped call still running on this
/// thread has the agent's stub there.
static uintptr_t real_return_address(const uintptr_t *slot) {
    uintptr_t value = *slot;
    if (value != (uintptr_t)imgtrace_agent_return) return value;
    for (int i = shadow_top - 1; i >= 0; i--)
        if ((const uintptr_t *)shadow[i].slot == slot) return (uintptr_t)shadow[i].address;
    return value;
}

/// A cached walk's arguments and result, for running it on the agent's stack.
struct cached_walk {
    struct cfi_cache *rules;
    uintptr_t pc, sp, frame_pointer;
    uint64_t *out;
    int count;
};

static void run_cached_walk(void *argument) {
    struct cached_walk *walk = argument;
    walk->count = cfi_walk(walk->rules, walk->pc, walk->sp, walk->frame_pointer, walk->out, 2, frames_wanted, real_return_address);
}

/// The request's stack: the API's entry, then the return addresses from its caller outwards.
/// Each frame's unwind rule comes from its CFI, interpreted once and cached per thread
/// (cfi_unwind.c); a frame that walker does not interpret is walked by libgcc's unwinder (linked
/// into the agent and hidden in it), with the real return addresses of the wrapped calls still
/// running put back on the stack for it (else it would end at the first), and the stub after.
/// Returns the frames written to `out`.
int capture_frames(const struct request_stack *stack, uint64_t *out) {
    if (frames_wanted <= 0) return 0;
    out[0] = (uint64_t)(uintptr_t)stack->entry;
    uintptr_t first = real_return_address((const uintptr_t *)stack->return_slot);
    struct frame_walk walk = {out, 1, first};
    size_t ring_index = (size_t)(own_ring - shared->rings);
    if (frames_wanted > 1 && own_ring && ring_index < IMGTRACE_AGENT_RINGS) {
        if (!unwind_spaces[ring_index]) {
            void *mapped = mmap(NULL, sizeof(struct unwind_space), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            unwind_spaces[ring_index] = mapped == MAP_FAILED ? NULL : mapped;
        }
        struct unwind_space *space = unwind_spaces[ring_index];
        if (space && !unwind_with_libgcc) {
            // The trampoline's frame: the caller's %rbp just below its return address. The walk
            // runs on the agent's stack too: finding an FDE takes more than a thread created
            // with the smallest stack has left.
            const uintptr_t *slot = (const uintptr_t *)stack->return_slot;
            out[1] = first;
            struct cached_walk walk = {&space->rules, first, (uintptr_t)(slot + 1), slot[-1], out, -1};
            imgtrace_agent_on_stack(run_cached_walk, &walk, space->stack + UNWIND_STACK_BYTES);
            if (walk.count >= 0) return walk.count;
        }
        if (space) {
            for (int i = 0; i < shadow_top; i++) *shadow[i].slot = shadow[i].address;
            imgtrace_agent_on_stack(walk_frames, &walk, space->stack + UNWIND_STACK_BYTES);
            for (int i = 0; i < shadow_top; i++) *shadow[i].slot = (void *)imgtrace_agent_return;
        }
    }
    // An unwinder that never reached the caller (no CFI, no stack to run on) gives the caller alone.
    if (walk.count == 1 && frames_wanted > 1) out[walk.count++] = walk.first;
    return walk.count;
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
    ".p2align 4\n"
    ".globl imgtrace_agent_return\n"
    ".hidden imgtrace_agent_return\n"
    "imgtrace_agent_return:\n"           // the stack is 16-byte aligned here
    "    pushq %rax\n"
    "    pushq %rdx\n"
    "    subq $32, %rsp\n"
    "    movdqu %xmm0, 0(%rsp)\n"
    "    movdqu %xmm1, 16(%rsp)\n"
    "    movq %rax, %rdi\n"               // the call's result: a lookup's image object
    "    call imgtrace_agent_leave\n"
    "    movq %rax, %r11\n"
    "    movdqu 0(%rsp), %xmm0\n"
    "    movdqu 16(%rsp), %xmm1\n"
    "    addq $32, %rsp\n"
    "    popq %rdx\n"
    "    popq %rax\n"
    "    jmp *%r11\n"
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
int capture_frames(const struct request_stack *stack, uint64_t *out) {
    (void)stack;
    (void)out;
    return 0;
}

static void *wrapped(int index, void *a0, void *a1, void *a2, void *a3, void *a4, void *a5) {
    void *arguments[6] = {a0, a1, a2, a3, a4, a5};
    enter_request(index, arguments, NULL);
    void *result = ((generic_fn)targets[index].original)(a0, a1, a2, a3, a4, a5);
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
#endif

