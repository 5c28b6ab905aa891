import Foundation
import Testing

/// A damaged number in a session file (a box or sheet-cell coordinate of 1e308
/// or ±2^63) is exit 65 naming session.json for every command that reads the
/// session, never a signal (issue 40, item 14).
@Suite struct DamagedSessionNumberTests {
    /// A session with a crop box, a sheet and history steps to undo and redo.
    func session() throws -> URL {
        let dir = try scratchDirectory(with: "alpha.pdf")
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("crop", "1", "--margins", "10", in: dir)
        try pdfeditOK("nup", "2..3", "--grid", "2x1", in: dir)
        try pdfeditOK("rotate", "4", "--by", "90", in: dir)
        try pdfeditOK("undo", in: dir)
        return dir
    }

    func damage(_ dir: URL, _ change: (inout [[String: Any]]) throws -> Void) throws {
        let file = dir.appendingPathComponent(".pdfedit/session.json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var documents = try #require(object["documents"] as? [[String: Any]])
        var items = try #require(documents[0]["items"] as? [[String: Any]])
        try change(&items)
        documents[0]["items"] = items
        object["documents"] = documents
        try JSONSerialization.data(withJSONObject: object).write(to: file)
    }

    static let values: [Double] = [1e308, 9.223372036854775807e18, -9.223372036854775808e18]

    @Test("a damaged crop box coordinate is 65 for list, undo, redo and export", arguments: values)
    func cropBox(_ value: Double) throws {
        let dir = try session()
        defer { try? FileManager.default.removeItem(at: dir) }
        try damage(dir) { items in
            var boxes = try #require(items[0]["boxes"] as? [String: Any])
            var crop = try #require(boxes["crop"] as? [String: Any])
            crop["x0"] = value
            boxes["crop"] = crop
            items[0]["boxes"] = boxes
        }
        try expectRefused(dir, naming: "boxes.crop.x0")
    }

    @Test("a damaged sheet cell coordinate is 65 for list, undo, redo and export", arguments: values)
    func sheetCell(_ value: Double) throws {
        let dir = try session()
        defer { try? FileManager.default.removeItem(at: dir) }
        try damage(dir) { items in
            var sheet = try #require(items[1]["sheet"] as? [String: Any])
            var cells = try #require(sheet["cells"] as? [[String: Any]])
            var rect = try #require(cells[0]["rect"] as? [String: Any])
            rect["y1"] = value
            cells[0]["rect"] = rect
            sheet["cells"] = cells
            items[1]["sheet"] = sheet
        }
        try expectRefused(dir, naming: "cells[0].rect.y1")
    }

    func expectRefused(_ dir: URL, naming place: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try sessionBytes(dir)
        for command in [["list"], ["undo"], ["redo"], ["export", "out.pdf"], ["status"]] {
            let result = try pdfedit(args: command, in: dir)
            #expect(result.status == 65, "\(command): \(result.status) \(result.stderr)", sourceLocation: sourceLocation)
            #expect(result.stderrLines.count == 1, "\(command): \(result.stderr)", sourceLocation: sourceLocation)
            #expect(result.stderr.contains("session.json"), sourceLocation: sourceLocation)
            #expect(result.stderr.contains(place), "\(command): \(result.stderr)", sourceLocation: sourceLocation)
        }
        #expect(try sessionBytes(dir) == before, sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.pdf").path))
    }
}
