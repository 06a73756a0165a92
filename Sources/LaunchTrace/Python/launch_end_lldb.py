def imgtrace_launch_end(frame):
    thread = frame.GetThread()
    caller = thread.GetFrameAtIndex(1)
    if not caller.IsValid() or caller.GetPC() in (0, lldb.LLDB_INVALID_ADDRESS):
        print('@IMGTRACE_LAUNCH_MARKER@')
        return
    returned = thread.GetProcess().GetTarget().BreakpointCreateByAddress(caller.GetPC())
    returned.SetOneShot(True)
    returned.SetAutoContinue(True)
    returned.SetThreadID(thread.GetThreadID())
    commands = lldb.SBStringList()
    commands.AppendString("script print('@IMGTRACE_LAUNCH_MARKER@')")
    returned.SetCommandLineCommands(commands)

