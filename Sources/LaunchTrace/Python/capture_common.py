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

