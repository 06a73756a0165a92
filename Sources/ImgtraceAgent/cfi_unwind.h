// The agent's fast stack walk: each return address's unwind rule, read once from the CFI and
// cached, so a request's frames cost a few loads each instead of libgcc's search and
// interpretation per frame.
#ifndef IMGTRACE_CFI_UNWIND_H
#define IMGTRACE_CFI_UNWIND_H

#include <stdint.h>

/// Rules by return address, direct-mapped. One per recording thread: it is never shared.
#define CFI_CACHE_ENTRIES 1024

struct cfi_rule {
    uint64_t return_address;  // the key; 0: an empty entry
    int32_t cfa_offset;       // CFA = (cfa_from_frame_pointer ? %rbp : %rsp) + cfa_offset
    int16_t frame_pointer_at; // the caller's %rbp is saved at CFA + this; 0: %rbp is unchanged
    int8_t return_at;         // the caller's return address is at CFA + this
    uint8_t status;           // enum cfi_status
    uint8_t cfa_from_frame_pointer;
};

struct cfi_cache {
    struct cfi_rule rules[CFI_CACHE_ENTRIES];
};

/// What the walk may read and what it leaves out. `stack_high`: the end of the thread's stack
/// (0: not known, and every slot is copied through the kernel, as an untrusted address is);
/// a slot outside [the frame's stack pointer, stack_high) is not read and ends the walk with
/// `unreadable` set. Return addresses in [skip_low, skip_high) are the agent's own frames (a
/// wrapped call still running): walked through, not written.
struct cfi_walk_bounds {
    uintptr_t stack_high;
    uintptr_t skip_low, skip_high;
    int unreadable;
};

/// Walks from a caller's frame (its return address `pc`, stack pointer `sp` after the return and
/// frame pointer `frame_pointer`) outwards, writing up to `wanted - count` more return addresses
/// into `out` from `out[count]`. Returns the new count, or -1 when a frame's CFI is beyond what
/// this walker interprets (expressions, signal frames, a register other than %rsp or %rbp for
/// the CFA): the caller then walks with libgcc's unwinder.
__attribute__((visibility("hidden"))) int cfi_walk(struct cfi_cache *cache, uintptr_t pc, uintptr_t sp, uintptr_t frame_pointer, uint64_t *out, int count,
             int wanted, struct cfi_walk_bounds *bounds);

#endif
