# Implementation address -> the method's name, for frames of a library without symbols.
IMGTRACE_RUNTIME_NAMES = {}

def imgtrace_runtime_lookups():
    # Each method to break on as (name, class, class method?, selector, its symbols);
    # the launch end's last.
    safe = set('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_:')
    out = []
    for name in sorted(IMGTRACE_BREAKS) + ([IMGTRACE_LAUNCH_END] if IMGTRACE_LAUNCH_END else []):
        if len(name) < 6 or name[0] not in '+-' or name[1] != '[' or not name.endswith(']') or ' ' not in name:
            continue
        cls, sel = name[2:-1].split(' ', 1)
        if not cls or not sel or not set(cls + sel) <= safe:
            continue
        gcc = ('_c_' if name[0] == '+' else '_i_') + cls + '__' + sel.replace(':', '_')
        symbols = [name, gcc] + [other for other, method in IMGTRACE_GCC_NAMES.items() if method == name and other != gcc]
        # The class's own exported symbol (GCC's runtime, Apple's): without one the class
        # is not in the program, and nothing is asked of the runtime for it.
        classes = ['__objc_class_name_' + cls, 'OBJC_CLASS_$_' + cls]
        out.append((name, cls, name[0] == '+', sel, symbols, classes))
    return out

def imgtrace_class_expression(cls, class_method):
    # Nothing here sends a message: class_getInstanceMethod would (GCC's runtime asks
    # +resolveInstanceMethod: for a method it lacks, which runs +initialize at main), and
    # objc_getClass and objc_getMetaClass log when a class is absent (asked only once
    # objc_lookUpClass found it). The method list is the class's own, ended by NULL in
    # both runtimes.
    found = '((void *(*)(const char *))objc_lookUpClass)("%s")' % cls
    return '(%s ? ((void *(*)(const char *))objc_getMetaClass)("%s") : (void *)0)' % (found, cls) if class_method else found

def imgtrace_method_list_expression(cls, class_method):
    return '(unsigned long)((void **(*)(void *, void *))class_copyMethodList)(%s, (void *)0)' % imgtrace_class_expression(cls, class_method)

def imgtrace_selector_expression_of(method):
    return '(unsigned long)((const char *(*)(void *))sel_getName)(((void *(*)(void *))method_getName)((void *)%s))' % method

def imgtrace_implementation_expression_of(method):
    return '(unsigned long)((void *(*)(void *))method_getImplementation)((void *)%s)' % method

