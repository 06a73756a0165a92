// Records: each thread's ring in the shared region, the record a request writes into it (its
// name copied without trusting its address, its frames), and waiting for room when a burst
// outran the recorder.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#include "agent_parts.h"

uint64_t monotonic_nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

/// This thread's ring, claimed at its first record (NULL: all are taken).
static imgtrace_agent_ring *ring(void) {
    if (this_thread.own_ring) return this_thread.own_ring;
    if (this_thread.no_ring) return NULL;
    uint32_t index = __atomic_fetch_add(&agent.shared->rings_claimed, 1, __ATOMIC_RELAXED);
    if (index >= IMGTRACE_AGENT_RINGS) {
        this_thread.no_ring = 1;
        return NULL;
    }
    imgtrace_agent_ring *claimed = &agent.shared->rings[index];
    pthread_getname_np(pthread_self(), claimed->thread, sizeof claimed->thread);
#if defined(__linux__)
    int32_t tid = (int32_t)syscall(SYS_gettid);
#else
    uint64_t thread_id = 0;
    pthread_threadid_np(NULL, &thread_id);
    int32_t tid = (int32_t)thread_id;
#endif
    __atomic_store_n(&claimed->tid, tid, __ATOMIC_RELEASE);
    this_thread.own_ring = claimed;
    return claimed;
}

/// A full ring while a recorder drains it is a burst faster than the recorder copies (it was
/// busy, or not given a core): the thread waits for room rather than lose the record, napping so
/// that the recorder gets the core. While imgtrace is alive to drain (its pid in the region) the
/// wait is as long as it takes, up to a second without the tail moving (a recorder stopped, not
/// slow); it was 2 ms, and on a machine loaded by another job a tenth of a burst was lost. A ring
/// nobody drains (the file mode) has its tail still for 2 ms: the thread stops waiting, and waits
/// again only once the tail moves.
#define ROOM_WAIT_NANOSECONDS 20000000ull
#define DRAINER_SILENCE_NANOSECONDS 2000000ull
#define READER_SILENCE_NANOSECONDS 1000000000ull
static __thread uint64_t undrained_tail = UINT64_MAX;

/// Whether the process that drains the rings while the program runs is alive.
static int reader_alive(void) {
    int32_t reader = __atomic_load_n(&agent.shared->reader_pid, __ATOMIC_RELAXED);
    return reader > 0 && (kill((pid_t)reader, 0) == 0 || errno == EPERM);
}

static int wait_for_room(imgtrace_agent_ring *r, uint64_t head, uint64_t needed) {
    uint64_t tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
    int reader = reader_alive();
    if (!reader && tail == undrained_tail) return 0;
    uint64_t began = monotonic_nanoseconds(), moved = began, silence = reader ? READER_SILENCE_NANOSECONDS : DRAINER_SILENCE_NANOSECONDS;
    long nap = 0;
    for (;;) {
        if (nap == 0) {
            sched_yield();
        } else {
            struct timespec pause = {0, nap};
            nanosleep(&pause, NULL);
        }
        nap = nap == 0 ? 10000 : nap < 200000 ? nap * 2 : nap;
        uint64_t now_tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE), now = monotonic_nanoseconds();
        if (IMGTRACE_AGENT_RING_BYTES - (head - now_tail) >= needed) return 1;
        if (now_tail != tail) {
            tail = now_tail;
            moved = now;
            nap = 0;
        }
        if (now - moved > silence) {
            undrained_tail = tail;
            return 0;
        }
        if (!reader && now - began > ROOM_WAIT_NANOSECONDS) return 0;
    }
}

/// Writes a record's payload at `text` and returns its length: a name copied without trusting
/// its address (an unreadable one becomes `IMGTRACE_AGENT_UNREADABLE`, its address the payload;
/// one longer than the limit is cut and flagged), a decoded object's address, or a return's
/// payload (the agent's own).
static uint32_t write_payload(char *text, uint32_t *kind, const char *name, uint32_t *flags) {
    if (*kind == IMGTRACE_AGENT_NAME) {
        size_t got = (uintptr_t)name < LOWEST_NAME_ADDRESS ? 0 : copy_untrusted(text, name, IMGTRACE_AGENT_NAME_BYTES, 1);
        const char *nul = got ? memchr(text, 0, got) : NULL;
        if (nul) return (uint32_t)(nul - text);
        if (got == IMGTRACE_AGENT_NAME_BYTES) {
            *flags = IMGTRACE_AGENT_TRUNCATED;
            return IMGTRACE_AGENT_NAME_BYTES;
        }
        *kind = IMGTRACE_AGENT_UNREADABLE;
    }
    if (*kind == IMGTRACE_AGENT_UNREADABLE || *kind == IMGTRACE_AGENT_DECODE) {
        uint64_t address = (uint64_t)(uintptr_t)name;
        memcpy(text, &address, sizeof address);
        return sizeof address;
    }
    if (*kind == IMGTRACE_AGENT_RETURN) {
        memcpy(text, name, sizeof(imgtrace_agent_return_payload));
        return sizeof(imgtrace_agent_return_payload);
    }
    return 0;
}

/// Writes one record and returns its sequence number plus one (0: lost). A name is copied from
/// the program's memory without trusting its address (an unreadable one is recorded as its
/// address, `IMGTRACE_AGENT_UNREADABLE` with 8 bytes); one longer than the ring's limit is cut
/// and flagged; the frames follow it. A return's `name` is its payload, the agent's own. The
/// program's `errno` is left as it was.
uint64_t record(uint32_t api, uint32_t kind, const char *name, const struct request_stack *stack) {
    imgtrace_agent_ring *r = ring();
    if (!r) {
        __atomic_fetch_add(&agent.shared->lost, 1, __ATOMIC_RELAXED);
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
        __atomic_fetch_add(&agent.shared->lost, 1, __ATOMIC_RELAXED);
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
    uint32_t flags = 0;
    uint32_t length = write_payload(text, &kind, name, &flags);
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    uint64_t seq = __atomic_fetch_add(&agent.shared->seq, 1, __ATOMIC_RELAXED);
    slot->seq = seq;
    slot->seconds = (uint64_t)now.tv_sec;
    slot->nanoseconds = (uint32_t)now.tv_nsec;
    slot->api = (uint16_t)api;
    slot->kind = (uint8_t)kind;
    slot->flags = (uint8_t)flags;
    slot->length = length;
    slot->context = this_thread.context < 0 ? 0xFFFF : (uint16_t)this_thread.context;
    uint64_t *frames = (uint64_t *)((char *)slot + ((sizeof(imgtrace_agent_record) + length + 7) & ~(uint64_t)7));
    int unreadable = 0;
    slot->frames = stack && stack->return_slot ? (uint16_t)capture_frames(stack, frames, &unreadable) : 0;
    if (unreadable) slot->flags |= IMGTRACE_AGENT_FRAMES_UNREADABLE;
    uint64_t size = imgtrace_agent_record_size(slot);
    __atomic_store_n(&r->head, head + size, __ATOMIC_RELEASE);
    errno = saved_errno;
    return seq + 1;
}

