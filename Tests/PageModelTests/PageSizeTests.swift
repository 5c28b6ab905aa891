import PageModel
import Testing

@Suite struct PageSizeTests {
    @Test(arguments: [
        ("a4", PageSize.a4), ("A4", .a4), ("a3", .a3), ("a5", .a5), ("a6", .a6), ("b5", .b5),
        ("letter", .letter), ("Legal", .legal), ("tabloid", .tabloid), ("a4-landscape", PageSize.a4.swapped),
        ("a4l", PageSize.a4.swapped), ("letter-landscape", PageSize.letter.swapped), ("a5-portrait", .a5),
        ("595x842", PageSize(width: 595, height: 842)), ("595x842pt", PageSize(width: 595, height: 842)),
        ("8.5x11in", .letter), ("8.5inx11in", .letter), ("210x297mm", .a4), ("21x29.7cm", .a4),
        (" 210 x 297 mm ", .a4), ("100×200", PageSize(width: 100, height: 200)),
    ])
    func parsesFixedSizes(_ text: String, _ expected: PageSize) throws {
        guard case .fixed(let size) = try PageSize.parse(text) else {
            Issue.record("\(text) should be a fixed size")
            return
        }
        #expect(abs(size.width - expected.width) < 1e-9)
        #expect(abs(size.height - expected.height) < 1e-9)
    }

    @Test func parsesLike() throws {
        #expect(try PageSize.parse("like:3") == .like(position: .number(3)))
        #expect(try PageSize.parse("LIKE:last") == .like(position: .last))
        #expect(try PageSize.parse("like:@p4") == .like(position: .item(ItemID(number: 4))))
    }

    @Test(arguments: [
        ("", SizeError.empty),
        ("a7", .malformed("a7")),
        ("x", .malformed("x")),
        ("210x", .malformed("210x")),
        ("210mmx297", .malformed("210mmx297")),
        ("1x2x3", .malformed("1x2x3")),
        (".5x1in", .malformed(".5x1in")),
        ("210x297furlongs", .unknownUnit(text: "210x297furlongs", unit: "furlongs")),
        ("1x1", .outOfBounds(text: "1x1", size: PageSize(width: 1, height: 1))),
        ("20000000x1in", .outOfBounds(text: "20000000x1in", size: PageSize(width: 1_440_000_000, height: 72))),
        ("like:0x", .badPosition(text: "like:0x", .malformed(token: "0x", pageCount: nil))),
    ])
    func refuses(_ text: String, _ expected: SizeError) {
        #expect(throws: expected) { try PageSize.parse(text) }
        #expect(text.isEmpty || expected.description.contains(text))
    }

    @Test(arguments: [
        (595.0, 842.0, "A4"), (595.28, 841.89, "A4"), (842.0, 595.0, "A4 landscape"), (612.0, 792.0, "Letter"),
        (612.0, 1008.0, "Legal"), (1224.0, 792.0, "Tabloid landscape"), (419.5, 595.3, "A5"),
    ])
    func commonNames(_ width: Double, _ height: Double, _ name: String) {
        #expect(PageSize.commonName(width: width, height: height) == name)
    }

    @Test func noNameBeyondTheTolerance() {
        #expect(PageSize.commonName(width: 597, height: 842) == nil)
        #expect(PageSize.commonName(width: 597, height: 842, tolerance: 2) == "A4")
        #expect(PageSize.commonName(width: 100, height: 100) == nil)
    }

    /// THE /UserUnit rule of pages pdfedit makes (the bridge writes the unit it
    /// is given): 1 up to 14,400 pt a side, else the smallest integer bringing
    /// both sides within 14,400 units.
    @Test(arguments: [
        (612.0, 792.0, 1.0), (14_400.0, 3.0, 1.0), (14_400.5, 3.0, 2.0), (3.0, 28_800.0, 2.0), (28_801.0, 100.0, 3.0),
        (PageSize.maximumSide, 3.0, PageSize.maximumUserUnit),
    ] as [(Double, Double, Double)])
    func userUnit(width: Double, height: Double, unit: Double) {
        let size = PageSize(width: width, height: height)
        #expect(size.userUnit == unit)
        #expect(max(width, height) / size.userUnit <= PageSize.maximumUnits)
    }
}
