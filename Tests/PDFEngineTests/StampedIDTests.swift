import Foundation
import PropertyBased
import QPDFCore
import Testing

/// The deterministic /ID of exports (CheckedFile.hh): QPDFWriter writes its static
/// id, and the file output replaces the last "/ID [<static><static>]" run with a
/// digest of every byte, through `pe_write_stamped`, which writes pieces and
/// flushes after each one so that a run can straddle two flushes.
@Suite struct StampedIDTests {
    static let staticID = "31415926535897932384626433832795"
    static let run = "/ID [<\(staticID)><\(staticID)>]"

    /// The file written from `pieces`, or the bridge's message.
    static func stamped(_ pieces: [[UInt8]]) throws -> Result<[UInt8], StampFailure> {
        let scratch = try ExportScratch()
        let path = scratch.path("out.pdf")
        var message = [CChar](repeating: 0, count: 256)
        let code = withPointers(pieces) { pointers, lengths in
            pe_write_stamped(path, pointers, lengths, Int32(pieces.count), &message, message.count)
        }
        if code != 0 {
            return .failure(StampFailure(message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        return .success([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    struct StampFailure: Error, Equatable { var message: String }

    static func withPointers<R>(
        _ pieces: [[UInt8]], _ body: (UnsafePointer<UnsafePointer<UInt8>?>, UnsafePointer<Int>) -> R
    ) -> R {
        let buffers = pieces.map { piece -> UnsafeMutablePointer<UInt8> in
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, piece.count))
            buffer.initialize(from: piece, count: piece.count)
            return buffer
        }
        defer { buffers.forEach { $0.deallocate() } }
        let pointers: [UnsafePointer<UInt8>?] = buffers.map { UnsafePointer($0) }
        let lengths = pieces.map(\.count)
        return pointers.withUnsafeBufferPointer { p in lengths.withUnsafeBufferPointer { l in body(p.baseAddress!, l.baseAddress!) } }
    }

    static func document(before: String = "%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer << /Size 2 /Root 1 0 R ",
                         after: String = " >>\nstartxref\n9\n%%EOF\n") -> [UInt8] {
        Array((before + run + after).utf8)
    }

    /// Where the static run starts in `bytes`.
    static func runStart(in bytes: [UInt8]) throws -> Int {
        let run = Array(Self.run.utf8)
        return try #require(bytes.indices.first { bytes[$0...].starts(with: run) }, "no static run")
    }

    /// The two ids of the last /ID run of `bytes` (as text), or nil.
    static func ids(_ bytes: [UInt8]) -> (String, String)? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let match = text.matches(of: /\/ID \[<([0-9a-f]{32})><([0-9a-f]{32})>\]/).last else { return nil }
        return (String(match.output.1), String(match.output.2))
    }

    @Test func theStaticRunBecomesOneDigestTwiceAndNothingElseChanges() throws {
        let input = Self.document()
        let output = try Self.stamped([input]).get()
        #expect(output.count == input.count)
        let (first, second) = try #require(Self.ids(output))
        #expect(first == second)
        #expect(first != Self.staticID)
        // Every byte outside the two ids is the input's.
        let start = try Self.runStart(in: input)
        let ids = Set((start + 6)..<(start + 38)).union((start + 40)..<(start + 72))
        for index in input.indices where !ids.contains(index) {
            #expect(output[index] == input[index], "byte \(index)")
        }
    }

    @Test func theDigestDoesNotDependOnHowTheBytesWereCut() async throws {
        let input = Self.document(before: String(repeating: "stream data 0123456789 ", count: 9) + "trailer << ")
        let whole = try Self.stamped([input]).get()
        await propertyCheck(count: 200, input: Gen.int(in: 0...input.count).array(of: 0...6)) { cuts in
            let points = ([0] + cuts.sorted() + [input.count])
            let pieces = zip(points, points.dropFirst()).map { Array(input[$0..<$1]) }
            let cut = (try? Self.stamped(pieces).get()).map { String(decoding: $0, as: UTF8.self) }
            #expect(cut == String(decoding: whole, as: UTF8.self), "cut at \(cuts.sorted())")
        }
    }

    /// A piece larger than the file's 1 MB buffer is written through it, whole,
    /// and digested like the same bytes in small pieces.
    @Test func aPieceLargerThanTheBufferIsWrittenWhole() throws {
        let big = String(repeating: "0123456789abcdef", count: 90_000) // 1.44 MB
        let input = Self.document(before: "%PDF-1.4\n% " + big + "\ntrailer << ")
        let whole = try Self.stamped([Array(input.prefix(100)), Array(input.dropFirst(100))]).get()
        let pieces = stride(from: 0, to: input.count, by: 65_536).map { Array(input[$0..<min($0 + 65_536, input.count)]) }
        let cut = try Self.stamped(pieces).get()
        #expect(whole.count == input.count)
        #expect(whole == cut, "the same bytes in other pieces gave another file")
        #expect(Self.ids(whole).map { $0.0 != Self.staticID } == true)
    }

    @Test func everyByteCountsInTheDigest() throws {
        let input = Self.document()
        let reference = try #require(Self.ids(try Self.stamped([input]).get())).0
        let runStart = try Self.runStart(in: input)
        var seen: Set<String> = [reference]
        for index in input.indices where !(runStart..<(runStart + Self.run.utf8.count)).contains(index) {
            var changed = input
            changed[index] ^= 0x01
            let id = try #require(Self.ids(try Self.stamped([changed]).get())).0
            #expect(!seen.contains(id), "flipping byte \(index) gave an id already seen")
            seen.insert(id)
        }
        // One byte more or less at the end, too.
        let longer = try #require(Self.ids(try Self.stamped([input + [0x0A]]).get())).0
        #expect(!seen.contains(longer))
    }

    @Test func onlyTheLastRunIsTheTrailers() throws {
        let input = Array("%PDF-1.4\n<< \(Self.run) >>\n".utf8) + Self.document()
        let output = String(decoding: try Self.stamped([input]).get(), as: UTF8.self)
        #expect(output.hasPrefix("%PDF-1.4\n<< \(Self.run) >>\n"))
        let (first, _) = try #require(Self.ids(Array(output.utf8)))
        #expect(first != Self.staticID)
    }

    @Test func aFileWithoutTheStaticRunIsRefused() throws {
        let input = Array("%PDF-1.4\ntrailer << /ID [<\(Self.staticID)>] >>\n".utf8)
        let result = try Self.stamped([input])
        guard case .failure(let failure) = result else {
            Issue.record("a file without the run was written")
            return
        }
        #expect(failure.message.contains("no static /ID"), "\(failure.message)")
    }
}
