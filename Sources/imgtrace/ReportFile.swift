import ArgumentParser
import ImgtraceSupport
import LaunchAudit
import Reporters

/// Writes a report to standard output, or to a file that appears only when complete.
enum ReportFile {
    /// The name write errors on standard output are reported under.
    static let standardOutputName = "standard output"

    /// Runs `body` with a sink for `path` (standard output when nil or `-`) guarded for
    /// `consumer`. A file is written beside its final name and renamed into place only when
    /// every byte reached the disk, so a failed run (a full disk included) leaves no partial
    /// output behind and exits 2. An output that is a symbolic link is written through: the
    /// link stays and its target gets the report. A new file gets the mode `umask` allows; a
    /// file replaced keeps its mode.
    static func write(to path: String?, for consumer: OutputConsumer, colour: Bool = false, _ body: (ByteSink) throws -> Void) throws {
        guard let path, path != "-" else {
            let sink = ByteSink(consumer: consumer, colour: colour)
            try body(sink)
            try finishStandardOutput(sink)
            return
        }
        let target = OutputTargets.destination(of: path)
        var template = Array((PathText.directory(target) + "/.imgtrace-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw InputError(path: path, reason: "cannot create the output file: \(String(cString: strerror(errno)))")
        }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var open = true
        do {
            let sink = ByteSink(fd: fd, consumer: consumer)
            try body(sink)
            do { try sink.finish() } catch {
                throw InputError(path: path, reason: "cannot write the output file: \(error)")
            }
            fchmod(fd, OutputTargets.mode(replacing: target))
            open = false
            guard close(fd) == 0 else {
                throw InputError(path: path, reason: "cannot write the output file: \(String(cString: strerror(errno)))")
            }
            guard rename(temporary, target) == 0 else {
                throw InputError(path: path, reason: "cannot write the output file: \(String(cString: strerror(errno)))")
            }
        } catch {
            if open { close(fd) }
            unlink(temporary)
            throw error
        }
    }

    /// Flushes a standard-output sink; a failed write (`> /dev/full`, a closed pipe) exits 2.
    static func finishStandardOutput(_ sink: ByteSink) throws {
        do { try sink.finish() } catch {
            throw InputError(path: standardOutputName, reason: "cannot write: \(error)")
        }
    }

    /// Appends `bytes` to an existing file (GitHub's job summary) through the same checked path:
    /// a file that cannot be opened or written exits 2.
    static func append(_ bytes: [UInt8], to path: String, consumer: OutputConsumer) throws {
        let fd = PlatformIO.openForAppending(path)
        guard fd >= 0 else {
            throw InputError(path: path, reason: "cannot append: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let sink = ByteSink(fd: fd, consumer: consumer)
        sink.write(bytes)
        do { try sink.finish() } catch {
            throw InputError(path: path, reason: "cannot append: \(error)")
        }
    }
}

/// The files a run writes, checked before anything is read: none may be one of the run's
/// inputs (by device and inode, through links), and no two may be the same file. Inputs are
/// the only copy of a capture or the committed baseline; a typo must not destroy them.
enum OutputTargets {
    /// Exits 64 with one line when an output is an input or two outputs are one file.
    /// `outputs` are (option, path) pairs; standard output (`nil`, `-`) is never a clash.
    static func check(outputs: [(option: String, path: String?)], inputs: [(what: String, path: String)]) throws {
        var seen: [(option: String, path: String, key: String)] = []
        for (option, path) in outputs {
            guard let path, path != "-" else { continue }
            let key = identityKey(path)
            let existing = PlatformIO.fileIdentity(path).map(identityString)
            if let existing, let input = inputs.first(where: { $0.path != "-" && PlatformIO.fileIdentity($0.path).map(identityString) == existing }) {
                throw usage("\(option) \(SafeText.visible(path)) is the \(input.what) \(SafeText.visible(input.path)): refusing to overwrite an input")
            }
            if existing != nil, let (input, inside) = enclosingInput(of: path, inputs) {
                throw usage(
                    "\(option) \(SafeText.visible(path)) is \(SafeText.visible(inside)) in the \(input.what) \(SafeText.visible(input.path)), which this run reads: refusing to overwrite an input"
                )
            }
            if let earlier = seen.first(where: { $0.key == key }) {
                throw usage("\(option) \(SafeText.visible(path)) is the same file as \(earlier.option) \(SafeText.visible(earlier.path)): give each report its own file")
            }
            if PlatformIO.isDanglingLink(path) {
                throw usage("\(option) \(SafeText.visible(path)) is a symbolic link to nothing: give the file itself")
            }
            seen.append((option, path, key))
        }
    }

    /// The folder input (a bundle, a source tree, a project) holding the existing file `path`,
    /// both through their links, when the run reads that file; with the file's path inside it.
    private static func enclosingInput(
        of path: String, _ inputs: [(what: String, path: String)]
    ) -> (input: (what: String, path: String), inside: String)? {
        guard let real = PlatformIO.realPath(path) else { return nil }
        for input in inputs where input.path != "-" {
            guard let folder = PlatformIO.realPath(input.path), PlatformIO.isDirectory(folder), real.hasPrefix(folder == "/" ? "/" : folder + "/") else { continue }
            let inside = String(real.dropFirst(folder == "/" ? 1 : folder.count + 1))
            if InputFiles.isRead(inside, inFolderNamed: PathText.lastComponent(folder)) { return (input, inside) }
        }
        return nil
    }

    /// Where a report for `path` is really written: the end of its chain of symbolic links.
    static func destination(of path: String) -> String {
        PlatformIO.resolvedLink(path) ?? path
    }

    /// The mode of a new report: the existing file's, else what `umask` leaves of 0666.
    static func mode(replacing path: String) -> mode_t {
        if let existing = PlatformIO.fileMode(path) { return existing }
        let mask = umask(0)
        umask(mask)
        return 0o666 & ~mask
    }

    private static func identityString(_ identity: (device: UInt64, inode: UInt64)) -> String { "\(identity.device):\(identity.inode)" }

    /// The same file whether or not it exists yet: its identity, else its folder's identity and its name.
    private static func identityKey(_ path: String) -> String {
        if let identity = PlatformIO.fileIdentity(path) { return identityString(identity) }
        let folder = PlatformIO.fileIdentity(PathText.directory(path)).map(identityString) ?? PathText.directory(path)
        return folder + "/" + PathText.lastComponent(path)
    }

    private static func usage(_ message: String) -> ExitCode {
        PlatformIO.writeStandardError("imgtrace: error: \(message)\n")
        return ExitCode(64)
    }
}
