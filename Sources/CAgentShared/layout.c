// imgtrace's side of the shared memory: creating it and draining the rings. The agent links
// this file too but uses only the layout.
#define _GNU_SOURCE
#include "imgtrace_agent_shared.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

const uint32_t imgtrace_agent_layout_version = IMGTRACE_AGENT_VERSION;

imgtrace_agent_shared *imgtrace_agent_region_init(int fd) {
    if (ftruncate(fd, (off_t)sizeof(imgtrace_agent_shared)) != 0) return NULL;
    void *map = mmap(NULL, sizeof(imgtrace_agent_shared), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) return NULL;
    imgtrace_agent_shared *shared = (imgtrace_agent_shared *)map;
    shared->version = IMGTRACE_AGENT_VERSION;
    __atomic_store_n(&shared->magic, IMGTRACE_AGENT_MAGIC, __ATOMIC_RELEASE);
    return shared;
}

int imgtrace_agent_region_create(imgtrace_agent_shared **region) {
#if defined(__linux__)
    // No close-on-exec: the program imgtrace starts inherits the descriptor and maps it.
    int fd = memfd_create("imgtrace-agent", 0);
    if (fd < 0) return -1;
    imgtrace_agent_shared *shared = imgtrace_agent_region_init(fd);
    if (!shared) {
        close(fd);
        return -1;
    }
    shared->reader_pid = (int32_t)getpid();
    *region = shared;
    return fd;
#else
    (void)region;
    return -1;
#endif
}

size_t imgtrace_agent_drain(imgtrace_agent_shared *region, int index, uint8_t *out, size_t capacity, int32_t *tid) {
    imgtrace_agent_ring *ring = &region->rings[index];
    *tid = __atomic_load_n(&ring->tid, __ATOMIC_ACQUIRE);
    if (*tid == 0) return 0;
    uint64_t tail = ring->tail;
    uint64_t head = __atomic_load_n(&ring->head, __ATOMIC_ACQUIRE);
    // The producer never runs more than a ring ahead: a head further on (a file from elsewhere,
    // memory the traced program wrote over) is no ring of records, and would keep this loop going
    // for ever. Nothing of it is read.
    if (head > tail && head - tail > IMGTRACE_AGENT_RING_BYTES) {
        __atomic_store_n(&ring->tail, head, __ATOMIC_RELEASE);
        return 0;
    }
    size_t copied = 0;
    while (tail < head) {
        uint32_t at = (uint32_t)(tail & (IMGTRACE_AGENT_RING_BYTES - 1));
        uint32_t left = IMGTRACE_AGENT_RING_BYTES - at;
        if (left < sizeof(imgtrace_agent_record)) {
            tail += left;
            continue;
        }
        const imgtrace_agent_record *header = (const imgtrace_agent_record *)(ring->bytes + at);
        // A pad header is its kind alone: the rest is whatever an older record left there.
        if (header->kind == IMGTRACE_AGENT_PAD) {
            tail += left;
            continue;
        }
        // A record no agent writes ends what can be read of this ring.
        uint64_t size = imgtrace_agent_record_size(header);
        if (header->kind > IMGTRACE_AGENT_DECODE || size == 0) {
            tail = head;
            break;
        }
        if (size > left || copied + size > capacity) break;
        memcpy(out + copied, header, size);
        copied += size;
        tail += size;
    }
    __atomic_store_n(&ring->tail, tail, __ATOMIC_RELEASE);
    return copied;
}

uint64_t imgtrace_agent_lost(const imgtrace_agent_shared *region) { return __atomic_load_n(&region->lost, __ATOMIC_RELAXED); }
uint32_t imgtrace_agent_ready(const imgtrace_agent_shared *region) { return __atomic_load_n(&region->ready, __ATOMIC_ACQUIRE); }
uint32_t imgtrace_agent_notes_length(const imgtrace_agent_shared *region) {
    uint32_t length = __atomic_load_n(&region->notes_length, __ATOMIC_RELAXED);
    return length > IMGTRACE_AGENT_NOTES_BYTES ? IMGTRACE_AGENT_NOTES_BYTES : length;
}
const char *imgtrace_agent_notes(const imgtrace_agent_shared *region) { return region->notes; }
const char *imgtrace_agent_apis(const imgtrace_agent_shared *region) { return region->apis; }
int32_t imgtrace_agent_pid(const imgtrace_agent_shared *region) { return __atomic_load_n(&region->pid, __ATOMIC_RELAXED); }
uint32_t imgtrace_agent_patched(const imgtrace_agent_shared *region) { return __atomic_load_n(&region->patched, __ATOMIC_RELAXED); }
uint32_t imgtrace_agent_wrapped_nothing(const imgtrace_agent_shared *region) { return __atomic_load_n(&region->wrapped_nothing, __ATOMIC_RELAXED); }
const char *imgtrace_agent_maps(const imgtrace_agent_shared *region, uint32_t *length) {
    uint32_t bytes = __atomic_load_n(&region->maps_length, __ATOMIC_ACQUIRE);
    *length = bytes > IMGTRACE_AGENT_MAPS_BYTES ? 0 : bytes;
    return region->maps;
}

imgtrace_agent_shared *imgtrace_agent_open_file(const char *path, int *problem, uint32_t *owner) {
    // Read-only, and never blocking on a FIFO someone put in the file's place.
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    *problem = IMGTRACE_AGENT_FILE_UNOPENED;
    if (fd < 0) return NULL;
    struct stat info;
    // Layouts 2 and 3 end where the rings do; their maps area is mapped past the file's end and never read.
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) ||
        ((size_t)info.st_size != sizeof(imgtrace_agent_shared) && (size_t)info.st_size != offsetof(imgtrace_agent_shared, maps_length))) {
        close(fd);
        *problem = IMGTRACE_AGENT_FILE_SHAPE;
        return NULL;
    }
    *owner = (uint32_t)info.st_uid;
    // Private: the drain's stores of each ring's tail stay in this process.
    void *map = mmap(NULL, sizeof(imgtrace_agent_shared), PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    int saved = errno;
    close(fd);
    if (map == MAP_FAILED) {
        errno = saved;
        return NULL;
    }
    imgtrace_agent_shared *shared = (imgtrace_agent_shared *)map;
    int older_size = (size_t)info.st_size != sizeof(imgtrace_agent_shared);
    if (shared->magic != IMGTRACE_AGENT_MAGIC || shared->version < IMGTRACE_AGENT_OLDEST_VERSION || shared->version > IMGTRACE_AGENT_VERSION ||
        (older_size && shared->version > 3)) {
        *problem = shared->magic == IMGTRACE_AGENT_MAGIC ? IMGTRACE_AGENT_FILE_VERSION : IMGTRACE_AGENT_FILE_MAGIC;
        munmap(map, sizeof(imgtrace_agent_shared));
        return NULL;
    }
    *problem = IMGTRACE_AGENT_FILE_OK;
    return shared;
}
const char *imgtrace_agent_ring_thread(const imgtrace_agent_shared *region, int index) { return region->rings[index].thread; }
