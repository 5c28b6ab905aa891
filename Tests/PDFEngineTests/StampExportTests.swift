import Foundation
import PDFEngine
import PageModel
import Testing

extension ExportStamp {
    /// The stamp drawn at the identity matrix: for the bridge's own checks of a
    /// plan that names what does not exist (nothing to place it on).
    var unplaced: ExportStamp {
        var stamp = self
        stamp.matrix = .identity
        return stamp
    }
}

/// Stamps at export (`pe_export`): where `pdftoppm` sees them, what
/// `qpdf --check` and `qpdf --json` say about the output.
@Suite struct StampExportTests {
    static let fixtures = ["alpha.pdf", "stamp.pdf", "rotated.pdf", "sizes.pdf", "features.pdf"]
    static var haveFixtures: Bool { fixtures.allSatisfy(ExportPaths.hasFixture) }
    /// What stamp.pdf (200 x 100 pt) paints: a 3 pt border on the rectangle 6 6 188 88,
    /// so 191 x 91 pt of ink, centred.
    static let draftInk = (width: 191.0, height: 91.0)

    /// Exports, checks the output with `qpdf --check`, returns its path.
    @discardableResult
    func export(
        _ sources: [ExportSource], _ items: [ExportItem], stamps: [ExportStamp], to output: String
    ) throws -> String {
        _ = try PDFExporter.write(sources: sources, items: items, stamps: Self.placed(stamps, items, sources), to: output)
        let check = try ExportTools.check(output)
        #expect(check.status == 0, "qpdf --check \(output): \(check.stdout) \(check.stderr)")
        return output
    }

    /// `stamps` with the matrices the kit gives them (`ExportStamp.place`), the
    /// pages' geometry read as the kit reads it.
    static func placed(_ stamps: [ExportStamp], _ items: [ExportItem], _ sources: [ExportSource]) throws -> [ExportStamp] {
        var stamps = stamps
        var items = items
        var opened: [Int: OpenedPDF] = [:]
        try ExportStamp.place(&stamps, items: &items) { source, page throws(EngineError) in
            let document: OpenedPDF
            if let known = opened[source] {
                document = known
            } else {
                document = try OpenedPDF(path: sources[source].path, for: .reading)
                opened[source] = document
            }
            let attributes = try document.attributes(ofPage: page)
            return PageFrame(
                mediaBox: attributes.mediaBox, visibleBox: attributes.cropBox, quarterTurns: attributes.rotation / 90,
                userUnit: attributes.userUnit)
        }
        return stamps
    }

    // MARK: Over and under

    @Test func anOpaqueStampOverAPageHidesWhatItCoversAndUnderItHidesNothing() throws {
        let scratch = try ExportScratch()
        let page = try scratch.write(SolidPDF(pages: [.init(width: 612, height: 792, rgb: (0, 0, 1))]), as: "blue.pdf")
        let stamp = try scratch.write(SolidPDF(pages: [.init(width: 200, height: 100, rgb: (0, 1, 0))]), as: "green.pdf")
        let sources = [ExportSource(path: page), ExportSource(path: stamp)]
        let items: [ExportItem] = [.page(source: 0, index: 0)]
        let plain = try export(sources, items, stamps: [], to: scratch.path("plain.pdf"))
        let over = try export(
            sources, items, stamps: [ExportStamp(item: 0, source: 1, page: 0)], to: scratch.path("over.pdf"))
        let under = try export(
            sources, items, stamps: [ExportStamp(item: 0, source: 1, page: 0, under: true)],
            to: scratch.path("under.pdf"))

        let plainPage = try Raster(plain, page: 1)
        let overPage = try Raster(over, page: 1)
        #expect(try Raster(under, page: 1) == plainPage, "an opaque page hides an under stamp entirely")
        // Over: a 200 x 100 pt green box in the middle, the rest of the page untouched.
        let box = try #require(overPage.differences(from: plainPage))
        #expect(overPage.pixel(overPage.width / 2, overPage.height / 2) == (0, 255, 0))
        #expect(abs(box.width - overPage.points(200)) <= 2 && abs(box.height - overPage.points(100)) <= 2, "\(box)")
        #expect(box.isCentred(in: overPage), "\(box) in \(overPage.width)x\(overPage.height)")
    }

    @Test func anUnderStampShowsWhereThePagePaintsNothing() throws {
        let scratch = try ExportScratch()
        let page = try scratch.write(TinyPDF(tokens: ["TEXT-P1"]), as: "text.pdf")
        let stamp = try scratch.write(SolidPDF(pages: [.init(width: 200, height: 100, rgb: (0, 1, 0))]), as: "green.pdf")
        let output = try export(
            [ExportSource(path: page), ExportSource(path: stamp)], [.page(source: 0, index: 0)],
            stamps: [ExportStamp(item: 0, source: 1, page: 0, under: true)], to: scratch.path("out.pdf"))
        let raster = try Raster(output, page: 1)
        #expect(raster.pixel(raster.width / 2, raster.height / 2) == (0, 255, 0))
        #expect(try ExportTools.text(output, page: 1) == "TEXT-P1")
    }

    @Test func opacityMixesTheStampWithThePage() throws {
        let scratch = try ExportScratch()
        let page = try scratch.write(SolidPDF(pages: [.init(width: 612, height: 792, rgb: (0, 0, 1))]), as: "blue.pdf")
        let stamp = try scratch.write(SolidPDF(pages: [.init(width: 200, height: 100, rgb: (0, 1, 0))]), as: "green.pdf")
        let output = try export(
            [ExportSource(path: page), ExportSource(path: stamp)], [.page(source: 0, index: 0)],
            stamps: [ExportStamp(item: 0, source: 1, page: 0, opacity: 0.5)], to: scratch.path("out.pdf"))
        let raster = try Raster(output, page: 1)
        let centre = raster.pixel(raster.width / 2, raster.height / 2)
        #expect(centre.red < 20 && abs(centre.green - 128) < 20 && abs(centre.blue - 128) < 20, "\(centre)")
    }

    // MARK: Placement

    @Test(.enabled(if: haveFixtures, "needs the fixtures"))
    func theDraftWordReadsUprightOnRotatedPagesWhateverTheItemsTurns() throws {
        let scratch = try ExportScratch()
        let sources = [ExportSource(path: ExportPaths.fixture("rotated.pdf")), ExportSource(path: ExportPaths.fixture("stamp.pdf"))]
        // What the stamp paints, on its own: the pixels that must change, the same way up.
        let alone = try Raster(ExportPaths.fixture("stamp.pdf"), page: 1)
        let white = Raster(width: alone.width, height: alone.height, bytes: Array(repeating: 255, count: alone.bytes.count))
        let ink = try #require(alone.differences(from: white))
        for turns in 0..<4 {
            let items: [ExportItem] = (0..<4).map { .page(source: 0, index: $0, quarterTurns: turns) }
            let plain = try export(sources, items, stamps: [], to: scratch.path("plain\(turns).pdf"))
            let stamped = try export(
                sources, items, stamps: (0..<4).map { ExportStamp(item: $0, source: 1, page: 0) },
                to: scratch.path("stamped\(turns).pdf"))
            for page in 1...4 {
                let before = try Raster(plain, page: page)
                let after = try Raster(stamped, page: page)
                let box = try #require(after.differences(from: before), "page \(page) turned \(turns): no stamp")
                // Upright: wider than tall, whatever the page's and the item's rotation.
                #expect(box.width > 2 * box.height, "page \(page) turned \(turns): \(box)")
                #expect(abs(box.width - after.points(Self.draftInk.width)) <= 2, "page \(page) turned \(turns): \(box)")
                #expect(abs(box.height - after.points(Self.draftInk.height)) <= 2, "page \(page) turned \(turns): \(box)")
                #expect(box.isCentred(in: after), "page \(page) turned \(turns): \(box)")
                #expect(after.turnedRedder(than: before), "page \(page) turned \(turns): the changed pixels are not red")
                // Reads upright (not upside down): the changed pixels match the stamp's own ink.
                let overlap = after.changeOverlap(with: before, in: box, reference: alone, referenceBox: ink, blank: white)
                #expect(overlap > 0.8, "page \(page) turned \(turns): the stamp does not read upright (\(overlap))")
            }
        }
    }

    @Test(.enabled(if: haveFixtures, "needs the fixtures"))
    func aStampIsCentredInTheVisibleBoxOfOddBoxes() throws {
        let scratch = try ExportScratch()
        let sources = [ExportSource(path: ExportPaths.fixture("sizes.pdf")), ExportSource(path: ExportPaths.fixture("stamp.pdf"))]
        let items: [ExportItem] = (0..<4).map { .page(source: 0, index: $0) }
        let plain = try export(sources, items, stamps: [], to: scratch.path("plain.pdf"))
        let stamped = try export(
            sources, items, stamps: (0..<4).map { ExportStamp(item: $0, source: 1, page: 0) },
            to: scratch.path("stamped.pdf"))
        let fitted = try export(
            sources, items, stamps: (0..<4).map { ExportStamp(item: $0, source: 1, page: 0, fit: true) },
            to: scratch.path("fitted.pdf"))
        for page in 1...4 {
            // The crop box, as a reader shows it (page 2: 720 x 540 of a 792 x 612 MediaBox;
            // page 4: MediaBox [100 200 695 1042]).
            let before = try Raster(plain, page: page, cropBox: true)
            let after = try Raster(stamped, page: page, cropBox: true)
            let box = try #require(after.differences(from: before), "page \(page): no stamp")
            #expect(box.isCentred(in: after), "page \(page): \(box) in \(after.width)x\(after.height)")
            #expect(
                abs(box.width - after.points(Self.draftInk.width)) <= 2
                    && abs(box.height - after.points(Self.draftInk.height)) <= 2, "\(box)")

            // --fit: as wide as the visible box (no page of sizes.pdf is twice as wide as tall), centred.
            let fit = try Raster(fitted, page: page, cropBox: true)
            let fitBox = try #require(fit.differences(from: before), "page \(page): no fitted stamp")
            #expect(fitBox.isCentred(in: fit), "page \(page): \(fitBox)")
            let scale = Double(fit.width) / 200
            #expect(
                abs(Double(fitBox.width) - Self.draftInk.width * scale) <= 3
                    && abs(Double(fitBox.height) - Self.draftInk.height * scale) <= 3,
                "page \(page): \(fitBox) in \(fit.width)x\(fit.height)")
        }
    }

    @Test(.enabled(if: haveFixtures, "needs the fixtures"))
    func aStampPageWithItsOwnRotationIsPlacedAsItsReaderShowsIt() throws {
        let scratch = try ExportScratch()
        // rotated.pdf page 2 is 420 x 595 turned 90°: shown 595 x 420. Fitted on a 612 x 792 page: 612 wide.
        let rotated = ExportPaths.fixture("rotated.pdf")
        let blankSource = try scratch.write(TinyPDF(tokens: ["BLANK-P1"]), as: "blank.pdf")
        let sources = [ExportSource(path: blankSource), ExportSource(path: rotated)]
        let items: [ExportItem] = [.page(source: 0, index: 0)]
        let plain = try export(sources, items, stamps: [], to: scratch.path("plain.pdf"))
        let stamped = try export(
            sources, items, stamps: [ExportStamp(item: 0, source: 1, page: 1, fit: true)], to: scratch.path("out.pdf"))
        let before = try Raster(plain, page: 1)
        let after = try Raster(stamped, page: 1)
        let box = try #require(after.differences(from: before))
        // Where the stamp lands: 612 x 432 pt, centred. It shows what pdftoppm shows of
        // rotated.pdf page 2 (its marker, probe and big rectangle, by colour).
        let original = try Raster(rotated, page: 2)
        let (width, height) = (Double(after.width), Double(after.points(420 * 612 / 595)))
        let top = (Double(after.height) - height) / 2
        #expect(Double(box.y) >= top - 1 && Double(box.y + box.height) <= top + height + 1, "\(box)")
        for (fx, fy) in [(0.1343, 0.5), (0.5, 0.5), (0.9395, 0.0857), (0.3, 0.8)] {
            let expected = original.pixel(Int(fx * Double(original.width)), Int(fy * Double(original.height)))
            let seen = after.pixel(Int(fx * width), Int(top + fy * height))
            #expect(Raster.close(seen, expected, within: 40), "at \(fx),\(fy): \(seen) instead of \(expected)")
        }
    }

    // MARK: One shared form, nothing else shared

    @Test(.enabled(if: haveFixtures, "needs the fixtures"))
    func oneFormXObjectServesEveryStampedPage() throws {
        let scratch = try ExportScratch()
        let sources = [ExportSource(path: ExportPaths.fixture("alpha.pdf")), ExportSource(path: ExportPaths.fixture("stamp.pdf"))]
        let items: [ExportItem] = (0..<60).map { .page(source: 0, index: $0 % 7, quarterTurns: $0 % 4) }
        let plain = try export(sources, items, stamps: [], to: scratch.path("plain.pdf"))
        let stamped = try export(
            sources, items,
            stamps: (0..<60).map { ExportStamp(item: $0, source: 1, page: 0, under: $0 % 3 == 0, opacity: $0 % 2 == 0 ? 1 : 0.5) },
            to: scratch.path("stamped.pdf"))
        let json = try QPDFJSON(stamped)
        let forms = json.objects.values.filter { entry in
            ((entry as? [String: Any])?["stream"] as? [String: Any]).flatMap { $0["dict"] as? [String: Any] }?["/Subtype"]
                as? String == "/Form"
        }
        #expect(forms.count == 1)
        let growth = try fileSize(stamped) - fileSize(plain)
        let stampSize = try fileSize(ExportPaths.fixture("stamp.pdf"))
        #expect(growth < stampSize + 60 * 120, "grew by \(growth) bytes for 60 stamped pages")
        // Fixed resource names.
        let resources = try #require(json.dictionary(json.dictionary(json.pages[0])?["/Resources"]))
        #expect(json.dictionary(resources["/XObject"])?["/PdfeditStamp0"] != nil)
    }

    @Test(.enabled(if: haveFixtures, "needs the fixtures"))
    func aPageExportedTwiceIsStampedOnlyWhereItWasStamped() throws {
        let scratch = try ExportScratch()
        let sources = [ExportSource(path: ExportPaths.fixture("alpha.pdf")), ExportSource(path: ExportPaths.fixture("stamp.pdf"))]
        let plain = try export(sources, [.page(source: 0, index: 0)], stamps: [], to: scratch.path("plain.pdf"))
        for stampedItem in [0, 1] {
            let output = try export(
                sources, [.page(source: 0, index: 0), .page(source: 0, index: 0)],
                stamps: [ExportStamp(item: stampedItem, source: 1, page: 0, under: stampedItem == 1)],
                to: scratch.path("twice\(stampedItem).pdf"))
            let reference = try Raster(plain, page: 1)
            let other = 1 - stampedItem
            #expect(try Raster(output, page: other + 1) == reference, "the unstamped copy changed")
            if stampedItem == 0 {
                #expect(try Raster(output, page: 1).differences(from: reference) != nil, "the stamped copy shows no stamp")
            }
            let json = try QPDFJSON(output)
            let contents = json.pages.map { json.resolve(json.dictionary($0)?["/Contents"]) }
            let unstampedContents = contents[other]
            #expect((unstampedContents as? [Any])?.count ?? 1 < (contents[stampedItem] as? [Any])?.count ?? 0)
        }
    }

    @Test(.enabled(if: haveFixtures, "needs the fixtures"))
    func annotationsStayAndTheStampPagesAnnotationsDoNotCome() throws {
        let scratch = try ExportScratch()
        let features = ExportPaths.fixture("features.pdf")
        let sources = [ExportSource(path: features), ExportSource(path: ExportPaths.fixture("alpha.pdf"))]
        let items: [ExportItem] = (0..<6).map { .page(source: 0, index: $0) }
        let plain = try export(sources, items, stamps: [], to: scratch.path("plain.pdf"))
        // features.pdf page 1 (with a link) stamped on every page of alpha… and on features itself.
        let stamped = try export(
            sources, items, stamps: (0..<6).map { ExportStamp(item: $0, source: 0, page: 0, fit: true, opacity: 0.3) },
            to: scratch.path("stamped.pdf"))
        let before = try QPDFJSON(plain)
        let after = try QPDFJSON(stamped)
        #expect(before.pages.map { before.annotations(ofPage: $0).count } == after.pages.map { after.annotations(ofPage: $0).count })
        #expect(before.internalLinks.count == after.internalLinks.count)
        for page in 1...6 {
            #expect(try ExportTools.text(stamped, page: page).contains("FEAT-P\(page)"))
        }
    }

    // MARK: Determinism, parts, names, errors

    @Test(.enabled(if: haveFixtures, "needs the fixtures"))
    func twoExportsAreByteIdenticalAndPartsCarryTheirStamps() throws {
        let scratch = try ExportScratch()
        let sources = [ExportSource(path: ExportPaths.fixture("alpha.pdf")), ExportSource(path: ExportPaths.fixture("stamp.pdf"))]
        let items: [ExportItem] = (0..<7).map { .page(source: 0, index: $0) }
        let stamps = [ExportStamp(item: 2, source: 1, page: 0), ExportStamp(item: 5, source: 1, page: 0, fit: true)]
        let one = try export(sources, items, stamps: stamps, to: scratch.path("one.pdf"))
        let two = try export(sources, items, stamps: stamps, to: scratch.path("two.pdf"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: one)) == Data(contentsOf: URL(fileURLWithPath: two)))

        _ = try PDFExporter.writeParts(
            sources: sources, items: items, stamps: Self.placed(stamps, items, sources),
            parts: [ExportPart(items: 0..<4, path: scratch.path("a.pdf")), ExportPart(items: 4..<7, path: scratch.path("b.pdf"))])
        for (part, stampedPage) in [("a.pdf", 3), ("b.pdf", 2)] {
            #expect(try ExportTools.check(scratch.path(part)).status == 0)
            let count = try ExportTools.pageCount(scratch.path(part)) ?? 0
            for page in 1...count {
                let json = try QPDFJSON(scratch.path(part))
                let resources = json.dictionary(json.dictionary(json.pages[page - 1])?["/Resources"])
                let stamped = json.dictionary(resources?["/XObject"])?["/PdfeditStamp0"] != nil
                #expect(stamped == (page == stampedPage), "\(part) page \(page)")
            }
        }
    }

    @Test(.enabled(if: haveFixtures, "needs the fixtures"))
    func stampingAStampedOutputKeepsBothStamps() throws {
        let scratch = try ExportScratch()
        let stampFile = ExportSource(path: ExportPaths.fixture("stamp.pdf"))
        let first = try export(
            [ExportSource(path: ExportPaths.fixture("alpha.pdf")), stampFile], [.page(source: 0, index: 0)],
            stamps: [ExportStamp(item: 0, source: 1, page: 0)], to: scratch.path("first.pdf"))
        let second = try export(
            [ExportSource(path: first), stampFile], [.page(source: 0, index: 0)],
            stamps: [ExportStamp(item: 0, source: 1, page: 0, fit: true)], to: scratch.path("second.pdf"))
        let json = try QPDFJSON(second)
        let xobjects = json.dictionary(json.dictionary(json.dictionary(json.pages[0])?["/Resources"])?["/XObject"])
        #expect(Set(xobjects?.keys.map { $0 } ?? []) == ["/PdfeditStamp0", "/PdfeditStamp0_2"])
        let once = try Raster(first, page: 1)
        #expect(try Raster(second, page: 1).differences(from: once) != nil)
    }

    @Test(.enabled(if: haveFixtures, "needs the fixtures"))
    func stampsThatDoNotFitThePlanAreRefused() throws {
        let scratch = try ExportScratch()
        let sources = [ExportSource(path: ExportPaths.fixture("alpha.pdf")), ExportSource(path: ExportPaths.fixture("stamp.pdf"))]
        let items: [ExportItem] = [.page(source: 0, index: 0)]
        let bad: [ExportStamp] = [
            ExportStamp(item: 1, source: 1, page: 0), ExportStamp(item: 0, source: 2, page: 0),
            ExportStamp(item: 0, source: 1, page: 0, opacity: 0), ExportStamp(item: 0, source: 1, page: 0, opacity: 1.5),
        ]
        for stamp in bad {
            #expect(throws: EngineError.self) {
                _ = try PDFExporter.write(
                    sources: sources, items: items, stamps: [stamp.unplaced], to: scratch.path("bad.pdf"))
            }
            #expect(!FileManager.default.fileExists(atPath: scratch.path("bad.pdf")))
        }
        do {
            _ = try PDFExporter.write(
                sources: sources, items: items, stamps: [ExportStamp(item: 0, source: 1, page: 1).unplaced],
                to: scratch.path("bad.pdf"))
            Issue.record("a stamp of page 2 of a 1-page file was accepted")
        } catch {
            #expect(error == .pageOutOfRange(file: ExportPaths.fixture("stamp.pdf"), page: 2, pageCount: 1))
        }
    }

    /// The bridge refuses a stamp of a negative page itself, as it refuses an
    /// item's page out of range: naming the stamp's source (the kit checks pages
    /// first, but the engine's callers need not).
    @Test(.enabled(if: haveFixtures, "needs the fixtures"))
    func aStampOfANegativePageIsRefusedLikeAPageOutOfRange() throws {
        let scratch = try ExportScratch()
        let stamp = ExportPaths.fixture("stamp.pdf")
        let sources = [ExportSource(path: ExportPaths.fixture("alpha.pdf")), ExportSource(path: stamp)]
        let output = scratch.path("bad.pdf")
        for page in [-1, -7] {
            do {
                _ = try PDFExporter.write(
                    sources: sources, items: [.page(source: 0, index: 0)],
                    stamps: [ExportStamp(item: 0, source: 1, page: page).unplaced], to: output)
                Issue.record("a stamp of page \(page) was accepted")
            } catch {
                #expect(error == .library(file: stamp, message: "page \(page + 1) does not exist (the file has 1 pages)"))
            }
            #expect(!FileManager.default.fileExists(atPath: output))
        }
        let parts = [ExportPart(items: 0..<1, path: output)]
        #expect(throws: EngineError.library(file: stamp, message: "page 0 does not exist (the file has 1 pages)")) {
            _ = try PDFExporter.writeParts(
                sources: sources, items: [.page(source: 0, index: 0)],
                stamps: [ExportStamp(item: 0, source: 1, page: -1).unplaced], parts: parts)
        }
    }

    func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }
}

/// A PDF whose pages are filled edge to edge with one opaque colour.
struct SolidPDF {
    struct Page {
        var width: Int
        var height: Int
        var rgb: (Double, Double, Double)
    }

    var pages: [Page]

    func data() -> Data {
        let count = pages.count
        var objects: [Int: String] = [
            1: "<< /Type /Catalog /Pages 2 0 R >>",
            2: "<< /Type /Pages /Count \(count) /Kids [" + (0..<count).map { "\(3 + 2 * $0) 0 R" }.joined(separator: " ")
                + "] >>",
        ]
        for (index, page) in pages.enumerated() {
            let stream = "\(page.rgb.0) \(page.rgb.1) \(page.rgb.2) rg 0 0 \(page.width) \(page.height) re f"
            objects[3 + 2 * index] =
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(page.width) \(page.height)] /Resources << >> "
                + "/Contents \(4 + 2 * index) 0 R >>"
            objects[4 + 2 * index] = "<< /Length \(stream.utf8.count) >>\nstream\n\(stream)\nendstream"
        }
        return pdfFileData(objects: objects)
    }
}

extension ExportScratch {
    func write(_ pdf: SolidPDF, as name: String) throws -> String {
        let path = self.path(name)
        try pdf.data().write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// One page as `pdftoppm` (an independent renderer) draws it, at 36 dpi.
struct Raster: Equatable, CustomStringConvertible {
    typealias RGB = (red: Int, green: Int, blue: Int)
    static let dpi = 36

    var width: Int
    var height: Int
    var bytes: [UInt8]

    /// `cropBox`: render the visible area only (`-cropbox`), as a reader shows it.
    init(_ path: String, page: Int, cropBox: Bool = false) throws {
        let scratch = try ExportScratch()
        let prefix = scratch.path("page")
        let result = try ExportTools.run(
            "pdftoppm",
            ["-r", "\(Self.dpi)", "-f", "\(page)", "-l", "\(page)", "-singlefile"] + (cropBox ? ["-cropbox"] : [])
                + [path, prefix])
        guard result.status == 0 else { throw RenderedPage.RenderError(message: "pdftoppm: \(result.stderr)") }
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: prefix + ".ppm")))
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
        width = fields[0]
        height = fields[1]
        bytes = Array(data[(index + 1)...])
    }

    var description: String { "\(width)x\(height) raster" }

    /// Points at this resolution, in pixels.
    func points(_ value: Double) -> Int { Int((value * Double(Self.dpi) / 72).rounded()) }

    func pixel(_ x: Int, _ y: Int) -> RGB {
        let offset = (min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)) * 3
        return (Int(bytes[offset]), Int(bytes[offset + 1]), Int(bytes[offset + 2]))
    }

    static func close(_ a: RGB, _ b: RGB, within tolerance: Int) -> Bool {
        abs(a.red - b.red) <= tolerance && abs(a.green - b.green) <= tolerance && abs(a.blue - b.blue) <= tolerance
    }

    struct Box: CustomStringConvertible {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        var description: String { "\(width)x\(height) at \(x),\(y)" }

        /// Its centre within 2 pixels of the picture's.
        func isCentred(in raster: Raster) -> Bool {
            abs((2 * x + width) - raster.width) <= 4 && abs((2 * y + height) - raster.height) <= 4
        }
    }

    /// The bounding box of the pixels that differ from `other` (same size), nil when none do.
    func differences(from other: Raster, tolerance: Int = 24) -> Box? {
        guard width == other.width, height == other.height else { return Box(x: 0, y: 0, width: width, height: height) }
        var minX = width, minY = height, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width where !Self.close(pixel(x, y), other.pixel(x, y), within: tolerance) {
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? nil : Box(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// Whether the pixels that differ from `before` moved towards red (the DRAFT
    /// stamp is red, half transparent): red gained at least as much as green and blue.
    func turnedRedder(than before: Raster, tolerance: Int = 24) -> Bool {
        var redder = 0
        var changed = 0
        for y in 0..<height {
            for x in 0..<width {
                let (a, b) = (pixel(x, y), before.pixel(x, y))
                guard !Self.close(a, b, within: tolerance) else { continue }
                changed += 1
                let red = a.red - b.red
                if red >= a.green - b.green && red >= a.blue - b.blue { redder += 1 }
            }
        }
        return changed > 0 && Double(redder) / Double(changed) > 0.9
    }

    /// How well the pixels that changed from `before` inside `box` match those of
    /// `reference` that differ from `blank` inside `referenceBox` (aligned at the top
    /// left): shared changed pixels over pixels changed in either (1: the same picture).
    func changeOverlap(with before: Raster, in box: Box, reference: Raster, referenceBox: Box, blank: Raster) -> Double {
        var both = 0
        var either = 0
        for dy in 0..<min(box.height, referenceBox.height) {
            for dx in 0..<min(box.width, referenceBox.width) {
                let (x, y) = (box.x + dx, box.y + dy)
                let (rx, ry) = (referenceBox.x + dx, referenceBox.y + dy)
                let here = !Self.close(pixel(x, y), before.pixel(x, y), within: 24)
                let there = !Self.close(reference.pixel(rx, ry), blank.pixel(rx, ry), within: 24)
                if here && there { both += 1 }
                if here || there { either += 1 }
            }
        }
        return either == 0 ? 0 : Double(both) / Double(either)
    }

    init(width: Int, height: Int, bytes: [UInt8]) {
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    static func == (lhs: Raster, rhs: Raster) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.differences(from: rhs) == nil
    }
}
