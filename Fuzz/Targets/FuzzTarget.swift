/// One reader under fuzzing: how to feed it one input, and the seeds it starts from.
struct FuzzTarget: Sendable {
    /// Stable name, used by `scripts/fuzz.sh TARGET` and as the folder of its regression inputs.
    let id: String
    /// What the input bytes are.
    let summary: String
    /// Runs one input. Errors are the reader's normal answer to bad input; only a trap, a hang
    /// or a runaway allocation is a finding.
    let run: @Sendable ([UInt8]) -> Void
    /// Valid and near-valid inputs built in code (the tests' writers), named for their content.
    let seeds: @Sendable () -> [(name: String, bytes: [UInt8])]
}
