/// A minimal x86-64 shared object built in code: one load segment holding read-only data and
/// GCC-runtime Objective-C metadata (docs/native-tracer.md §3), its pointers as
/// `R_X86_64_RELATIVE` relocations, the runtime's entry as a symbol, and the section headers
/// libelf needs to find them. Fuzz
/// seeds and tests start from it; the hostile variants put the method list or the class where
/// sums on them would wrap.
public enum ElfWriter {
    /// A library whose metaclass `className` lists `selector` at implementation `implementation`;
    /// `methodList` overrides the metaclass's method-list pointer (a hostile value, unrelocated).
    public static func objcLibrary(
        className: String = "NSImage", selector: String = "imageNamed:", implementation: UInt64 = 0x1000, methodList: UInt64? = nil
    ) -> [UInt8] {
        let base: UInt64 = 0x0
        // Layout of the one segment (file offset == address): header, strings, metadata, relocations.
        let stringsAt: UInt64 = 0x100
        var strings: [UInt8] = [0] + Array(className.utf8) + [0]
        let selectorAt = stringsAt + UInt64(strings.count)
        strings += Array(selector.utf8) + [0]
        let typesAt = stringsAt + UInt64(strings.count)
        strings += Array("@24@0:8@16".utf8) + [0]
        let classNameAt = stringsAt + 1
        let metaclassAt = (stringsAt + UInt64(strings.count) + 15) & ~7
        let listAt = metaclassAt + 0x40
        let relaAt = listAt + 0x40
        var data = [UInt8](repeating: 0, count: Int(relaAt))
        func put(_ value: UInt64, at: UInt64) {
            for i in 0..<8 { data[Int(at) + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))) }
        }
        data.replaceSubrange(Int(stringsAt)..<Int(stringsAt) + strings.count, with: strings)
        // Metaclass: name +16, info +32 (2 = metaclass), methods +56.
        put(2, at: metaclassAt + 32)
        put(methodList ?? 0, at: metaclassAt + 56)
        // Method list: next 0, count 1, one entry (name, types, imp).
        put(1, at: listAt + 8)
        var relocations: [(place: UInt64, target: UInt64)] = [(metaclassAt + 16, classNameAt), (listAt + 16, selectorAt), (listAt + 24, typesAt)]
        relocations.append((listAt + 32, implementation))
        if methodList == nil { relocations.append((metaclassAt + 56, listAt)) }
        var rela: [UInt8] = []
        for relocation in relocations { rela += le64(relocation.place) + le64(8) + le64(relocation.target) }  // type 8: R_X86_64_RELATIVE
        data += rela
        let shstrtab: [UInt8] = [0] + Array(".rela.dyn".utf8) + [0] + Array(".shstrtab".utf8) + [0] + Array(".symtab".utf8) + [0] + Array(".strtab".utf8) + [0]
        let shstrtabAt = UInt64(data.count)
        data += shstrtab
        // As every object GCC compiles with Objective-C metadata, it names the runtime's
        // `__objc_exec_class` (an undefined global function).
        let strtab: [UInt8] = [0] + Array("__objc_exec_class".utf8) + [0]
        let strtabAt = UInt64(data.count)
        data += strtab
        while data.count % 8 != 0 { data.append(0) }
        let symtabAt = UInt64(data.count)
        data += [UInt8](repeating: 0, count: 24)
        data += le32(1) + [0x12, 0] + le16(0) + le64(0) + le64(0)
        let sectionsAt = UInt64(data.count)
        let fileSize = sectionsAt + 5 * 64
        // ELF header.
        var header: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0] + [UInt8](repeating: 0, count: 8)
        header += le16(3) + le16(62) + le32(1) + le64(base) + le64(64) + le64(sectionsAt)  // ET_DYN, x86-64
        header += le32(0) + le16(64) + le16(56) + le16(1) + le16(64) + le16(5) + le16(2)
        // One PT_LOAD covering the file, read-write (strings are searched in data segments).
        header += le32(1) + le32(6) + le64(0) + le64(base) + le64(base) + le64(fileSize) + le64(fileSize) + le64(0x1000)
        data.replaceSubrange(0..<header.count, with: header)
        // Section headers: null, .rela.dyn, .shstrtab.
        data += [UInt8](repeating: 0, count: 64)
        data += le32(1) + le32(4) + le64(2) + le64(relaAt) + le64(relaAt) + le64(UInt64(rela.count)) + le32(0) + le32(0) + le64(8) + le64(24)
        data += le32(11) + le32(3) + le64(0) + le64(0) + le64(shstrtabAt) + le64(UInt64(shstrtab.count)) + le32(0) + le32(0) + le64(1) + le64(0)
        // .symtab (linked to .strtab, section 4; its first global symbol is entry 1), .strtab.
        data += le32(21) + le32(2) + le64(0) + le64(0) + le64(symtabAt) + le64(48) + le32(4) + le32(1) + le64(8) + le64(24)
        data += le32(29) + le32(3) + le64(0) + le64(0) + le64(strtabAt) + le64(UInt64(strtab.count)) + le32(0) + le32(0) + le64(1) + le64(0)
        return data
    }

}
