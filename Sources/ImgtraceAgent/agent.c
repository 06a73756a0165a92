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
//
// This file starts the agent (the environment, the API list, forks) and keeps each thread's
// requests (entered, returned, timed). The rest, one concern a file: records.c (the rings),
// wrappers.c (trampolines, the return stub, frames), cfi_unwind.c (the cached stack walk),
// objc_patch.c (the Objective-C runtime), got_patch.c (C functions), untrusted_copy.c (reading
// what the program hands over), type_encoding.c (which methods a wrapper can pass on).
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
AGENT_HIDDEN int enabled;
AGENT_HIDDEN struct target targets[MAX_TARGETS];
AGENT_HIDDEN int target_count;
static atomic_int launch_end_marked;
AGENT_HIDDEN pthread_mutex_t patch_lock = PTHREAD_MUTEX_INITIALIZER;

/// Stack frames each record keeps (IMGTRACE_AGENT_FRAMES): 0 unwinds nothing.
AGENT_HIDDEN int frames_wanted;
AGENT_HIDDEN __thread int depth;
AGENT_HIDDEN __thread int context = -1;
AGENT_HIDDEN __thread imgtrace_agent_ring *own_ring;

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

/// The request this thread recorded and has not seen return: its record's sequence number plus
/// one (0: none) and when its API was entered, on the monotonic clock (wall-clock steps would
/// make durations negative).
static __thread uint64_t open_request;
static __thread uint64_t open_request_began;
/// Time the open request spent in the image APIs it called itself (depth 2), and when the one
/// running now was entered (0: none).
static __thread uint64_t nested_total;
static __thread uint64_t nested_began;

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
        } else if (word_is(line, word, IMGTRACE_AGENT_API_END) && spec[0] != '+' && spec[0] != '-') {
            // A C function ends the launch when it first returns, wrapped like a symbol.
            t->kind = TARGET_LAUNCH_END;
            if (sscanf(spec, "%127s", t->symbol) != 1) continue;
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
