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
// This file starts the agent (the API list, the settings, forks) and owns its state (`agent`,
// `this_thread`). The rest, one concern a file, in layers, each calling only the ones below it
// (docs/architecture.md; AgentIsolationTests checks the compiled objects): the patchers,
// objc_patch.c (Objective-C methods) and got_patch.c (C functions), given their table and reading
// no other state; wrappers.c (trampolines, the return stub); requests.c (each thread's requests:
// entered, returned, timed); records.c (the rings) and objc_runtime.c (the runtime, a name
// object's text); frames.c (a request's stack); region.c (the shared region, which process
// records, the environment children inherit); cfi_unwind.c (the cached stack walk),
// untrusted_copy.c (reading what the program hands over), type_encoding.c (which methods a
// wrapper can pass on).
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

AGENT_HIDDEN struct agent_state agent = {.patch_lock = PTHREAD_MUTEX_INITIALIZER};
AGENT_HIDDEN __thread struct thread_state this_thread = {.context = -1};

/// What the patchers are given: the targets, their wrappers, the lock, the region's header.
static struct patch_table patchers = {agent.targets, 0, wrappers, 0, &agent.patch_lock, &agent.shared};

// MARK: Start

/// Whether the line's first word (`length` bytes) is `kind`, one of the API list's words.
static int word_is(const char *line, size_t length, const char *kind) { return strlen(kind) == length && strncmp(line, kind, length) == 0; }

static void parse_targets(const char *text) {
    char line[400];
    while (text && *text && agent.target_count < MAX_TARGETS) {
        // Lines end with a newline or `;` (an environment variable in an Xcode scheme is one line).
        const char *end = strpbrk(text, "\n;");
        size_t length = end ? (size_t)(end - text) : strlen(text);
        if (length >= sizeof line) length = sizeof line - 1;
        memcpy(line, text, length);
        line[length] = '\0';
        text = end ? end + 1 : NULL;
        struct target *t = &agent.targets[agent.target_count];
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
        agent.target_count++;
    }
}

/// Children do not inherit the agent unless asked (IMGTRACE_AGENT_CHILDREN=1): a forked child
/// writes nothing (its thread would share its parent's ring), an exec'd one does not load it.
static void child_after_fork(void) {
    if (getenv("IMGTRACE_AGENT_CHILDREN")) {
        this_thread.own_ring = NULL;
        this_thread.no_ring = 0;
    } else {
        agent.enabled = 0;
    }
}

/// IMGTRACE_AGENT_FRAMES: how many frames each record keeps (0 to IMGTRACE_AGENT_MAX_FRAMES).
static int frames_asked(void) {
    const char *text = environment_value("IMGTRACE_AGENT_FRAMES");
    long frames = text ? strtol(text, NULL, 10) : 0;
    return frames < 0 ? 0 : frames > IMGTRACE_AGENT_MAX_FRAMES ? IMGTRACE_AGENT_MAX_FRAMES : (int)frames;
}

__attribute__((constructor)) static void agent_start(void) {
    if (!find_region()) return;
    // The targets are wrapped against a header of the agent's own: only a process that wraps
    // something takes the region (a launcher's shell or a helper the app starts records nothing,
    // keeps the variables for its children, and leaves the file to the app).
    void *scratch = mmap(NULL, offsetof(imgtrace_agent_shared, rings), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (scratch == MAP_FAILED) return;
    agent.shared = (imgtrace_agent_shared *)scratch;
    const char *apis = environment_value("IMGTRACE_AGENT_APIS");
    if (apis) strncpy(agent.shared->apis, apis, sizeof agent.shared->apis - 1);
    parse_targets(apis);
    agent.frames_wanted = frames_asked();
    const char *unwinder = environment_value("IMGTRACE_AGENT_UNWINDER");
    agent.unwind_with_libgcc = unwinder && strcmp(unwinder, "libgcc") == 0;
    pthread_atfork(NULL, NULL, child_after_fork);
    patchers.count = agent.target_count;
    patchers.trampolines = agent_trampolines;
    find_runtime();
    patch_methods(&patchers);
#if defined(__APPLE__)
    _dyld_register_func_for_add_image(image_added);
#endif
    patch_symbols(&patchers);
    claim_region();
    if (!region_claimed()) say_wrapped_nothing();
}
