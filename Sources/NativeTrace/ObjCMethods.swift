#if os(Linux)
    /// Finds Objective-C methods in a library built for GCC's Objective-C runtime (`libobjc.so.4`,
    /// Debian's GNUstep), where a method is a static function with no symbol: its address is in the
    /// class metadata (docs/native-tracer.md §2).
    ///
    /// A class structure (8-byte fields): metaclass +0, superclass +8, name +16, version +24, info
    /// +32 (`0x1` class, `0x2` metaclass), instance size +40, ivars +48, methods +56. Class methods
    /// are in the metaclass's method list. A method list: next +0, count (int32) +8, then 24-byte
    /// entries from +16: selector name +0, types +8, implementation +16. In a position-independent
    /// library each of those pointers is a relative relocation, read through `ElfImage.word(at:)`.
    public enum ObjCMethods {
        /// Lists followed per class before giving up (categories chain more lists; a cycle must end).
        static let maxLists = 64
        /// Entries read per list: real lists hold a few hundred at most.
        static let maxEntries = 1 << 16

        /// A method found in the metadata.
        public struct Method: Equatable, Sendable {
            /// `+[NSImage imageNamed:]`.
            public var name: String
            /// Link-time address of its implementation; add the load bias for the run-time one.
            public var implementation: UInt64
        }

        /// The implementation of `+[className selector]` (or `-[…]` when `classMethod` is false) in
        /// `image`, when its metadata holds the class.
        public static func find(className: String, selector: String, classMethod: Bool, in image: ElfImage) -> Method? {
            let name = "\(classMethod ? "+" : "-")[\(className) \(selector)]"
            return find([name], in: image)[name].map { Method(name: name, implementation: $0) }
        }

        /// The implementations of every method of `names` (`+[Class selector]`) that `image`'s
        /// metadata holds, by name, in one pass over its relocations (a pass per method cost the
        /// recorder seconds of a launch once it looked for every API of the call graph).
        public static func find(_ names: [String], in image: ElfImage) -> [String: UInt64] {
            // Searching every library's bytes for every class name was half of `record`'s work
            // during Gridlock's launch; only a library with GCC Objective-C metadata can hold one.
            guard image.hasObjCMetadata else { return [:] }
            var wanted: [UInt64: [(name: String, selector: String, info: UInt64)]] = [:]
            var classPointers: [String: [UInt64]] = [:]
            for name in Set(names) {
                guard let parts = parse(name) else { continue }
                if classPointers[parts.className] == nil { classPointers[parts.className] = image.addresses(ofString: parts.className) }
                for pointer in classPointers[parts.className] ?? [] {
                    wanted[pointer, default: []].append((name, parts.selector, parts.classMethod ? 0x2 : 0x1))
                }
            }
            guard !wanted.isEmpty else { return [:] }
            var found: [String: UInt64] = [:]
            for (field, target) in image.relativePointers where field >= 16 {
                guard let methods = wanted[target] else { continue }
                let structure = field - 16
                guard let info = structure.checkedAdding(32).flatMap(image.word) else { continue }
                let here = methods.filter { $0.info == info & 0x3 && found[$0.name] == nil }
                guard !here.isEmpty else { continue }
                forEachMethod(listAt: structure.checkedAdding(56).flatMap(image.word), in: image) { selector, implementation in
                    for method in here where method.selector == selector && found[method.name] == nil { found[method.name] = implementation }
                    return here.allSatisfy { found[$0.name] != nil }
                }
            }
            return found
        }

        /// Every method the metadata lists, for naming addresses inside static methods (frames).
        ///
        /// A structure counts as a class only when all of it is consistent: its flags are exactly a
        /// class's or a metaclass's, its instance size is plausible, its name is an identifier, and
        /// every entry of every method list names a selector and points into executable code. Any
        /// pointer that happens to sit 16 bytes into some other structure is not a class: a name
        /// made of a type encoding or a selector of stray bytes (`+[#16@0:8 awakeFromNib]`,
        /// `-[hasMenu @O+]`) is worse than no name.
        public static func all(in image: ElfImage) -> [Method] {
            guard image.hasObjCMetadata else { return [] }
            var out: [Method] = []
            var seen = Set<UInt64>()
            for (field, target) in image.relativePointers where field >= 16 {
                let structure = field - 16
                guard seen.insert(structure).inserted, let info = structure.checkedAdding(32).flatMap(image.word), info == 1 || info == 2,
                    let size = structure.checkedAdding(40).flatMap(image.word), size > 0, size < 1 << 24,
                    let className = image.string(at: target, limit: 256), isIdentifier(className, colons: false)
                else { continue }
                let sign = info == 2 ? "+" : "-"
                var methods: [Method] = []
                var consistent = true
                forEachMethod(listAt: structure.checkedAdding(56).flatMap(image.word), in: image, everyEntry: true) { selector, implementation in
                    guard let selector, let implementation, isIdentifier(selector, colons: true),
                        image.segments.contains(where: { $0.executable && implementation >= $0.address && implementation - $0.address < $0.memorySize })
                    else {
                        consistent = false
                        return true
                    }
                    methods.append(Method(name: "\(sign)[\(className) \(selector)]", implementation: implementation))
                    return false
                }
                if consistent { out += methods }
            }
            return out
        }

        /// `[A-Za-z_$][A-Za-z0-9_$]*`, and with `colons` a selector's `:` too (not first).
        static func isIdentifier(_ text: String, colons: Bool) -> Bool {
            var first = true
            for byte in text.utf8 {
                let letter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte == 0x24
                let digit = byte >= 0x30 && byte <= 0x39
                guard letter || (!first && (digit || (colons && byte == 0x3A))) else { return false }
                first = false
            }
            return !first
        }

        /// Calls `body` with each selector and implementation of the method lists chained from
        /// `first` until it returns true. Bounded by `maxLists` and `maxEntries`; a list whose names
        /// stop being readable is left for the next, unless `everyEntry` asks to be told (nil) of an
        /// entry that cannot be read.
        private static func forEachMethod(listAt first: UInt64?, in image: ElfImage, everyEntry: Bool = false, _ body: (String?, UInt64?) -> Bool) {
            var list = first
            var visited = Set<UInt64>()
            while let at = list, at != 0, visited.count < maxLists, visited.insert(at).inserted {
                let count = Int(min(at.checkedAdding(8).flatMap(image.word32) ?? 0, UInt32(maxEntries)))
                for index in 0..<count {
                    guard let entry = at.checkedAdding(index, stride: 24, plus: 16), let namePointer = image.word(at: entry),
                        let name = image.string(at: namePointer, limit: 1024)
                    else {
                        if everyEntry, body(nil, nil) { return }
                        break
                    }
                    let implementation = entry.checkedAdding(16).flatMap(image.word)
                    if everyEntry || (implementation ?? 0) != 0, body(name, implementation) { return }
                }
                list = image.word(at: at)
            }
        }

        /// Splits `+[Class selector]` / `-[Class selector]` into its parts.
        public static func parse(_ text: String) -> (className: String, selector: String, classMethod: Bool)? {
            guard text.count > 5, let sign = text.first, sign == "+" || sign == "-", text.dropFirst().hasPrefix("["), text.hasSuffix("]") else {
                return nil
            }
            let inner = text.dropFirst(2).dropLast()
            let parts = inner.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
            return (String(parts[0]), String(parts[1]), sign == "+")
        }
    }
#endif
