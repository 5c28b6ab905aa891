import Foundation
import Testing

/// Optional content (layers), JavaScript and open actions, and the catalog's
/// viewer settings through every kind of export, checked with qpdf's JSON and
/// pdftoppm's pixels. The fixtures are generated here (`LayersFixture.script`):
/// `layers.pdf` has 3 pages and two layers, "lay shown" (on) and "lay hidden"
/// (off by default, a red square); page 1 draws in both, page 2 in the hidden one
/// through an optional content membership dictionary, page 3 in none.
@Suite struct LosslessLayersTests {
    // MARK: Layers

    @Test("reverse all, move, --in-place: both layers, the hidden one still off, pixels as the source's")
    func directModeKeepsLayers() throws {
        let dir = try LayersFixture.directory("layers.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("reverse", "all", "layers.pdf", "-o", "reversed.pdf", in: dir)
        let reversed = try Catalog(dir, "reversed.pdf")
        #expect(reversed.layerNames == ["lay shown", "lay hidden"])
        #expect(reversed.offLayerNames == ["lay hidden"])
        let defaults = reversed.optionalContent?["/D"] as? [String: Any]
        #expect(defaults?["/Name"] as? String == "u:lay config")
        #expect(defaults?["/Creator"] as? String == "u:gen")
        #expect(reversed.names(defaults?["/Locked"]) == ["lay hidden"])
        #expect(reversed.names((defaults?["/RBGroups"] as? [Any])?.first) == ["lay shown", "lay hidden"])
        let order = defaults?["/Order"] as? [Any]
        #expect(order?.count == 1)
        let group = order?.first as? [Any]
        #expect(group?.first as? String == "u:lay layers")
        #expect(reversed.names(Array((group ?? []).dropFirst())) == ["lay shown", "lay hidden"])
        let usage = (defaults?["/AS"] as? [[String: Any]])?.first
        #expect(usage?["/Event"] as? String == "/View")
        #expect(reversed.names(usage?["/OCGs"]) == ["lay shown"])
        let configs = reversed.optionalContent?["/Configs"] as? [[String: Any]]
        #expect(configs?.map { $0["/Name"] as? String } == ["u:All on"])
        try expectSamePixels(dir, "reversed.pdf", [3, 2, 1])

        try pdfeditOK("move", "1", "--to", "3", "layers.pdf", "-o", "moved.pdf", in: dir)
        let moved = try Catalog(dir, "moved.pdf")
        #expect(moved.layerNames == ["lay shown", "lay hidden"])
        #expect(moved.offLayerNames == ["lay hidden"])
        try expectSamePixels(dir, "moved.pdf", [2, 3, 1])

        try FileManager.default.copyItem(
            at: dir.appendingPathComponent("layers.pdf"), to: dir.appendingPathComponent("inplace.pdf"))
        let inPlace = try pdfedit("reverse", "all", "inplace.pdf", "--in-place", in: dir)
        #expect(inPlace.status == 0 && inPlace.stderr.isEmpty, "\(inPlace.stderr)")
        let replaced = try Catalog(dir, "inplace.pdf")
        #expect(replaced.layerNames == ["lay shown", "lay hidden"])
        #expect(replaced.offLayerNames == ["lay hidden"])
        try expectSamePixels(dir, "inplace.pdf", [3, 2, 1])
        for file in ["reversed.pdf", "moved.pdf", "inplace.pdf"] {
            #expect(try qpdfCheck(dir.appendingPathComponent(file).path).status == 0, "\(file)")
        }
    }

    @Test("a session export: no warning, the layers of the kept pages only")
    func sessionExportKeepsLayers() throws {
        let dir = try LayersFixture.directory("layers.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "layers.pdf", in: dir)
        try pdfeditOK("remove", "1", in: dir)
        try pdfeditOK("duplicate", "1", in: dir)
        let result = try pdfedit("export", "out.pdf", in: dir)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let catalog = try Catalog(dir, "out.pdf")
        // Page 1 (with "lay shown") is gone; "lay hidden" is reached through page
        // 2's membership dictionary; the order keeps its label.
        #expect(catalog.layerNames == ["lay hidden"])
        #expect(catalog.offLayerNames == ["lay hidden"])
        let order = (catalog.optionalContent?["/D"] as? [String: Any])?["/Order"] as? [Any]
        #expect((order?.first as? [Any])?.first as? String == "u:lay layers")
        try expectSamePixels(dir, "out.pdf", [2, 2, 3])
    }

    @Test("two sources: one /OCProperties, distinct groups, each keeps its state; configurations dropped with a warning")
    func twoSourcesMerge() throws {
        let dir = try LayersFixture.directory("layers.pdf", "two.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "layers.pdf", in: dir)
        try pdfeditOK("insert", "two.pdf", in: dir)
        let result = try pdfedit("export", "out.pdf", in: dir)
        #expect(result.status == 0)
        #expect(result.stderrLines == [
            "pdfedit: warning: layers.pdf: dropped document-level data that cannot follow pages: "
                + "optional content configurations (layers.pdf)",
        ])
        let catalog = try Catalog(dir, "out.pdf")
        // two.pdf's base state is OFF with "two shown" in /ON: under layers.pdf's
        // base state ON, its "two hidden" is listed in /OFF.
        #expect(catalog.layerNames == ["lay shown", "lay hidden", "two shown", "two hidden"])
        #expect(catalog.offLayerNames == ["lay hidden", "two hidden"])
        let defaults = catalog.optionalContent?["/D"] as? [String: Any]
        #expect(defaults?["/Name"] as? String == "u:lay config")
        #expect(defaults?["/BaseState"] == nil)
        #expect(catalog.optionalContent?["/Configs"] == nil)
        // layers.pdf's labelled group, then two.pdf's "two shown" with "two hidden" nested.
        let order = defaults?["/Order"] as? [Any] ?? []
        #expect(order.count == 3)
        #expect(catalog.names(order.count == 3 ? [order[1]] : []) == ["two shown"])
        #expect(catalog.names(order.count == 3 ? order[2] : nil) == ["two hidden"])
        try expectSamePixels(dir, "out.pdf", [1, 2, 3], source: "layers.pdf")
        try expectSamePixels(dir, "out.pdf", [1, 2, 3], source: "two.pdf", from: 4)
        #expect(try qpdfCheck(dir.appendingPathComponent("out.pdf").path).status == 0)
    }

    @Test("split parts get the layers their own pages use")
    func splitPartsOwnLayers() throws {
        let dir = try LayersFixture.directory("layers.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try pdfedit("export", "--split", "parts", "--from", "layers.pdf", in: dir)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let one = try Catalog(dir, "parts/layers-1.pdf")
        #expect(one.layerNames == ["lay shown", "lay hidden"])
        #expect(one.offLayerNames == ["lay hidden"])
        let two = try Catalog(dir, "parts/layers-2.pdf")
        #expect(two.layerNames == ["lay hidden"])
        #expect(two.offLayerNames == ["lay hidden"])
        let three = try Catalog(dir, "parts/layers-3.pdf")
        #expect(three.optionalContent == nil)
        #expect(three.root["/PageMode"] == nil, "nothing for /UseOC to show")
        for (part, page) in [(1, 1), (2, 2), (3, 3)] {
            #expect(
                try LayersFixture.pixels(dir, "parts/layers-\(part).pdf", page: 1)
                    == LayersFixture.pixels(dir, "layers.pdf", page: page), "part \(part)")
        }
    }

    @Test("a group left with no page of its own stays as the heading of a kept group in /Order")
    func headingOfKeptGroupStays() throws {
        let dir = try LayersFixture.directory("two.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Page 2 draws only in "two hidden", which /Order nests under "two shown".
        try pdfeditOK("remove", "1,3", "two.pdf", "-o", "out.pdf", in: dir)
        let catalog = try Catalog(dir, "out.pdf")
        #expect(catalog.layerNames == ["two shown", "two hidden"])
        #expect(catalog.offLayerNames == ["two hidden"])
        let defaults = catalog.optionalContent?["/D"] as? [String: Any]
        #expect(defaults?["/BaseState"] as? String == "/OFF")
        #expect(catalog.names(defaults?["/ON"]) == ["two shown"])
        let order = defaults?["/Order"] as? [Any] ?? []
        #expect(order.count == 2)
        #expect(catalog.names(order.first.map { [$0] }) == ["two shown"])
        #expect(catalog.names(order.last) == ["two hidden"])
        try expectSamePixels(dir, "out.pdf", [2], source: "two.pdf")
    }

    // MARK: Viewer settings

    @Test("viewer preferences, page mode and layout, language: of the source of the first exported page")
    func viewerSettingsOfFirstPageSource() throws {
        let dir = try LayersFixture.directory("layers.pdf", "two.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("rotate", "2", "--by", "90", "layers.pdf", "-o", "rotated.pdf", in: dir)
        let rotated = try Catalog(dir, "rotated.pdf")
        #expect(rotated.root["/Lang"] as? String == "u:de-CH")
        #expect(rotated.root["/PageLayout"] as? String == "/TwoColumnLeft")
        #expect(rotated.root["/PageMode"] as? String == "/UseOC")
        let preferences = rotated.dictionary(rotated.root["/ViewerPreferences"])
        #expect(preferences?["/HideToolbar"] as? Bool == true && preferences?["/DisplayDocTitle"] as? Bool == true)

        try pdfeditOK("open", "layers.pdf", in: dir)
        try pdfeditOK("insert", "two.pdf", "--at", "1", in: dir)
        try pdfeditOK("export", "out.pdf", in: dir)
        let merged = try Catalog(dir, "out.pdf")
        #expect(merged.root["/Lang"] as? String == "u:fr-FR")
        #expect(merged.root["/PageLayout"] as? String == "/SinglePage")
        #expect(merged.root["/PageMode"] == nil)
        #expect(merged.dictionary(merged.root["/ViewerPreferences"])?["/HideMenubar"] as? Bool == true)
        #expect(merged.dictionary(merged.root["/ViewerPreferences"])?["/HideToolbar"] == nil)
    }

    // MARK: Scripts

    static let droppedScripts =
        "pdfedit: warning: js.pdf: dropped document-level data that cannot follow pages: "
        + "JavaScript (js.pdf), open action (js.pdf), document actions (js.pdf)"

    @Test("JavaScript, open action and document actions: dropped with one warning line, kept with --keep-scripts")
    func scriptsDroppedOrKept() throws {
        let dir = try LayersFixture.directory("js.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let dropped = try pdfedit("reverse", "all", "js.pdf", "-o", "dropped.pdf", in: dir)
        #expect(dropped.status == 0)
        #expect(dropped.stderrLines == [Self.droppedScripts])
        let without = try Catalog(dir, "dropped.pdf")
        #expect(without.root["/OpenAction"] == nil && without.root["/AA"] == nil && without.root["/Names"] == nil)

        let kept = try pdfedit("reverse", "all", "js.pdf", "-o", "kept.pdf", "--keep-scripts", in: dir)
        #expect(kept.status == 0 && kept.stderr.isEmpty, "\(kept.stderr)")
        let with = try Catalog(dir, "kept.pdf")
        #expect(with.dictionary(with.root["/OpenAction"])?["/JS"] as? String == "u:app.alert('js open');")
        let close = with.dictionary(with.dictionary(with.root["/AA"])?["/WC"])
        #expect(close?["/JS"] as? String == "u:app.alert('js close');")
        #expect(with.scripts == ["init": "u:var js = 1;"])
        #expect(try pageTokens(dir.appendingPathComponent("kept.pdf")) == ["JS-P2", "JS-P1"])

        // export --from takes the flag too.
        let exported = try pdfedit("export", "exported.pdf", "--from", "js.pdf", "--keep-scripts", in: dir)
        #expect(exported.status == 0 && exported.stderr.isEmpty, "\(exported.stderr)")
        #expect(try Catalog(dir, "exported.pdf").scripts == ["init": "u:var js = 1;"])
    }

    @Test("--in-place drops the scripts as -o does, unless --keep-scripts")
    func inPlaceScripts() throws {
        let dir = try LayersFixture.directory("js.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: dir.appendingPathComponent("js.pdf"), to: dir.appendingPathComponent("k.pdf"))
        let dropped = try pdfedit("reverse", "all", "js.pdf", "--in-place", in: dir)
        #expect(dropped.stderrLines == [Self.droppedScripts])
        let without = try Catalog(dir, "js.pdf")
        #expect(without.root["/OpenAction"] == nil && without.root["/AA"] == nil && without.root["/Names"] == nil)
        let kept = try pdfedit("reverse", "all", "k.pdf", "--in-place", "--keep-scripts", in: dir)
        #expect(kept.status == 0 && kept.stderr.isEmpty, "\(kept.stderr)")
        let with = try Catalog(dir, "k.pdf")
        #expect(with.scripts == ["init": "u:var js = 1;"])
        #expect(with.root["/OpenAction"] != nil && with.root["/AA"] != nil)
    }

    @Test("two sources with --keep-scripts: scripts merged under unique names, the first source's open action")
    func scriptsOfTwoSources() throws {
        let dir = try LayersFixture.directory("js.pdf", "js2.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "js.pdf", in: dir)
        try pdfeditOK("insert", "js2.pdf", in: dir)
        let result = try pdfedit("export", "out.pdf", "--keep-scripts", in: dir)
        #expect(result.status == 0)
        #expect(result.stderrLines == [
            "pdfedit: warning: js2.pdf: dropped document-level data that cannot follow pages: "
                + "open action (js2.pdf), document actions (js2.pdf)",
        ])
        let catalog = try Catalog(dir, "out.pdf")
        #expect(catalog.scripts == ["init": "u:var js = 1;", "init (2)": "u:var js2 = 1;"])
        #expect(catalog.dictionary(catalog.root["/OpenAction"])?["/JS"] as? String == "u:app.alert('js open');")
        #expect(try qpdfCheck(dir.appendingPathComponent("out.pdf").path).status == 0)
    }

    // MARK: Corpus

    @Test(.enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (fresh clone): corpus tests skipped"))
    func corpusFilesKeepTheirLayers() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The files MANIFEST.tsv lists with optional content.
        let manifest = try String(contentsOf: Paths.corpus.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        let names = manifest.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
            .filter { $0.count > 8 && $0[8].contains("optional-content") }.map { $0[0] }
        var checked = 0
        for name in names.sorted() {
            let source = URL(fileURLWithPath: Paths.corpus(name))
            let before = try Catalog(source)
            #expect(before.optionalContent != nil, "\(name)")
            #expect(!before.layerNames.isEmpty, "\(name)")
            let output = dir.appendingPathComponent(name)
            let result = try pdfedit("reverse", "all", source.path, "-o", output.path, in: dir)
            guard result.status == 0 else { continue } // the corpus sweep holds what fails and why
            let after = try Catalog(output)
            #expect(after.layerNames.count == before.layerNames.count, "\(name)")
            #expect(after.offLayerNames.count == before.offLayerNames.count, "\(name)")
            #expect(!result.stderr.contains("optional content"), "\(name): \(result.stderr)")
            checked += 1
        }
        #expect(checked >= 1, "the corpus has a file with layers (pypdf-example.pdf)")
    }

    // MARK: Helpers

    /// Pages `pages` (1-based, of `source`) render as pages `from`... of `output`.
    func expectSamePixels(
        _ dir: URL, _ output: String, _ pages: [Int], source: String = "layers.pdf", from: Int = 1,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for (index, page) in pages.enumerated() {
            let made = try LayersFixture.pixels(dir, output, page: from + index)
            let original = try LayersFixture.pixels(dir, source, page: page)
            #expect(!made.isEmpty && made == original, "\(output) page \(from + index)", sourceLocation: sourceLocation)
        }
    }
}

/// A PDF's objects as `qpdf --json` gives them, with its catalog.
struct Catalog {
    let objects: [String: Any]
    let root: [String: Any]

    init(_ dir: URL, _ name: String) throws { try self.init(dir.appendingPathComponent(name)) }

    init(_ file: URL) throws {
        let result = try run("qpdf", ["--json", "--json-key=qpdf", file.path])
        guard let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            let objects = (json["qpdf"] as? [Any])?.last as? [String: Any],
            let trailer = (objects["trailer"] as? [String: Any])?["value"] as? [String: Any],
            let reference = trailer["/Root"] as? String,
            let root = (objects["obj:\(reference)"] as? [String: Any])?["value"] as? [String: Any]
        else {
            throw CatalogUnreadable(file: file.path, message: result.stderr)
        }
        self.objects = objects
        self.root = root
    }

    /// An object with its references followed.
    func resolve(_ value: Any?) -> Any? {
        if let reference = value as? String, reference.hasSuffix(" R") {
            let object = objects["obj:\(reference)"] as? [String: Any]
            return object?["value"] ?? (object?["stream"] as? [String: Any])?["dict"]
        }
        return value
    }

    func dictionary(_ value: Any?) -> [String: Any]? { resolve(value) as? [String: Any] }

    /// The /Name of each group in `list` (an array of references), without qpdf's "u:".
    func names(_ list: Any?) -> [String] {
        (resolve(list) as? [Any] ?? []).compactMap { dictionary($0)?["/Name"] as? String }
            .map { $0.hasPrefix("u:") ? String($0.dropFirst(2)) : $0 }
    }

    var optionalContent: [String: Any]? { dictionary(root["/OCProperties"]) }
    var layerNames: [String] { names(optionalContent?["/OCGs"]) }

    /// The groups off by default under /D.
    var offLayerNames: [String] {
        let defaults = dictionary(optionalContent?["/D"])
        if defaults?["/BaseState"] as? String == "/OFF" {
            let on = Set(names(defaults?["/ON"]))
            return layerNames.filter { !on.contains($0) }
        }
        let off = Set(names(defaults?["/OFF"]))
        return layerNames.filter { off.contains($0) }
    }

    /// The /Names /JavaScript tree's flat /Names: name -> the action's /JS.
    var scripts: [String: String] {
        let tree = dictionary(dictionary(root["/Names"])?["/JavaScript"])
        let flat = resolve(tree?["/Names"]) as? [Any] ?? []
        var result: [String: String] = [:]
        for index in stride(from: 0, to: flat.count - 1, by: 2) {
            guard let key = flat[index] as? String else { continue }
            result[key.hasPrefix("u:") ? String(key.dropFirst(2)) : key] =
                dictionary(flat[index + 1])?["/JS"] as? String ?? "?"
        }
        return result
    }
}

struct CatalogUnreadable: Error {
    var file: String
    var message: String
}

/// Generates the fixtures of `LosslessLayersTests` with python3 (no third-party
/// modules) and lets qpdf rewrite them.
enum LayersFixture {
    /// A new directory holding the named fixtures: layers.pdf, two.pdf (layers
    /// "two shown"/"two hidden" under /BaseState /OFF), js.pdf, js2.pdf.
    static func directory(_ names: String...) throws -> URL {
        let dir = try temporaryDirectory()
        let script = dir.appendingPathComponent("gen.py")
        try Data(Self.script.utf8).write(to: script)
        for name in names {
            let (kind, tag): (String, String) =
                switch name {
                case "layers.pdf": ("layers", "lay")
                case "two.pdf": ("layers2", "two")
                case "js.pdf": ("scripts", "js")
                default: ("scripts", "js2")
                }
            let raw = dir.appendingPathComponent("raw-\(name)")
            let made = try run("python3", [script.path, kind, tag, raw.path])
            guard made.status == 0 else { throw CatalogUnreadable(file: name, message: made.stderr) }
            let rewritten = try run("qpdf", [raw.path, dir.appendingPathComponent(name).path])
            guard rewritten.status == 0 else { throw CatalogUnreadable(file: name, message: rewritten.stderr) }
            try FileManager.default.removeItem(at: raw)
        }
        try FileManager.default.removeItem(at: script)
        return dir
    }

    /// The page rendered by pdftoppm (PPM bytes at 30 dpi).
    static func pixels(_ dir: URL, _ file: String, page: Int) throws -> Data {
        let prefix = dir.appendingPathComponent("render-\(UUID().uuidString)")
        let result = try run(
            "pdftoppm", ["-r", "30", "-f", "\(page)", "-l", "\(page)", "-singlefile",
                         dir.appendingPathComponent(file).path, prefix.path])
        guard result.status == 0 else { return Data() }
        let image = prefix.appendingPathExtension("ppm")
        defer { try? FileManager.default.removeItem(at: image) }
        return try Data(contentsOf: image)
    }

    static let script = #"""
import sys
def build(objects, root=1):
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        if isinstance(body, tuple):
            d, data = body
            out += b"%d 0 obj\n<< %s /Length %d >>\nstream\n" % (i, d.encode(), len(data)) + data + b"\nendstream\nendobj\n"
        else:
            out += b"%d 0 obj\n%s\nendobj\n" % (i, body.encode())
    x = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for o in offsets:
        out += b"%010d 00000 n \n" % o
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, root, x)
    return bytes(out)

def layers(tag, second):
    # 1 catalog, 2 pages, 3 font, 4 ocgV, 5 ocgH, 6 ocmd, 7-9 pages, 10-12 contents
    if second:
        oc = "<< /OCGs [4 0 R 5 0 R] /D << /Name (%s config) /BaseState /OFF /ON [4 0 R] /Order [4 0 R [5 0 R]] >> >>" % tag
        extra = "/ViewerPreferences << /HideMenubar true >> /PageLayout /SinglePage /Lang (fr-FR)"
    else:
        oc = ("<< /OCGs [4 0 R 5 0 R] /D << /Name (%s config) /Creator (gen) /OFF [5 0 R] /Order [[(%s layers) 4 0 R 5 0 R]] "
              "/RBGroups [[4 0 R 5 0 R]] /Locked [5 0 R] /AS [<< /Event /View /Category [/Zoom] /OCGs [4 0 R] >>] >> "
              "/Configs [<< /Name (All on) /BaseState /ON /OFF [] >>] >>") % (tag, tag)
        extra = ("/ViewerPreferences << /HideToolbar true /DisplayDocTitle true >> /PageMode /UseOC "
                 "/PageLayout /TwoColumnLeft /Lang (de-CH)")
    objs = [
        "<< /Type /Catalog /Pages 2 0 R /OCProperties %s %s >>" % (oc, extra),
        "<< /Type /Pages /Kids [7 0 R 8 0 R 9 0 R] /Count 3 >>",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        "<< /Type /OCG /Name (%s shown) /Usage << /Zoom << /min 0 >> >> >>" % tag,
        "<< /Type /OCG /Name (%s hidden) >>" % tag,
        "<< /Type /OCMD /OCGs [5 0 R] /P /AnyOn >>",
    ]
    for n in range(3):
        props = ["/Properties << /oc1 4 0 R /oc2 5 0 R >>", "/Properties << /m1 6 0 R >>", ""][n]
        objs.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 300] /Resources << /Font << /F1 3 0 R >> %s >> /Contents %d 0 R >>" % (props, 10 + n))
    text = "q 0 0 0 rg BT /F1 20 Tf 20 260 Td (%s-P%%d) Tj ET Q\n" % tag.upper()
    bodies = [
        text % 1 + "/OC /oc1 BDC q 0 0 1 rg 20 20 150 150 re f Q EMC\n/OC /oc2 BDC q 1 0 0 rg 200 20 150 150 re f Q EMC\n",
        text % 2 + "/OC /m1 BDC q 1 0 0 rg 20 20 300 150 re f Q EMC\n",
        text % 3 + "q 0 1 0 rg 20 20 100 100 re f Q\n",
    ]
    for b in bodies:
        objs.append(("", b.encode()))
    return build(objs)

def scripts(tag):
    objs = [
        "<< /Type /Catalog /Pages 2 0 R /OpenAction << /S /JavaScript /JS (app.alert\\('%s open'\\);) >> "
        "/Names << /JavaScript << /Names [(init) 6 0 R] >> >> /AA << /WC << /S /JavaScript /JS (app.alert\\('%s close'\\);) >> >> >>" % (tag, tag),
        "<< /Type /Pages /Kids [4 0 R 5 0 R] /Count 2 >>",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources << /Font << /F1 3 0 R >> >> /Contents 7 0 R >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources << /Font << /F1 3 0 R >> >> /Contents 8 0 R >>",
        "<< /S /JavaScript /JS (var %s = 1;) >>" % tag,
    ]
    for n in (1, 2):
        objs.append(("", b"BT /F1 20 Tf 20 100 Td (%s-P%d) Tj ET\n" % (tag.upper().encode(), n)))
    return build(objs)

kind, tag, path = sys.argv[1], sys.argv[2], sys.argv[3]
data = {"layers": lambda: layers(tag, False), "layers2": lambda: layers(tag, True), "scripts": lambda: scripts(tag)}[kind]()
open(path, "wb").write(data)
"""#
}
