// Copying a name from an address the program handed over, without ever faulting on its thread.
#define _GNU_SOURCE
#include "agent_parts.h"

#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/uio.h>
#elif defined(__APPLE__)
#include <mach/mach.h>
#endif

/// Pages the kernel copied from lately: a name on one of them is copied directly. The kernel's copy
/// costs a system call (2.5 µs a request measured, 20 times the rest of a record), and a launch
/// asks for its names from a few pages of string constants and the heap again and again. An entry
/// is a page number (36 bits: user addresses are below 2^48) and the epoch it was proven in (28
/// bits, 31 days of 10 ms epochs before a tag repeats); an epoch lasts 10 ms, so a page the
/// program unmaps stops being trusted within 10 ms of its last proof.
#define READABLE_PAGES 256
static uintptr_t readable_pages[READABLE_PAGES];
static uint64_t readable_epoch_start;
static uintptr_t readable_epoch = 1;

static uintptr_t current_epoch(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
    uint64_t ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
    uint64_t start = __atomic_load_n(&readable_epoch_start, __ATOMIC_RELAXED);
    if (ns - start > 10000000u) {
        __atomic_store_n(&readable_epoch_start, ns, __ATOMIC_RELAXED);
        __atomic_add_fetch(&readable_epoch, 1, __ATOMIC_RELAXED);
    }
    return __atomic_load_n(&readable_epoch, __ATOMIC_RELAXED) & 0xFFFFFFF;
}

static uintptr_t readable_entry(uintptr_t page, uintptr_t epoch) { return (page >> 12) << 28 | epoch; }

size_t copy_untrusted(char *to, const char *from, size_t count, int string) {
    size_t done = 0;
    uintptr_t epoch = current_epoch();
    while (done < count) {
        uintptr_t at = (uintptr_t)from + done;
        size_t piece = 4096 - (at & 4095);
        if (piece > count - done) piece = count - done;
        uintptr_t page = at & ~(uintptr_t)4095;
        uintptr_t *slot = &readable_pages[(page >> 12) % READABLE_PAGES];
        if (__atomic_load_n(slot, __ATOMIC_RELAXED) == readable_entry(page, epoch)) {
            // Only what a string needs: most names are a few dozen bytes.
            const char *nul = string ? memchr((const void *)at, 0, piece) : NULL;
            size_t used = nul ? (size_t)(nul - (const char *)at) + 1 : piece;
            memcpy(to + done, (const void *)at, used);
            done += used;
            if (nul) break;
            continue;
        } else {
#if defined(__linux__)
            struct iovec local = {to + done, piece}, remote = {(void *)at, piece};
            ssize_t got = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
            if (got <= 0) break;
            done += (size_t)got;
            if ((size_t)got < piece) break;
#else
            vm_size_t got = 0;
            if (vm_read_overwrite(mach_task_self(), (vm_address_t)at, piece, (vm_address_t)(to + done), &got) != KERN_SUCCESS || got == 0) break;
            done += got;
            if (got < piece) break;
#endif
            __atomic_store_n(slot, readable_entry(page, epoch), __ATOMIC_RELAXED);
        }
        if (string && memchr(to + done - piece, 0, piece)) break;
    }
    return done;
}

