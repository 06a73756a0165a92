def imgtrace_frame_method(frame):
    name = frame.name()
    if name is None and frame.pc() in IMGTRACE_RUNTIME_NAMES:
        return IMGTRACE_RUNTIME_NAMES[frame.pc()]
    return imgtrace_method(name)

def imgtrace_has_symbol(symbol):
    try:
        return 'No symbol' not in gdb.execute('info address ' + symbol, to_string=True)
    except gdb.error:
        return False

def imgtrace_implementation_of(cls, class_method, sel, call, read_word, read_string):
    # A call per method (gdb's expressions have no loops): call(expression) -> int (0
    # when it fails); read_word and read_string read memory.
    methods = call(imgtrace_method_list_expression(cls, class_method))
    if methods == 0:
        return 0
    implementation = 0
    try:
        for index in range(65536):
            method = read_word(methods + 8 * index)
            if method == 0:
                break
            name = call(imgtrace_selector_expression_of(method))
            if name and read_string(name) == sel:
                implementation = call(imgtrace_implementation_expression_of(method))
                break
    finally:
        call('(unsigned long)((void (*)(void *))free)((void *)%d)' % methods)
    return implementation

def imgtrace_find_methods():
    lookups = [each for each in imgtrace_runtime_lookups()
               if not any(imgtrace_has_symbol(s) for s in each[4]) and any(imgtrace_has_symbol(c) for c in each[5])]
    if not lookups:
        return
    language = gdb.parameter('language')
    locking = gdb.parameter('scheduler-locking')
    gdb.execute('set scheduler-locking on', to_string=True)
    gdb.execute('set language c', to_string=True)
    def call(expression):
        try:
            return int(gdb.parse_and_eval(expression))
        except gdb.error:
            return 0
    inferior = gdb.selected_inferior()
    def read_word(address):
        try:
            return int.from_bytes(inferior.read_memory(address, 8).tobytes(), 'little')
        except gdb.error:
            return 0
    def read_string(address):
        try:
            return inferior.read_memory(address, 256).tobytes().split(b'\0')[0].decode('utf-8', 'replace')
        except gdb.error:
            return None
    try:
        for name, cls, class_method, sel, _, _ in lookups:
            implementation = imgtrace_implementation_of(cls, class_method, sel, call, read_word, read_string)
            if implementation == 0 or implementation in IMGTRACE_RUNTIME_NAMES:
                continue
            launch_end = name == IMGTRACE_LAUNCH_END
            found = gdb.Breakpoint('*%d' % implementation, temporary=launch_end)
            found.silent = True
            found.commands = 'python %s()\ncontinue' % ('imgtrace_launch_end' if launch_end else 'imgtrace_request')
            if not launch_end:
                IMGTRACE_RUNTIME_NAMES[implementation] = name
    finally:
        gdb.execute('set language ' + language, to_string=True)
        gdb.execute('set scheduler-locking ' + locking, to_string=True)

