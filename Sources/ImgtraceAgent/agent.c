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

AGENT_HIDDEN imgtrace_agent_shared *shared;
static int enabled;
AGENT_HIDDEN struct target targets[MAX_TARGETS];
AGENT_HIDDEN int target_count;
static atomic_int launch_end_marked;
AGENT_HIDDEN pthread_mutex_t patch_lock = PTHREAD_MUTEX_INITIALIZER;

/// Stack frames each record keeps (IMGTRACE_AGENT_FRAMES): 0 unwinds nothing.
AGENT_HIDDEN int frames_wanted;
AGENT_HIDDEN __thread int depth;
static __thread int context = -1;
AGENT_HIDDEN __thread imgtrace_agent_ring *own_ring;
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

void note(const char *format, const char *a, const char *b) {
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
void enter_request(int index, void *const *arguments, void *const *return_slot) {
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
void leave_request(int index, int returned, void *result) {
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
    if (!encoding || !encoding_fits(encoding, t->kind == TARGET_METHOD, agent_trampolines, &reason)) {
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
