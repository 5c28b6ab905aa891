import Foundation
import Testing

/// Every unencrypted output gets a deterministic /ID that names its bytes: the
/// same export twice gives the same file, different outputs get different ids,
/// and no output keeps qpdf's static test id that CheckedFile replaces. The ids
/// are read by qpdf (`--show-object=trailer`); the copying, in-place and split
/// writers all go through the same file output.
@Suite struct OutputIDTests {
    static let staticID = "31415926535897932384626433832795"

    /// The trailer's two ids as qpdf reads them.
    static func ids(_ file: URL) throws -> [String] {
        let trailer = try run("qpdf", ["--show-object=trailer", file.path])
        #expect(trailer.status == 0, "\(trailer.stderr)")
        guard let match = trailer.stdout.firstMatch(of: /\/ID \[ <([0-9a-f]+)> <([0-9a-f]+)> \]/) else {
            Issue.record("no /ID in the trailer of \(file.lastPathComponent): \(trailer.stdout)")
            return []
        }
        return [String(match.output.1), String(match.output.2)]
    }

    static func expectNamed(_ file: URL) throws -> String? {
        let ids = try Self.ids(file)
        guard ids.count == 2 else { return nil }
        #expect(ids[0] == ids[1], "\(file.lastPathComponent): \(ids)")
        #expect(ids[0].count == 32 && ids[0] != staticID, "\(file.lastPathComponent): \(ids)")
        #expect(try qpdfCheck(file.path).status == 0, "\(file.lastPathComponent)")
        return ids[0]
    }

    @Test func copyingInPlaceAndSplitOutputsAreNamedByTheirBytes() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "features.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        func url(_ name: String) -> URL { dir.appendingPathComponent(name) }
        // Copying (a range of another file), in place (most pages of one file), twice each.
        for name in ["copied", "again"] {
            try pdfeditOK("export", "\(name).pdf", "2..3", "--from", "features.pdf", "-q", in: dir)
            try pdfeditOK("remove", "1", "alpha.pdf", "-o", "\(name)-in-place.pdf", "-q", in: dir,
                          environment: ["PDFEDIT_NO_APPEND": "1"])
        }
        #expect(try Data(contentsOf: url("copied.pdf")) == Data(contentsOf: url("again.pdf")))
        #expect(try Data(contentsOf: url("copied-in-place.pdf")) == Data(contentsOf: url("again-in-place.pdf")))
        try pdfeditOK("export", "other.pdf", "2..4", "--from", "features.pdf", "-q", in: dir)
        try pdfeditOK("export", "--split", "parts", "--from", "features.pdf", "-q", in: dir)
        let parts = try FileManager.default.contentsOfDirectory(atPath: url("parts").path).sorted()
        #expect(parts.count == 6)
        var seen: [String: String] = [:]
        for file in ["copied.pdf", "copied-in-place.pdf", "other.pdf"].map(url) + parts.map({ url("parts/\($0)") }) {
            guard let id = try Self.expectNamed(file) else { continue }
            #expect(seen[id] == nil, "\(file.lastPathComponent) has the id of \(seen[id] ?? "")")
            seen[id] = file.lastPathComponent
        }
    }
}
