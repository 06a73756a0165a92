/// How imgtrace's recordings name a thread, written by both recorders (`record` and `record
/// --agent`) and read back here: the main thread by its name alone (`main` when it has none),
/// every other thread by its name and its id (`worker 4242`, `thread 4243`). A reader knows the
/// main thread by that shape; lldb's own logs number it `#1`.
public enum ThreadLabel {
    /// The label of thread `tid` of process `pid`, named `name` (its `comm`; empty when unknown).
    /// A main thread whose own name ends in a number (`loader 2`) is written `loader 2 (main)`,
    /// so that `isMain` reads every label this writes as it was meant.
    public static func label(name: String, tid: Int32, pid: Int32) -> String {
        guard tid == pid else { return "\(name.isEmpty ? "thread" : name) \(tid)" }
        if name.isEmpty { return "main" }
        return isMain(name) ? name : name + " (main)"
    }

    /// Whether `label` names the main thread: a label without an id after its name, lldb's `#1`,
    /// or none at all (a log that names no thread is one thread's).
    public static func isMain(_ label: String?) -> Bool {
        guard let label, !label.isEmpty else { return true }
        if label.hasPrefix("#") { return label == "#1" }
        guard let space = label.lastIndex(of: " ") else { return true }
        let tail = label[label.index(after: space)...]
        return tail.isEmpty || !tail.allSatisfy(\.isASCII) || !tail.allSatisfy(\.isNumber)
    }
}
