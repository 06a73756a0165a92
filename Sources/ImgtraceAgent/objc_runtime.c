// The Objective-C runtime, when the process has one (Apple's or GCC's, found with dlsym), and the
// one thing a request needs of it: a name object's text through its own UTF8String. Below the
// requests and the method patcher, which both ask it; it asks nothing of them.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>

#include "agent_parts.h"

static struct objc_runtime runtime;
static int found;

static objc_ptr first_word_class(objc_ptr object) { return object ? *(objc_ptr *)object : NULL; }

const struct objc_runtime *objc_runtime(void) { return found ? &runtime : NULL; }

void find_runtime(void) {
    struct objc_runtime *rt = &runtime;
    rt->getClass = (objc_ptr(*)(const char *))dlsym(RTLD_DEFAULT, "objc_getClass");
    if (!rt->getClass) return;
    rt->getClassMethod = (objc_ptr(*)(objc_ptr, objc_ptr))dlsym(RTLD_DEFAULT, "class_getClassMethod");
    rt->selGetName = (const char *(*)(objc_ptr))dlsym(RTLD_DEFAULT, "sel_getName");
    rt->getInstanceMethod = (objc_ptr(*)(objc_ptr, objc_ptr))dlsym(RTLD_DEFAULT, "class_getInstanceMethod");
    rt->getTypeEncoding = (const char *(*)(objc_ptr))dlsym(RTLD_DEFAULT, "method_getTypeEncoding");
    rt->setImplementation = (void *(*)(objc_ptr, void *))dlsym(RTLD_DEFAULT, "method_setImplementation");
    rt->registerName = (objc_ptr(*)(const char *))dlsym(RTLD_DEFAULT, "sel_registerName");
    rt->objectGetClass = (objc_ptr(*)(objc_ptr))dlsym(RTLD_DEFAULT, "object_getClass");
    // GCC's runtime makes object_getClass inline: the class is an object's first word there.
    if (!rt->objectGetClass) rt->objectGetClass = first_word_class;
    rt->getMethodImplementation = (void *(*)(objc_ptr, objc_ptr))dlsym(RTLD_DEFAULT, "class_getMethodImplementation");
    rt->respondsToSelector = (signed char (*)(objc_ptr, objc_ptr))dlsym(RTLD_DEFAULT, "class_respondsToSelector");
    rt->className = (const char *(*)(objc_ptr))dlsym(RTLD_DEFAULT, "class_getName");
    if (!rt->getClassMethod || !rt->getInstanceMethod || !rt->getTypeEncoding || !rt->setImplementation || !rt->registerName ||
        !rt->getMethodImplementation || !rt->respondsToSelector || !rt->className) {
        note("%s%s", "the Objective-C runtime lacks a function the agent needs: no method is wrapped", "");
        return;
    }
    rt->utf8_selector = rt->registerName("UTF8String");
    rt->gnu = dlsym(RTLD_DEFAULT, "objc_msg_lookup") != NULL;
    if (rt->gnu) rt->gnu_uninstalled_dtable = (void *const *)dlsym(RTLD_DEFAULT, "__objc_uninstalled_dtable");
    found = 1;
}

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

const char *object_text(objc_ptr name) {
    if (!found || !object_readable(name)) return NULL;
    objc_ptr cls = runtime.objectGetClass(name);
    if (!cls || !runtime.respondsToSelector(cls, runtime.utf8_selector)) return NULL;
    const char *(*utf8)(objc_ptr, objc_ptr) = (const char *(*)(objc_ptr, objc_ptr))runtime.getMethodImplementation(cls, runtime.utf8_selector);
    return utf8 ? utf8(name, runtime.utf8_selector) : NULL;
}
