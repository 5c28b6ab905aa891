import Foundation
import Testing

/// An output made of a source's pages gets at least the source's PDF version,
/// read from the header as qpdf reads it (white space, digits, a dot, digits;
/// 1.3 when the header has no such number), checked with pdfinfo.
@Suite struct HeaderVersionTests {
    @Test(arguments: [("1.6", "1.6"), ("2.0", "2.0"), ("1.7", "1.7"), ("a.b", "1.3"), ("1.x", "1.3")])
    func theOutputKeepsTheSourcesVersion(header: String, expected: String) throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let original = try Data(contentsOf: dir.appendingPathComponent("alpha.pdf"))
        // Same length as "%PDF-1.7", so that every offset of the file stays right.
        #expect(original.prefix(8) == Data("%PDF-1.7".utf8))
        try (Data("%PDF-\(header)".utf8) + original.dropFirst(8)).write(to: dir.appendingPathComponent("in.pdf"))
        // remove copies the other pages into a new file (no in-place rewrite,
        // which would keep the header as it is).
        try pdfeditOK("remove", "1", "in.pdf", "-o", "out.pdf", in: dir)
        let info = try run("pdfinfo", [dir.appendingPathComponent("out.pdf").path])
        let version = info.stdout.split(separator: "\n").first { $0.hasPrefix("PDF version:") }
        #expect(version?.split(separator: " ").last.map(String.init) == expected, "\(info.stdout)")
    }
}
