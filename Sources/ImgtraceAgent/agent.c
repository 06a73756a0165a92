// The in-process agent of `imgtrace record --agent`: loaded into the app (LD_PRELOAD, or
// DYLD_INSERT_LIBRARIES on Apple platforms), it wraps the image APIs and writes one record per
// request into a ring of shared memory that imgtrace drains. No debugger stops the app.
//
// Objective-C methods are wrapped through the runtime's own functions (objc_getClass,
// class_getClassMethod / class_getInstanceMethod, method_getTypeEncoding,
// method_setImplementation), found with dlsym so one binary serves Apple's runtime and GCC's
// (Debian's GNUstep) and a program without Objective-C. C functions (`--symbol`) are wrapped in
// the GOT of every loaded module, and again in modules loaded later through dlopen.
//
// Only the outermost image API of a request is recorded: a thread-local depth counter skips the
// calls an API makes to the others (imageNamed: → imageNamed:inBundle:…).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/stat.h>
#if defined(__linux__)
#include <elf.h>
#include <link.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#elif defined(__APPLE__)
#include <mach-o/dyld.h>
#include <mach/mach.h>
#endif
#include <sched.h>
#include <time.h>
#include <unistd.h>
#include <unwind.h>

#include "agent_parts.h"
#include "cfi_unwind.h"
#include "imgtrace_agent_shared.h"

#define MAX_TARGETS IMGTRACE_AGENT_MAX_APIS

typedef void *(*generic_fn)(void *, void *, void *, void *, void *, void *);

/// A context is a method that is not a request by itself but says what kind the requests made
/// inside it are (a nib placeholder, a trait change): its index goes into their records. A decode
/// is a method that decodes an image object a lookup returned earlier (the toolkit decodes at first
/// use, not at lookup): it is timed like a request and names its object.
enum target_kind { TARGET_METHOD, TARGET_LAUNCH_END, TARGET_SYMBOL, TARGET_CONTEXT, TARGET_DECODE };

struct target {
    enum target_kind kind;
    int class_method;         // `+[…]`
    char class_name[128];
    char selector[256];
    char symbol[128];         // TARGET_SYMBOL
    int argument;             // 1-based argument holding the C string name (symbols)
    void *original;           // the implementation or function the wrapper calls
    int done;                 // wrapped, or refused: never looked at again
};

static imgtrace_agent_shared *shared;
static int enabled;
static struct target targets[MAX_TARGETS];
static int target_count;
static atomic_int launch_end_marked;
static pthread_mutex_t patch_lock = PTHREAD_MUTEX_INITIALIZER;

/// Stack frames each record keeps (IMGTRACE_AGENT_FRAMES): 0 unwinds nothing.
static int frames_wanted;
static __thread int depth;
static __thread int context = -1;
static __thread imgtrace_agent_ring *own_ring;
static __thread int no_ring;

// The Objective-C runtime, when the process has one.
typedef void *objc_ptr;
static objc_ptr (*rt_getClass)(const char *);
static objc_ptr (*rt_getClassMethod)(objc_ptr, objc_ptr);
static objc_ptr (*rt_getInstanceMethod)(objc_ptr, objc_ptr);
static const char *(*rt_getTypeEncoding)(objc_ptr);
static void *(*rt_setImplementation)(objc_ptr, void *);
static objc_ptr (*rt_registerName)(const char *);
static const char *(*rt_selGetName)(objc_ptr);
static objc_ptr (*rt_objectGetClass)(objc_ptr);
static void *(*rt_getMethodImplementation)(objc_ptr, objc_ptr);
static signed char (*rt_respondsToSelector)(objc_ptr, objc_ptr);
static const char *(*rt_className)(objc_ptr);
static objc_ptr utf8_selector;
static int gnu_runtime;
/// GCC's runtime: the dispatch table a class has until its first message (`__objc_uninstalled_dtable`),
/// and where a class keeps its table (struct objc_class: isa, super, name, version, info, size,
/// ivars, methods, dtable).
static void *const *gnu_uninstalled_dtable;
#define GNU_CLASS_DTABLE_OFFSET 64

// MARK: Notes for imgtrace

static void note(const char *format, const char *a, const char *b) {
    if (!shared) return;
    char line[512];
    int n = snprintf(line, sizeof line, format, a, b);
    if (n <= 0) return;
    if ((size_t)n >= sizeof line) n = sizeof line - 1;
    uint32_t at = __atomic_fetch_add(&shared->notes_length, (uint32_t)n + 1, __ATOMIC_RELAXED);
    if (at + (uint32_t)n + 1 > IMGTRACE_AGENT_NOTES_BYTES) return;
    memcpy(shared->notes + at, line, (size_t)n);
    shared->notes[at + (uint32_t)n] = '\n';
}

// MARK: Records

static imgtrace_agent_ring *ring(void) {
    if (own_ring) return own_ring;
    if (no_ring) return NULL;
    uint32_t index = __atomic_fetch_add(&shared->rings_claimed, 1, __ATOMIC_RELAXED);
    if (index >= IMGTRACE_AGENT_RINGS) {
        no_ring = 1;
        return NULL;
    }
    imgtrace_agent_ring *claimed = &shared->rings[index];
    pthread_getname_np(pthread_self(), claimed->thread, sizeof claimed->thread);
#if defined(__linux__)
    int32_t tid = (int32_t)syscall(SYS_gettid);
#else
    uint64_t thread_id = 0;
    pthread_threadid_np(NULL, &thread_id);
    int32_t tid = (int32_t)thread_id;
#endif
    __atomic_store_n(&claimed->tid, tid, __ATOMIC_RELEASE);
    own_ring = claimed;
    return claimed;
}

/// Addresses below this are small integers (a sentinel, an id, a wrong argument number), never a
/// string: no read is tried.
#define LOWEST_NAME_ADDRESS 65536u

/// The stack of the request being recorded on this thread: where its caller's return address
/// is, and the API's entry (frame 0). NULL slot: no stack (the launch end, other platforms).
struct request_stack {
    void *const *return_slot;
    void *entry;
};

static int capture_frames(const struct request_stack *stack, uint64_t *out);

static uint64_t monotonic_nanoseconds(void);

/// A full ring while a recorder drains it is a burst faster than the recorder copies (it was
/// busy): the thread waits for room, up to 20 ms, rather than lose the record. A ring nobody
/// drains (the file mode, a recorder gone) has its tail still for 2 ms: the thread stops
/// waiting, and waits again only once the tail moves.
#define ROOM_WAIT_NANOSECONDS 20000000ull
#define DRAINER_SILENCE_NANOSECONDS 2000000ull
static __thread uint64_t undrained_tail = UINT64_MAX;

static int wait_for_room(imgtrace_agent_ring *r, uint64_t head, uint64_t needed) {
    uint64_t tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
    if (tail == undrained_tail) return 0;
    uint64_t began = monotonic_nanoseconds(), moved = began;
    for (;;) {
        sched_yield();
        uint64_t now_tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE), now = monotonic_nanoseconds();
        if (IMGTRACE_AGENT_RING_BYTES - (head - now_tail) >= needed) return 1;
        if (now_tail != tail) {
            tail = now_tail;
            moved = now;
        }
        if (now - moved > DRAINER_SILENCE_NANOSECONDS) {
            undrained_tail = tail;
            return 0;
        }
        if (now - began > ROOM_WAIT_NANOSECONDS) return 0;
    }
}

/// Writes one record and returns its sequence number plus one (0: lost). A name is copied from
/// the program's memory without trusting its address (an unreadable one is recorded as its
/// address, `IMGTRACE_AGENT_UNREADABLE` with 8 bytes); one longer than the ring's limit is cut
/// and flagged; the frames follow it. A return's `name` is its payload, the agent's own. The
/// program's `errno` is left as it was.
static uint64_t record(uint32_t api, uint32_t kind, const char *name, const struct request_stack *stack) {
    imgtrace_agent_ring *r = ring();
    if (!r) {
        __atomic_fetch_add(&shared->lost, 1, __ATOMIC_RELAXED);
        return 0;
    }
    int saved_errno = errno;
    // Room for the longest record is reserved; the record takes what its name needs.
    uint64_t most = ((sizeof(imgtrace_agent_record) + IMGTRACE_AGENT_NAME_BYTES + 7) & ~(uint64_t)7) + IMGTRACE_AGENT_MAX_FRAMES * 8;
    uint64_t head = r->head;
    uint32_t at = (uint32_t)(head & (IMGTRACE_AGENT_RING_BYTES - 1));
    uint32_t left = IMGTRACE_AGENT_RING_BYTES - at;
    // A record never wraps: what is left at the ring's end is skipped (marked when a header fits).
    uint64_t skip = left < most ? left : 0;
    if (IMGTRACE_AGENT_RING_BYTES - (head - __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE)) < skip + most && !wait_for_room(r, head, skip + most)) {
        __atomic_fetch_add(&shared->lost, 1, __ATOMIC_RELAXED);
        errno = saved_errno;
        return 0;
    }
    if (skip) {
        if (left >= sizeof(imgtrace_agent_record)) ((imgtrace_agent_record *)(r->bytes + at))->kind = IMGTRACE_AGENT_PAD;
        head += skip;
        at = 0;
    }
    imgtrace_agent_record *slot = (imgtrace_agent_record *)(r->bytes + at);
    char *text = (char *)(slot + 1);
    uint32_t length = 0, flags = 0;
    if (kind == IMGTRACE_AGENT_NAME) {
        size_t got = (uintptr_t)name < LOWEST_NAME_ADDRESS ? 0 : copy_untrusted(text, name, IMGTRACE_AGENT_NAME_BYTES, 1);
        const char *nul = got ? memchr(text, 0, got) : NULL;
        if (nul) {
            length = (uint32_t)(nul - text);
        } else if (got == IMGTRACE_AGENT_NAME_BYTES) {
            length = IMGTRACE_AGENT_NAME_BYTES;
            flags = IMGTRACE_AGENT_TRUNCATED;
        } else {
            kind = IMGTRACE_AGENT_UNREADABLE;
        }
    }
    if (kind == IMGTRACE_AGENT_UNREADABLE) {
        uint64_t address = (uint64_t)(uintptr_t)name;
        memcpy(text, &address, sizeof address);
        length = sizeof address;
    } else if (kind == IMGTRACE_AGENT_DECODE) {
        uint64_t object = (uint64_t)(uintptr_t)name;
        memcpy(text, &object, sizeof object);
        length = sizeof object;
    } else if (kind == IMGTRACE_AGENT_RETURN) {
        memcpy(text, name, sizeof(imgtrace_agent_return_payload));
        length = sizeof(imgtrace_agent_return_payload);
    }
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    uint64_t seq = __atomic_fetch_add(&shared->seq, 1, __ATOMIC_RELAXED);
    slot->seq = seq;
    slot->seconds = (uint64_t)now.tv_sec;
    slot->nanoseconds = (uint32_t)now.tv_nsec;
    slot->api = (uint16_t)api;
    slot->kind = (uint8_t)kind;
    slot->flags = (uint8_t)flags;
    slot->length = length;
    slot->context = context < 0 ? 0xFFFF : (uint16_t)context;
    uint64_t *frames = (uint64_t *)((char *)slot + ((sizeof(imgtrace_agent_record) + length + 7) & ~(uint64_t)7));
    slot->frames = stack && stack->return_slot ? (uint16_t)capture_frames(stack, frames) : 0;
    uint64_t size = imgtrace_agent_record_size(slot);
    __atomic_store_n(&r->head, head + size, __ATOMIC_RELEASE);
    errno = saved_errno;
    return seq + 1;
}

/// Whether the runtime may be asked about `object`: a small integer or a stale pointer given as the
/// name would fault in it. The object's first word must be readable, and on GNUstep's runtime the
/// class it points to too; Apple's tagged pointers hold their value in the pointer itself.
static int object_readable(objc_ptr object) {
    uintptr_t address = (uintptr_t)object;
    uint64_t word = 0;
#if defined(__APPLE__)
#if defined(__arm64__)
    if (address >> 63) return 1;
#else
    if (address & 1) return 1;
#endif
    return address >= LOWEST_NAME_ADDRESS && copy_untrusted((char *)&word, (const char *)address, sizeof word, 0) == sizeof word;
#else
    return address >= LOWEST_NAME_ADDRESS && copy_untrusted((char *)&word, (const char *)address, sizeof word, 0) == sizeof word &&
           word >= LOWEST_NAME_ADDRESS && copy_untrusted((char *)&word, (const char *)(uintptr_t)word, sizeof word, 0) == sizeof word;
#endif
}

/// The name object's UTF-8 text through its own `UTF8String`, or why not; returns `record`'s.
static uint64_t record_object_name(uint32_t api, objc_ptr name, const struct request_stack *stack) {
    if (!name) return record(api, IMGTRACE_AGENT_NIL, NULL, stack);
    objc_ptr cls = object_readable(name) ? rt_objectGetClass(name) : NULL;
    if (!cls || !rt_respondsToSelector(cls, utf8_selector)) return record(api, IMGTRACE_AGENT_UNREADABLE, (const char *)name, stack);
    const char *(*utf8)(objc_ptr, objc_ptr) = (const char *(*)(objc_ptr, objc_ptr))rt_getMethodImplementation(cls, utf8_selector);
    const char *text = utf8 ? utf8(name, utf8_selector) : NULL;
    return record(api, text ? IMGTRACE_AGENT_NAME : IMGTRACE_AGENT_UNREADABLE, text ? text : (const char *)name, stack);
}

/// The request this thread recorded and has not seen return: its record's sequence number plus
/// one (0: none) and when its API was entered, on the monotonic clock (wall-clock steps would
/// make durations negative).
static __thread uint64_t open_request;
static __thread uint64_t open_request_began;
/// Time the open request spent in the image APIs it called itself (depth 2), and when the one
/// running now was entered (0: none).
static __thread uint64_t nested_total;
static __thread uint64_t nested_began;

static uint64_t monotonic_nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

// MARK: Wrappers

/// What a request records on entry: its name, unless an outer image API on this thread already did.
static void enter_request(int index, void *const *arguments, void *const *return_slot) {
    struct target *t = &targets[index];
    if (t->kind == TARGET_CONTEXT) {
        if (depth == 0 && context < 0) context = index;
        return;
    }
    if (t->kind == TARGET_LAUNCH_END) return;
    int level = ++depth;
    if (level == 2 && open_request) nested_began = monotonic_nanoseconds();
    if (level != 1 || !enabled) return;
    nested_total = 0;
    struct request_stack stack = {return_slot, t->original};
    if (t->kind == TARGET_METHOD) {
        open_request = record_object_name((uint32_t)index, arguments[2], &stack);
    } else if (t->kind == TARGET_DECODE) {
        open_request = record((uint32_t)index, IMGTRACE_AGENT_DECODE, (const char *)arguments[0], NULL);
    } else {
        const char *name = (const char *)arguments[t->argument - 1];
        open_request = record((uint32_t)index, name ? IMGTRACE_AGENT_NAME : IMGTRACE_AGENT_NIL, name, &stack);
    }
    // Read after the record is written: the agent's own work is not the API's.
    open_request_began = open_request ? monotonic_nanoseconds() : 0;
}

/// What a request does when it is over: the depth goes down, and the outermost one's return is
/// recorded with its duration and `result` when the call `returned` (a call left by longjmp or an
/// exception has no end to measure); the launch end is marked once.
static void leave_request(int index, int returned, void *result) {
    struct target *t = &targets[index];
    if (t->kind == TARGET_CONTEXT) {
        if (context == index) context = -1;
        return;
    }
    if (t->kind != TARGET_LAUNCH_END) {
        int level = depth--;
        if (level == 2 && nested_began) {
            nested_total += monotonic_nanoseconds() - nested_began;
            nested_began = 0;
        }
        if (level == 1 && open_request) {
            if (returned && enabled) {
                imgtrace_agent_return_payload payload = {
                    open_request - 1, monotonic_nanoseconds() - open_request_began, (uint64_t)(uintptr_t)result, nested_total};
                record((uint32_t)index, IMGTRACE_AGENT_RETURN, (const char *)&payload, NULL);
            }
            open_request = 0;
        }
        return;
    }
    int expected = 0;
    if (enabled && atomic_compare_exchange_strong(&launch_end_marked, &expected, 1)) record((uint32_t)index, IMGTRACE_AGENT_LAUNCH_END, NULL, NULL);
}

#if defined(__x86_64__) && defined(__linux__)
// x86-64: an assembly trampoline per target saves every argument register (six integer, eight
// vector), lets `imgtrace_agent_enter` record, restores them and jumps to the original with the
// caller's stack untouched, so any signature passes: floats, stack arguments, variadic calls.
// To see the return, enter swaps the return address for `imgtrace_agent_return` and keeps the
// real one on a per-thread shadow stack; the original then returns into the agent, which calls
// `imgtrace_agent_leave` (result registers saved) and jumps back to the real caller.
// Static TLS comes out of every thread's stack: 256 entries (4 KiB) left a thread created with
// PTHREAD_STACK_MIN no stack at all, even with the agent merely preloaded. 32 nested wrapped calls
// (784 bytes) is deeper than any image path; a deeper one is counted as returned at once.
#define SHADOW_DEPTH 32
static __thread struct {
    void *address;
    /// Where the return address was on the stack: an entry whose slot is not above a new call's
    /// was left without returning (longjmp, an exception caught outside).
    void **slot;
    int index;
} shadow[SHADOW_DEPTH];
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
        leave_request(shadow[shadow_top].index, 0, NULL);
    }
    enter_request(index, registers, return_slot);
    if (shadow_top < SHADOW_DEPTH) {
        shadow[shadow_top].address = *return_slot;
        shadow[shadow_top].slot = return_slot;
        shadow[shadow_top].index = index;
        shadow_top++;
        *return_slot = (void *)imgtrace_agent_return;
    } else if (targets[index].kind == TARGET_METHOD || targets[index].kind == TARGET_SYMBOL || targets[index].kind == TARGET_DECODE) {
        depth--;  // too deep to see the return: count it as returned now
    }
    return targets[index].original;
}

__attribute__((visibility("hidden"), used)) void *imgtrace_agent_leave(void *result) {
    shadow_top--;
    leave_request(shadow[shadow_top].index, 1, result);
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

/// IMGTRACE_AGENT_UNWINDER=libgcc: every walk by libgcc's unwinder (the tests compare the two).
static int unwind_with_libgcc;

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
static int capture_frames(const struct request_stack *stack, uint64_t *out) {
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
static void *const wrappers[MAX_TARGETS] = {
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
#define TRAMPOLINES 1
#else
// Elsewhere (Apple's arm64, other Linux): C wrappers that take the six integer-register
// arguments and pass them on, enough for self, _cmd and four pointer or integer arguments; the
// type encoding refuses anything else.
static int capture_frames(const struct request_stack *stack, uint64_t *out) {
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
static void *const wrappers[MAX_TARGETS] = {
    wrapper_0, wrapper_1, wrapper_2, wrapper_3, wrapper_4, wrapper_5, wrapper_6, wrapper_7,
    wrapper_8, wrapper_9, wrapper_10, wrapper_11, wrapper_12, wrapper_13, wrapper_14, wrapper_15,
    wrapper_16, wrapper_17, wrapper_18, wrapper_19, wrapper_20, wrapper_21, wrapper_22, wrapper_23,
    wrapper_24, wrapper_25, wrapper_26, wrapper_27, wrapper_28, wrapper_29, wrapper_30, wrapper_31,
};
#define TRAMPOLINES 0
#endif

// MARK: Objective-C

/// GCC's runtime: whether `holder` (a class, or a metaclass for class methods) has never been sent
/// a message: its dispatch table is still the shared uninstalled one, or none yet (a class
/// registered a moment ago, whose superclass link may still be a name).
static int gnu_never_messaged(objc_ptr holder) {
    void *dtable = *(void *const *)((const char *)holder + GNU_CLASS_DTABLE_OFFSET);
    return dtable == NULL || dtable == *gnu_uninstalled_dtable;
}

/// GCC's runtime: `selector`'s method among `holder`'s own method lists (struct objc_method_list:
/// next +0, count +8, 24-byte entries from +16: selector, types, implementation), read without
/// a message. Asking the runtime instead (class_getClassMethod) sends +resolveClassMethod: when
/// the method is not there, a message to a class that may not be resolved yet.
static objc_ptr gnu_own_method(objc_ptr holder, const char *selector) {
    const char *list = *(const char *const *)((const char *)holder + 56);
    for (int lists = 0; list && lists < 64; lists++) {
        int count = *(const int *)(list + 8);
        for (int i = 0; i < count && i < 65536; i++) {
            const char *entry = list + 16 + 24 * i;
            objc_ptr name = *(objc_ptr const *)entry;
            const char *text = name && rt_selGetName ? rt_selGetName(name) : NULL;
            if (text && strcmp(text, selector) == 0) return (objc_ptr)entry;
        }
        list = *(const char *const *)list;
    }
    return NULL;
}

static void patch_method(int index) {
    struct target *t = &targets[index];
    if (t->done || !rt_getClass) return;
    objc_ptr cls = rt_getClass(t->class_name);
    if (!cls) return;
    // GCC's runtime: a class that has never been sent a message is read, not asked (see below).
    objc_ptr holder = t->class_method ? rt_objectGetClass(cls) : cls;
    int unmessaged = gnu_runtime && gnu_uninstalled_dtable && holder && gnu_never_messaged(holder);
    objc_ptr method;
    if (unmessaged) {
        method = gnu_own_method(holder, t->selector);
    } else {
        objc_ptr selector = rt_registerName(t->selector);
        method = t->class_method ? rt_getClassMethod(cls, selector) : rt_getInstanceMethod(cls, selector);
    }
    if (!method) return;
    char spec[420];
    snprintf(spec, sizeof spec, "%c[%s %s]", t->class_method ? '+' : '-', t->class_name, t->selector);
    const char *encoding = rt_getTypeEncoding(method);
    const char *reason = "no type encoding";
    t->done = 1;
    if (!encoding || !encoding_fits(encoding, t->kind == TARGET_METHOD, TRAMPOLINES, &reason)) {
        char why[200];
        snprintf(why, sizeof why, "%s (%s)", reason, encoding ? encoding : "none");
        note("skipped %s: %s", spec, why);
        shared->api_status[index] = 2;
        return;
    }
    if (unmessaged) {
        // GCC's runtime loses a class's +initialize when method_setImplementation replaces a method
        // of a class that has not run it (GNUstep's NSImage then unlocks a lock it never took),
        // and sending +class first runs +initialize before main, outside any autorelease pool. A
        // class that has never been sent a message has its dispatch table built from its method
        // lists at the first one, so the method's entry is rewritten in place and the runtime is
        // not involved.
        void **imp = (void **)((char *)method + 16);
        t->original = *imp;
        *imp = wrappers[index];
        shared->api_status[index] = 1;
        __atomic_fetch_add(&shared->patched, 1, __ATOMIC_RELAXED);
        return;
    }
    t->original = rt_setImplementation(method, wrappers[index]);
    shared->api_status[index] = 1;
    __atomic_fetch_add(&shared->patched, 1, __ATOMIC_RELAXED);
}

static void patch_methods(void) {
    pthread_mutex_lock(&patch_lock);
    for (int i = 0; i < target_count; i++) {
        if (targets[i].kind != TARGET_SYMBOL) patch_method(i);
    }
    pthread_mutex_unlock(&patch_lock);
}

/// GCC's runtime calls this for every class and category it loads: a class that arrives after
/// the agent started (a library's constructor registers it) is patched as it arrives.
static void (*previous_load_callback)(objc_ptr, void *);
static void class_loaded(objc_ptr cls, void *category) {
    if (previous_load_callback) previous_load_callback(cls, category);
    const char *name = rt_className ? rt_className(cls) : NULL;
    if (!name) return;
    for (int i = 0; i < target_count; i++) {
        if (targets[i].kind != TARGET_SYMBOL && !targets[i].done && strcmp(targets[i].class_name, name) == 0) {
            pthread_mutex_lock(&patch_lock);
            patch_method(i);
            pthread_mutex_unlock(&patch_lock);
        }
    }
}

static objc_ptr first_word_class(objc_ptr object) { return object ? *(objc_ptr *)object : NULL; }

static void find_runtime(void) {
    rt_getClass = (objc_ptr(*)(const char *))dlsym(RTLD_DEFAULT, "objc_getClass");
    if (!rt_getClass) return;
    rt_getClassMethod = (objc_ptr(*)(objc_ptr, objc_ptr))dlsym(RTLD_DEFAULT, "class_getClassMethod");
    rt_selGetName = (const char *(*)(objc_ptr))dlsym(RTLD_DEFAULT, "sel_getName");
    rt_getInstanceMethod = (objc_ptr(*)(objc_ptr, objc_ptr))dlsym(RTLD_DEFAULT, "class_getInstanceMethod");
    rt_getTypeEncoding = (const char *(*)(objc_ptr))dlsym(RTLD_DEFAULT, "method_getTypeEncoding");
    rt_setImplementation = (void *(*)(objc_ptr, void *))dlsym(RTLD_DEFAULT, "method_setImplementation");
    rt_registerName = (objc_ptr(*)(const char *))dlsym(RTLD_DEFAULT, "sel_registerName");
    rt_objectGetClass = (objc_ptr(*)(objc_ptr))dlsym(RTLD_DEFAULT, "object_getClass");
    // GCC's runtime makes object_getClass inline: the class is an object's first word there.
    if (!rt_objectGetClass) rt_objectGetClass = first_word_class;
    rt_getMethodImplementation = (void *(*)(objc_ptr, objc_ptr))dlsym(RTLD_DEFAULT, "class_getMethodImplementation");
    rt_respondsToSelector = (signed char (*)(objc_ptr, objc_ptr))dlsym(RTLD_DEFAULT, "class_respondsToSelector");
    rt_className = (const char *(*)(objc_ptr))dlsym(RTLD_DEFAULT, "class_getName");
    if (!rt_getClassMethod || !rt_getInstanceMethod || !rt_getTypeEncoding || !rt_setImplementation || !rt_registerName ||
        !rt_objectGetClass || !rt_getMethodImplementation || !rt_respondsToSelector || !rt_className) {
        rt_getClass = NULL;
        note("%s%s", "the Objective-C runtime lacks a function the agent needs: no method is wrapped", "");
        return;
    }
    utf8_selector = rt_registerName("UTF8String");
    void (**callback)(objc_ptr, void *) = (void (**)(objc_ptr, void *))dlsym(RTLD_DEFAULT, "_objc_load_callback");
    gnu_runtime = dlsym(RTLD_DEFAULT, "objc_msg_lookup") != NULL;
    if (gnu_runtime) gnu_uninstalled_dtable = (void *const *)dlsym(RTLD_DEFAULT, "__objc_uninstalled_dtable");
    if (callback) {
        previous_load_callback = *callback;
        *callback = class_loaded;
    }
}

// MARK: C functions, through the GOT

#if defined(__linux__)
#if defined(__x86_64__)
#define JUMP_SLOT R_X86_64_JUMP_SLOT
#define GLOB_DAT R_X86_64_GLOB_DAT
#elif defined(__aarch64__)
#define JUMP_SLOT R_AARCH64_JUMP_SLOT
#define GLOB_DAT R_AARCH64_GLOB_DAT
#endif

static int in_relro(struct dl_phdr_info *info, uintptr_t address) {
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_GNU_RELRO && address >= start && address < start + ph->p_memsz) return 1;
    }
    return 0;
}

static void patch_slot(struct dl_phdr_info *info, void **slot, void *value) {
    if (*slot == value) return;
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t start = (uintptr_t)slot & ~(uintptr_t)(page - 1);
    int readonly = in_relro(info, (uintptr_t)slot);
    if (readonly && mprotect((void *)start, (size_t)page, PROT_READ | PROT_WRITE) != 0) return;
    *slot = value;
    if (readonly) mprotect((void *)start, (size_t)page, PROT_READ);
}

static void patch_relocations(struct dl_phdr_info *info, const ElfW(Rela) *relocations, size_t bytes, const ElfW(Sym) *symbols,
                              const char *strings) {
    for (size_t k = 0; k < bytes / sizeof(ElfW(Rela)); k++) {
        unsigned type = (unsigned)ELF64_R_TYPE(relocations[k].r_info);
        // GLOB_DAT too: when a module takes a function's address, the linker sends its calls
        // through that same slot (`.plt.got`), and so does -fno-plt. The price: in such a module
        // `&f` is the wrapper, not what `dlsym(RTLD_DEFAULT, "f")` gives.
        if (type != JUMP_SLOT && type != GLOB_DAT) continue;
        const char *name = strings + symbols[ELF64_R_SYM(relocations[k].r_info)].st_name;
        for (int i = 0; i < target_count; i++) {
            struct target *t = &targets[i];
            if (t->kind != TARGET_SYMBOL || strcmp(t->symbol, name) != 0) continue;
            if (!t->original) {
                t->original = dlsym(RTLD_DEFAULT, name);
                if (!t->original) continue;
                shared->api_status[i] = 1;
                __atomic_fetch_add(&shared->patched, 1, __ATOMIC_RELAXED);
            }
            patch_slot(info, (void **)(info->dlpi_addr + relocations[k].r_offset), wrappers[i]);
        }
    }
}

static int patch_module(struct dl_phdr_info *info, size_t size, void *self_base) {
    (void)size;
    if ((void *)info->dlpi_addr == self_base) return 0;  // the agent's own GOT calls the originals
    const ElfW(Dyn) *dynamic = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC) dynamic = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    }
    if (!dynamic || !info->dlpi_name) return 0;
    uintptr_t symtab = 0, strtab = 0, jmprel = 0, rela = 0;
    size_t pltsize = 0, relasize = 0;
    for (const ElfW(Dyn) *d = dynamic; d->d_tag != DT_NULL; d++) {
        switch (d->d_tag) {
        case DT_SYMTAB: symtab = d->d_un.d_ptr; break;
        case DT_STRTAB: strtab = d->d_un.d_ptr; break;
        case DT_JMPREL: jmprel = d->d_un.d_ptr; break;
        case DT_PLTRELSZ: pltsize = d->d_un.d_val; break;
        case DT_RELA: rela = d->d_un.d_ptr; break;
        case DT_RELASZ: relasize = d->d_un.d_val; break;
        }
    }
    // The dynamic linker relocates these in place for most objects, not for all (the vDSO).
    uintptr_t base = info->dlpi_addr;
#define AT(p) ((p) < base ? (p) + base : (p))
    if (!symtab || !strtab) return 0;
    const ElfW(Sym) *symbols = (const ElfW(Sym) *)AT(symtab);
    const char *strings = (const char *)AT(strtab);
    if (jmprel) patch_relocations(info, (const ElfW(Rela) *)AT(jmprel), pltsize, symbols, strings);
    if (rela) patch_relocations(info, (const ElfW(Rela) *)AT(rela), relasize, symbols, strings);
#undef AT
    return 0;
}

static int patch_module_callback(struct dl_phdr_info *info, size_t size, void *data) { return patch_module(info, size, data); }

static void patch_symbols(void) {
    int any = 0;
    for (int i = 0; i < target_count; i++) any |= targets[i].kind == TARGET_SYMBOL;
    if (!any) return;
    Dl_info self;
    void *self_base = dladdr((void *)patch_symbols, &self) ? self.dli_fbase : NULL;
    pthread_mutex_lock(&patch_lock);
    dl_iterate_phdr(patch_module_callback, self_base);
    pthread_mutex_unlock(&patch_lock);
}

/// Libraries loaded later are searched as they arrive.
void *dlopen(const char *file, int mode) {
    static void *(*real_dlopen)(const char *, int);
    if (!real_dlopen) real_dlopen = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
    void *handle = real_dlopen ? real_dlopen(file, mode) : NULL;
    if (handle && shared) patch_symbols();
    return handle;
}
#else
/// Apple platforms: `--symbol` needs the ELF GOT; only Objective-C methods are wrapped.
static void patch_symbols(void) {
    for (int i = 0; i < target_count; i++) {
        if (targets[i].kind == TARGET_SYMBOL) note("skipped %s: %s", targets[i].symbol, "C functions are wrapped on Linux only");
    }
}
#endif

#if defined(__APPLE__)
/// dyld announces each image; classes it brings are patched as it arrives.
static void image_added(const struct mach_header *header, intptr_t slide) {
    (void)header;
    (void)slide;
    if (shared) patch_methods();
}
#endif

// MARK: Start

/// Whether the line's first word (`length` bytes) is `kind`, one of the API list's words.
static int word_is(const char *line, size_t length, const char *kind) { return strlen(kind) == length && strncmp(line, kind, length) == 0; }

static void parse_targets(const char *text) {
    char line[400];
    while (text && *text && target_count < MAX_TARGETS) {
        // Lines end with a newline or `;` (an environment variable in an Xcode scheme is one line).
        const char *end = strpbrk(text, "\n;");
        size_t length = end ? (size_t)(end - text) : strlen(text);
        if (length >= sizeof line) length = sizeof line - 1;
        memcpy(line, text, length);
        line[length] = '\0';
        text = end ? end + 1 : NULL;
        struct target *t = &targets[target_count];
        memset(t, 0, sizeof *t);
        char sign = 0;
        const char *spec = strchr(line, ' ');
        if (!spec) continue;
        size_t word = (size_t)(spec - line);
        spec++;
        if (word_is(line, word, IMGTRACE_AGENT_API_SYMBOL)) {
            t->kind = TARGET_SYMBOL;
            if (sscanf(spec, "%127s %d", t->symbol, &t->argument) != 2 || t->argument < 1 || t->argument > 6) continue;
        } else if (word_is(line, word, IMGTRACE_AGENT_API_OBJC) || word_is(line, word, IMGTRACE_AGENT_API_END) ||
                   word_is(line, word, IMGTRACE_AGENT_API_CONTEXT) || word_is(line, word, IMGTRACE_AGENT_API_DECODE)) {
            t->kind = word_is(line, word, IMGTRACE_AGENT_API_END)       ? TARGET_LAUNCH_END
                      : word_is(line, word, IMGTRACE_AGENT_API_CONTEXT) ? TARGET_CONTEXT
                      : word_is(line, word, IMGTRACE_AGENT_API_DECODE)  ? TARGET_DECODE
                                                                        : TARGET_METHOD;
            if (sscanf(spec, "%c[%127s %255[^]]]", &sign, t->class_name, t->selector) != 3 || (sign != '+' && sign != '-')) continue;
            t->class_method = sign == '+';
        } else {
            continue;
        }
        target_count++;
    }
}

/// Children do not inherit the agent unless asked (IMGTRACE_AGENT_CHILDREN=1): a forked child
/// writes nothing (its thread would share its parent's ring), an exec'd one does not load it.
static void child_after_fork(void) {
    if (getenv("IMGTRACE_AGENT_CHILDREN")) {
        own_ring = NULL;
        no_ring = 0;
    } else {
        enabled = 0;
    }
}

#if defined(__APPLE__)
#define PRELOAD_VARIABLE "DYLD_INSERT_LIBRARIES"
#define AGENT_FILE "libImgtraceAgent.dylib"
#else
#define PRELOAD_VARIABLE "LD_PRELOAD"
#define AGENT_FILE "libImgtraceAgent.so"
#endif

/// Takes the agent out of the preload list, so programs the app runs do not load it.
static void remove_from_preload(void) {
    const char *preload = getenv(PRELOAD_VARIABLE);
    if (!preload) return;
    char kept[4096] = "";
    const char *p = preload;
    while (*p) {
        while (*p == ' ' || *p == ':') p++;
        size_t length = strcspn(p, " :");
        if (length == 0) break;
        const char *file = p;
        for (size_t k = 0; k < length; k++) {
            if (p[k] == '/') file = p + k + 1;
        }
        size_t file_length = length - (size_t)(file - p);
        int ours = file_length == strlen(AGENT_FILE) && strncmp(file, AGENT_FILE, file_length) == 0;
        if (!ours && strlen(kept) + length + 2 < sizeof kept) {
            if (kept[0]) strcat(kept, ":");
            strncat(kept, p, length);
        }
        p += length;
    }
    if (kept[0]) setenv(PRELOAD_VARIABLE, kept, 1);
    else unsetenv(PRELOAD_VARIABLE);
}

/// Without imgtrace beside the app (DYLD_INSERT_LIBRARIES from a scheme or `simctl`), the agent
/// writes into a file of its own, which `imgtrace agent-log FILE` turns into a log afterwards.
///
/// The file is created anew, or taken over only when it is an agent's file of a process that has
/// ended: a link (a planted one in a shared folder would turn another file into this one), a file
/// that is not an agent's, another user's, or the live recording of another process (a child the
/// app started with its environment) is left as it is, and this process records nothing.
static int open_file(const char *path) {
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
    if (fd < 0) {
        if (errno != EEXIST) return -1;
        fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK);
        if (fd < 0) return -1;
        struct stat info;
        uint64_t magic = 0;
        int32_t writer = 0;
        int ours = fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_uid == getuid() &&
                   (size_t)info.st_size == sizeof(imgtrace_agent_shared) &&
                   pread(fd, &magic, sizeof magic, offsetof(imgtrace_agent_shared, magic)) == (ssize_t)sizeof magic &&
                   magic == IMGTRACE_AGENT_MAGIC &&
                   pread(fd, &writer, sizeof writer, offsetof(imgtrace_agent_shared, pid)) == (ssize_t)sizeof writer;
        int alive = writer > 0 && (kill((pid_t)writer, 0) == 0 || errno == EPERM);
        if (!ours || alive || ftruncate(fd, 0) != 0) {
            close(fd);
            return -1;
        }
    }
    imgtrace_agent_shared *fresh = imgtrace_agent_region_init(fd);
    if (!fresh) {
        close(fd);
        return -1;
    }
    munmap(fresh, sizeof(imgtrace_agent_shared));
    return fd;
}

/// The environment, unless the program runs with privileges its user does not have (set-user-ID).
static const char *variable(const char *name) {
#if defined(__GLIBC__)
    return secure_getenv(name);
#else
    return issetugid() ? NULL : getenv(name);
#endif
}

/// IMGTRACE_AGENT_FRAMES: how many frames each record keeps (0 to IMGTRACE_AGENT_MAX_FRAMES).
static int frames_asked(void) {
    const char *text = variable("IMGTRACE_AGENT_FRAMES");
    long frames = text ? strtol(text, NULL, 10) : 0;
    return frames < 0 ? 0 : frames > IMGTRACE_AGENT_MAX_FRAMES ? IMGTRACE_AGENT_MAX_FRAMES : (int)frames;
}

__attribute__((constructor)) static void agent_start(void) {
    const char *fd_text = variable("IMGTRACE_AGENT_FD");
    const char *file = variable("IMGTRACE_AGENT_FILE");
    int fd = fd_text ? atoi(fd_text) : file ? open_file(file) : -1;
    if (fd < 0) return;
    // A descriptor inherited through the environment may have been closed and reused since: map
    // it only when it is a region of the agent's size (an empty file would be SIGBUS at the first record).
    struct stat region_info;
    if (fstat(fd, &region_info) != 0 || (size_t)region_info.st_size != sizeof(imgtrace_agent_shared)) return;
    if (!fd_text && variable("IMGTRACE_AGENT_CHILDREN")) {
        // Children reach the same file through the descriptor, not by truncating it again.
        char text[16];
        snprintf(text, sizeof text, "%d", fd);
        setenv("IMGTRACE_AGENT_FD", text, 1);
    }
    void *map = mmap(NULL, sizeof(imgtrace_agent_shared), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) return;
    imgtrace_agent_shared *candidate = (imgtrace_agent_shared *)map;
    if (candidate->magic != IMGTRACE_AGENT_MAGIC || candidate->version != IMGTRACE_AGENT_VERSION) {
        munmap(map, sizeof(imgtrace_agent_shared));
        return;
    }
    shared = candidate;
    const char *apis = variable("IMGTRACE_AGENT_APIS");
    if (apis) strncpy(shared->apis, apis, sizeof shared->apis - 1);
    parse_targets(apis);
    frames_wanted = frames_asked();
    const char *unwinder = variable("IMGTRACE_AGENT_UNWINDER");
    unwind_with_libgcc = unwinder && strcmp(unwinder, "libgcc") == 0;
    if (!variable("IMGTRACE_AGENT_CHILDREN")) {
        close(fd);
        remove_from_preload();
        unsetenv("IMGTRACE_AGENT_FD");
        unsetenv("IMGTRACE_AGENT_FILE");
        unsetenv("IMGTRACE_AGENT_APIS");
        unsetenv("IMGTRACE_AGENT_FRAMES");
        unsetenv("IMGTRACE_AGENT_UNWINDER");
    }
    pthread_atfork(NULL, NULL, child_after_fork);
    find_runtime();
    patch_methods();
#if defined(__APPLE__)
    _dyld_register_func_for_add_image(image_added);
#endif
    patch_symbols();
    __atomic_store_n(&shared->pid, (int32_t)getpid(), __ATOMIC_RELAXED);
    enabled = 1;
    __atomic_store_n(&shared->ready, 1, __ATOMIC_RELEASE);
}
