import Dispatch

/// `transform` of every element, computed on every core, returned in the elements' order (so
/// output never depends on which thread finished first).
///
/// `transform` runs on several threads at once: it may read what it captures, never write it.
/// Each thread takes a run of neighbouring elements and writes only the results of its run; the
/// results are read once every thread has finished (`concurrentPerform` returns then), which is
/// why the pointers may cross threads unchecked. For work that reads files or parses text, where
/// one element costs microseconds or more.
package func parallelMap<Element, Result>(_ elements: [Element], _ transform: (Element) -> Result) -> [Result] {
    let count = elements.count
    guard count > 1 else { return elements.map(transform) }
    // Dispatch runs a thread per core; many short runs keep a run of slow elements (large files)
    // on one thread from leaving the others idle.
    let runs = min(count, 64)
    return [Result](unsafeUninitializedCapacity: count) { buffer, initialized in
        nonisolated(unsafe) let results = buffer.baseAddress!
        nonisolated(unsafe) let transform = transform
        elements.withUnsafeBufferPointer { elements in
            nonisolated(unsafe) let source = elements
            DispatchQueue.concurrentPerform(iterations: runs) { run in
                let start = count * run / runs, end = count * (run + 1) / runs
                for index in start..<end { (results + index).initialize(to: transform(source[index])) }
            }
        }
        initialized = count
    }
}
