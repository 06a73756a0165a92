/// The name table and the per-name tallies as one value, so they cannot fall out of step:
/// every interned name gets its tally at the moment it gets its id, whether or not a hit is
/// ever delivered with it (a value can be interned and then rejected).
struct NameStatistics {
    private var table = NameTable()
    private var tallies: [Tally] = []

    private struct Tally {
        var firstLine = 0
        var count = 0
        var launchCount = 0
        var apis: [String] = []
    }

    /// The id of the name with these bytes, adding it (with an empty tally) when new.
    mutating func intern(_ base: UnsafePointer<UInt8>, _ count: Int) -> Int {
        let id = table.intern(base, count)
        if id == tallies.count { tallies.append(Tally()) }
        return id
    }

    mutating func intern(_ bytes: [UInt8]) -> Int {
        let id = table.intern(bytes)
        if id == tallies.count { tallies.append(Tally()) }
        return id
    }

    func string(_ id: Int) -> String { table.strings[id] }
    func isValidUTF8(_ id: Int) -> Bool { table.valid[id] }

    /// Counts one delivered hit of the name.
    mutating func record(_ id: Int, line: Int, inLaunch: Bool, api: String?) {
        if tallies[id].count == 0 { tallies[id].firstLine = line }
        tallies[id].count += 1
        if inLaunch { tallies[id].launchCount += 1 }
        if let api, tallies[id].apis.last != api, !tallies[id].apis.contains(api) { tallies[id].apis.append(api) }
    }

    /// One tally per name that was delivered at least once, in byte order of the names.
    func summary() -> [NameTally] {
        var out: [NameTally] = []
        for id in tallies.indices where tallies[id].count > 0 {
            let tally = tallies[id]
            out.append(
                NameTally(
                    name: table.strings[id], count: tally.count, launchCount: tally.launchCount,
                    firstLine: tally.firstLine, apis: tally.apis.sorted()))
        }
        out.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return out
    }
}
