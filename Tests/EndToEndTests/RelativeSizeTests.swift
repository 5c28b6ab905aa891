import Foundation
import Testing

/// `--size 2%` and `--margin 3%` on `number`, `bates` and `watermark` (issue 44
/// §1): a share of the page's shorter side as displayed, worked out per page at
/// export; absolute sizes are points as seen, a page's /UserUnit applied.
/// Checked with poppler's word boxes (`pdftotext -bbox`, which reads a page in
/// its own units: /UserUnit not applied).
@Suite struct RelativeSizeTests {
    struct Box: Equatable, CustomStringConvertible {
        var xMin, yMin, xMax, yMax: Double
        var height: Double { yMax - yMin }
        var description: String { "[\(xMin) \(yMin) \(xMax) \(yMax)]" }

        func isClose(to other: Box, within tolerance: Double) -> Bool {
            abs(xMin - other.xMin) <= tolerance && abs(yMin - other.yMin) <= tolerance
                && abs(xMax - other.xMax) <= tolerance && abs(yMax - other.yMax) <= tolerance
        }
    }

    /// The box of the first word `word` on page 1 of `file`, as poppler reads it.
    func box(of word: String, in file: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Box {
        let xml = try run("pdftotext", ["-bbox", "-f", "1", "-l", "1", file, "-"]).stdout
        let pattern = try NSRegularExpression(
            pattern: #"<word xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="([0-9.]+)" yMax="([0-9.]+)">([^<]*)</word>"#)
        for match in pattern.matches(in: xml, range: NSRange(xml.startIndex..., in: xml)) {
            let parts = (1...5).map { String(xml[Range(match.range(at: $0), in: xml)!]) }
            if parts[4] == word {
                return Box(xMin: Double(parts[0])!, yMin: Double(parts[1])!, xMax: Double(parts[2])!, yMax: Double(parts[3])!)
            }
        }
        Issue.record("no word \(word) in \(file): \(xml)", sourceLocation: sourceLocation)
        throw SetupStepFailed(command: "pdftotext -bbox \(file)", status: 1)
    }

    /// A one-page PDF `width` × `height` units large with /UserUnit `unit` (nil: none), holding one word.
    func page(_ name: String, in directory: URL, width: Double, height: Double, unit: Double? = nil) throws -> String {
        let path = directory.appendingPathComponent(name).path
        let script = #"""
import sys
import pdfbytes
path, width, height, unit = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
content = b"BT /F1 12 Tf 20 20 Td (content) Tj ET"
objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        ("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %s %s] %s/Contents 4 0 R "
         "/Resources << /Font << /F1 5 0 R >> >> >>" % (width, height, "/UserUnit %s " % unit if unit != "-" else "")).encode(),
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
open(path, "wb").write(pdfbytes.pdf(objs, header=b"%PDF-1.7\n"))
"""#
        let made = try python(script, [path, "\(width)", "\(height)", unit.map { "\($0)" } ?? "-"])
        guard made.status == 0 else { throw SetupStepFailed(command: "python3 page \(made.stderr)", status: made.status) }
        return path
    }

    /// `pdfedit ARGUMENTS… INPUT -o OUTPUT`, which must work; returns OUTPUT.
    @discardableResult
    func stamped(_ input: String, _ output: String, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation)
        throws -> String
    {
        try pdfeditOK(args: arguments + [input, "-o", output], sourceLocation: sourceLocation)
        #expect(try qpdfCheck(output).status == 0, sourceLocation: sourceLocation)
        return output
    }

    @Test("on A4, --size 2% is 11.9 pt and --margin 3% 17.9 pt: the boxes of the absolute sizes")
    func a4() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let a4 = try page("a4.pdf", in: directory, width: 595.276, height: 841.89)
        let out = { (name: String) in directory.appendingPathComponent(name).path }
        let relative = try box(of: "1", in: try stamped(a4, out("relative.pdf"), "number", "all", "--size", "2%", "--margin", "3%"))
        // 2% and 3% of the shorter side, 595.276 pt.
        let absolute = try box(
            of: "1", in: try stamped(a4, out("absolute.pdf"), "number", "all", "--size", "11.90552", "--margin", "17.85828"))
        #expect(relative.isClose(to: absolute, within: 0.01), "\(relative) vs \(absolute)")
        // The word's height as poppler measures Helvetica: 0.925 of the size.
        let ten = try box(of: "1", in: try stamped(a4, out("ten.pdf"), "number", "all", "--size", "10"))
        #expect(abs(relative.height / ten.height - 1.190552) < 0.002, "\(relative.height) vs \(ten.height)")
        // Bottom centre, 17.86 pt up from the page's bottom edge (pdftotext counts from the top).
        #expect(abs((841.89 - relative.yMax) - (841.89 - absolute.yMax)) < 0.01)
        #expect(841.89 - relative.yMax > 17.8 && 841.89 - relative.yMax < 17.86 + 0.3 * 11.9, "\(relative)")
        // bates and watermark take the same: the one rule of relative sizes.
        let bates = try box(
            of: "X000001", in: try stamped(a4, out("bates.pdf"), "bates", "all", "--prefix", "X", "--size", "2%", "--margin", "3%"))
        let batesAbsolute = try box(
            of: "X000001",
            in: try stamped(a4, out("bates-abs.pdf"), "bates", "all", "--prefix", "X", "--size", "11.90552", "--margin", "17.85828"))
        #expect(bates.isClose(to: batesAbsolute, within: 0.01), "\(bates) vs \(batesAbsolute)")
        // A landscape page: the shorter side is its height.
        let landscape = try page("landscape.pdf", in: directory, width: 841.89, height: 595.276)
        let mark = try box(
            of: "DRAFT", in: try stamped(landscape, out("mark.pdf"), "watermark", "all", "--text", "DRAFT", "--angle", "0", "--size", "10%"))
        let markAbsolute = try box(
            of: "DRAFT",
            in: try stamped(landscape, out("mark-abs.pdf"), "watermark", "all", "--text", "DRAFT", "--angle", "0", "--size", "59.5276"))
        #expect(mark.isClose(to: markAbsolute, within: 0.01), "\(mark) vs \(markAbsolute)")
    }

    @Test("on an 18,000 × 36,000 pt poster with /UserUnit 10, 12 pt is 1.2 units and 2% is 360 pt")
    func posterWithUserUnit() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let poster = try page("poster.pdf", in: directory, width: 1800, height: 3600, unit: 10)
        let a4 = try page("a4.pdf", in: directory, width: 595.276, height: 841.89)
        let out = { (name: String) in directory.appendingPathComponent(name).path }
        #expect(try run("pdfinfo", [poster]).stdout.contains("1800 x 3600 pts"))
        let twelve = try box(of: "1", in: try stamped(a4, out("a4-12.pdf"), "number", "all", "--size", "12"))
        // 12 pt as seen on the poster: a tenth of the A4 box, in the poster's units.
        let small = try box(of: "1", in: try stamped(poster, out("poster-12.pdf"), "number", "all", "--size", "12"))
        #expect(abs(small.height - twelve.height / 10) < 0.01, "\(small.height) vs \(twelve.height / 10)")
        #expect(abs((small.xMax - small.xMin) - (twelve.xMax - twelve.xMin) / 10) < 0.01)
        // 2% of 18,000 pt: 360 pt as seen, 36 units: 30 times the 12 pt box in units.
        let large = try box(of: "1", in: try stamped(poster, out("poster-2.pdf"), "number", "all", "--size", "2%", "--margin", "3%"))
        #expect(abs(large.height - twelve.height * 3) < 0.05, "\(large.height) vs \(twelve.height * 3)")
        // --margin 3%: 540 pt as seen, 54 units from the bottom edge to the text's box.
        let reference = try box(
            of: "1", in: try stamped(poster, out("poster-abs.pdf"), "number", "all", "--size", "360", "--margin", "540"))
        #expect(large.isClose(to: reference, within: 0.05), "\(large) vs \(reference)")
        #expect(3600 - large.yMax > 54 - 0.01 && 3600 - large.yMax < 54 + 0.3 * 36, "\(large)")
        // Centred across: the page is 1800 units wide.
        #expect(abs((large.xMin + large.xMax) / 2 - 900) < 0.5, "\(large)")
    }

    @Test("a session keeps the share (format 8), list shows it, and each page gets its own size")
    func sessionAndMixedSizes() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let a4 = try page("a4.pdf", in: directory, width: 595.276, height: 841.89)
        let small = try page("a6.pdf", in: directory, width: 297.638, height: 419.528)
        try pdfeditOK("open", a4, in: directory)
        try pdfeditOK("insert", small, in: directory)
        try pdfeditOK("number", "all", "--size", "2%", "--margin", "3%", in: directory)
        let session = try String(contentsOf: directory.appendingPathComponent(".pdfedit/session.json"), encoding: .utf8)
        #expect(session.contains("\"sizeShare\" : 0.02") && session.contains("\"marginShare\" : 0.03"), "\(session)")
        #expect(session.contains("\"version\" : 8"))
        let listing = try pdfeditOK("list", "--no-text", "--json", in: directory).stdout
        #expect(listing.contains("\"sizePercent\" : 2") && listing.contains("\"marginPercent\" : 3"), "\(listing)")
        try pdfeditOK("export", "out.pdf", in: directory)
        let out = directory.appendingPathComponent("out.pdf").path
        let first = try box(of: "1", in: out)
        let xml = try run("pdftotext", ["-bbox", "-f", "2", "-l", "2", out, "-"]).stdout
        #expect(xml.contains(">2</word>"))
        // Page 2 is half as large: its number half as tall (poppler's box of "2" against "1": same glyph height).
        let heights = try NSRegularExpression(pattern: #"yMin="([0-9.]+)" xMax="[0-9.]+" yMax="([0-9.]+)">2</word>"#)
        let match = try #require(heights.firstMatch(in: xml, range: NSRange(xml.startIndex..., in: xml)))
        let second = Double(String(xml[Range(match.range(at: 2), in: xml)!]))! - Double(String(xml[Range(match.range(at: 1), in: xml)!]))!
        #expect(abs(second / first.height - 0.5) < 0.01, "\(second) vs \(first.height)")
    }

    @Test("sizes and margins out of range are refused (64), naming the option")
    func refusals() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let a4 = try page("a4.pdf", in: directory, width: 595.276, height: 841.89)
        let output = directory.appendingPathComponent("out.pdf").path
        for (arguments, option) in [
            (["number", "all", "--size", "0%"], "--size"), (["number", "all", "--size", "60%"], "--size"),
            (["bates", "all", "--prefix", "X", "--margin", "-3%"], "--margin"), (["watermark", "all", "--text", "A", "--size", "x%"], "--size"),
            (["number", "all", "--margin", "51%"], "--margin"),
        ] {
            let result = try pdfedit(args: arguments + [a4, "-o", output])
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(option), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }
}
