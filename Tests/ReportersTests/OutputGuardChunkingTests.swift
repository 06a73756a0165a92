import ImgtraceSupport
import XCTest

/// The guard reads plain runs eight bytes at a time; a byte given alone never takes that path.
/// So the same bytes written whole and written one byte at a time must come out the same, for
/// every consumer: any byte the word test let through that the table would stop shows here.
final class OutputGuardChunkingTests: XCTestCase {
    /// Random text biased towards what the word test decides on: every byte that needs a look
    /// (controls, DEL, `#`, `:`, the lead bytes of escaped ranges) among long plain runs.
    private func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let special: [UInt8] = [0x00, 0x07, 0x09, 0x0A, 0x0D, 0x1B, 0x1F, 0x20, 0x23, 0x3A, 0x5B, 0x7E, 0x7F, 0x80, 0xC2, 0x85, 0x9B, 0xD8, 0x9C, 0xE2, 0x80, 0xAE, 0xF0, 0x9F]
        return (0..<count).map { _ in
            switch next(10) {
            case 0, 1: return special[next(special.count)]
            case 2: return UInt8(next(256))
            default: return UInt8(0x21 + next(0x5E))  // printable ASCII
            }
        }
    }

    private func guarded(_ bytes: [UInt8], consumer: OutputConsumer, piece: Int?) -> [UInt8] {
        var filter = OutputGuard(consumer: consumer)
        var out: [UInt8] = []
        bytes.withUnsafeBufferPointer { all in
            guard let piece else { return filter.filter(all, into: &out) }
            var start = 0
            while start < all.count {
                let end = min(start + piece, all.count)
                filter.filter(UnsafeBufferPointer(rebasing: all[start..<end]), into: &out)
                start = end
            }
        }
        filter.finish(into: &out)
        return out
    }

    func testWholeWritesEqualByteByByteWritesForEveryConsumer() {
        let consumers: [OutputConsumer] = [.terminal, .githubCommands, .markdown, .html, .xml, .json]
        var escaped = 0
        for seed in 1...40 {
            let bytes = randomBytes(64 + Int(seed) * 37, seed: UInt64(seed))
            for consumer in consumers {
                let whole = guarded(bytes, consumer: consumer, piece: nil)
                XCTAssertEqual(whole, guarded(bytes, consumer: consumer, piece: 1), "seed \(seed), \(consumer)")
                XCTAssertEqual(whole, guarded(bytes, consumer: consumer, piece: 13), "seed \(seed), \(consumer), pieces of 13")
                if whole != bytes { escaped += 1 }
            }
        }
        // The inputs do reach the careful path: most outputs differ from their input.
        XCTAssertGreaterThan(escaped, 200)
    }

    /// A long plain run with one byte that needs a look at every position of an 8-byte word.
    func testOneUnsafeByteAtEveryOffsetOfAWordIsCaught() {
        for unsafe: UInt8 in [0x1B, 0x7F, 0x23, 0x00, 0x1F, 0xC2] {
            for position in 0..<24 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 40)
                bytes[position] = unsafe
                let whole = guarded(bytes, consumer: .terminal, piece: nil)
                XCTAssertEqual(whole, guarded(bytes, consumer: .terminal, piece: 1), "byte \(unsafe) at \(position)")
                if unsafe < 0x20 || unsafe == 0x7F { XCTAssertNotEqual(whole, bytes, "byte \(unsafe) at \(position) went through unescaped") }
            }
        }
    }
}
