// Each thread's requests as the wrappers see them: entered (the outermost one recorded with its
// name), returned (its duration, its result and the time spent in the APIs it called), and the
// launch end, once. Called by wrappers.c; calls records.c and objc_runtime.c's name reader only.
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdint.h>

#include "agent_parts.h"
#include "imgtrace_agent_shared.h"

static atomic_int launch_end_marked;

/// The request this thread recorded and has not seen return: its record's sequence number plus
/// one (0: none) and when its API was entered, on the monotonic clock (wall-clock steps would
/// make durations negative).
static __thread uint64_t open_request;
static __thread uint64_t open_request_began;
/// Time the open request spent in the image APIs it called itself (depth 2), and when the one
/// running now was entered (0: none).
static __thread uint64_t nested_total;
static __thread uint64_t nested_began;

/// Records a request whose name is an object, by the object's own text.
static uint64_t record_object_name(uint32_t api, objc_ptr name, const struct request_stack *stack) {
    if (!name) return record(api, IMGTRACE_AGENT_NIL, NULL, stack);
    const char *text = object_text(name);
    return record(api, text ? IMGTRACE_AGENT_NAME : IMGTRACE_AGENT_UNREADABLE, text ? text : (const char *)name, stack);
}

/// What a request records on entry: its name, unless an outer image API on this thread already did.
void enter_request(int index, void *const *arguments, const struct request_stack *stack) {
    struct target *t = &agent.targets[index];
    if (t->kind == TARGET_CONTEXT) {
        if (this_thread.depth == 0 && this_thread.context < 0) this_thread.context = index;
        return;
    }
    if (t->kind == TARGET_LAUNCH_END) return;
    int level = ++this_thread.depth;
    if (level == 2 && open_request) nested_began = monotonic_nanoseconds();
    if (level != 1 || !agent.enabled) return;
    nested_total = 0;
    if (t->kind == TARGET_METHOD) {
        open_request = record_object_name((uint32_t)index, arguments[2], stack);
    } else if (t->kind == TARGET_DECODE) {
        open_request = record((uint32_t)index, IMGTRACE_AGENT_DECODE, (const char *)arguments[0], NULL);
    } else {
        const char *name = (const char *)arguments[t->argument - 1];
        open_request = record((uint32_t)index, name ? IMGTRACE_AGENT_NAME : IMGTRACE_AGENT_NIL, name, stack);
    }
    // Read after the record is written: the agent's own work is not the API's.
    open_request_began = open_request ? monotonic_nanoseconds() : 0;
}

/// What a request does when it is over: the depth goes down, and the outermost one's return is
/// recorded with its duration and `result` when the call `returned` (a call left by longjmp or an
/// exception has no end to measure); the launch end is marked once.
void leave_request(int index, int returned, void *result) {
    struct target *t = &agent.targets[index];
    if (t->kind == TARGET_CONTEXT) {
        if (this_thread.context == index) this_thread.context = -1;
        return;
    }
    if (t->kind != TARGET_LAUNCH_END) {
        int level = this_thread.depth--;
        if (level == 2 && nested_began) {
            nested_total += monotonic_nanoseconds() - nested_began;
            nested_began = 0;
        }
        if (level == 1 && open_request) {
            if (returned && agent.enabled) {
                imgtrace_agent_return_payload payload = {
                    open_request - 1, monotonic_nanoseconds() - open_request_began, (uint64_t)(uintptr_t)result, nested_total};
                record((uint32_t)index, IMGTRACE_AGENT_RETURN, (const char *)&payload, NULL);
            }
            open_request = 0;
        }
        return;
    }
    int expected = 0;
    if (agent.enabled && atomic_compare_exchange_strong(&launch_end_marked, &expected, 1)) record((uint32_t)index, IMGTRACE_AGENT_LAUNCH_END, NULL, NULL);
}

