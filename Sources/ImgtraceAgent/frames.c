// A request's stack, walked in-process on x86-64 Linux: each frame's unwind rule from its CFI,
// interpreted once and cached per thread (cfi_unwind.c), else libgcc's unwinder, on a stack of
// the agent's. Everything it needs of the wrapper (the return slot, where the stack ends, the
// agent's own code) comes in `struct request_stack`. Called by records.c.
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/mman.h>
#include <unwind.h>

#include "agent_parts.h"
#include "cfi_unwind.h"

#if defined(__x86_64__) && defined(__linux__)
struct frame_walk {
    uint64_t *out;
    int count;
    /// The caller's return address: frames before it are the agent's own.
    uintptr_t first;
    /// The agent's own code: a frame there is a wrapped call's, not the program's.
    uintptr_t own_code_start, own_code_end;
};

static _Unwind_Reason_Code collect_frame(struct _Unwind_Context *unwind, void *argument) {
    struct frame_walk *walk = argument;
    uintptr_t pc = _Unwind_GetIP(unwind);
    if (pc == 0) return _URC_END_OF_STACK;  // the outermost frame's undefined return address
    if (walk->count == 1 && pc != walk->first) return _URC_NO_REASON;
    // A wrapped call's own frame, still running (a context around the request): not the program's.
    if (pc >= walk->own_code_start && pc < walk->own_code_end) return _URC_NO_REASON;
    walk->out[walk->count++] = pc;
    return walk->count >= agent.frames_wanted ? _URC_END_OF_STACK : _URC_NO_REASON;
}

static void walk_frames(void *walk) { _Unwind_Backtrace(collect_frame, walk); }


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


/// A cached walk's arguments and result, for running it on the agent's stack.
struct cached_walk {
    struct cfi_cache *rules;
    uintptr_t pc, sp, frame_pointer;
    uint64_t *out;
    int count;
    struct cfi_walk_bounds bounds;
};

static void run_cached_walk(void *argument) {
    struct cached_walk *walk = argument;
    walk->count = cfi_walk(walk->rules, walk->pc, walk->sp, walk->frame_pointer, walk->out, 2, agent.frames_wanted, &walk->bounds);
}

/// The request's stack: the API's entry, then the return addresses from its caller outwards.
/// Each frame's unwind rule comes from its CFI, interpreted once and cached per thread
/// (cfi_unwind.c), and every slot it reads is checked to lie on the thread's stack; a frame that
/// walker does not interpret is walked by libgcc's unwinder (linked into the agent and hidden in
/// it). Returns the frames written to `out`; `unreadable` is set when a frame's CFI pointed off
/// the stack and the walk ended there.
int capture_frames(const struct request_stack *stack, uint64_t *out, int *unreadable) {
    if (agent.frames_wanted <= 0) return 0;
    out[0] = (uint64_t)(uintptr_t)stack->entry;
    uintptr_t first = *(const uintptr_t *)stack->return_slot;
    struct frame_walk walk = {out, 1, first, stack->own_code_start, stack->own_code_end};
    size_t ring_index = (size_t)(this_thread.own_ring - agent.shared->rings);
    if (agent.frames_wanted > 1 && this_thread.own_ring && ring_index < IMGTRACE_AGENT_RINGS) {
        if (!unwind_spaces[ring_index]) {
            void *mapped = mmap(NULL, sizeof(struct unwind_space), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            unwind_spaces[ring_index] = mapped == MAP_FAILED ? NULL : mapped;
        }
        struct unwind_space *space = unwind_spaces[ring_index];
        if (space && !agent.unwind_with_libgcc) {
            // The trampoline's frame: the caller's %rbp just below its return address. The walk
            // runs on the agent's stack too: finding an FDE takes more than a thread created
            // with the smallest stack has left.
            const uintptr_t *slot = (const uintptr_t *)stack->return_slot;
            out[1] = first;
            struct cached_walk walk = {&space->rules, first, (uintptr_t)(slot + 1), slot[-1], out, -1,
                                       {stack->stack_end, stack->own_code_start, stack->own_code_end, 0}};
            imgtrace_agent_on_stack(run_cached_walk, &walk, space->stack + UNWIND_STACK_BYTES);
            *unreadable = walk.bounds.unreadable;
            if (walk.count >= 0) return walk.count;
        }
        if (space) imgtrace_agent_on_stack(walk_frames, &walk, space->stack + UNWIND_STACK_BYTES);
    }
    // An unwinder that never reached the caller (no CFI, no stack to run on) gives the caller alone.
    if (walk.count == 1 && agent.frames_wanted > 1) out[walk.count++] = walk.first;
    return walk.count;
}
#else
int capture_frames(const struct request_stack *stack, uint64_t *out, int *unreadable) {
    (void)stack;
    (void)out;
    (void)unreadable;
    return 0;
}
#endif
