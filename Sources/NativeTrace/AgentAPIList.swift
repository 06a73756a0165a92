import CAgentShared

/// The agent's API list (`IMGTRACE_AGENT_APIS`, and its copy in the agent's file): what the agent
/// wraps, one target a line, `KIND TARGET`. The kind words and the limit are the layout header's,
/// which the agent's C reads too, so the two sides cannot spell the list differently.
public struct AgentAPIList: Equatable, Sendable {
    /// One target of the list.
    public enum Entry: Equatable, Sendable {
        /// `objc -[Class selector]`: a method whose third argument is the image's name.
        case method(String)
        /// `symbol name N`: a C function whose argument N (1-based) is the name as a C string.
        case symbol(String, argument: Int)
        /// `context -[Class selector]`: gives the requests inside it their kind.
        case context(String)
        /// `decode -[Class selector]`: decodes an image object a lookup returned.
        case decode(String)
        /// `end -[Class selector]` or `end function`: its first return ends the launch.
        case launchEnd(String)

        /// The API as a log line names it: the method as written, the function's name.
        public var apiName: String {
            switch self {
            case .method(let name), .context(let name), .decode(let name), .launchEnd(let name), .symbol(let name, _): return name
            }
        }

        var line: String {
            switch self {
            case .method(let name): return IMGTRACE_AGENT_API_OBJC + " " + name
            case .symbol(let name, let argument): return IMGTRACE_AGENT_API_SYMBOL + " \(name) \(argument)"
            case .context(let name): return IMGTRACE_AGENT_API_CONTEXT + " " + name
            case .decode(let name): return IMGTRACE_AGENT_API_DECODE + " " + name
            case .launchEnd(let name): return IMGTRACE_AGENT_API_END + " " + name
            }
        }
    }

    /// The most targets the agent wraps.
    public static let limit = Int(IMGTRACE_AGENT_MAX_APIS)

    public var entries: [Entry]

    public init(_ entries: [Entry]) { self.entries = entries }

    /// The list's text, its lines joined by `separator`: a newline in the environment imgtrace
    /// sets, `;` in one an Xcode scheme holds (a scheme's variable is one line).
    public func text(separator: String = "\n") -> String { entries.map(\.line).joined(separator: separator) }

    /// The targets of a list's text, in order; a line the agent would not read is skipped.
    public static func parse(_ text: Substring) -> AgentAPIList {
        var entries: [Entry] = []
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == ";" }) {
            let words = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard words.count == 2 else { continue }
            let target = words[1]
            switch words[0] {
            case IMGTRACE_AGENT_API_OBJC where isMethod(target): entries.append(.method(target))
            case IMGTRACE_AGENT_API_CONTEXT where isMethod(target): entries.append(.context(target))
            case IMGTRACE_AGENT_API_DECODE where isMethod(target): entries.append(.decode(target))
            case IMGTRACE_AGENT_API_END where isMethod(target) || isFunctionName(target): entries.append(.launchEnd(target))
            case IMGTRACE_AGENT_API_SYMBOL:
                // The agent reads `name N` with N from 1 to 6, the register arguments.
                let parts = target.split(separator: " ")
                guard parts.count >= 2, let argument = Int(parts[1]), (1...6).contains(argument) else { continue }
                entries.append(.symbol(String(parts[0]), argument: argument))
            default: continue
            }
        }
        return AgentAPIList(entries)
    }

    /// A C function's name as the agent reads a launch end's: one word, not a method.
    private static func isFunctionName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count < 128 && !text.hasPrefix("+") && !text.hasPrefix("-") && !text.contains(" ")
    }

    /// `+[Class selector]` or `-[…]`, as the agent reads a method (else it skips the line, and
    /// the indexes of the targets after it would not be the agent's).
    private static func isMethod(_ text: String) -> Bool {
        let scalars = Array(text.utf8)
        guard scalars.count >= 6, scalars[0] == UInt8(ascii: "+") || scalars[0] == UInt8(ascii: "-"), scalars[1] == UInt8(ascii: "[") else { return false }
        guard let space = scalars.firstIndex(of: UInt8(ascii: " ")), space > 2, space + 1 < scalars.count else { return false }
        return scalars[(space + 1)...].contains(UInt8(ascii: "]")) && scalars[space + 1] != UInt8(ascii: "]")
    }
}
