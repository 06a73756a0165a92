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

// MARK: The program's map

/// Whether imgtrace reads the region while the program runs (IMGTRACE_AGENT_FD), not a file later.
static int live_recording;

/// Copies the program's memory map into the region, whole lines, for imgtrace to name frames by
/// when the program ended before it read the map itself (a program that runs for a millisecond).
/// Recording with frames only; the program's errno is left as it was.
void copy_maps(void) {
    if (!shared || !live_recording || frames_wanted <= 0) return;
    int saved_errno = errno;
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        size_t length = 0;
        ssize_t got;
        while (length < IMGTRACE_AGENT_MAPS_BYTES && (got = read(fd, shared->maps + length, IMGTRACE_AGENT_MAPS_BYTES - length)) > 0) length += (size_t)got;
        close(fd);
        while (length > 0 && shared->maps[length - 1] != '\n') length--;
        __atomic_store_n(&shared->maps_length, (uint32_t)length, __ATOMIC_RELEASE);
    }
    errno = saved_errno;
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

/// Whether `entry` of a preload list (a path) names this agent's library.
static int names_agent(const char *entry, size_t length) {
    const char *file = entry;
    for (size_t k = 0; k < length; k++) {
        if (entry[k] == '/') file = entry + k + 1;
    }
    size_t file_length = length - (size_t)(file - entry);
    return file_length == strlen(AGENT_FILE) && strncmp(file, AGENT_FILE, file_length) == 0;
}

/// The preload list `preload` without the agent, into `kept` (empty when nothing else is preloaded).
static void preload_without_agent(const char *preload, char *kept, size_t capacity) {
    kept[0] = '\0';
    for (const char *p = preload; *p;) {
        while (*p == ' ' || *p == ':') p++;
        size_t length = strcspn(p, " :");
        if (length == 0) break;
        if (!names_agent(p, length) && strlen(kept) + length + 2 < capacity) {
            if (kept[0]) strcat(kept, ":");
            strncat(kept, p, length);
        }
        p += length;
    }
}

extern char **environ;

/// The environment the program started with (the strings /proc/self/environ shows), as the
/// agent found it before changing anything.
static char **initial_environment;

/// Programs the app starts do not load the agent: its variables leave the environment, and the
/// strings the program started with are rewritten in place (GNUstep hands a child the
/// environment it reads back from /proc/self/environ): the preload list keeps the other
/// libraries, padded with spaces, and the agent's own values become empty.
static void leave_children_alone(void) {
    char kept_preload[4096] = "";
    const char *preload = getenv(PRELOAD_VARIABLE);
    int had_preload = preload != NULL;
    if (preload) preload_without_agent(preload, kept_preload, sizeof kept_preload);
    // The strings first, while `environ` still lists them (unsetenv takes them out of its array).
    size_t preload_name = strlen(PRELOAD_VARIABLE);
    for (char **entry = initial_environment; entry && *entry; entry++) {
        char *text = *entry;
        char *value = strchr(text, '=');
        if (!value) continue;
        value++;
        size_t length = strlen(value);
        if ((size_t)(value - text) == preload_name + 1 && strncmp(text, PRELOAD_VARIABLE, preload_name) == 0) {
            char kept[4096];
            preload_without_agent(value, kept, sizeof kept);
            size_t keep = strlen(kept) <= length ? strlen(kept) : 0;
            memcpy(value, kept, keep);
            memset(value + keep, ' ', length - keep);
        } else if (strncmp(text, "IMGTRACE_AGENT_", 15) == 0) {
            memset(value, 0, length);
        }
    }
    if (had_preload && kept_preload[0]) setenv(PRELOAD_VARIABLE, kept_preload, 1);
    else if (had_preload) unsetenv(PRELOAD_VARIABLE);
    static const char *const own[] = {"IMGTRACE_AGENT_FD", "IMGTRACE_AGENT_FILE", "IMGTRACE_AGENT_APIS", "IMGTRACE_AGENT_FRAMES", "IMGTRACE_AGENT_UNWINDER"};
    for (size_t k = 0; k < sizeof own / sizeof own[0]; k++) unsetenv(own[k]);
}

/// Children asked for (IMGTRACE_AGENT_CHILDREN) reach the file through the descriptor, not by
/// creating it again: IMGTRACE_AGENT_FD joins the environment, and the string the program started
/// with becomes it in place (`IMGTRACE_AGENT_FILE=path` is longer than `IMGTRACE_AGENT_FD=N`,
/// padded with spaces), for a child handed the environment /proc/self/environ shows.
static void follow_children_through(int fd) {
    int inherited = fcntl(fd, F_GETFD);
    if (inherited >= 0) fcntl(fd, F_SETFD, inherited & ~FD_CLOEXEC);
    char text[16];
    int digits = snprintf(text, sizeof text, "%d", fd);
    for (char **entry = initial_environment; entry && *entry; entry++) {
        char *line = *entry;
        static const char file_name[] = "IMGTRACE_AGENT_FILE=", fd_name[] = "IMGTRACE_AGENT_FD=";
        if (strncmp(line, file_name, sizeof file_name - 1) != 0) continue;
        size_t length = strlen(line);
        if (length < sizeof fd_name - 1 + (size_t)digits) continue;
        memcpy(line, fd_name, sizeof fd_name - 1);
        memcpy(line + sizeof fd_name - 1, text, (size_t)digits);
        memset(line + sizeof fd_name - 1 + digits, ' ', length - (sizeof fd_name - 1 + (size_t)digits));
    }
    setenv("IMGTRACE_AGENT_FD", text, 1);
}

/// One line on the program's standard error, once: why this process records nothing.
static void say_not_recording(const char *path, const char *why) {
    static int said;
    if (said++) return;
    char line[1024];
    int n = snprintf(line, sizeof line, "imgtrace agent: not recording into %s: %s\n", path, why);
    if (n > 0) {
        ssize_t ignored = write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
        (void)ignored;
    }
}

/// Without imgtrace beside the app (DYLD_INSERT_LIBRARIES from a scheme or `simctl`), the agent
/// writes into a file of its own, which `imgtrace agent-log FILE` turns into a log afterwards.
/// The file is always new: the agent creates it, and never writes into one it did not create (a
/// file planted in a shared folder, a link, an earlier launch's recording); it says so instead.
static int create_file(const char *path) {
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        say_not_recording(path, errno == EEXIST ? "the file exists, and the agent records only into a file it creates (remove it, or name a new one)"
                                                : strerror(errno));
        return -1;
    }
    imgtrace_agent_shared *fresh = imgtrace_agent_region_init(fd);
    if (!fresh) {
        say_not_recording(path, "the file could not be sized and mapped");
        close(fd);
        unlink(path);
        return -1;
    }
    munmap(fresh, sizeof(imgtrace_agent_shared));
    return fd;
}

/// The environment, unless the program runs with privileges its user does not have
/// (set-user-ID); an empty value is no value.
static const char *variable(const char *name) {
#if defined(__GLIBC__)
    const char *value = secure_getenv(name);
#else
    const char *value = issetugid() ? NULL : getenv(name);
#endif
    return value && value[0] ? value : NULL;
}

/// IMGTRACE_AGENT_FRAMES: how many frames each record keeps (0 to IMGTRACE_AGENT_MAX_FRAMES).
static int frames_asked(void) {
    const char *text = variable("IMGTRACE_AGENT_FRAMES");
    long frames = text ? strtol(text, NULL, 10) : 0;
    return frames < 0 ? 0 : frames > IMGTRACE_AGENT_MAX_FRAMES ? IMGTRACE_AGENT_MAX_FRAMES : (int)frames;
}

/// Where this process would record: imgtrace's region (IMGTRACE_AGENT_FD) or a file of its own.
static const char *region_fd_text;
static const char *region_file;
/// Set once this process took the region: it wrapped something, so it is the program recorded.
static int claimed;

/// The region to record into, mapped: imgtrace's, or the file, created now. NULL when there is none.
static imgtrace_agent_shared *open_region(int *fd_out) {
    int fd = region_fd_text ? atoi(region_fd_text) : create_file(region_file);
    if (fd < 0) return NULL;
    // A descriptor inherited through the environment may have been closed and reused since: map
    // it only when it is a region of the agent's size (an empty file would be SIGBUS at the first record).
    struct stat region_info;
    if (fstat(fd, &region_info) != 0 || (size_t)region_info.st_size != sizeof(imgtrace_agent_shared)) return NULL;
    void *map = mmap(NULL, sizeof(imgtrace_agent_shared), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) return NULL;
    imgtrace_agent_shared *region = (imgtrace_agent_shared *)map;
    if (region->magic != IMGTRACE_AGENT_MAGIC || region->version != IMGTRACE_AGENT_VERSION) {
        munmap(map, sizeof(imgtrace_agent_shared));
        return NULL;
    }
    *fd_out = fd;
    return region;
}

static int started_by_recorded_program(void);

void claim_region(void) {
    if (claimed || !shared || __atomic_load_n(&shared->patched, __ATOMIC_RELAXED) == 0) return;
    claimed = 1;
    imgtrace_agent_shared *scratch = shared;
    int children = variable("IMGTRACE_AGENT_CHILDREN") != NULL;
    if (!children && started_by_recorded_program()) {
        // A helper the app started with a copy of its first environment (GNUstep keeps one from
        // before the agent's constructor ran, and starts gdnc with it): the agent is loaded here
        // (a preloaded library stays) but records nothing, and this process's children do not load it.
        leave_children_alone();
        return;
    }
    int fd = -1;
    imgtrace_agent_shared *region = open_region(&fd);
    if (!region) {
        // This is the program recorded, though it records nothing: its children are left alone.
        if (!children) leave_children_alone();
        return;
    }
    // What patching wrote into the scratch header: the API list, each API's status, the notes.
    memcpy(region->apis, scratch->apis, sizeof region->apis);
    memcpy(region->api_status, scratch->api_status, sizeof region->api_status);
    memcpy(region->notes, scratch->notes, sizeof region->notes);
    __atomic_store_n(&region->notes_length, __atomic_load_n(&scratch->notes_length, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
    __atomic_fetch_add(&region->patched, __atomic_load_n(&scratch->patched, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
    __atomic_store_n(&shared, region, __ATOMIC_RELEASE);
    if (!children) {
        close(fd);
        leave_children_alone();
    } else if (!region_fd_text) {
        follow_children_through(fd);
    }
    live_recording = region_fd_text != NULL;
    copy_maps();
    __atomic_store_n(&shared->pid, (int32_t)getpid(), __ATOMIC_RELAXED);
    enabled = 1;
    __atomic_store_n(&shared->ready, 1, __ATOMIC_RELEASE);
}

/// Whether another process that is alive took the region already (its pid in the header): this
/// one was started by it, or by a helper of it (GNUstep starts gdnc as a daemon, its parent gone).
static int started_by_recorded_program(void) {
    int32_t writer = 0;
    if (region_fd_text) {
        int fd = atoi(region_fd_text);
        if (pread(fd, &writer, sizeof writer, offsetof(imgtrace_agent_shared, pid)) != (ssize_t)sizeof writer) return 0;
    } else {
        int fd = open(region_file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) return 0;
        struct stat info;
        int regular = fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_uid == getuid();
        ssize_t got = regular ? pread(fd, &writer, sizeof writer, offsetof(imgtrace_agent_shared, pid)) : -1;
        close(fd);
        if (got != (ssize_t)sizeof writer) return 0;
    }
    return writer > 0 && writer != (int32_t)getpid() && (kill((pid_t)writer, 0) == 0 || errno == EPERM);
}

__attribute__((constructor)) static void agent_start(void) {
    initial_environment = environ;
    region_fd_text = variable("IMGTRACE_AGENT_FD");
    region_file = variable("IMGTRACE_AGENT_FILE");
    if (!region_fd_text && !region_file) return;
    // The targets are wrapped against a header of the agent's own: only a process that wraps
    // something takes the region (a launcher's shell or a helper the app starts records nothing,
    // keeps the variables for its children, and leaves the file to the app).
    void *scratch = mmap(NULL, offsetof(imgtrace_agent_shared, rings), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (scratch == MAP_FAILED) return;
    shared = (imgtrace_agent_shared *)scratch;
    const char *apis = variable("IMGTRACE_AGENT_APIS");
    if (apis) strncpy(shared->apis, apis, sizeof shared->apis - 1);
    parse_targets(apis);
    frames_wanted = frames_asked();
    const char *unwinder = variable("IMGTRACE_AGENT_UNWINDER");
    unwind_with_libgcc = unwinder && strcmp(unwinder, "libgcc") == 0;
    pthread_atfork(NULL, NULL, child_after_fork);
    find_runtime();
    patch_methods();
#if defined(__APPLE__)
    _dyld_register_func_for_add_image(image_added);
#endif
    patch_symbols();
    claim_region();
    if (!claimed && region_fd_text) {
        // imgtrace is told a process ran the agent and found nothing to wrap (a launcher, or
        // APIs the program does not have), rather than that the agent never started.
        int fd = atoi(region_fd_text);
        struct stat info;
        if (fstat(fd, &info) == 0 && (size_t)info.st_size == sizeof(imgtrace_agent_shared)) {
            void *map = mmap(NULL, sizeof(imgtrace_agent_shared), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            if (map != MAP_FAILED) {
                imgtrace_agent_shared *region = map;
                if (region->magic == IMGTRACE_AGENT_MAGIC && region->version == IMGTRACE_AGENT_VERSION) __atomic_fetch_add(&region->wrapped_nothing, 1, __ATOMIC_RELAXED);
                munmap(map, sizeof(imgtrace_agent_shared));
            }
        }
    }
}
