// What the agent's files share: the target table (agent.c reads it from IMGTRACE_AGENT_APIS), the
// shared region, the wrappers, notes for imgtrace, and the parts that need nothing else (copying
// from an address the program handed over, Objective-C type encodings). Hidden: the program sees
// none of these symbols.
#ifndef IMGTRACE_AGENT_PARTS_H
#define IMGTRACE_AGENT_PARTS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "imgtrace_agent_shared.h"

#define AGENT_HIDDEN __attribute__((visibility("hidden")))

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
    char symbol[128];         // TARGET_SYMBOL, or a C function that ends the launch (TARGET_LAUNCH_END)
    int argument;             // 1-based argument holding the C string name (symbols)
    void *original;           // the implementation or function the wrapper calls
    int done;                 // wrapped, or refused: never looked at again
};

/// Whether the target is a C function, wrapped through the GOT (a request, or the launch end).
static inline int is_c_function(const struct target *t) { return t->kind == TARGET_SYMBOL || (t->kind == TARGET_LAUNCH_END && t->symbol[0]); }

/// The agent's state: set up at start (agent.c), read by every part. With `this_thread`, the only
/// mutable state the files share; each file's own (a cache, a counter) stays static in it.
struct agent_state {
    /// The region shared with imgtrace (NULL: the agent is off).
    imgtrace_agent_shared *shared;
    /// Whether the agent records (it started, and this is not a child it was not asked to follow).
    int enabled;
    /// What IMGTRACE_AGENT_APIS asked for, in its order (a record's `api` is an index here).
    struct target targets[MAX_TARGETS];
    int target_count;
    /// Held while targets are patched (the constructor, dlopen, a class loaded late).
    pthread_mutex_t patch_lock;
    /// Stack frames each record keeps (IMGTRACE_AGENT_FRAMES): 0 unwinds nothing.
    int frames_wanted;
    /// IMGTRACE_AGENT_UNWINDER=libgcc: every walk by libgcc's unwinder (the tests compare the two).
    int unwind_with_libgcc;
};
AGENT_HIDDEN extern struct agent_state agent;

/// What the agent keeps per thread of the program.
struct thread_state {
    /// Image APIs this thread is inside now (a request is the outermost).
    int depth;
    /// The context target this thread is inside (-1: none): its requests' kind.
    int context;
    /// This thread's ring, claimed at its first record.
    imgtrace_agent_ring *own_ring;
    /// Set once every ring is taken: this thread's records are counted lost.
    int no_ring;
};
AGENT_HIDDEN extern __thread struct thread_state this_thread;

#if defined(__x86_64__) && defined(__linux__)
/// A frame on %rbp, with the CFI that lets an unwinder walk through it to its caller.
#define FRAME_WITH_CFI                  \
    "    .cfi_startproc\n"              \
    "    pushq %rbp\n"                  \
    "    .cfi_def_cfa_offset 16\n"      \
    "    .cfi_offset %rbp, -16\n"       \
    "    movq %rsp, %rbp\n"             \
    "    .cfi_def_cfa_register %rbp\n"
#endif

/// The wrapper of each target index (wrappers.c).
AGENT_HIDDEN extern void *const wrappers[MAX_TARGETS];

/// Whether every argument travels untouched through the wrappers (the x86-64 trampolines), or
/// only pointers and integers (the C wrappers).
AGENT_HIDDEN extern const int agent_trampolines;

/// The stack of the request being recorded on this thread, as its wrapper sees it: where its
/// caller's return address is, the API's entry (frame 0), where the thread's stack ends (0: not
/// known), and the agent's own code, whose frames are not the program's. NULL slot: no stack (the
/// launch end, other platforms).
struct request_stack {
    void *const *return_slot;
    void *entry;
    uintptr_t stack_end;
    uintptr_t own_code_start, own_code_end;
};

/// What a patcher is given (fishhook's shape): the targets to wrap and their wrappers, how
/// arguments travel through those, the lock held while patching, and where to say what was
/// wrapped. The patchers read nothing else of the agent's state.
struct patch_table {
    struct target *targets;
    int count;
    void *const *wrappers;
    /// Every argument travels untouched (the x86-64 trampolines), or only pointers and integers.
    int trampolines;
    pthread_mutex_t *lock;
    /// The region's header, which claim_region replaces: read through at each report.
    imgtrace_agent_shared *const *region;
};

/// Says that target `index` was wrapped (`status` 1) or refused (2), for imgtrace.
static inline void report_wrapped(const struct patch_table *table, int index, int status) {
    imgtrace_agent_shared *region = __atomic_load_n(table->region, __ATOMIC_ACQUIRE);
    region->api_status[index] = (uint8_t)status;
    if (status == 1) __atomic_fetch_add(&region->patched, 1, __ATOMIC_RELAXED);
}

/// A wrapped API was entered: its record, if it is a request (requests.c). `stack` is NULL
/// where no stack is known.
AGENT_HIDDEN void enter_request(int index, void *const *arguments, const struct request_stack *stack);
/// A wrapped API is over: `returned` with `result`, or left by longjmp (requests.c).
AGENT_HIDDEN void leave_request(int index, int returned, void *result);
/// The request's frames into `out`: the entry, then the return addresses (frames.c);
/// `unreadable` is set when the walk ended at a frame whose CFI pointed off the thread's stack.
AGENT_HIDDEN int capture_frames(const struct request_stack *stack, uint64_t *out, int *unreadable);


/// Addresses below this are small integers (a sentinel, an id, a wrong argument number), never a
/// string: no read is tried.
#define LOWEST_NAME_ADDRESS 65536u

/// An Objective-C object, class, selector or method, as the runtime's C functions take them.
typedef void *objc_ptr;

/// Writes one record and returns its sequence number plus one (0: lost) (records.c).
AGENT_HIDDEN uint64_t record(uint32_t api, uint32_t kind, const char *name, const struct request_stack *stack);
/// The monotonic clock in nanoseconds (wall-clock steps would make durations negative).
AGENT_HIDDEN uint64_t monotonic_nanoseconds(void);
/// The Objective-C runtime's functions the agent uses, found with dlsym (objc_runtime.c).
struct objc_runtime {
    objc_ptr (*getClass)(const char *);
    objc_ptr (*getClassMethod)(objc_ptr, objc_ptr);
    objc_ptr (*getInstanceMethod)(objc_ptr, objc_ptr);
    const char *(*getTypeEncoding)(objc_ptr);
    void *(*setImplementation)(objc_ptr, void *);
    objc_ptr (*registerName)(const char *);
    const char *(*selGetName)(objc_ptr);
    objc_ptr (*objectGetClass)(objc_ptr);
    void *(*getMethodImplementation)(objc_ptr, objc_ptr);
    signed char (*respondsToSelector)(objc_ptr, objc_ptr);
    const char *(*className)(objc_ptr);
    objc_ptr utf8_selector;
    /// GCC's runtime, and the dispatch table a class has until its first message there.
    int gnu;
    void *const *gnu_uninstalled_dtable;
};
/// Finds the Objective-C runtime, if the process has one (objc_runtime.c).
AGENT_HIDDEN void find_runtime(void);
/// The runtime found, or NULL: the process has none, or one without a function the agent needs.
AGENT_HIDDEN const struct objc_runtime *objc_runtime(void);
/// A name object's UTF-8 text through its own `UTF8String`; NULL when it cannot be asked safely
/// (not an object, or one without the method) or there is no runtime (objc_runtime.c).
AGENT_HIDDEN const char *object_text(objc_ptr name);
/// Wraps the method targets of `table` in the classes the runtime has now, and in those it
/// loads later (objc_patch.c).
AGENT_HIDDEN void patch_methods(const struct patch_table *table);

#if defined(__APPLE__)
struct mach_header;
/// dyld announces each image: the classes it brings are wrapped as it arrives (objc_patch.c).
AGENT_HIDDEN void image_added(const struct mach_header *header, intptr_t slide);
#endif

/// The environment's value of `name`, unless the program runs with privileges its user does not
/// have (set-user-ID); an empty value is no value (region.c).
AGENT_HIDDEN const char *environment_value(const char *name);
/// Reads where this process would record (IMGTRACE_AGENT_FD, or IMGTRACE_AGENT_FILE) and keeps the
/// environment the program started with; 0: nowhere, the agent stays off (region.c).
AGENT_HIDDEN int find_region(void);
/// Whether this process took the region (it wrapped something: it is the program recorded).
AGENT_HIDDEN int region_claimed(void);
/// Tells imgtrace a process ran the agent and found nothing to wrap (a launcher, or APIs the
/// program does not have), rather than that the agent never started.
AGENT_HIDDEN void say_wrapped_nothing(void);
/// A line for imgtrace in the region's notes (`format` takes two strings).
AGENT_HIDDEN void note(const char *format, const char *a, const char *b);
/// The wrapped calls this thread is inside are over without returning (the program exits
/// inside one): later requests are outermost again (wrappers.c).
AGENT_HIDDEN void forget_open_calls(void);
/// Takes the region to record into once this process has wrapped something (region.c): until
/// then `shared` is a header of the agent's own and nothing is recorded.
AGENT_HIDDEN void claim_region(void);
/// Copies the program's memory map into the region for imgtrace (region.c).
AGENT_HIDDEN void copy_maps(void);
/// Wraps the C function targets of `table` in the GOT of every loaded module, and of those
/// dlopen loads later (got_patch.c).
AGENT_HIDDEN void patch_symbols(const struct patch_table *table);

/// Copies up to `count` bytes at `from`, an address the program handed over, without trusting it:
/// the kernel reads it (unless the page was proven readable lately), so an unmapped or unreadable
/// address is a short count, never a fault on the program's thread. Page by page, so a `string`
/// (it ends at its NUL) ending before an unmapped page is read whole. Returns the bytes copied.
AGENT_HIDDEN size_t copy_untrusted(char *to, const char *from, size_t count, int string);

/// Whether a method of this Objective-C type encoding can be wrapped (`needs_name`: its first
/// argument must be the name, an object; `trampolines`: every argument travels untouched, else
/// only pointers and integers do); `reason` says why not.
AGENT_HIDDEN int encoding_fits(const char *encoding, int needs_name, int trampolines, const char **reason);

#endif
