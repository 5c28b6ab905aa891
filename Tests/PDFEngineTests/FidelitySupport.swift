import Foundation
import Testing

/// What `qpdf --json` (v2) says about a PDF's document-level data: pages and
/// their labels, form fields, outlines, and every object (for the catalog and raw
/// dictionaries). Read by an independent tool, never by the code under test.
struct FidelityJSON {
    struct Field: Equatable, CustomStringConvertible {
        var name: String
        var page: Int?  // 1-based
        var object: String
        var description: String { "\(name)@\(page.map(String.init) ?? "-")" }
    }

    /// One outline entry: title, 1-based target page (nil: none), open state, kids.
    struct Outline: Equatable, CustomStringConvertible {
        var title: String
        var page: Int?
        var open: Bool
        var object: String
        var kids: [Outline]

        var description: String {
            "\(title)→\(page.map(String.init) ?? "-")" + (kids.isEmpty ? "" : "[\(kids.map(\.description).joined(separator: ", "))]")
        }

        /// Title and target only, for comparing trees.
        var shape: String {
            "\(title)→\(page.map(String.init) ?? "-")" + (kids.isEmpty ? "" : "[\(kids.map(\.shape).joined(separator: ", "))]")
        }
    }

    let path: String
    let pages: [String]
    /// Each page's label as a viewer shows it.
    let labels: [String]
    let fields: [Field]
    let outlines: [Outline]
    let objects: [String: Any]
    /// What qpdf printed on stderr (warnings), empty when all is well.
    let warnings: String
    let hasPageLabels: Bool

    init(_ path: String) throws {
        self.path = path
        let result = try ExportTools.run(
            "qpdf",
            ["--json", "--json-key=acroform", "--json-key=outlines", "--json-key=pagelabels", "--json-key=pages",
             "--json-key=qpdf", path])
        warnings = result.stderr
        let root = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        let pageList = root["pages"] as? [[String: Any]] ?? []
        pages = pageList.compactMap { $0["object"] as? String }
        labels = pageList.enumerated().map { index, page in
            FidelityJSON.labelText(page["label"] as? [String: Any], index: index)
        }
        hasPageLabels = !(root["pagelabels"] as? [Any] ?? []).isEmpty
        let form = root["acroform"] as? [String: Any] ?? [:]
        fields = (form["fields"] as? [[String: Any]] ?? []).map {
            Field(
                name: $0["fullname"] as? String ?? "", page: $0["pageposfrom1"] as? Int,
                object: $0["object"] as? String ?? "")
        }
        let pageList2 = pages
        // qpdf resolves a named destination but not one stored as << /D [...] >>:
        // take the page from /D then.
        func target(_ entry: [String: Any]) -> Int? {
            if let page = entry["destpageposfrom1"] as? Int { return page }
            guard let dest = (entry["dest"] as? [String: Any])?["/D"] as? [Any], let page = dest.first as? String,
                let index = pageList2.firstIndex(of: page)
            else { return nil }
            return index + 1
        }
        func outline(_ entries: [[String: Any]]) -> [Outline] {
            entries.map {
                Outline(
                    title: $0["title"] as? String ?? "", page: target($0),
                    open: $0["open"] as? Bool ?? false, object: $0["object"] as? String ?? "",
                    kids: outline($0["kids"] as? [[String: Any]] ?? []))
            }
        }
        outlines = outline(root["outlines"] as? [[String: Any]] ?? [])
        let qpdf = root["qpdf"] as? [Any] ?? []
        objects = qpdf.count > 1 ? qpdf[1] as? [String: Any] ?? [:] : [:]
    }

    /// An object's value (a stream's dictionary for a stream); "trailer" for the trailer.
    func value(_ reference: String) -> Any? {
        let key = reference == "trailer" ? "trailer" : "obj:\(reference)"
        guard let entry = objects[key] as? [String: Any] else { return nil }
        if let value = entry["value"] { return value }
        return (entry["stream"] as? [String: Any])?["dict"]
    }

    func resolve(_ value: Any?) -> Any? {
        if let reference = value as? String, reference.hasSuffix(" R") { return self.value(reference) }
        return value
    }

    func dictionary(_ value: Any?) -> [String: Any]? { resolve(value) as? [String: Any] }

    var trailer: [String: Any] { value("trailer") as? [String: Any] ?? [:] }
    var catalog: [String: Any] { dictionary(trailer["/Root"]) ?? [:] }
    var info: [String: Any] { dictionary(trailer["/Info"]) ?? [:] }
    var acroform: [String: Any]? { dictionary(catalog["/AcroForm"]) }

    /// Every object whose dictionary has `key` (written objects only: qpdf writes
    /// what is reachable).
    func objects(withKey key: String) -> [String] {
        objects.compactMap { name, entry in
            guard name.hasPrefix("obj:"), let entry = entry as? [String: Any] else { return nil }
            let dict = entry["value"] as? [String: Any] ?? (entry["stream"] as? [String: Any])?["dict"] as? [String: Any]
            return dict?[key] != nil ? String(name.dropFirst(4)) : nil
        }
    }

    /// All outline entries, depth first.
    var allOutlines: [Outline] {
        func flatten(_ entries: [Outline]) -> [Outline] { entries.flatMap { [$0] + flatten($0.kids) } }
        return flatten(outlines)
    }

    /// A text string of qpdf's JSON ("u:text" or "b:hex") as text.
    static func text(_ value: Any?) -> String? {
        guard let value = value as? String else { return nil }
        if value.hasPrefix("u:") { return String(value.dropFirst(2)) }
        return value
    }

    /// A page label as a viewer shows it (PDF 32000 12.4.2), from the label
    /// dictionary qpdf gives for the page (its /St already the page's number).
    static func labelText(_ label: [String: Any]?, index: Int) -> String {
        guard let label else { return "\(index + 1)" }
        let prefix = text(label["/P"]) ?? ""
        let number = label["/St"] as? Int ?? 1
        switch label["/S"] as? String {
        case "/D": return prefix + "\(number)"
        case "/R": return prefix + roman(number).uppercased()
        case "/r": return prefix + roman(number)
        case "/A": return prefix + letters(number).uppercased()
        case "/a": return prefix + letters(number)
        default: return prefix
        }
    }

    static func roman(_ number: Int) -> String {
        let table: [(Int, String)] = [
            (1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"),
            (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"),
        ]
        var rest = number
        var result = ""
        for (value, text) in table {
            while rest >= value {
                result += text
                rest -= value
            }
        }
        return result
    }

    /// a..z, aa..zz, aaa..: the letter repeated.
    static func letters(_ number: Int) -> String {
        guard number > 0 else { return "" }
        let letter = Character(UnicodeScalar(UInt8(97 + (number - 1) % 26)))
        return String(repeating: letter, count: (number - 1) / 26 + 1)
    }
}

/// Rendered pages (`pdftoppm -r 20`), compared pixel by pixel.
struct RenderedPage: Equatable {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    /// Renders 1-based `page` of `path` at 20 dpi.
    init(_ path: String, page: Int, password: String? = nil) throws {
        let scratch = try ExportScratch()
        let prefix = scratch.path("page")
        let result = try ExportTools.run(
            "pdftoppm",
            (password.map { ["-opw", $0] } ?? []) + ["-r", "20", "-f", "\(page)", "-l", "\(page)", "-singlefile", path, prefix])
        guard result.status == 0 else { throw RenderError(message: "pdftoppm \(path) p\(page): \(result.stderr)") }
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: prefix + ".ppm")))
        // P6\n<w> <h>\n<max>\n<bytes>
        var fields: [Int] = []
        var index = 2
        while fields.count < 3 && index < data.count {
            while index < data.count, data[index] == 0x20 || data[index] == 0x0A { index += 1 }
            var value = 0
            while index < data.count, (0x30...0x39).contains(data[index]) {
                value = value * 10 + Int(data[index] - 0x30)
                index += 1
            }
            fields.append(value)
        }
        index += 1
        guard fields.count == 3 else { throw RenderError(message: "bad PPM from \(path)") }
        width = fields[0]
        height = fields[1]
        pixels = Array(data[index...])
    }

    /// Same size, and no more than `fraction` of the channel values differ by
    /// more than `tolerance`.
    func looksLike(_ other: RenderedPage, tolerance: UInt8 = 16, fraction: Double = 0.002) -> Bool {
        guard width == other.width, height == other.height, pixels.count == other.pixels.count else { return false }
        var differing = 0
        for (a, b) in zip(pixels, other.pixels) where (a > b ? a - b : b - a) > tolerance { differing += 1 }
        return Double(differing) <= fraction * Double(pixels.count)
    }

    struct RenderError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

/// Expected outline of an export of one source, from the source's own outline as
/// qpdf reads it (a naive reference for the bridge's pruning): entries whose
/// target page is exported point at its first output position; entries with
/// surviving children stay as headings; the rest go.
enum ExpectedOutline {
    static func pruned(_ entries: [FidelityJSON.Outline], firstPosition: [Int: Int]) -> [FidelityJSON.Outline] {
        entries.compactMap { entry in
            let kids = pruned(entry.kids, firstPosition: firstPosition)
            let page = entry.page.flatMap { firstPosition[$0] }
            guard page != nil || !kids.isEmpty else { return nil }
            return FidelityJSON.Outline(title: entry.title, page: page, open: entry.open, object: "", kids: kids)
        }
    }

    /// 1-based source page -> 1-based first output position, for `pages` (1-based
    /// source pages in output order; nil for pages of other sources or blanks).
    static func firstPositions(_ pages: [Int?]) -> [Int: Int] {
        var result: [Int: Int] = [:]
        for (position, page) in pages.enumerated() {
            if let page, result[page] == nil { result[page] = position + 1 }
        }
        return result
    }
}
