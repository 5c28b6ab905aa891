import PropertyBased
import Testing

@testable import PDFEditKit

/// How `export --split` cuts items into parts and names them (`SplitExport.swift`):
/// the parts of each grouping, every placeholder of a `--name` template, the
/// defaults, the cleaning of filled-in values and the refusals.
@Suite struct SplitNamingTests {
    /// A page item of source s1, page `page`, with id `p<id>`.
    static func item(id: Int = 12, page: Int = 3) -> PageItem {
        PageItem(id: ItemID(number: id), content: .page(source: SourceID(number: 1), page: page))
    }

    /// One part's name from `template`, with the values of a part 3 of 12
    /// covering positions 5…8, whose first item is p12 (page 3 of `/in/Report.v2.pdf`).
    static func name(
        _ template: String, number: Int = 3, partCount: Int = 12, item: PageItem = item(), document: String = "report",
        sourcePath: String? = "/in/Report.v2.pdf", title: String? = nil
    ) throws(PDFEditError) -> String {
        try PartNameTemplate(template).name(
            number: number, partCount: partCount, first: 5, last: 8, item: item, document: document,
            sourcePath: sourcePath, title: title)
    }

    static func usageMessage(_ body: () throws(PDFEditError) -> Void) -> String? {
        do throws(PDFEditError) {
            try body()
            return nil
        } catch {
            guard case .usage(let message) = error else { return "not a usage error: \(error)" }
            return message
        }
    }

    // MARK: Parts

    @Test func eachItemIsOnePart() throws {
        let parts = try splitParts(count: 3, grouping: .each, outlineStarts: [])
        #expect(parts.map(\.items) == [0..<1, 1..<2, 2..<3])
        #expect(parts.allSatisfy { $0.title == nil })
    }

    @Test func everyKItemsLeavesAShorterLastPart() throws {
        #expect(try splitParts(count: 7, grouping: .every(3), outlineStarts: []).map(\.items) == [0..<3, 3..<6, 6..<7])
        #expect(try splitParts(count: 6, grouping: .every(3), outlineStarts: []).map(\.items) == [0..<3, 3..<6])
        #expect(try splitParts(count: 2, grouping: .every(5), outlineStarts: []).map(\.items) == [0..<2])
    }

    @Test func everyZeroIsAUsageError() {
        let message = Self.usageMessage { () throws(PDFEditError) in
            _ = try splitParts(count: 4, grouping: .every(0), outlineStarts: [])
        }
        #expect(message == "--every takes a number of pages ≥ 1, not 0")
    }

    /// Any count and size: the parts are consecutive, cover every item once, and
    /// all but the last hold exactly `size` items.
    @Test func everyPartitionsTheItems() async {
        await propertyCheck(count: 300, input: Gen.int(in: 1...500), Gen.int(in: 1...60)) { count, size in
            let parts = try splitParts(count: count, grouping: .every(size), outlineStarts: [])
            #expect(parts.count == (count + size - 1) / size)
            #expect(parts.first?.items.lowerBound == 0)
            #expect(parts.last?.items.upperBound == count)
            for (previous, next) in zip(parts, parts.dropFirst()) {
                #expect(previous.items.upperBound == next.items.lowerBound)
                #expect(previous.items.count == size)
            }
            #expect((1...size).contains(parts.last?.items.count ?? 0))
        }
    }

    // MARK: Placeholders

    @Test func everyPlaceholderIsFilledIn() throws {
        #expect(try Self.name("{doc}-{n}") == "report-03.pdf")
        #expect(try Self.name("{first}-{last}") == "5-8.pdf")
        #expect(try Self.name("{id}") == "p12.pdf")
        #expect(try Self.name("{src}") == "Report.v2.pdf")
        #expect(try Self.name("{src}-{srcpage}.pdf") == "Report.v2-3.pdf")
        #expect(try Self.name("{n}-{title}.pdf", title: "Chapter 1") == "03-Chapter 1.pdf")
        #expect(try Self.name("part {n} of {doc}.pdf") == "part 03 of report.pdf")
    }

    @Test func valuesOfItemsWithoutASource() throws {
        let blank = PageItem(id: ItemID(number: 4), content: .blank(PageSize(width: 100, height: 100)))
        // {src} names the kind of an item without a source file; {srcpage} is empty.
        #expect(try Self.name("{src}-{srcpage}x", item: blank, sourcePath: nil) == "blank-x.pdf")
        #expect(try Self.name("{title}{n}", title: nil) == "03.pdf")
    }

    @Test func partNumbersArePaddedToTheWidthOfThePartCount() throws {
        #expect(try Self.name("{n}", number: 7, partCount: 9) == "7.pdf")
        #expect(try Self.name("{n}", number: 7, partCount: 10) == "07.pdf")
        #expect(try Self.name("{n}", number: 7, partCount: 100) == "007.pdf")
        #expect(try Self.name("{n}", number: 100, partCount: 100) == "100.pdf")
    }

    /// For any part count, `{n}` of every part has the width of the count, reads
    /// back as the part's number, and so names every part differently.
    @Test func partNumbersAreDistinctAndOfOneWidth() async {
        await propertyCheck(count: 200, input: Gen.int(in: 1...20_000), Gen.int(in: 0...(1 << 30))) { count, seed in
            let numbers = Set([1, count, 1 + seed % count, 1 + (seed / 7) % count])
            for number in numbers {
                let name = try Self.name("{n}", number: number, partCount: count)
                let digits = String(name.dropLast(4))
                #expect(digits.count == String(count).count)
                #expect(Int(digits) == number)
            }
        }
    }

    @Test func pdfIsAppendedUnlessPresentInAnyCase() throws {
        #expect(try Self.name("{doc}") == "report.pdf")
        #expect(try Self.name("{doc}.pdf") == "report.pdf")
        #expect(try Self.name("{doc}.PDF") == "report.PDF")
        #expect(try Self.name("{doc}.pdf.txt") == "report.pdf.txt.pdf")
        #expect(try Self.name("{doc}.pDf") == "report.pDf")
        #expect(try Self.name("{doc}.pd") == "report.pd.pdf")
        #expect(try Self.name("{doc}pdf") == "reportpdf.pdf")
        #expect(try Self.name("{doc}-é.PDF") == "report-é.PDF")
    }

    @Test func slashesAndControlCharactersInValuesBecomeUnderscores() throws {
        #expect(try Self.name("{title}", title: "A/B: part\n2\t") == "A_B: part_2_.pdf")
        #expect(try Self.name("{doc}-{n}", document: "x/y") == "x_y-03.pdf")
    }

    /// Whatever the document name and title hold, a part's name is one plain
    /// file name ending in `.pdf`, or the template is refused.
    @Test func filledInNamesAreAlwaysPlainFileNames() async {
        let pool: [Character] = ["a", "Z", "/", ".", " ", "\n", "\t", "\u{7}", "é", "{", "}", "-", "0"]
        let picks = Gen.int(in: 0...(pool.count - 1)).array(of: 0...12)
        await propertyCheck(count: 300, input: picks, picks) { docPicks, titlePicks in
            let document = String(docPicks.map { pool[$0] })
            let title = String(titlePicks.map { pool[$0] })
            do throws(PDFEditError) {
                let name = try Self.name("{doc}-{title}-{n}", document: document, title: title)
                #expect(!name.contains("/"))
                let control = name.contains {
                    $0.isNewline || $0.unicodeScalars.contains { $0.properties.generalCategory == .control }
                }
                #expect(!control)
                #expect(!name.hasPrefix("."))
                #expect(name.lowercased().hasSuffix(".pdf"))
            } catch {
                // Only a name that starts with "." (the document's own dot) is refused.
                #expect(document.hasPrefix("."))
            }
        }
    }

    // MARK: Refusals

    @Test func malformedTemplatesAreRefusedWithTheirMessages() {
        #expect(
            Self.usageMessage { () throws(PDFEditError) in _ = try PartNameTemplate("{doc") }
                == "--name: \"{\" without \"}\" in \"{doc\"")
        #expect(
            Self.usageMessage { () throws(PDFEditError) in _ = try PartNameTemplate("{page}.pdf") }
                == "--name: unknown placeholder {page}; use {n} {first} {last} {id} {doc} {src} {srcpage} {title}")
        #expect(
            Self.usageMessage { () throws(PDFEditError) in _ = try PartNameTemplate("{}") }
                == "--name: unknown placeholder {}; use {n} {first} {last} {id} {doc} {src} {srcpage} {title}")
    }

    @Test func namesThatAreNotPlainFileNamesAreRefused() {
        #expect(
            Self.usageMessage { () throws(PDFEditError) in _ = try Self.name(".{doc}") }
                == "--name gives \".report\" for part 3: a part needs a plain file name")
        #expect(
            Self.usageMessage { () throws(PDFEditError) in _ = try Self.name("{title}", title: "") }
                == "--name gives \"\" for part 3: a part needs a plain file name")
        #expect(
            Self.usageMessage { () throws(PDFEditError) in _ = try Self.name("out/{n}") }
                == "--name gives \"out/03\" for part 3: a part needs a plain file name")
        #expect(
            Self.usageMessage { () throws(PDFEditError) in _ = try Self.name("a\nb{n}") }
                == "--name gives \"a\nb03\" for part 3: a part needs a plain file name")
    }

    @Test func theFreeFunctionFillsTheSameTemplate() throws {
        let name = try partName(
            template: "{doc}_{first}", number: 1, partCount: 2, first: 4, last: 6, item: Self.item(), document: "d",
            sourcePath: nil, title: nil)
        #expect(name == "d_4.pdf")
    }
}
