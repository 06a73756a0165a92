// Objective-C methods wrapped with method_setImplementation (or, in a class GCC's runtime has
// not messaged yet, in its method list), in the classes there at the start and in those loaded
// later. Given its table (fishhook's shape): it reads nothing else of the agent's state; the
// runtime's functions come from objc_runtime.c.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#if defined(__APPLE__)
#include <mach-o/dyld.h>
#endif

#include "agent_parts.h"

/// The table the agent gave at the start, for classes that arrive later.
static const struct patch_table *given;

/// GCC's runtime: where a class keeps its dispatch table (struct objc_class: isa, super, name,
/// version, info, size, ivars, methods, dtable).
#define GNU_CLASS_DTABLE_OFFSET 64

/// GCC's runtime: whether `holder` (a class, or a metaclass for class methods) has never been sent
/// a message: its dispatch table is still the shared uninstalled one, or none yet (a class
/// registered a moment ago, whose superclass link may still be a name).
static int gnu_never_messaged(const struct objc_runtime *rt, objc_ptr holder) {
    void *dtable = *(void *const *)((const char *)holder + GNU_CLASS_DTABLE_OFFSET);
    return dtable == NULL || dtable == *rt->gnu_uninstalled_dtable;
}

/// GCC's runtime: `selector`'s method among `holder`'s own method lists (struct objc_method_list:
/// next +0, count +8, 24-byte entries from +16: selector, types, implementation), read without
/// a message. Asking the runtime instead (class_getClassMethod) sends +resolveClassMethod: when
/// the method is not there, a message to a class that may not be resolved yet.
static objc_ptr gnu_own_method(const struct objc_runtime *rt, objc_ptr holder, const char *selector) {
    const char *list = *(const char *const *)((const char *)holder + 56);
    for (int lists = 0; list && lists < 64; lists++) {
        int count = *(const int *)(list + 8);
        for (int i = 0; i < count && i < 65536; i++) {
            const char *entry = list + 16 + 24 * i;
            objc_ptr name = *(objc_ptr const *)entry;
            const char *text = name && rt->selGetName ? rt->selGetName(name) : NULL;
            if (text && strcmp(text, selector) == 0) return (objc_ptr)entry;
        }
        list = *(const char *const *)list;
    }
    return NULL;
}

static void patch_method(const struct patch_table *table, int index) {
    const struct objc_runtime *rt = objc_runtime();
    struct target *t = &table->targets[index];
    if (t->done || !rt) return;
    objc_ptr cls = rt->getClass(t->class_name);
    if (!cls) return;
    // GCC's runtime: a class that has never been sent a message is read, not asked (see below).
    objc_ptr holder = t->class_method ? rt->objectGetClass(cls) : cls;
    int unmessaged = rt->gnu && rt->gnu_uninstalled_dtable && holder && gnu_never_messaged(rt, holder);
    objc_ptr method;
    if (unmessaged) {
        method = gnu_own_method(rt, holder, t->selector);
    } else {
        objc_ptr selector = rt->registerName(t->selector);
        method = t->class_method ? rt->getClassMethod(cls, selector) : rt->getInstanceMethod(cls, selector);
    }
    if (!method) return;
    char spec[420];
    snprintf(spec, sizeof spec, "%c[%s %s]", t->class_method ? '+' : '-', t->class_name, t->selector);
    const char *encoding = rt->getTypeEncoding(method);
    const char *reason = "no type encoding";
    t->done = 1;
    if (!encoding || !encoding_fits(encoding, t->kind == TARGET_METHOD, table->trampolines, &reason)) {
        char why[200];
        snprintf(why, sizeof why, "%s (%s)", reason, encoding ? encoding : "none");
        note("skipped %s: %s", spec, why);
        report_wrapped(table, index, 2);
        return;
    }
    if (unmessaged) {
        // GCC's runtime loses a class's +initialize when method_setImplementation replaces a method
        // of a class that has not run it (GNUstep's NSImage then unlocks a lock it never took),
        // and sending +class first runs +initialize before main, outside any autorelease pool. A
        // class that has never been sent a message has its dispatch table built from its method
        // lists at the first one, so the method's entry is rewritten in place and the runtime is
        // not involved.
        void **imp = (void **)((char *)method + 16);
        t->original = *imp;
        *imp = table->wrappers[index];
    } else {
        t->original = rt->setImplementation(method, table->wrappers[index]);
    }
    report_wrapped(table, index, 1);
}

/// GCC's runtime calls this for every class and category it loads: a class that arrives after
/// the agent started (a library's constructor registers it) is patched as it arrives.
static void (*previous_load_callback)(objc_ptr, void *);
static void class_loaded(objc_ptr cls, void *category) {
    if (previous_load_callback) previous_load_callback(cls, category);
    const struct objc_runtime *rt = objc_runtime();
    const char *name = rt ? rt->className(cls) : NULL;
    if (!name || !given) return;
    for (int i = 0; i < given->count; i++) {
        const struct target *t = &given->targets[i];
        if (!is_c_function(t) && !t->done && strcmp(t->class_name, name) == 0) {
            pthread_mutex_lock(given->lock);
            patch_method(given, i);
            pthread_mutex_unlock(given->lock);
        }
    }
    claim_region();
}

void patch_methods(const struct patch_table *table) {
    if (!objc_runtime()) return;
    pthread_mutex_lock(table->lock);
    for (int i = 0; i < table->count; i++) {
        if (!is_c_function(&table->targets[i])) patch_method(table, i);
    }
    pthread_mutex_unlock(table->lock);
    if (given) return;
    given = table;
    void (**callback)(objc_ptr, void *) = (void (**)(objc_ptr, void *))dlsym(RTLD_DEFAULT, "_objc_load_callback");
    if (callback) {
        previous_load_callback = *callback;
        *callback = class_loaded;
    }
}

#if defined(__APPLE__)
/// dyld announces each image; classes it brings are patched as it arrives.
void image_added(const struct mach_header *header, intptr_t slide) {
    (void)header;
    (void)slide;
    if (given) {
        patch_methods(given);
        claim_region();
    }
}
#endif
