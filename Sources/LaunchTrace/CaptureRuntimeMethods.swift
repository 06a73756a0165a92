/// Breakpoints on Objective-C methods that have no symbol. A stripped library (Debian's
/// libgnustep-gui) keeps no name for its methods, so a breakpoint by name stays pending and
/// the capture logs nothing. At `main` every class of the linked libraries is registered:
/// the Objective-C runtime gives each method's implementation, and a breakpoint there runs
/// the same callback, its frame named back by address. Only a method no symbol names is
/// looked up (on Apple platforms none is), so a symbolled library sees no call at all.
extension CaptureCallback {
    /// Shared by both debuggers: which methods to look up, and the expressions that do it.
    static let runtimeMethods = #"""
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

        """#

    /// lldb: `imgtrace_find_methods(frame)` from a one-shot breakpoint at `main`.
    static let lldbRuntimeMethods = #"""
        def imgtrace_frame_method(frame):
            if IMGTRACE_RUNTIME_NAMES:
                if frame.GetPC() in IMGTRACE_RUNTIME_NAMES:
                    return IMGTRACE_RUNTIME_NAMES[frame.GetPC()]
                symbol = frame.GetSymbol()
                if symbol.IsValid():
                    start = symbol.GetStartAddress().GetLoadAddress(frame.GetThread().GetProcess().GetTarget())
                    if start in IMGTRACE_RUNTIME_NAMES:
                        return IMGTRACE_RUNTIME_NAMES[start]
            return imgtrace_method(frame.GetFunctionName())

        def imgtrace_defined(target, symbol):
            for context in target.FindSymbols(symbol):
                if context.GetSymbol().GetStartAddress().GetLoadAddress(target) != lldb.LLDB_INVALID_ADDRESS:
                    return True
            return False

        def imgtrace_find_methods(frame):
            target = frame.GetThread().GetProcess().GetTarget()
            lookups = [each for each in imgtrace_runtime_lookups()
                       if not any(imgtrace_defined(target, s) for s in each[4]) and any(imgtrace_defined(target, c) for c in each[5])]
            if not lookups:
                return
            options = lldb.SBExpressionOptions()
            options.SetStopOthers(True)
            options.SetTryAllThreads(False)
            options.SetIgnoreBreakpoints(True)
            options.SetTimeoutInMicroSeconds(500000)
            def call(expression):
                value = frame.EvaluateExpression(expression, options)
                return 0 if value.GetError().Fail() else value.GetValueAsUnsigned()
            for name, cls, class_method, sel, _, _ in lookups:
                # One expression walks the list: lldb compiles each expression, ~10 ms apiece.
                implementation = call(
                    'void **imgtrace_m = (void **)%s; unsigned long imgtrace_imp = 0; '
                    'for (unsigned long i = 0; imgtrace_m && imgtrace_m[i]; i++) '
                    'if (((int (*)(const char *, const char *))strcmp)((const char *)%s, "%s") == 0) { imgtrace_imp = %s; break; } '
                    'if (imgtrace_m) ((void (*)(void *))free)(imgtrace_m); imgtrace_imp'
                    % (imgtrace_method_list_expression(cls, class_method), imgtrace_selector_expression_of('imgtrace_m[i]'), sel,
                       imgtrace_implementation_expression_of('imgtrace_m[i]')))
                if implementation == 0 or implementation in IMGTRACE_RUNTIME_NAMES:
                    continue
                found = target.BreakpointCreateByAddress(implementation)
                found.SetAutoContinue(True)
                if name == IMGTRACE_LAUNCH_END:
                    found.SetOneShot(True)
                    commands = lldb.SBStringList()
                    commands.AppendString('script imgtrace_launch_end(lldb.frame)')
                    found.SetCommandLineCommands(commands)
                    continue
                IMGTRACE_RUNTIME_NAMES[implementation] = name
                found.SetScriptCallbackFunction('imgtrace_request')

        """#

    /// gdb: `imgtrace_find_methods()` from a temporary breakpoint at `main`.
    static let gdbRuntimeMethods = #"""
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

        """#
}
