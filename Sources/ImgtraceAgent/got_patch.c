// C functions (`--symbol`), wrapped in the GOT of every loaded module: the jump and data slots
// that name a target get its wrapper, and modules loaded later through dlopen are searched as
// they arrive. Apple platforms have no ELF GOT: only Objective-C methods are wrapped there.
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
#if defined(__x86_64__)
#define JUMP_SLOT R_X86_64_JUMP_SLOT
#define GLOB_DAT R_X86_64_GLOB_DAT
#elif defined(__aarch64__)
#define JUMP_SLOT R_AARCH64_JUMP_SLOT
#define GLOB_DAT R_AARCH64_GLOB_DAT
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

static void patch_relocations(struct dl_phdr_info *info, const ElfW(Rela) *relocations, size_t bytes, const ElfW(Sym) *symbols,
                              const char *strings) {
    for (size_t k = 0; k < bytes / sizeof(ElfW(Rela)); k++) {
        unsigned type = (unsigned)ELF64_R_TYPE(relocations[k].r_info);
        // GLOB_DAT too: when a module takes a function's address, the linker sends its calls
        // through that same slot (`.plt.got`), and so does -fno-plt. The price: in such a module
        // `&f` is the wrapper, not what `dlsym(RTLD_DEFAULT, "f")` gives.
        if (type != JUMP_SLOT && type != GLOB_DAT) continue;
        const char *name = strings + symbols[ELF64_R_SYM(relocations[k].r_info)].st_name;
        for (int i = 0; i < target_count; i++) {
            struct target *t = &targets[i];
            if (!is_c_function(t) || strcmp(t->symbol, name) != 0) continue;
            if (!t->original) {
                t->original = dlsym(RTLD_DEFAULT, name);
                if (!t->original) continue;
                shared->api_status[i] = 1;
                __atomic_fetch_add(&shared->patched, 1, __ATOMIC_RELAXED);
            }
            patch_slot(info, (void **)(info->dlpi_addr + relocations[k].r_offset), wrappers[i]);
        }
    }
}

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
    if (rela) patch_relocations(info, (const ElfW(Rela) *)AT(rela), relasize, symbols, strings);
#undef AT
    return 0;
}

static int patch_module_callback(struct dl_phdr_info *info, size_t size, void *data) { return patch_module(info, size, data); }

void patch_symbols(void) {
    int any = 0;
    for (int i = 0; i < target_count; i++) any |= is_c_function(&targets[i]);
    if (!any) return;
    Dl_info self;
    void *self_base = dladdr((void *)patch_symbols, &self) ? self.dli_fbase : NULL;
    pthread_mutex_lock(&patch_lock);
    dl_iterate_phdr(patch_module_callback, self_base);
    pthread_mutex_unlock(&patch_lock);
}

/// Libraries loaded later are searched as they arrive.
void *dlopen(const char *file, int mode) {
    static void *(*real_dlopen)(const char *, int);
    if (!real_dlopen) real_dlopen = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
    void *handle = real_dlopen ? real_dlopen(file, mode) : NULL;
    if (handle && shared) patch_symbols();
    return handle;
}
#else
/// Apple platforms: `--symbol` needs the ELF GOT; only Objective-C methods are wrapped.
void patch_symbols(void) {
    for (int i = 0; i < target_count; i++) {
        if (is_c_function(&targets[i])) note("skipped %s: %s", targets[i].symbol, "C functions are wrapped on Linux only");
    }
}
#endif

