import QPDFBridge

/// The attributes of a page that decide how it looks, with the values inherited
/// from `/Pages` nodes resolved (PDF 32000-1 §7.7.3.4).
public struct PageAttributes: Equatable, Sendable {
    public var mediaBox: PDFRect
    /// The visible region: /CropBox clipped to the MediaBox; the MediaBox when absent.
    public var cropBox: PDFRect
    /// The clockwise turn a viewer gives the page for its /Rotate: 0, 90, 180 or 270
    /// (the bridge's `pe_displayed_rotation`: 45, 135 or a real number count as 0).
    public var rotation: Int
    /// /UserUnit (PDF 1.6): points per user space unit, 1 when absent.
    public var userUnit: Double

    /// The size a reader displays, in points: the crop box, turned by /Rotate, times UserUnit.
    public var displayedSize: (width: Double, height: Double) {
        let width = cropBox.width * userUnit
        let height = cropBox.height * userUnit
        return rotation % 180 == 0 ? (width, height) : (height, width)
    }

    public static func == (lhs: PageAttributes, rhs: PageAttributes) -> Bool {
        lhs.mediaBox == rhs.mediaBox && lhs.cropBox == rhs.cropBox && lhs.rotation == rhs.rotation
            && lhs.userUnit == rhs.userUnit
    }
}

/// US Letter, the default PDF readers use for a page without a usable MediaBox.
let defaultMediaBox = PDFRect(x0: 0, y0: 0, x1: 612, y1: 792)

extension QPDFDocument {
    /// Effective attributes of the page at 0-based `index`, walking /Parent for the
    /// inheritable keys. The walk is bounded: a /Parent loop cannot hang it.
    public func attributes(ofPage index: Int) throws(EngineError) -> PageAttributes {
        let page = try page(at: index)
        let mediaBox = try inherited("MediaBox", from: page)?.rectangle ?? defaultMediaBox
        let cropBox = try inherited("CropBox", from: page)?.rectangle.flatMap { $0.intersection(mediaBox) } ?? mediaBox
        let rotate = try inherited("Rotate", from: page)
        let userUnit = try page.value("UserUnit")?.number ?? 1
        return PageAttributes(
            mediaBox: mediaBox, cropBox: cropBox,
            rotation: try Self.displayedRotation(rotate),
            userUnit: userUnit.isFinite && userUnit > 0 ? userUnit : 1)
    }

    /// The one /Rotate rule, kept in the bridge so that exports and stamps (C++) and
    /// info, list and rendering (here) cannot disagree.
    static func displayedRotation(_ rotate: QPDFObject?) throws(EngineError) -> Int {
        guard let value = try rotate?.integer else { return Int(pe_displayed_rotation(0, 0)) }
        return Int(pe_displayed_rotation(1, value))
    }

    private func inherited(_ key: String, from page: QPDFObject) throws(EngineError) -> QPDFObject? {
        var node = page
        for _ in 0..<64 {
            if let value = try node.value(key) { return value }
            guard let parent = try node.value("Parent"), try parent.isDictionary else { return nil }
            node = parent
        }
        return nil
    }
}
