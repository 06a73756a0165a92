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

