// Objective-C type encodings: whether a method's arguments and result travel the way a wrapper
// passes them on.
#include "agent_parts.h"

#include <string.h>

/// Skips one type of an Objective-C type encoding (and the offset digits after it). Sets `*fits`
/// to 0 for a type that does not travel in one integer register: floats, structs, unions, arrays.
static const char *skip_type(const char *p, int *fits) {
    while (*p && strchr("rnNoORVA", *p)) p++;
    switch (*p) {
    case '\0': return p;
    case '^': {
        int ignored = 1;
        p = skip_type(p + 1, &ignored);  // a pointer fits whatever it points at
        break;
    }
    case '@':
        p++;
        if (*p == '?') p++;
        else if (*p == '"') {
            const char *end = strchr(p + 1, '"');
            p = end ? end + 1 : p + strlen(p);
        }
        break;
    case '{': case '(': case '[': {
        char open = *p, close = open == '{' ? '}' : open == '(' ? ')' : ']';
        int level = 0;
        for (; *p; p++) {
            if (*p == open) level++;
            else if (*p == close && --level == 0) { p++; break; }
        }
        *fits = 0;
        break;
    }
    case 'f': case 'd': case 'D': case 'b':
        *fits = 0;
        p++;
        if (p[-1] == 'b') while (*p >= '0' && *p <= '9') p++;
        break;
    default:
        p++;
    }
    while (*p >= '0' && *p <= '9') p++;
    return p;
}

// The trampolines pass any argument on: a struct result is refused (a large one is returned
// through a hidden first argument, which moves the name), and the name must be an object. The C
// wrappers need a pointer, integer or void result and self, _cmd and at most four pointer or
// integer arguments.
int encoding_fits(const char *encoding, int needs_name, int trampolines, const char **reason) {
    int fits = 1;
    const char *p = skip_type(encoding, &fits);
    if (!fits && (trampolines == 0 || *encoding == '{' || *encoding == '(' || *encoding == '[')) {
        *reason = trampolines ? "its result is a struct" : "its result is a float or a struct";
        return 0;
    }
    int arguments = 0;
    while (*p) {
        int one = 1;
        const char *next = skip_type(p, &one);
        if (next == p) break;
        if (!one && !trampolines) { *reason = "an argument is a float or a struct"; return 0; }
        if (arguments == 2 && needs_name && *p != '@') { *reason = "its first argument is not an object"; return 0; }
        arguments++;
        p = next;
    }
    if (arguments > 6 && !trampolines) { *reason = "it takes more than four arguments"; return 0; }
    if (needs_name && arguments < 3) { *reason = "it takes no name argument"; return 0; }
    return 1;
}

