import PageModel

/// The attributes of a page that decide how it looks, with the values inherited
/// from `/Pages` nodes resolved (PDF 32000-1 §7.7.3.4), as the bridge's geometry
/// rules read them (`Geometry.hh`, through `OpenedPDF.attributes(ofPage:)`).
package struct PageAttributes: Equatable, Sendable {
    /// US Letter when the page has no usable /MediaBox.
    package var mediaBox: BoxRect
    /// The visible region: /CropBox clipped to the MediaBox; the MediaBox when absent.
    package var cropBox: BoxRect
    /// The clockwise turn a viewer gives the page for its /Rotate: 0, 90, 180 or 270
    /// (the bridge's `pe_displayed_rotation`: 45, 135 or a real number count as 0).
    package var rotation: Int
    /// /UserUnit (PDF 1.6): points per user space unit, 1 when absent.
    package var userUnit: Double

    /// The size a reader displays, in points: the crop box, turned by /Rotate, times UserUnit.
    package var displayedSize: (width: Double, height: Double) {
        let width = cropBox.width * userUnit
        let height = cropBox.height * userUnit
        return rotation % 180 == 0 ? (width, height) : (height, width)
    }

    package static func == (lhs: PageAttributes, rhs: PageAttributes) -> Bool {
        lhs.mediaBox == rhs.mediaBox && lhs.cropBox == rhs.cropBox && lhs.rotation == rhs.rotation
            && lhs.userUnit == rhs.userUnit
    }
}
