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

/// Reads the return address saved at `slot` (the agent puts its own stub in the return slots of
/// the wrapped calls still running: this gives the real one back).
typedef uintptr_t (*cfi_slot_reader)(const uintptr_t *slot);

/// Walks from a caller's frame (its return address `pc`, stack pointer `sp` after the return and
/// frame pointer `frame_pointer`) outwards, writing up to `wanted - count` more return addresses
/// into `out` from `out[count]`. Returns the new count, or -1 when a frame's CFI is beyond what
/// this walker interprets (expressions, signal frames, a register other than %rsp or %rbp for
/// the CFA): the caller then walks with libgcc's unwinder.
__attribute__((visibility("hidden"))) int cfi_walk(struct cfi_cache *cache, uintptr_t pc, uintptr_t sp, uintptr_t frame_pointer, uint64_t *out, int count,
             int wanted, cfi_slot_reader read_slot);

#endif
