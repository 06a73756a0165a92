// libImgtraceAgent has no API of its own: loaded into a program with LD_PRELOAD (or
// DYLD_INSERT_LIBRARIES) by `imgtrace record --agent`, its constructor reads IMGTRACE_AGENT_FD
// and IMGTRACE_AGENT_APIS and wraps the image APIs; without them it does nothing.
#ifndef IMGTRACE_AGENT_H
#define IMGTRACE_AGENT_H
#endif
