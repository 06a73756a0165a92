// The agent's parts that share nothing with the rest: copying from an address the program
// handed over (untrusted_copy.c) and reading Objective-C type encodings (type_encoding.c). Hidden:
// the program sees none of these symbols.
#ifndef IMGTRACE_AGENT_PARTS_H
#define IMGTRACE_AGENT_PARTS_H

#include <stddef.h>

#define AGENT_HIDDEN __attribute__((visibility("hidden")))

/// Copies up to `count` bytes at `from`, an address the program handed over, without trusting it:
/// the kernel reads it (unless the page was proven readable lately), so an unmapped or unreadable
/// address is a short count, never a fault on the program's thread. Page by page, so a `string`
/// (it ends at its NUL) ending before an unmapped page is read whole. Returns the bytes copied.
AGENT_HIDDEN size_t copy_untrusted(char *to, const char *from, size_t count, int string);

/// Whether a method of this Objective-C type encoding can be wrapped (`needs_name`: its first
/// argument must be the name, an object; `trampolines`: every argument travels untouched, else
/// only pointers and integers do); `reason` says why not.
AGENT_HIDDEN int encoding_fits(const char *encoding, int needs_name, int trampolines, const char **reason);

#endif
