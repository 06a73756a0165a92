// Objective-C: the runtime found with dlsym (Apple's or GCC's, or none), the name object's text
// read through its own UTF8String, and the methods wrapped with method_setImplementation, in the
// classes there at the start and in those loaded later.
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

// The Objective-C runtime, when the process has one.
static objc_ptr (*rt_getClass)(const char *);
static objc_ptr (*rt_getClassMethod)(objc_ptr, objc_ptr);
static objc_ptr (*rt_getInstanceMethod)(objc_ptr, objc_ptr);
static const char *(*rt_getTypeEncoding)(objc_ptr);
static void *(*rt_setImplementation)(objc_ptr, void *);
static objc_ptr (*rt_registerName)(const char *);
static const char *(*rt_selGetName)(objc_ptr);
static objc_ptr (*rt_objectGetClass)(objc_ptr);
static void *(*rt_getMethodImplementation)(objc_ptr, objc_ptr);
static signed char (*rt_respondsToSelector)(objc_ptr, objc_ptr);
static const char *(*rt_className)(objc_ptr);
static objc_ptr utf8_selector;
static int gnu_runtime;
/// GCC's runtime: the dispatch table a class has until its first message (`__objc_uninstalled_dtable`),
/// and where a class keeps its table (struct objc_class: isa, super, name, version, info, size,
/// ivars, methods, dtable).
static void *const *gnu_uninstalled_dtable;
#define GNU_CLASS_DTABLE_OFFSET 64

/// Whether the runtime may be asked about `object`: a small integer or a stale pointer given as the
/// name would fault in it. The object's first word must be readable, and on GNUstep's runtime the
/// class it points to too; Apple's tagged pointers hold their value in the pointer itself.
static int object_readable(objc_ptr object) {
    uintptr_t address = (uintptr_t)object;
    uint64_t word = 0;
#if defined(__APPLE__)
#if defined(__arm64__)
    if (address >> 63) return 1;
#else
    if (address & 1) return 1;
#endif
    return address >= LOWEST_NAME_ADDRESS && copy_untrusted((char *)&word, (const char *)address, sizeof word, 0) == sizeof word;
#else
    return address >= LOWEST_NAME_ADDRESS && copy_untrusted((char *)&word, (const char *)address, sizeof word, 0) == sizeof word &&
           word >= LOWEST_NAME_ADDRESS && copy_untrusted((char *)&word, (const char *)(uintptr_t)word, sizeof word, 0) == sizeof word;
#endif
}

/// The name object's UTF-8 text through its own `UTF8String`, or why not; returns `record`'s.
uint64_t record_object_name(uint32_t api, objc_ptr name, const struct request_stack *stack) {
    if (!name) return record(api, IMGTRACE_AGENT_NIL, NULL, stack);
    objc_ptr cls = object_readable(name) ? rt_objectGetClass(name) : NULL;
    if (!cls || !rt_respondsToSelector(cls, utf8_selector)) return record(api, IMGTRACE_AGENT_UNREADABLE, (const char *)name, stack);
    const char *(*utf8)(objc_ptr, objc_ptr) = (const char *(*)(objc_ptr, objc_ptr))rt_getMethodImplementation(cls, utf8_selector);
    const char *text = utf8 ? utf8(name, utf8_selector) : NULL;
    return record(api, text ? IMGTRACE_AGENT_NAME : IMGTRACE_AGENT_UNREADABLE, text ? text : (const char *)name, stack);
}

/// GCC's runtime: whether `holder` (a class, or a metaclass for class methods) has never been sent
/// a message: its dispatch table is still the shared uninstalled one, or none yet (a class
/// registered a moment ago, whose superclass link may still be a name).
static int gnu_never_messaged(objc_ptr holder) {
    void *dtable = *(void *const *)((const char *)holder + GNU_CLASS_DTABLE_OFFSET);
    return dtable == NULL || dtable == *gnu_uninstalled_dtable;
}

/// GCC's runtime: `selector`'s method among `holder`'s own method lists (struct objc_method_list:
/// next +0, count +8, 24-byte entries from +16: selector, types, implementation), read without
/// a message. Asking the runtime instead (class_getClassMethod) sends +resolveClassMethod: when
/// the method is not there, a message to a class that may not be resolved yet.
static objc_ptr gnu_own_method(objc_ptr holder, const char *selector) {
    const char *list = *(const char *const *)((const char *)holder + 56);
    for (int lists = 0; list && lists < 64; lists++) {
        int count = *(const int *)(list + 8);
        for (int i = 0; i < count && i < 65536; i++) {
            const char *entry = list + 16 + 24 * i;
            objc_ptr name = *(objc_ptr const *)entry;
            const char *text = name && rt_selGetName ? rt_selGetName(name) : NULL;
            if (text && strcmp(text, selector) == 0) return (objc_ptr)entry;
        }
        list = *(const char *const *)list;
    }
    return NULL;
}

static void patch_method(int index) {
    struct target *t = &agent.targets[index];
    if (t->done || !rt_getClass) return;
    objc_ptr cls = rt_getClass(t->class_name);
    if (!cls) return;
    // GCC's runtime: a class that has never been sent a message is read, not asked (see below).
    objc_ptr holder = t->class_method ? rt_objectGetClass(cls) : cls;
    int unmessaged = gnu_runtime && gnu_uninstalled_dtable && holder && gnu_never_messaged(holder);
    objc_ptr method;
    if (unmessaged) {
        method = gnu_own_method(holder, t->selector);
    } else {
        objc_ptr selector = rt_registerName(t->selector);
        method = t->class_method ? rt_getClassMethod(cls, selector) : rt_getInstanceMethod(cls, selector);
    }
    if (!method) return;
    char spec[420];
    snprintf(spec, sizeof spec, "%c[%s %s]", t->class_method ? '+' : '-', t->class_name, t->selector);
    const char *encoding = rt_getTypeEncoding(method);
    const char *reason = "no type encoding";
    t->done = 1;
    if (!encoding || !encoding_fits(encoding, t->kind == TARGET_METHOD, agent_trampolines, &reason)) {
        char why[200];
        snprintf(why, sizeof why, "%s (%s)", reason, encoding ? encoding : "none");
        note("skipped %s: %s", spec, why);
        agent.shared->api_status[index] = 2;
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
        *imp = wrappers[index];
        agent.shared->api_status[index] = 1;
        __atomic_fetch_add(&agent.shared->patched, 1, __ATOMIC_RELAXED);
        return;
    }
    t->original = rt_setImplementation(method, wrappers[index]);
    agent.shared->api_status[index] = 1;
    __atomic_fetch_add(&agent.shared->patched, 1, __ATOMIC_RELAXED);
}

void patch_methods(void) {
    pthread_mutex_lock(&agent.patch_lock);
    for (int i = 0; i < agent.target_count; i++) {
        if (!is_c_function(&agent.targets[i])) patch_method(i);
    }
    pthread_mutex_unlock(&agent.patch_lock);
}

/// GCC's runtime calls this for every class and category it loads: a class that arrives after
/// the agent started (a library's constructor registers it) is patched as it arrives.
static void (*previous_load_callback)(objc_ptr, void *);
static void class_loaded(objc_ptr cls, void *category) {
    if (previous_load_callback) previous_load_callback(cls, category);
    const char *name = rt_className ? rt_className(cls) : NULL;
    if (!name) return;
    for (int i = 0; i < agent.target_count; i++) {
        if (!is_c_function(&agent.targets[i]) && !agent.targets[i].done && strcmp(agent.targets[i].class_name, name) == 0) {
            pthread_mutex_lock(&agent.patch_lock);
            patch_method(i);
            pthread_mutex_unlock(&agent.patch_lock);
        }
    }
    claim_region();
}

static objc_ptr first_word_class(objc_ptr object) { return object ? *(objc_ptr *)object : NULL; }

void find_runtime(void) {
    rt_getClass = (objc_ptr(*)(const char *))dlsym(RTLD_DEFAULT, "objc_getClass");
    if (!rt_getClass) return;
    rt_getClassMethod = (objc_ptr(*)(objc_ptr, objc_ptr))dlsym(RTLD_DEFAULT, "class_getClassMethod");
    rt_selGetName = (const char *(*)(objc_ptr))dlsym(RTLD_DEFAULT, "sel_getName");
    rt_getInstanceMethod = (objc_ptr(*)(objc_ptr, objc_ptr))dlsym(RTLD_DEFAULT, "class_getInstanceMethod");
    rt_getTypeEncoding = (const char *(*)(objc_ptr))dlsym(RTLD_DEFAULT, "method_getTypeEncoding");
    rt_setImplementation = (void *(*)(objc_ptr, void *))dlsym(RTLD_DEFAULT, "method_setImplementation");
    rt_registerName = (objc_ptr(*)(const char *))dlsym(RTLD_DEFAULT, "sel_registerName");
    rt_objectGetClass = (objc_ptr(*)(objc_ptr))dlsym(RTLD_DEFAULT, "object_getClass");
    // GCC's runtime makes object_getClass inline: the class is an object's first word there.
    if (!rt_objectGetClass) rt_objectGetClass = first_word_class;
    rt_getMethodImplementation = (void *(*)(objc_ptr, objc_ptr))dlsym(RTLD_DEFAULT, "class_getMethodImplementation");
    rt_respondsToSelector = (signed char (*)(objc_ptr, objc_ptr))dlsym(RTLD_DEFAULT, "class_respondsToSelector");
    rt_className = (const char *(*)(objc_ptr))dlsym(RTLD_DEFAULT, "class_getName");
    if (!rt_getClassMethod || !rt_getInstanceMethod || !rt_getTypeEncoding || !rt_setImplementation || !rt_registerName ||
        !rt_objectGetClass || !rt_getMethodImplementation || !rt_respondsToSelector || !rt_className) {
        rt_getClass = NULL;
        note("%s%s", "the Objective-C runtime lacks a function the agent needs: no method is wrapped", "");
        return;
    }
    utf8_selector = rt_registerName("UTF8String");
    void (**callback)(objc_ptr, void *) = (void (**)(objc_ptr, void *))dlsym(RTLD_DEFAULT, "_objc_load_callback");
    gnu_runtime = dlsym(RTLD_DEFAULT, "objc_msg_lookup") != NULL;
    if (gnu_runtime) gnu_uninstalled_dtable = (void *const *)dlsym(RTLD_DEFAULT, "__objc_uninstalled_dtable");
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
    if (agent.shared) {
        patch_methods();
        claim_region();
    }
}
#endif

