import Foundation

/// The Python the `requests` capture style runs in the debugger (lldb's and gdb's): at each hit
/// it walks the thread's stack and prints only at the outermost image API, one line per request:
/// `[thread] (kind) api: "name"` (docs/capture.md). The API table it carries is `ImageAPIs`,
/// written out, so the script and the reader agree on the call graph.
enum CaptureCallback {
    /// The shared part: the tables, what a frame's function is, and how a name is quoted.
    static func common(_ options: CaptureOptions) -> String {
        let exact = ImageAPIs.table.filter { !$0.prefix }.map { "\(literal($0.symbol)): \(literal($0.kind.rawValue))" }
        let prefixes = ImageAPIs.table.filter(\.prefix).map { "(\(literal($0.symbol)), \(literal($0.kind.rawValue)))" }
        let breaks = options.apis.filter { $0.prefixes.isEmpty }.flatMap(\.symbols) + options.symbols
        let breakPrefixes = options.apis.flatMap(\.prefixes)
        // GCC's symbols for the same methods (GNUstep on Linux), turned back into the table's names.
        let gccNames = ImageAPIs.table.filter { !$0.prefix }.compactMap { api in
            ImageAPIs.gccSymbol(api.symbol).map { "\(literal($0)): \(literal(api.symbol))" }
        }
        let gccPrefixes = ImageAPIs.table.filter(\.prefix).compactMap { api in
            ImageAPIs.gccSymbol(api.symbol).map { "(\(literal($0)), \(literal(api.symbol)))" }
        }
        return """
            import datetime
            import sys
            IMGTRACE_KINDS = {\(exact.joined(separator: ", "))}
            IMGTRACE_KIND_PREFIXES = (\(prefixes.map { $0 + ", " }.joined()))
            IMGTRACE_BREAKS = set([\(breaks.map(literal).joined(separator: ", "))])
            IMGTRACE_BREAK_PREFIXES = (\(breakPrefixes.map { literal($0) + ", " }.joined()))
            IMGTRACE_C_STRINGS = {\(options.symbols.map { "\(literal($0)): \(literal(String(options.nameRegister(of: $0).dropFirst())))" }.joined(separator: ", "))}
            IMGTRACE_REGISTER = \(literal(String(options.arch.register.dropFirst())))
            IMGTRACE_TIMESTAMPS = \(options.timestamps ? "True" : "False")
            IMGTRACE_BACKTRACE = \(options.backtraceFrames)
            IMGTRACE_GCC_NAMES = {\(gccNames.joined(separator: ", "))}
            IMGTRACE_GCC_PREFIXES = (\(gccPrefixes.map { $0 + ", " }.joined()))
            IMGTRACE_LAUNCH_END = \(options.launchEndSymbol.map(literal) ?? "None")

            """ + commonFunctions
    }

    private static let commonFunctions = #"""
        def imgtrace_method(name):
            # A method under GCC's symbol (_c_Class_Category_sel_, or its .cold part) by the
            # table's name; any other name as it is.
            if not name or not name.startswith(('_c_', '_i_')):
                return name
            symbol = name.split('.')[0]
            if symbol in IMGTRACE_GCC_NAMES:
                return IMGTRACE_GCC_NAMES[symbol]
            for gcc, prefix in IMGTRACE_GCC_PREFIXES:
                if symbol.startswith(gcc):
                    return prefix + symbol[len(gcc):].replace('_', ':') + ']'
            return name

        def imgtrace_kind(name):
            kind = IMGTRACE_KINDS.get(name)
            if kind is None:
                for prefix, prefixed in IMGTRACE_KIND_PREFIXES:
                    if name.startswith(prefix):
                        return prefixed
            return kind

        def imgtrace_breaks(name):
            return name in IMGTRACE_BREAKS or name.startswith(IMGTRACE_BREAK_PREFIXES)

        def imgtrace_quote(raw):
            out = bytearray(b'"')
            for byte in raw:
                if byte == 0x5C or byte == 0x22:
                    out += b'\\' + bytes([byte])
                elif byte < 0x20 or byte == 0x7F:
                    out += b'\\x%02x' % byte
                else:
                    out.append(byte)
            out += b'"'
            return out.decode('utf-8', 'backslashreplace')

        def imgtrace_unread(problem):
            return '<unread: %s>' % ' '.join(str(problem).replace('>', ')').split())

        def imgtrace_gnustep_string(read, address):
            # A GNUstep NSString on GCC's runtime, read from memory as the recorder reads it
            # (docs/native-tracer.md §3), so no code runs in the app; None when the object is not
            # one of those classes. A read that fails (not an object, another runtime) is None too.
            try:
                word = lambda at, size=8: int.from_bytes(read(at, size), 'little')
                cls = word(address)
                for _ in range(8):
                    if cls == 0:
                        return None
                    name = read(word(cls + 16), 32).split(b'\0')[0]
                    if name in (b'NSConstantString', b'NXConstantString', b'GSString', b'GSMutableString'):
                        count = word(address + 16, 4)
                        wide = name.startswith(b'GS') and word(address + 20, 4) & 1
                        if count == 0:
                            return b''
                        if count > 1 << 20:
                            return None
                        raw = read(word(address + 8), count * 2 if wide else count)
                        return raw.decode('utf-16-le', 'replace').encode('utf-8') if wide else raw
                    superclass = word(cls + 8)
                    if superclass == cls:
                        return None
                    cls = superclass
            except Exception:
                return None
            return None

        def imgtrace_line(label, kind, api, text):
            line = '[%s] (%s) %s: %s' % (label, kind, api, text)
            if IMGTRACE_TIMESTAMPS:
                line = datetime.datetime.now().strftime('%Y-%m-%d %H:%M:%S.%f')[:-3] + ' ' + line
            print(line)

        """#

    /// lldb: `imgtrace_request` is every breakpoint's callback (`breakpoint command add -F`).
    ///
    /// When several threads stop at image breakpoints at once, lldb runs the commands of the
    /// first and, once an expression has run, skips the others' with `warning: hit breakpoint
    /// while running function, skipping commands`. So the first callback reports every thread
    /// stopped at one of them, evaluates with the other threads held (nothing else runs, nothing
    /// else stops), and says first how many of the warnings to come it covers (`imgtrace-covered N`).
    static func lldb(_ options: CaptureOptions) -> String { common(options) + runtimeMethods + lldbRuntimeMethods + lldbFunctions }

    private static let lldbFunctions = #"""
        imgtrace_state = {'stop': None, 'done': set(), 'nsstring': None}
        # A request lasts from its first image-API entry on a thread until that call returns:
        # thread id -> (canonical frame address at the entry, the return breakpoint's id, the
        # return address, the APIs its tail calls passed).
        imgtrace_open = {}
        imgtrace_closed = []

        def imgtrace_at_image_breakpoint(thread):
            if thread.GetStopReason() != lldb.eStopReasonBreakpoint:
                return False
            return imgtrace_breaks(imgtrace_frame_method(thread.GetFrameAtIndex(0)) or '')

        def imgtrace_request(frame, bp_loc, extra_args, internal_dict):
            # Without a frame (Xcode's action form, where lldb.frame is the selected thread's and
            # not necessarily the stopped one's), every thread stopped at an image breakpoint.
            thread = frame.GetThread() if frame is not None else None
            process = thread.GetProcess() if thread is not None else lldb.process
            stop = process.GetStopID(False)
            if imgtrace_state['stop'] != stop:
                imgtrace_state['stop'] = stop
                imgtrace_state['done'] = set()
            done = imgtrace_state['done']
            if thread is not None and thread.GetIndexID() in done:
                return False
            target = process.GetTarget()
            while imgtrace_closed:
                target.BreakpointDelete(imgtrace_closed.pop())
            # Threads stopped at their request's return in this same stop: their callbacks are
            # skipped once an expression runs, so they are closed here.
            returning = [t for t in process if imgtrace_at_return(t)]
            for each in returning:
                imgtrace_close(each.GetThreadID())
            first = [thread] if thread is not None else []
            others = [t for t in process if t.GetIndexID() not in done and (thread is None or t.GetIndexID() != thread.GetIndexID()) and imgtrace_at_image_breakpoint(t)]
            if thread is None and others:
                first, others = others[:1], others[1:]
            requests = []
            for each in first + others:
                done.add(each.GetIndexID())
                outermost = imgtrace_outermost(each)
                if outermost is not None:
                    requests.append((each, outermost))
                    imgtrace_open_request(each, target)
            # lldb warns as soon as an expression has run: say first what those warnings cover.
            if (others or returning) and any(imgtrace_needs_code(each) for each, _ in requests):
                print('imgtrace-covered %d' % (len(others) + len(returning)))
                sys.stdout.flush()
            for each, (api, kind) in requests:
                imgtrace_report(each, api, kind)
            sys.stdout.flush()
            return False

        def imgtrace_open_request(thread, target):
            # The call returns to its caller's pc: a breakpoint there, for this thread, ends the request.
            caller = thread.GetFrameAtIndex(1)
            if not caller.IsValid():
                return
            returned = target.BreakpointCreateByAddress(caller.GetPC())
            returned.SetThreadID(thread.GetThreadID())
            returned.SetScriptCallbackFunction('imgtrace_returned')
            entry = imgtrace_frame_method(thread.GetFrameAtIndex(0)) or '?'
            imgtrace_open[thread.GetThreadID()] = (thread.GetFrameAtIndex(0).GetCFA(), returned.GetID(), caller.GetPC(), set([entry]))

        def imgtrace_close(key):
            opened = imgtrace_open.pop(key, None)
            if opened is not None:
                imgtrace_closed.append(opened[1])

        def imgtrace_at_return(thread):
            opened = imgtrace_open.get(thread.GetThreadID())
            if opened is None or thread.GetStopReason() != lldb.eStopReasonBreakpoint:
                return False
            # Two threads' returns can share an address: the stop lists every breakpoint there.
            stopped_at = [thread.GetStopReasonDataAtIndex(i) for i in range(0, thread.GetStopReasonDataCount(), 2)]
            if opened[1] not in stopped_at:
                return False
            # The same address reached by a deeper frame (recursion) is not this call's return.
            return thread.GetFrameAtIndex(0).GetSP() >= opened[0]

        def imgtrace_returned(frame, bp_loc, extra_args, internal_dict):
            thread = frame.GetThread()
            if imgtrace_at_return(thread):
                imgtrace_close(thread.GetThreadID())
                bp_loc.GetBreakpoint().SetEnabled(False)
            return False

        def imgtrace_in_open_request(thread):
            # A hit inside the dynamic extent of the thread's open request is part of it: a nested
            # call (deeper), or a tail call, whose caller's frame is gone but whose frame address
            # and return address are the caller's, to an API the chain has not passed (none
            # tail-calls itself). Anything else means the request was left without returning
            # (longjmp, an exception): it is closed and this hit starts anew.
            opened = imgtrace_open.get(thread.GetThreadID())
            if opened is None:
                return False
            frame_address = thread.GetFrameAtIndex(0).GetCFA()
            if frame_address < opened[0]:
                return True
            entry = imgtrace_frame_method(thread.GetFrameAtIndex(0)) or '?'
            if frame_address == opened[0] and thread.GetFrameAtIndex(1).GetPC() == opened[2] and entry not in opened[3]:
                opened[3].add(entry)
                return True
            imgtrace_close(thread.GetThreadID())
            return False

        def imgtrace_outermost(thread):
            # The outermost image API on the stack, or None when the hit belongs to an open request
            # or an outer API with a breakpoint is on the stack (it printed).
            if imgtrace_in_open_request(thread):
                return None
            entry = imgtrace_frame_method(thread.GetFrameAtIndex(0)) or '?'
            api, kind = entry, imgtrace_kind(entry) or 'code'
            for index in range(1, 512):
                caller = thread.GetFrameAtIndex(index)
                if not caller.IsValid():
                    break
                name = imgtrace_frame_method(caller)
                if not name:
                    continue
                if imgtrace_breaks(name):
                    return None
                outer = imgtrace_kind(name)
                if outer:
                    api, kind = name, outer
            return api, kind

        def imgtrace_is_c_string(frame):
            return (frame.GetFunctionName() or '') in IMGTRACE_C_STRINGS

        def imgtrace_needs_code(thread):
            frame = thread.GetFrameAtIndex(0)
            register = frame.FindRegister(IMGTRACE_REGISTER)
            if imgtrace_is_c_string(frame) or not register.IsValid() or register.GetValueAsUnsigned() == 0:
                return False
            return imgtrace_summary(frame, register) is None

        def imgtrace_report(thread, api, kind):
            frame = thread.GetFrameAtIndex(0)
            text = imgtrace_name(frame, imgtrace_is_c_string(frame))
            label = thread.GetName() or thread.GetQueueName() or '#%d' % thread.GetIndexID()
            imgtrace_line(label, kind, api, text)
            # Frame by index: lldb unwinds only as deep as asked, not the whole stack.
            for index in range(IMGTRACE_BACKTRACE):
                each = thread.GetFrameAtIndex(index)
                if not each.IsValid():
                    break
                module = each.GetModule().GetFileSpec().GetFilename() or '?'
                print('    frame #%d: 0x%016x %s`%s' % (each.GetFrameID(), each.GetPC(), module, imgtrace_frame_method(each) or '?'))

        def imgtrace_name(frame, c_string):
            name_register = IMGTRACE_C_STRINGS.get(frame.GetFunctionName() or '', IMGTRACE_REGISTER) if c_string else IMGTRACE_REGISTER
            register = frame.FindRegister(name_register)
            if not register.IsValid():
                return imgtrace_unread('no register ' + name_register)
            address = register.GetValueAsUnsigned()
            if address == 0:
                return 'None'
            if not c_string:
                summary = imgtrace_summary(frame, register)
                if summary is not None:
                    return summary
                # No formatter (not an Apple platform): ask the object, the only way that runs code.
                options = lldb.SBExpressionOptions()
                options.SetStopOthers(True)
                options.SetTryAllThreads(False)
                options.SetIgnoreBreakpoints(True)
                options.SetTimeoutInMicroSeconds(500000)
                value = frame.EvaluateExpression('(const char *)[(id)$%s UTF8String]' % IMGTRACE_REGISTER, options)
                if value.GetError().Fail():
                    return imgtrace_unread(value.GetError().GetCString() or 'the expression failed')
                address = value.GetValueAsUnsigned()
                if address == 0:
                    return 'None'
            raw = imgtrace_memory(frame.GetThread().GetProcess(), address)
            if raw is None:
                return imgtrace_unread('no memory at 0x%x' % address)
            return imgtrace_quote(raw)

        def imgtrace_summary(frame, register):
            # lldb's NSString formatter (Apple platforms) or GNUstep's layout read the object's
            # memory: no code runs in the app.
            process = frame.GetThread().GetProcess()
            if imgtrace_state['nsstring'] is None:
                found = process.GetTarget().FindFirstType('NSString')
                imgtrace_state['nsstring'] = found.GetPointerType() if found.IsValid() else False
            if imgtrace_state['nsstring']:
                summary = register.Cast(imgtrace_state['nsstring']).GetSummary()
                if summary and len(summary) >= 3 and summary.startswith('@"') and summary.endswith('"'):
                    return summary[1:]
            raw = imgtrace_gnustep_string(lambda at, size: imgtrace_read(process, at, size), register.GetValueAsUnsigned())
            return None if raw is None else imgtrace_quote(raw)

        def imgtrace_read(process, address, size):
            error = lldb.SBError()
            chunk = process.ReadMemory(address, size, error)
            if error.Fail() or chunk is None:
                raise ValueError('no memory at 0x%x' % address)
            return chunk

        def imgtrace_memory(process, address):
            raw = b''
            error = lldb.SBError()
            while len(raw) < 65536:
                size = 256 - address % 256
                chunk = process.ReadMemory(address, size, error)
                if error.Fail() or chunk is None:
                    return None
                end = chunk.find(b'\0')
                if end >= 0:
                    return raw + chunk[:end]
                raw += chunk
                address += size
            return raw

        """#

    /// gdb: `imgtrace_request()` runs from every breakpoint's `commands`. A GNUstep string is read
    /// from memory; any other object is asked for its text, the only case where code runs in the
    /// app, with the scheduler locked to the stopped thread so no other thread stops meanwhile
    /// (gdb 13's Objective-C expressions crashed gdb itself on a two-thread GNUstep program).
    static func gdb(_ options: CaptureOptions) -> String { common(options) + runtimeMethods + gdbRuntimeMethods + gdbFunctions }

    /// lldb's launch end, at the launch-end function's return (its first): the breakpoint at its
    /// entry reads the return address from the caller's frame (a tail call's frame is gone, so
    /// the caller's caller: where control returns) and puts a one-shot breakpoint there, on that
    /// thread, that prints the marker. Every capture ends the launch at the same moment.
    static let lldbLaunchEnd = #"""
        def imgtrace_launch_end(frame):
            thread = frame.GetThread()
            caller = thread.GetFrameAtIndex(1)
            if not caller.IsValid() or caller.GetPC() in (0, lldb.LLDB_INVALID_ADDRESS):
                print('\#(LaunchMarker.text)')
                return
            returned = thread.GetProcess().GetTarget().BreakpointCreateByAddress(caller.GetPC())
            returned.SetOneShot(True)
            returned.SetAutoContinue(True)
            returned.SetThreadID(thread.GetThreadID())
            commands = lldb.SBStringList()
            commands.AppendString("script print('\#(LaunchMarker.text)')")
            returned.SetCommandLineCommands(commands)

        """#

    /// gdb's launch end, at the launch-end function's first return, as lldb's.
    static let gdbLaunchEnd = #"""
        class ImgtraceLaunchEnd(gdb.Breakpoint):
            def stop(self):
                if self.enabled:
                    self.enabled = False
                    print('\#(LaunchMarker.text)')
                return False

        def imgtrace_launch_end():
            caller = gdb.newest_frame().older()
            if caller is None:
                print('\#(LaunchMarker.text)')
                return
            returned = ImgtraceLaunchEnd('*%d' % caller.pc(), internal=True)
            returned.thread = gdb.selected_thread().num

        """#

    private static let gdbFunctions = #"""
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

        """#

    /// A Python string literal in single quotes. The symbols it holds are checked
    /// (`CaptureScript.unsafeSymbol`) or the table's own.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
