import Foundation
import Testing

/// /PageLabels of an export: never invented for sources that have none, kept for
/// sources that have them.
@Suite struct PageLabelsExportTests {
    /// The output's catalog /PageLabels as `qpdf --json` shows it (nil when absent).
    func pageLabels(_ file: URL) throws -> Any? {
        let result = try run("qpdf", ["--json", "--json-key=qpdf", file.path])
        guard let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            let objects = (json["qpdf"] as? [Any])?.last as? [String: Any],
            let trailer = (objects["trailer"] as? [String: Any])?["value"] as? [String: Any],
            let root = trailer["/Root"] as? String,
            let catalog = (objects["obj:\(root)"] as? [String: Any])?["value"] as? [String: Any]
        else {
            Issue.record("qpdf --json of \(file.path): \(result.stderr)")
            return nil
        }
        return catalog["/PageLabels"]
    }

    @Test("inserting an unlabelled PDF before another, or reversing one, writes no /PageLabels")
    func noLabelsInvented() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("insert", "beta.pdf", "--at", "1", in: dir)
        let inserted = try pdfedit("export", "inserted.pdf", in: dir)
        #expect(inserted.status == 0, "\(inserted.stderr)")
        #expect(try pageLabels(dir.appendingPathComponent("inserted.pdf")) == nil)

        try pdfeditOK("open", "alpha.pdf", "--force", in: dir)
        try pdfeditOK("reverse", "all", in: dir)
        let reversed = try pdfedit("export", "reversed.pdf", in: dir)
        #expect(reversed.status == 0, "\(reversed.stderr)")
        let output = dir.appendingPathComponent("reversed.pdf")
        #expect(try pageLabels(output) == nil)
        #expect(try pageTokens(output).first == "ALPHA-P7")
        // Direct mode goes the same way.
        let direct = try pdfedit("reverse", "all", "alpha.pdf", "-o", "direct.pdf", in: dir)
        #expect(direct.status == 0, "\(direct.stderr)")
        #expect(try pageLabels(dir.appendingPathComponent("direct.pdf")) == nil)
    }

    @Test("a labelled source keeps its labels, also next to an unlabelled one")
    func labelsKept() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "features.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "features.pdf", in: dir)
        try pdfeditOK("insert", "alpha.pdf", "--at", "1", in: dir)
        let result = try pdfedit("export", "out.pdf", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let output = dir.appendingPathComponent("out.pdf")
        // qpdf's reading of the ranges: alpha's 7 pages as viewers numbered them
        // (decimal from 1), then features' own i, ii, 1, 2...
        let ranges = try run("qpdf", ["--json", "--json-key=pagelabels", output.path]).stdout
        let json = try JSONSerialization.jsonObject(with: Data(ranges.utf8)) as? [String: Any]
        let entries = (json?["pagelabels"] as? [[String: Any]] ?? []).map { entry -> String in
            let label = entry["label"] as? [String: Any] ?? [:]
            return "\(entry["index"] ?? "?") \(label["/S"] ?? "-") \(label["/St"] ?? 1)"
        }
        #expect(entries == ["0 /D 1", "7 /r 1", "9 /D 1"], "\(ranges)")
    }
}
