// The region shared with imgtrace and the process's claim to it: notes and the memory map for
// imgtrace, which process records (the program, not a launcher or a helper it starts), the file
// the agent records into without imgtrace beside it, and the environment children inherit.
// Called by the patchers once they wrapped something; calls nothing above it.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent_parts.h"
#include "imgtrace_agent_shared.h"

// MARK: Notes for imgtrace

void note(const char *format, const char *a, const char *b) {
    if (!agent.shared) return;
    char line[512];
    int n = snprintf(line, sizeof line, format, a, b);
    if (n <= 0) return;
    if ((size_t)n >= sizeof line) n = sizeof line - 1;
    uint32_t at = __atomic_fetch_add(&agent.shared->notes_length, (uint32_t)n + 1, __ATOMIC_RELAXED);
    if (at + (uint32_t)n + 1 > IMGTRACE_AGENT_NOTES_BYTES) return;
    memcpy(agent.shared->notes + at, line, (size_t)n);
    agent.shared->notes[at + (uint32_t)n] = '\n';
}

// MARK: The program's map

/// Whether imgtrace reads the region while the program runs (IMGTRACE_AGENT_FD), not a file later.
static int live_recording;

/// Copies the program's memory map into the region, whole lines, for imgtrace to name frames by
/// when the program ended before it read the map itself (a program that runs for a millisecond).
/// Recording with frames only; the program's errno is left as it was.
void copy_maps(void) {
    if (!agent.shared || !live_recording || agent.frames_wanted <= 0) return;
    int saved_errno = errno;
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        size_t length = 0;
        ssize_t got;
        while (length < IMGTRACE_AGENT_MAPS_BYTES && (got = read(fd, agent.shared->maps + length, IMGTRACE_AGENT_MAPS_BYTES - length)) > 0) length += (size_t)got;
        close(fd);
        while (length > 0 && agent.shared->maps[length - 1] != '\n') length--;
        __atomic_store_n(&agent.shared->maps_length, (uint32_t)length, __ATOMIC_RELEASE);
    }
    errno = saved_errno;
}

// MARK: Which process records

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
const char *environment_value(const char *name) {
#if defined(__GLIBC__)
    const char *value = secure_getenv(name);
#else
    const char *value = issetugid() ? NULL : getenv(name);
#endif
    return value && value[0] ? value : NULL;
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
    if (claimed || !agent.shared || __atomic_load_n(&agent.shared->patched, __ATOMIC_RELAXED) == 0) return;
    claimed = 1;
    imgtrace_agent_shared *scratch = agent.shared;
    int children = environment_value("IMGTRACE_AGENT_CHILDREN") != NULL;
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
    __atomic_store_n(&agent.shared, region, __ATOMIC_RELEASE);
    if (!children) {
        close(fd);
        leave_children_alone();
    } else if (!region_fd_text) {
        follow_children_through(fd);
    }
    live_recording = region_fd_text != NULL;
    copy_maps();
    __atomic_store_n(&agent.shared->pid, (int32_t)getpid(), __ATOMIC_RELAXED);
    agent.enabled = 1;
    __atomic_store_n(&agent.shared->ready, 1, __ATOMIC_RELEASE);
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

int find_region(void) {
    initial_environment = environ;
    region_fd_text = environment_value("IMGTRACE_AGENT_FD");
    region_file = environment_value("IMGTRACE_AGENT_FILE");
    return region_fd_text || region_file;
}

int region_claimed(void) { return claimed; }

void say_wrapped_nothing(void) {
    if (!region_fd_text) return;
    int fd = atoi(region_fd_text);
    struct stat info;
    if (fstat(fd, &info) != 0 || (size_t)info.st_size != sizeof(imgtrace_agent_shared)) return;
    void *map = mmap(NULL, sizeof(imgtrace_agent_shared), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) return;
    imgtrace_agent_shared *region = map;
    if (region->magic == IMGTRACE_AGENT_MAGIC && region->version == IMGTRACE_AGENT_VERSION) __atomic_fetch_add(&region->wrapped_nothing, 1, __ATOMIC_RELAXED);
    munmap(map, sizeof(imgtrace_agent_shared));
}
