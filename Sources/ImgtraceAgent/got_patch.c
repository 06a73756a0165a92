// C functions (`--symbol`), wrapped in the GOT of every loaded module: the jump slots that name
// a target get its wrapper, and modules loaded later through dlopen are searched as they arrive
// (each module's own `dlopen` slot goes through the agent, which exports nothing: the program's
// symbols resolve as they would without it). Data slots (GLOB_DAT) are left alone, so a
// function's address is the same in every module, `&f == dlsym(RTLD_DEFAULT, "f")`; on x86-64
// the calls that read such a slot (`call *f@GOTPCREL(%rip)` of a `-fno-plt` build, the
// `.plt.got` stub a module uses when it also takes `&f`) are pointed at a slot of the agent's
// near the module instead. A call through a pointer the program keeps is not seen. Apple
// platforms have no ELF GOT: only Objective-C methods are wrapped there.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__linux__)
#include <elf.h>
#include <link.h>
#endif

#include "agent_parts.h"

#if defined(__linux__)
/// The table the agent gave at the start, for the modules dlopen brings later.
static const struct patch_table *given;

#if defined(__x86_64__)
#define JUMP_SLOT R_X86_64_JUMP_SLOT
#define GLOB_DAT R_X86_64_GLOB_DAT
#elif defined(__aarch64__)
#define JUMP_SLOT R_AARCH64_JUMP_SLOT
#endif

static int in_relro(struct dl_phdr_info *info, uintptr_t address) {
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_GNU_RELRO && address >= start && address < start + ph->p_memsz) return 1;
    }
    return 0;
}

static void patch_slot(struct dl_phdr_info *info, void **slot, void *value) {
    if (*slot == value) return;
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t start = (uintptr_t)slot & ~(uintptr_t)(page - 1);
    int readonly = in_relro(info, (uintptr_t)slot);
    if (readonly && mprotect((void *)start, (size_t)page, PROT_READ | PROT_WRITE) != 0) return;
    *slot = value;
    if (readonly) mprotect((void *)start, (size_t)page, PROT_READ);
}

#if defined(__x86_64__)
/// glibc's dlopen takes the caller from its return address: a name without a slash is searched
/// along the caller's RUNPATH, `$ORIGIN` is the caller's folder, the new object joins the
/// caller's namespace. The agent's stub gives it a return address inside the caller's module, a
/// `ret` byte of its code, which returns into the stub; the stub patches what was loaded and
/// returns to the caller. Each module whose `dlopen` slot is patched has its entry here.
struct dlopen_caller {
    uintptr_t start, end, return_byte;
};
#define DLOPEN_CALLERS 256
static struct dlopen_caller dlopen_callers[DLOPEN_CALLERS];
static int dlopen_caller_count;
static void *real_dlopen;

__attribute__((visibility("hidden"))) extern char imgtrace_agent_dlopen[];

/// Where dlopen returns for a call from `return_address`: a `ret` byte in the caller's module
/// (0: none known, the stub then calls dlopen from its own frame), and dlopen itself.
struct dlopen_route {
    uintptr_t return_byte;
    void *dlopen;
};

__attribute__((visibility("hidden"), used)) struct dlopen_route imgtrace_agent_dlopen_route(uintptr_t return_address) {
    int count = __atomic_load_n(&dlopen_caller_count, __ATOMIC_ACQUIRE);
    for (int i = 0; i < count; i++) {
        if (return_address >= dlopen_callers[i].start && return_address < dlopen_callers[i].end) return (struct dlopen_route){dlopen_callers[i].return_byte, real_dlopen};
    }
    return (struct dlopen_route){0, real_dlopen};
}

__attribute__((visibility("hidden"))) void (*imgtrace_agent_real_exit)(int);
#define real_exit imgtrace_agent_real_exit

/// `exit` from a module of the program: the wrapped calls this thread is inside never return,
/// and the atexit handlers and destructors that run now make requests of their own. The stub
/// jumps on to exit, so no frame of the agent's stays under them.
__attribute__((visibility("hidden"))) extern char imgtrace_agent_exit[];
#define agent_exit imgtrace_agent_exit
__asm__(
    ".text\n"
    ".p2align 4\n"
    ".hidden imgtrace_agent_exit\n"
    "imgtrace_agent_exit:\n"
    "    .cfi_startproc\n"
    "    pushq %rdi\n"
    "    .cfi_def_cfa_offset 16\n"
    "    call forget_open_calls\n"
    "    popq %rdi\n"
    "    .cfi_def_cfa_offset 8\n"
    "    jmp *imgtrace_agent_real_exit(%rip)\n"
    "    .cfi_endproc\n");

/// After a dlopen: the modules it brought are patched.
__attribute__((visibility("hidden"), used)) void imgtrace_agent_loaded(void *handle) {
    if (handle && given) {
        patch_symbols(given);
        claim_region();
        copy_maps();
    }
}

__asm__(
    ".text\n"
    ".p2align 4\n"
    ".hidden imgtrace_agent_dlopen\n"
    "imgtrace_agent_dlopen:\n"
    "    .cfi_startproc\n"
    "    pushq %rbp\n"
    "    .cfi_def_cfa_offset 16\n"
    "    .cfi_offset %rbp, -16\n"
    "    movq %rsp, %rbp\n"
    "    .cfi_def_cfa_register %rbp\n"
    "    pushq %rdi\n"
    "    pushq %rsi\n"
    "    movq 8(%rbp), %rdi\n"
    "    call imgtrace_agent_dlopen_route\n"
    "    movq %rdx, %r11\n"
    "    popq %rsi\n"
    "    popq %rdi\n"
    "    testq %rax, %rax\n"
    "    jz 2f\n"
    // dlopen entered as if called from the caller's module: it returns to the `ret` byte there,
    // which returns to 1f.
    "    subq $8, %rsp\n"
    "    leaq 1f(%rip), %rdx\n"
    "    pushq %rdx\n"
    "    pushq %rax\n"
    "    jmp *%r11\n"
    "1:\n"
    "    subq $8, %rsp\n"
    "    movq %rax, -8(%rbp)\n"
    "    movq %rax, %rdi\n"
    "    call imgtrace_agent_loaded\n"
    "    movq -8(%rbp), %rax\n"
    "    .cfi_remember_state\n"
    "    leave\n"
    "    .cfi_def_cfa %rsp, 8\n"
    "    ret\n"
    "2:\n"
    "    .cfi_restore_state\n"
    "    subq $16, %rsp\n"
    "    call *%r11\n"
    "    movq %rax, -8(%rbp)\n"
    "    movq %rax, %rdi\n"
    "    call imgtrace_agent_loaded\n"
    "    movq -8(%rbp), %rax\n"
    "    leave\n"
    "    .cfi_def_cfa %rsp, 8\n"
    "    ret\n"
    "    .cfi_endproc\n");

/// Keeps the module's range and a `ret` byte of its code for dlopen calls from it.
static void add_dlopen_caller(struct dl_phdr_info *info) {
    uintptr_t start = UINTPTR_MAX, end = 0, return_byte = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD) continue;
        uintptr_t from = info->dlpi_addr + ph->p_vaddr, to = from + ph->p_memsz;
        if (from < start) start = from;
        if (to > end) end = to;
        if ((ph->p_flags & PF_X) && !return_byte) {
            const unsigned char *found = memchr((const void *)from, 0xC3, ph->p_filesz);
            if (found) return_byte = (uintptr_t)found;
        }
    }
    int count = dlopen_caller_count;
    for (int i = 0; i < count; i++) {
        if (dlopen_callers[i].start == start) return;
    }
    if (!return_byte || count >= DLOPEN_CALLERS) return;
    dlopen_callers[count] = (struct dlopen_caller){start, end, return_byte};
    __atomic_store_n(&dlopen_caller_count, count + 1, __ATOMIC_RELEASE);
}
#endif

/// What a slot naming `name` in this module should call instead: the dlopen or exit stub, or a
/// target's wrapper (its original found on first sight); NULL when it names none of them.
static void *replacement_for(struct dl_phdr_info *info, const char *name) {
#if defined(__x86_64__)
    if (strcmp(name, "dlopen") == 0 && real_dlopen) {
        add_dlopen_caller(info);
        return imgtrace_agent_dlopen;
    }
    if (strcmp(name, "exit") == 0 && real_exit) return (void *)agent_exit;
#else
    (void)info;
#endif
    for (int i = 0; i < given->count; i++) {
        struct target *t = &given->targets[i];
        if (!is_c_function(t) || strcmp(t->symbol, name) != 0) continue;
        if (!t->original) {
            t->original = dlsym(RTLD_DEFAULT, name);
            if (!t->original) continue;
            report_wrapped(given, i, 1);
        }
        return given->wrappers[i];
    }
    return NULL;
}

static void patch_relocations(struct dl_phdr_info *info, const ElfW(Rela) *relocations, size_t bytes, const ElfW(Sym) *symbols,
                              const char *strings) {
    for (size_t k = 0; k < bytes / sizeof(ElfW(Rela)); k++) {
        if ((unsigned)ELF64_R_TYPE(relocations[k].r_info) != JUMP_SLOT) continue;
        void *replacement = replacement_for(info, strings + symbols[ELF64_R_SYM(relocations[k].r_info)].st_name);
        if (replacement) patch_slot(info, (void **)(info->dlpi_addr + relocations[k].r_offset), replacement);
    }
}

#if defined(__x86_64__)
/// A page of the agent's pointers within reach of a module's rip-relative calls (±2 GiB): the
/// calls that read a target's data slot read one of these instead.
#define NEAR_SLOTS (4096 / sizeof(void *))
struct redirect {
    uintptr_t data_slot;
    void *wrapper;
};

/// Modules whose code was searched already (their load address): once each.
#define SEARCHED_MODULES 512
static uintptr_t searched_modules[SEARCHED_MODULES];
static int searched_count;

static int within_reach(uintptr_t from, uintptr_t to) {
    intptr_t distance = (intptr_t)(to - from);
    return distance > INT32_MIN / 2 && distance < INT32_MAX / 2;
}

/// A page of pointers near [start, end), or NULL: free pages are tried above and below it.
static void **near_page(uintptr_t start, uintptr_t end) {
    long page = sysconf(_SC_PAGESIZE);
    for (uintptr_t step = 1; step <= 64; step++) {
        uintptr_t candidates[2] = {((end + (uintptr_t)page - 1) & ~(uintptr_t)(page - 1)) + step * 65536,
                                   (start & ~(uintptr_t)(page - 1)) - step * 65536};
        for (int k = 0; k < 2; k++) {
            void *mapped = mmap((void *)candidates[k], (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
            if (mapped == MAP_FAILED) continue;
            if ((uintptr_t)mapped == candidates[k] && within_reach(start, (uintptr_t)mapped) && within_reach(end, (uintptr_t)mapped)) return mapped;
            munmap(mapped, (size_t)page);
        }
    }
    return NULL;
}

/// Points each `call *disp(%rip)` / `jmp *disp(%rip)` of the module's code that reads one of
/// the `redirects`' data slots at a pointer to its wrapper instead (the code page is made
/// writable for the write and executable-only again).
static void redirect_code(struct dl_phdr_info *info, const struct redirect *redirects, int count) {
    uintptr_t start = UINTPTR_MAX, end = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X)) continue;
        if (info->dlpi_addr + ph->p_vaddr < start) start = info->dlpi_addr + ph->p_vaddr;
        if (info->dlpi_addr + ph->p_vaddr + ph->p_filesz > end) end = info->dlpi_addr + ph->p_vaddr + ph->p_filesz;
    }
    if (start >= end) return;
    void **near = near_page(start, end);
    if (!near) {
        note("not wrapped in %s%s: no free page within a call's reach of its code", info->dlpi_name[0] ? info->dlpi_name : "the program", "");
        return;
    }
    for (int r = 0; r < count && r < (int)NEAR_SLOTS; r++) near[r] = redirects[r].wrapper;
    mprotect(near, (size_t)sysconf(_SC_PAGESIZE), PROT_READ);
    long page = sysconf(_SC_PAGESIZE);
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || ph->p_filesz < 6) continue;
        unsigned char *code = (unsigned char *)(info->dlpi_addr + ph->p_vaddr);
        for (size_t at = 0; at + 6 <= ph->p_filesz; at++) {
            if (code[at] != 0xFF || (code[at + 1] != 0x15 && code[at + 1] != 0x25)) continue;
            int32_t displacement;
            memcpy(&displacement, code + at + 2, sizeof displacement);
            uintptr_t next = (uintptr_t)(code + at + 6), read = next + (intptr_t)displacement;
            for (int r = 0; r < count && r < (int)NEAR_SLOTS; r++) {
                if (read != redirects[r].data_slot) continue;
                int32_t moved = (int32_t)((intptr_t)&near[r] - (intptr_t)next);
                uintptr_t first = (uintptr_t)(code + at + 2) & ~(uintptr_t)(page - 1), last = (uintptr_t)(code + at + 5) & ~(uintptr_t)(page - 1);
                size_t span = last - first + (size_t)page;
                if (mprotect((void *)first, span, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) break;
                memcpy(code + at + 2, &moved, sizeof moved);
                mprotect((void *)first, span, PROT_READ | PROT_EXEC);
                at += 5;
                break;
            }
        }
    }
}

/// The module's data slots (GLOB_DAT) that name a target, or dlopen: their calls are redirected.
static void redirect_data_slot_calls(struct dl_phdr_info *info, const ElfW(Rela) *relocations, size_t bytes, const ElfW(Sym) *symbols,
                                     const char *strings) {
    for (int i = 0; i < searched_count; i++) {
        if (searched_modules[i] == info->dlpi_addr) return;
    }
    if (searched_count < SEARCHED_MODULES) searched_modules[searched_count++] = info->dlpi_addr;
    struct redirect redirects[MAX_TARGETS + 1];
    int count = 0;
    for (size_t k = 0; k < bytes / sizeof(ElfW(Rela)) && count < MAX_TARGETS + 1; k++) {
        if ((unsigned)ELF64_R_TYPE(relocations[k].r_info) != GLOB_DAT) continue;
        void *replacement = replacement_for(info, strings + symbols[ELF64_R_SYM(relocations[k].r_info)].st_name);
        if (replacement) redirects[count++] = (struct redirect){info->dlpi_addr + relocations[k].r_offset, replacement};
    }
    if (count) redirect_code(info, redirects, count);
}
#endif

static int patch_module(struct dl_phdr_info *info, size_t size, void *self_base) {
    (void)size;
    if ((void *)info->dlpi_addr == self_base) return 0;  // the agent's own GOT calls the originals
    const ElfW(Dyn) *dynamic = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC) dynamic = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    }
    if (!dynamic || !info->dlpi_name) return 0;
    uintptr_t symtab = 0, strtab = 0, jmprel = 0, rela = 0;
    size_t pltsize = 0, relasize = 0;
    for (const ElfW(Dyn) *d = dynamic; d->d_tag != DT_NULL; d++) {
        switch (d->d_tag) {
        case DT_SYMTAB: symtab = d->d_un.d_ptr; break;
        case DT_STRTAB: strtab = d->d_un.d_ptr; break;
        case DT_JMPREL: jmprel = d->d_un.d_ptr; break;
        case DT_PLTRELSZ: pltsize = d->d_un.d_val; break;
        case DT_RELA: rela = d->d_un.d_ptr; break;
        case DT_RELASZ: relasize = d->d_un.d_val; break;
        }
    }
    // The dynamic linker relocates these in place for most objects, not for all (the vDSO).
    uintptr_t base = info->dlpi_addr;
#define AT(p) ((p) < base ? (p) + base : (p))
    if (!symtab || !strtab) return 0;
    const ElfW(Sym) *symbols = (const ElfW(Sym) *)AT(symtab);
    const char *strings = (const char *)AT(strtab);
    if (jmprel) patch_relocations(info, (const ElfW(Rela) *)AT(jmprel), pltsize, symbols, strings);
#if defined(__x86_64__)
    if (rela) redirect_data_slot_calls(info, (const ElfW(Rela) *)AT(rela), relasize, symbols, strings);
#endif
#undef AT
    return 0;
}

static int patch_module_callback(struct dl_phdr_info *info, size_t size, void *data) { return patch_module(info, size, data); }

void patch_symbols(const struct patch_table *table) {
    Dl_info self;
    void *self_base = dladdr((void *)patch_symbols, &self) ? self.dli_fbase : NULL;
    pthread_mutex_lock(table->lock);
    given = table;
#if defined(__x86_64__)
    if (!real_dlopen) real_dlopen = dlsym(RTLD_DEFAULT, "dlopen");
    if (!real_exit) real_exit = (void (*)(int))dlsym(RTLD_DEFAULT, "exit");
#endif
    dl_iterate_phdr(patch_module_callback, self_base);
    pthread_mutex_unlock(table->lock);
}
#else
/// Apple platforms: `--symbol` needs the ELF GOT; only Objective-C methods are wrapped.
void patch_symbols(const struct patch_table *table) {
    for (int i = 0; i < table->count; i++) {
        if (is_c_function(&table->targets[i])) note("skipped %s: %s", table->targets[i].symbol, "C functions are wrapped on Linux only");
    }
}
#endif

