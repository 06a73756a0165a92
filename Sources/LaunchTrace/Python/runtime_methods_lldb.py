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

