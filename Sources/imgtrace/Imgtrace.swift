import ArgumentParser
import Foundation
import ImgtraceSupport

@main
struct Imgtrace: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imgtrace",
        abstract: "Audit the images an iOS or macOS app loads at launch, from a debugger log and the built app.",
        discussion: """
            Exit codes: 0 success; 1 policy failure; 2 an input could not be read; 64 usage error.
            """,
        version: "0.1.0",
        subcommands: [
            AnalyzeCommand.self, TraceCommand.self, RecordCommand.self, AgentPathCommand.self, AgentLogCommand.self, UnusedCommand.self, CarCommand.self, CatalogCommand.self,
            LldbScriptCommand.self,
            BaselineCommand.self, HistoryCommand.self, DevicesCommand.self, RulesCommand.self,
        ]
    )
}

extension Imgtrace {
    /// The one way out: usage errors name what the user typed (a device, an option), and
    /// standard error reaches terminals and CI runners, so argument-parser's messages go
    /// through the terminal guard like every other byte (docs/output-safety.md). Help and
    /// completion scripts are our own text and go to standard output unchanged.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as InputFailure {
            reportInputFailure(failure)
            exit(withError: ExitStatus.inputError)
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { print(message) }
            } else if !message.isEmpty {
                // A mistyped command or option is one mistake: named once, with the nearest real
                // one, and argument-parser's message (which would go on to misread the rest) not at all.
                if code.rawValue == 64, let hint = UsageHints.hint(for: CommandLine.arguments) {
                    PlatformIO.writeStandardError("Error: \(hint)\n")
                } else if code.rawValue == 64, let shell = UsageHints.unsupportedCompletionShell(in: message) {
                    PlatformIO.writeStandardError("Error: no completion script for \(SafeText.quoted(shell)): imgtrace writes them for bash, zsh and fish\n")
                } else if code.rawValue == 64 {
                    // One line per mistake: argument-parser's usage and help lines after the
                    // message repeat what `--help` says and bury the one line that matters.
                    let line = Self.message(for: error).split(separator: "\n").first.map(String.init) ?? message
                    PlatformIO.writeStandardError("Error: " + SafeText.visible(line) + "\n")
                } else {
                    PlatformIO.writeStandardError(message.hasSuffix("\n") ? message : message + "\n")
                }
            }
            exit(withError: code == .success ? nil : ExitCode(code.rawValue))
        }
    }

    private static func exit(withError code: ExitCode?) -> Never {
        Foundation.exit(code?.rawValue ?? 0)
    }
}

/// Exit statuses (README "Exit codes").
enum ExitStatus {
    static let inputError = ExitCode(2)
}

/// The one place an input failure becomes its line on standard error (main then exits 2). The
/// message may quote the input (a YAML line, a value): it stays on one line and is cut at 1,000
/// characters. Commands and the library only throw.
func reportInputFailure(_ failure: InputFailure) {
    var stderr = StandardError()
    print("imgtrace: error: " + SafeText.capped(SafeText.visible(failure.description), limit: 1000), to: &stderr)
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandleStderr.write(string)
    }
}
