# A request lasts from its first image-API entry on a thread until that call returns:
# gdb thread number -> (the caller's stack pointer at the entry, the return breakpoint,
# the return address, the APIs its tail calls passed).
imgtrace_open = {}
imgtrace_closed = []

class ImgtraceReturn(gdb.Breakpoint):
    # The return of a request's first call, on its thread. gdb allows no breakpoint to
    # be deleted here: it is deleted at the next request.
    def stop(self):
        thread = gdb.selected_thread().num
        opened = imgtrace_open.get(thread)
        # The same address reached by a deeper frame (recursion) is not this call's return.
        if opened is not None and opened[1] is self and int(gdb.parse_and_eval('(unsigned long)$sp')) >= opened[0]:
            del imgtrace_open[thread]
            imgtrace_closed.append(self)
        return False

def imgtrace_request():
    while imgtrace_closed:
        imgtrace_closed.pop().delete()
    frame = gdb.selected_frame()
    entry = imgtrace_frame_method(frame) or '?'
    thread = gdb.selected_thread()
    # gdb breaks in a function's PLT stub and in the function: the stub's jump, like any
    # tail call, reaches the function with the caller's stack, inside the open request.
    try:
        caller = frame.older()
        frame_address = int(caller.read_register('sp'))
        return_address = caller.pc()
    except (gdb.error, AttributeError):
        caller, frame_address, return_address = None, None, None
    opened = imgtrace_open.get(thread.num)
    if opened is not None and frame_address is not None:
        # A tail call (a PLT stub's jump among them) keeps the frame and the return address
        # and goes to an API the chain has not passed; a stub and its function differ by name.
        if frame_address < opened[0]:
            return
        if frame_address == opened[0] and return_address == opened[2] and entry not in opened[3]:
            opened[3].add(entry)
            return
        # Left without returning (longjmp, an exception): a new request starts here.
        del imgtrace_open[thread.num]
        imgtrace_closed.append(opened[1])
    if entry.endswith('@plt'):
        entry = entry[:-4]
    api, kind = entry, imgtrace_kind(entry) or 'code'
    try:
        depth = 0
        while caller is not None and depth < 512:
            name = imgtrace_frame_method(caller)
            if name and not name.endswith('@plt'):
                if imgtrace_breaks(name):
                    return
                outer = imgtrace_kind(name)
                if outer:
                    api, kind = name, outer
            caller = caller.older()
            depth += 1
    except gdb.error:
        pass
    if frame_address is not None:
        returned = ImgtraceReturn('*%d' % return_address, internal=True)
        returned.thread = thread.num
        imgtrace_open[thread.num] = (frame_address, returned, return_address, set([imgtrace_frame_method(frame) or '?']))
    imgtrace_line(thread.name or '#%d' % thread.num, kind, api, imgtrace_name(entry in IMGTRACE_C_STRINGS, IMGTRACE_C_STRINGS.get(entry, IMGTRACE_REGISTER)))
    if IMGTRACE_BACKTRACE > 0:
        gdb.execute('bt %d' % IMGTRACE_BACKTRACE)

def imgtrace_name(c_string, name_register=IMGTRACE_REGISTER):
    try:
        address = int(gdb.parse_and_eval('(unsigned long)$' + name_register))
    except gdb.error as error:
        return imgtrace_unread(error)
    if address == 0:
        return 'None'
    if not c_string:
        raw = imgtrace_gnustep_string(lambda at, size: gdb.selected_inferior().read_memory(at, size).tobytes(), address)
        if raw is not None:
            return imgtrace_quote(raw)
        address, problem = imgtrace_utf8(address)
        if address is None:
            return imgtrace_unread(problem)
        if address == 0:
            return 'None'
    raw = b''
    while len(raw) < 65536:
        size = 256 - address % 256
        try:
            chunk = gdb.selected_inferior().read_memory(address, size).tobytes()
        except gdb.error as error:
            return imgtrace_unread(error)
        end = chunk.find(b'\0')
        if end >= 0:
            return imgtrace_quote(raw + chunk[:end])
        raw += chunk
        address += size
    return imgtrace_quote(raw)

def imgtrace_utf8(address):
    expressions = [
        ('objective-c', '(unsigned long)[(void *)%d UTF8String]' % address),
        ('c', '(unsigned long)((const char *(*)(void *, void *))objc_msgSend)((void *)%d, ((void *(*)(const char *))sel_registerName)("UTF8String"))' % address),
    ]
    language = gdb.parameter('language')
    locking = gdb.parameter('scheduler-locking')
    problem = 'no Objective-C runtime'
    gdb.execute('set scheduler-locking on', to_string=True)
    try:
        for dialect, expression in expressions:
            gdb.execute('set language ' + dialect, to_string=True)
            try:
                return int(gdb.parse_and_eval(expression)), None
            except gdb.error as error:
                problem = error
    finally:
        gdb.execute('set language ' + language, to_string=True)
        gdb.execute('set scheduler-locking ' + locking, to_string=True)
    return None, problem

