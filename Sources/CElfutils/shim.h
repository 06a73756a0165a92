// libelf and libdw (elfutils), for the native tracer: Linux only.
#include <libelf.h>
#include <gelf.h>
#include <elfutils/libdwfl.h>
