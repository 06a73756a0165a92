// A stack walker for x86-64 Linux that interprets each return address's CFI once (the subset
// compilers emit for ordinary functions) and caches the resulting rule; anything else is left to
// libgcc's unwinder by returning -1.
#include "cfi_unwind.h"

#if defined(__x86_64__) && defined(__linux__)

#include <stddef.h>
#include <string.h>

#include "agent_parts.h"

/// libgcc's FDE search (in libgcc_eh, linked into the agent): the FDE covering `pc`, and in
/// `bases->func` the start of its function.
struct dwarf_eh_bases {
    void *tbase;
    void *dbase;
    void *func;
};
const void *_Unwind_Find_FDE(void *pc, struct dwarf_eh_bases *bases);

enum cfi_status { CFI_EMPTY, CFI_RULE, CFI_END, CFI_UNSUPPORTED };
enum { DWARF_RBP = 6, DWARF_RSP = 7, DWARF_RETURN_ADDRESS = 16 };
enum register_rule { SAME_VALUE, SAVED_AT_OFFSET, UNDEFINED, NOT_INTERPRETED };

/// What one row of the CFI table says about the registers the walk follows.
struct cfi_row {
    uint64_t cfa_register;  // anything but %rsp and %rbp (or an expression) is not interpreted
    int64_t cfa_offset;
    enum register_rule frame_pointer, return_address;
    int64_t frame_pointer_offset, return_address_offset;
};

/// A CIE's fields the interpreter needs.
struct cie {
    uint64_t code_alignment;
    int64_t data_alignment;
    uint8_t fde_encoding;
    int has_augmentation_data;
    const uint8_t *instructions, *end;
};

#define ROW_STACK_DEPTH 8
#define CFA_EXPRESSION UINT64_MAX

static int read_uleb(const uint8_t **cursor, const uint8_t *end, uint64_t *value) {
    uint64_t result = 0;
    for (unsigned shift = 0; *cursor < end && shift < 64; shift += 7) {
        uint8_t byte = *(*cursor)++;
        result |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80)) {
            *value = result;
            return 1;
        }
    }
    return 0;
}

static int read_sleb(const uint8_t **cursor, const uint8_t *end, int64_t *value) {
    uint64_t result = 0;
    for (unsigned shift = 0; *cursor < end && shift < 64;) {
        uint8_t byte = *(*cursor)++;
        result |= (uint64_t)(byte & 0x7f) << shift;
        shift += 7;
        if (!(byte & 0x80)) {
            if (shift < 64 && (byte & 0x40)) result |= ~(uint64_t)0 << shift;
            *value = (int64_t)result;
            return 1;
        }
    }
    return 0;
}

/// Steps over a pointer in the given DW_EH_PE encoding; its value is not needed.
static int skip_encoded(const uint8_t **cursor, const uint8_t *end, uint8_t encoding) {
    if (encoding == 0xff) return 1;  // DW_EH_PE_omit
    size_t size;
    switch (encoding & 0x0f) {
    case 0x00: case 0x04: case 0x0c: size = 8; break;
    case 0x02: case 0x0a: size = 2; break;
    case 0x03: case 0x0b: size = 4; break;
    case 0x01: { uint64_t ignored; return read_uleb(cursor, end, &ignored); }
    case 0x09: { int64_t ignored; return read_sleb(cursor, end, &ignored); }
    default: return 0;
    }
    if ((size_t)(end - *cursor) < size) return 0;
    *cursor += size;
    return 1;
}

static uint32_t read_u32(const uint8_t *at) {
    uint32_t value;
    memcpy(&value, at, sizeof value);
    return value;
}

/// The CIE's alignment factors, FDE encoding and initial instructions; 0 for a form not read
/// here (64-bit lengths, the "eh" augmentation, a signal frame).
static int parse_cie(const uint8_t *at, struct cie *cie) {
    uint32_t length = read_u32(at);
    if (length == 0 || length == 0xffffffffu || read_u32(at + 4) != 0) return 0;
    const uint8_t *end = at + 4 + length, *cursor = at + 8;
    uint8_t version = *cursor++;
    const char *augmentation = (const char *)cursor;
    size_t augmentation_length = strnlen(augmentation, (size_t)(end - cursor));
    cursor += augmentation_length + 1;
    if (cursor > end || strchr(augmentation, 'S') || strstr(augmentation, "eh")) return 0;
    if (augmentation_length && augmentation[0] != 'z') return 0;
    uint64_t return_register;
    if (!read_uleb(&cursor, end, &cie->code_alignment) || !read_sleb(&cursor, end, &cie->data_alignment)) return 0;
    if (version == 1) {
        if (cursor >= end) return 0;
        return_register = *cursor++;
    } else if (!read_uleb(&cursor, end, &return_register)) {
        return 0;
    }
    if (return_register != DWARF_RETURN_ADDRESS) return 0;
    cie->fde_encoding = 0;
    cie->has_augmentation_data = augmentation_length > 0;
    if (cie->has_augmentation_data) {
        uint64_t data_length;
        if (!read_uleb(&cursor, end, &data_length) || data_length > (uint64_t)(end - cursor)) return 0;
        const uint8_t *data = cursor, *data_end = cursor + data_length;
        for (const char *letter = augmentation + 1; *letter && data < data_end; letter++) {
            if (*letter == 'R') {
                cie->fde_encoding = *data++;
            } else if (*letter == 'P') {
                uint8_t encoding = *data++;
                if (!skip_encoded(&data, data_end, encoding & 0x7f)) return 0;
            } else if (*letter == 'L') {
                data++;
            } else if (*letter != 'B') {
                break;  // an unknown letter: the length still says where the instructions start
            }
        }
        cursor = data_end;
    }
    cie->instructions = cursor;
    cie->end = end;
    return 1;
}

static void set_saved(struct cfi_row *row, uint64_t reg, int64_t offset) {
    if (reg == DWARF_RBP) {
        row->frame_pointer = SAVED_AT_OFFSET;
        row->frame_pointer_offset = offset;
    } else if (reg == DWARF_RETURN_ADDRESS) {
        row->return_address = SAVED_AT_OFFSET;
        row->return_address_offset = offset;
    }
}

static void set_rule(struct cfi_row *row, uint64_t reg, enum register_rule rule) {
    if (reg == DWARF_RBP) row->frame_pointer = rule;
    if (reg == DWARF_RETURN_ADDRESS) row->return_address = rule;
}

static void restore_initial(struct cfi_row *row, const struct cfi_row *initial, uint64_t reg) {
    if (reg == DWARF_RBP) {
        row->frame_pointer = initial->frame_pointer;
        row->frame_pointer_offset = initial->frame_pointer_offset;
    } else if (reg == DWARF_RETURN_ADDRESS) {
        row->return_address = initial->return_address;
        row->return_address_offset = initial->return_address_offset;
    }
}

/// What one instruction step did: failed (malformed, or unknown to this interpreter), done, or
/// left to the next step function (not one of its instructions).
enum step { STEP_FAILED = 0, STEP_DONE = 1, STEP_NOT_MINE = -1 };

/// The instructions that say where the CFA is.
static enum step cfa_instruction(uint8_t op, const uint8_t **cursor, const uint8_t *end, const struct cie *cie, struct cfi_row *row) {
    uint64_t value = 0, length;
    int64_t signed_value = 0;
    switch (op) {
    case 0x0c:  // DW_CFA_def_cfa
        if (!read_uleb(cursor, end, &row->cfa_register) || !read_uleb(cursor, end, &value)) return STEP_FAILED;
        row->cfa_offset = (int64_t)value;
        return STEP_DONE;
    case 0x0d:  // DW_CFA_def_cfa_register
        return read_uleb(cursor, end, &row->cfa_register) ? STEP_DONE : STEP_FAILED;
    case 0x0e:  // DW_CFA_def_cfa_offset
        if (!read_uleb(cursor, end, &value)) return STEP_FAILED;
        row->cfa_offset = (int64_t)value;
        return STEP_DONE;
    case 0x0f:  // DW_CFA_def_cfa_expression
        if (!read_uleb(cursor, end, &length) || length > (uint64_t)(end - *cursor)) return STEP_FAILED;
        *cursor += length;
        row->cfa_register = CFA_EXPRESSION;
        return STEP_DONE;
    case 0x12:  // DW_CFA_def_cfa_sf
        if (!read_uleb(cursor, end, &row->cfa_register) || !read_sleb(cursor, end, &signed_value)) return STEP_FAILED;
        row->cfa_offset = signed_value * cie->data_alignment;
        return STEP_DONE;
    case 0x13:  // DW_CFA_def_cfa_offset_sf
        if (!read_sleb(cursor, end, &signed_value)) return STEP_FAILED;
        row->cfa_offset = signed_value * cie->data_alignment;
        return STEP_DONE;
    default: return STEP_NOT_MINE;
    }
}

/// The instructions that say where a register is saved (extended forms: the compact ones are
/// in the opcode's high bits).
static enum step register_instruction(uint8_t op, const uint8_t **cursor, const uint8_t *end, const struct cie *cie, struct cfi_row *row,
                                      const struct cfi_row *initial) {
    uint64_t reg = 0, value = 0, length;
    int64_t signed_value = 0;
    switch (op) {
    case 0x05:  // DW_CFA_offset_extended
        if (!read_uleb(cursor, end, &reg) || !read_uleb(cursor, end, &value)) return STEP_FAILED;
        set_saved(row, reg, (int64_t)value * cie->data_alignment);
        return STEP_DONE;
    case 0x06:  // DW_CFA_restore_extended
        if (!read_uleb(cursor, end, &reg)) return STEP_FAILED;
        restore_initial(row, initial, reg);
        return STEP_DONE;
    case 0x07:  // DW_CFA_undefined
    case 0x08:  // DW_CFA_same_value
        if (!read_uleb(cursor, end, &reg)) return STEP_FAILED;
        set_rule(row, reg, op == 0x07 ? UNDEFINED : SAME_VALUE);
        return STEP_DONE;
    case 0x09:  // DW_CFA_register
        if (!read_uleb(cursor, end, &reg) || !read_uleb(cursor, end, &value)) return STEP_FAILED;
        set_rule(row, reg, NOT_INTERPRETED);
        return STEP_DONE;
    case 0x10:  // DW_CFA_expression
    case 0x16:  // DW_CFA_val_expression
        if (!read_uleb(cursor, end, &reg) || !read_uleb(cursor, end, &length) || length > (uint64_t)(end - *cursor)) return STEP_FAILED;
        *cursor += length;
        set_rule(row, reg, NOT_INTERPRETED);
        return STEP_DONE;
    case 0x11:  // DW_CFA_offset_extended_sf
        if (!read_uleb(cursor, end, &reg) || !read_sleb(cursor, end, &signed_value)) return STEP_FAILED;
        set_saved(row, reg, signed_value * cie->data_alignment);
        return STEP_DONE;
    case 0x14:  // DW_CFA_val_offset
    case 0x15:  // DW_CFA_val_offset_sf
        if (!read_uleb(cursor, end, &reg)) return STEP_FAILED;
        if (op == 0x14 ? !read_uleb(cursor, end, &value) : !read_sleb(cursor, end, &signed_value)) return STEP_FAILED;
        set_rule(row, reg, NOT_INTERPRETED);
        return STEP_DONE;
    case 0x2f:  // DW_CFA_GNU_negative_offset_extended
        if (!read_uleb(cursor, end, &reg) || !read_uleb(cursor, end, &value)) return STEP_FAILED;
        set_saved(row, reg, -(int64_t)value * cie->data_alignment);
        return STEP_DONE;
    default: return STEP_NOT_MINE;
    }
}

/// The instructions that advance the location the rows are for.
static enum step advance_instruction(uint8_t op, const uint8_t **cursor, const uint8_t *end, const struct cie *cie, uintptr_t *location) {
    size_t width = op == 0x02 ? 1 : op == 0x03 ? 2 : op == 0x04 ? 4 : 0;  // DW_CFA_advance_loc1, 2, 4
    if (width == 0) return STEP_NOT_MINE;
    if ((size_t)(end - *cursor) < width) return STEP_FAILED;
    uint64_t delta = width == 1 ? (*cursor)[0] : width == 2 ? (uint64_t)((*cursor)[0] | (*cursor)[1] << 8) : (uint64_t)read_u32(*cursor);
    *location += delta * cie->code_alignment;
    *cursor += width;
    return STEP_DONE;
}

/// Runs CFA instructions until the row for `target` (rows start at `*location`); 0 on an
/// instruction this interpreter does not know.
static int run_instructions(const uint8_t *cursor, const uint8_t *end, const struct cie *cie, struct cfi_row *row,
                            const struct cfi_row *initial, uintptr_t *location, uintptr_t target) {
    struct cfi_row remembered[ROW_STACK_DEPTH];
    int remembered_count = 0;
    while (cursor < end && *location < target) {
        uint8_t op = *cursor++;
        uint64_t reg = op & 0x3f, value = 0;
        switch (op & 0xc0) {
        case 0x40: *location += reg * cie->code_alignment; continue;  // DW_CFA_advance_loc
        case 0x80:                                                    // DW_CFA_offset
            if (!read_uleb(&cursor, end, &value)) return 0;
            set_saved(row, reg, (int64_t)value * cie->data_alignment);
            continue;
        case 0xc0: restore_initial(row, initial, reg); continue;  // DW_CFA_restore
        }
        if (op == 0x00) continue;  // DW_CFA_nop
        if (op == 0x0a) {          // DW_CFA_remember_state
            if (remembered_count == ROW_STACK_DEPTH) return 0;
            remembered[remembered_count++] = *row;
            continue;
        }
        if (op == 0x0b) {  // DW_CFA_restore_state
            if (remembered_count == 0) return 0;
            *row = remembered[--remembered_count];
            continue;
        }
        if (op == 0x2e) {  // DW_CFA_GNU_args_size
            if (!read_uleb(&cursor, end, &value)) return 0;
            continue;
        }
        enum step done = advance_instruction(op, &cursor, end, cie, location);
        if (done == STEP_NOT_MINE) done = cfa_instruction(op, &cursor, end, cie, row);
        if (done == STEP_NOT_MINE) done = register_instruction(op, &cursor, end, cie, row, initial);
        if (done != STEP_DONE) return 0;  // malformed, or DW_CFA_set_loc and vendor extensions
    }
    return 1;
}

/// The rule for the frame that `return_address` returns into, from its FDE.
static void compute_rule(uintptr_t return_address, struct cfi_rule *rule) {
    rule->return_address = return_address;
    rule->status = CFI_UNSUPPORTED;
    struct dwarf_eh_bases bases;
    const uint8_t *fde = _Unwind_Find_FDE((void *)(return_address - 1), &bases);
    if (!fde) {
        rule->status = CFI_END;  // no CFI: libgcc's walk ends here too
        return;
    }
    uint32_t length = read_u32(fde);
    if (length == 0xffffffffu || length < 8) return;
    const uint8_t *end = fde + 4 + length, *cursor = fde + 8;
    struct cie cie;
    if (!parse_cie(fde + 4 - read_u32(fde + 4), &cie)) return;
    if (!skip_encoded(&cursor, end, cie.fde_encoding) || !skip_encoded(&cursor, end, cie.fde_encoding & 0x0f)) return;
    if (cie.has_augmentation_data) {
        uint64_t data_length;
        if (!read_uleb(&cursor, end, &data_length) || data_length > (uint64_t)(end - cursor)) return;
        cursor += data_length;
    }
    struct cfi_row row = {CFA_EXPRESSION, 0, SAME_VALUE, UNDEFINED, 0, 0};
    uintptr_t location = 0;
    if (!run_instructions(cie.instructions, cie.end, &cie, &row, &row, &location, UINTPTR_MAX)) return;
    struct cfi_row initial = row;
    location = (uintptr_t)bases.func;
    if (!run_instructions(cursor, end, &cie, &row, &initial, &location, return_address)) return;
    if (row.return_address == UNDEFINED) {
        rule->status = CFI_END;  // the outermost frame (_start, a thread's start)
        return;
    }
    if (row.cfa_register != DWARF_RSP && row.cfa_register != DWARF_RBP) return;
    if (row.return_address != SAVED_AT_OFFSET || row.frame_pointer == UNDEFINED || row.frame_pointer == NOT_INTERPRETED) return;
    if (row.cfa_offset < INT32_MIN || row.cfa_offset > INT32_MAX || row.return_address_offset < INT8_MIN ||
        row.return_address_offset > INT8_MAX || row.frame_pointer_offset < INT16_MIN || row.frame_pointer_offset > INT16_MAX)
        return;
    if (row.frame_pointer == SAVED_AT_OFFSET && row.frame_pointer_offset == 0) return;  // 0 means unchanged below
    rule->cfa_offset = (int32_t)row.cfa_offset;
    rule->cfa_from_frame_pointer = row.cfa_register == DWARF_RBP;
    rule->return_at = (int8_t)row.return_address_offset;
    rule->frame_pointer_at = row.frame_pointer == SAVED_AT_OFFSET ? (int16_t)row.frame_pointer_offset : 0;
    rule->status = CFI_RULE;
}

/// A frame whose CFA is this far above its stack pointer is taken for a wrong rule, not a frame.
#define LARGEST_FRAME_BYTES ((uintptr_t)64 << 20)

/// The word at `slot`, read only where the thread's stack is (or copied through the kernel when
/// its end is not known): 0 and `unreadable` set when it is elsewhere.
static int read_stack_word(struct cfi_walk_bounds *bounds, uintptr_t sp, uintptr_t slot, uintptr_t *value) {
    if (bounds->stack_high) {
        if (slot < sp || slot > bounds->stack_high - sizeof(uintptr_t)) {
            bounds->unreadable = 1;
            return 0;
        }
        *value = *(const uintptr_t *)slot;
        return 1;
    }
    if (copy_untrusted((char *)value, (const char *)slot, sizeof *value, 0) != sizeof *value) {
        bounds->unreadable = 1;
        return 0;
    }
    return 1;
}

int cfi_walk(struct cfi_cache *cache, uintptr_t pc, uintptr_t sp, uintptr_t frame_pointer, uint64_t *out, int count,
             int wanted, struct cfi_walk_bounds *bounds) {
    while (count < wanted) {
        struct cfi_rule *rule = &cache->rules[(pc * 0x9E3779B97F4A7C15ull) >> 54];
        if (rule->return_address != pc || rule->status == CFI_EMPTY) compute_rule(pc, rule);
        if (rule->status == CFI_END) break;
        if (rule->status != CFI_RULE) return -1;
        uintptr_t cfa = (rule->cfa_from_frame_pointer ? frame_pointer : sp) + (intptr_t)rule->cfa_offset;
        if (cfa <= sp || cfa - sp > LARGEST_FRAME_BYTES) break;
        if (!read_stack_word(bounds, sp, cfa + (intptr_t)rule->return_at, &pc)) break;
        if (rule->frame_pointer_at && !read_stack_word(bounds, sp, cfa + (intptr_t)rule->frame_pointer_at, &frame_pointer)) break;
        sp = cfa;
        if (pc == 0) break;
        if (pc >= bounds->skip_low && pc < bounds->skip_high) continue;
        out[count++] = pc;
    }
    return count;
}

#endif
