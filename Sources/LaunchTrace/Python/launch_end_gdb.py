class ImgtraceLaunchEnd(gdb.Breakpoint):
    def stop(self):
        if self.enabled:
            self.enabled = False
            print('@IMGTRACE_LAUNCH_MARKER@')
        return False

def imgtrace_launch_end():
    caller = gdb.newest_frame().older()
    if caller is None:
        print('@IMGTRACE_LAUNCH_MARKER@')
        return
    returned = ImgtraceLaunchEnd('*%d' % caller.pc(), internal=True)
    returned.thread = gdb.selected_thread().num

