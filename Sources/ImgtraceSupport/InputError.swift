/// An error that is the input's fault (a file that cannot be read, a program that cannot be
/// traced), told in one line: the command line prints its description and exits with 2.
public protocol InputFailure: Error, CustomStringConvertible {}

/// An input that could not be read: which file, where in it, and why.
///
/// `description` is the one-line message the command line prints before exiting with 2.
public struct InputError: InputFailure, Equatable, Sendable {
    /// The file, as the user named it.
    public var path: String
    /// Where in the file, e.g. `offset 0x1c` or `line 12`; `nil` when the whole file is at fault.
    public var location: String?
    /// What was wrong, in a few words.
    public var reason: String

    /// Creates an error for `path`, optionally at `location`.
    public init(path: String, location: String? = nil, reason: String) {
        self.path = path
        self.location = location
        self.reason = reason
    }

    public var description: String {
        if let location { return "\(path): \(location): \(reason)" }
        return "\(path): \(reason)"
    }
}
