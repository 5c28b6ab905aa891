#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PageModel
import QPDFCore

/// A JPEG or PNG image turned into a one-page PDF.
///
/// ```swift
/// let facts = try ImagePage.inspect("photo.jpg")        // 120x80 px, 72 dpi, orientation 1
/// ImagePage.pageSize(facts, fit: nil)                    // (120, 80) points
/// ImagePage.pageSize(facts, fit: (595.28, 841.89))       // (841.89, 595.28): A4 turned landscape
/// try ImagePage.writePDF(image: "photo.jpg", fit: nil, to: "photo.pdf")
/// ```
///
/// - JPEG data is embedded byte for byte (`/DCTDecode`): baseline, extended and
///   progressive; gray, RGB/YCbCr and CMYK (Adobe-inverted CMYK gets a `/Decode`
///   array). EXIF orientation (all eight values) is applied by the placement matrix.
/// - PNG: every colour type and bit depth, 16-bit kept at 16 bits, Adam7
///   de-interlaced, alpha as an `/SMask`, palette transparency as an 8-bit `/SMask`
///   beside the `/Indexed` samples, gray/RGB key-colour transparency as a `/Mask`
///   (a 0/1 `/SMask` at 16 bits, which poppler cannot key). Non-interlaced images
///   without alpha keep their IDAT data unchanged (`/FlateDecode`, `/Predictor 15`).
///   Gamma, chromaticity and ICC chunks are ignored (samples are embedded as stored
///   and shown as device colours); so is a PNG `eXIf` chunk (PNG orientation is 1).
package enum ImagePage {
    /// The largest page side Acrobat accepts (200 inches) without a /UserUnit
    /// (`PageSize.maximumUnits`); larger natural sizes (absurdly low resolutions)
    /// are scaled down to it, keeping the aspect ratio.
    package static let maximumPageSide = PageSize.maximumUnits

    /// The widest or tallest image accepted, in pixels. Larger images (JPEG
    /// allows 65,535) make PDFs that `qpdf --check` and viewers refuse.
    package static let maximumSide = 65_500

    /// The default for `maximumPixels` (`Limits.pixels`: 2^28).
    package static let defaultMaximumPixels = 1 << 28

    /// Parses and validates the image: JPEG markers (the whole file, up to EOI) or
    /// PNG chunks (with their CRCs), and its declared size (`.overLimit` past
    /// `maximumSide` or `maximumPixels`). Pixels are not decoded: `validate` does that.
    ///
    /// Throws `.notAPDF` for a file that is neither PDF, JPEG nor PNG (whatever its
    /// name), `.badImage` for a truncated, corrupt or unsupported JPEG or PNG, and the
    /// loader's `.missing`, `.unreadable` and `.emptyFile`; all name the file.
    package static func inspect(
        _ path: String, maximumPixels: Int = defaultMaximumPixels
    ) throws(EngineError) -> ImageFacts {
        try ParsedImage.read(path, maximumPixels: maximumPixels).facts
    }

    /// `inspect`, then the pixel data decoded exactly as `writePDF` decodes it
    /// (into a scratch document that is never written): a PNG whose compressed
    /// data is short or corrupt, or whose rows have a bad filter, is refused here,
    /// when the file enters, not at every later export. JPEG data is embedded as
    /// it is and never decoded, so its markers are what is checked.
    @discardableResult
    package static func validate(
        _ path: String, maximumPixels: Int = defaultMaximumPixels
    ) throws(EngineError) -> ImageFacts {
        let image = try ParsedImage.read(path, maximumPixels: maximumPixels)
        if case .png(let png) = image {
            _ = try png.xObject(file: path)
        }
        return image.facts
    }

    /// The page size in points the image gets.
    ///
    /// Without `fit`: the image's size at its resolution (72 dpi when it has none),
    /// as displayed: a 90°-rotated image (EXIF orientation 5...8) gets a portrait
    /// page for landscape pixels.
    ///
    /// With `fit`: that paper, turned to the image's orientation (a landscape image
    /// gets the paper landscape, a portrait one portrait, a square one the paper as
    /// given); the image is then scaled, up or down, to the largest size that fits,
    /// keeping its aspect ratio, and centred.
    package static func pageSize(
        _ facts: ImageFacts, fit: (width: Double, height: Double)?
    ) -> (width: Double, height: Double) {
        let natural = naturalSize(facts)
        guard let fit else { return natural }
        let long = max(fit.width, fit.height), short = min(fit.width, fit.height)
        if natural.width > natural.height { return (long, short) }
        if natural.width < natural.height { return (short, long) }
        return fit
    }

    /// Writes a one-page PDF that shows the image at `output`, deterministically:
    /// the same image and `fit` give the same bytes (`/ID` computed from the
    /// content). `output` is written as it is — the kit hands it a staged
    /// temporary (`StagedOutput`) and commits it — and removed again when writing
    /// fails, so a failure leaves no partial file. A `fit` paper size that is not
    /// positive and finite is refused (`.cannotWrite`).
    package static func writePDF(
        image path: String, fit: (width: Double, height: Double)?, to output: String,
        maximumPixels: Int = defaultMaximumPixels
    ) throws(EngineError) {
        if let fit {
            guard fit.width.isFinite, fit.height.isFinite, fit.width > 0, fit.height > 0 else {
                throw EngineError.cannotWrite(file: output, reason: "invalid paper size \(fit.width)x\(fit.height)")
            }
        }
        let image = try ParsedImage.read(path, maximumPixels: maximumPixels)
        let xObject: ImageXObject
        switch image {
        case .jpeg(let jpeg): xObject = jpeg.xObject
        case .png(let png): xObject = try png.xObject(file: path)
        }
        let facts = image.facts
        let points = pageSize(facts, fit: fit)
        // A `fit` side over the readers' limit: the page is written in larger units.
        let unit = PageSize(width: points.width, height: points.height).userUnit
        let page = (width: points.width / unit, height: points.height / unit)
        let matrix = placement(facts, page: page, fit: fit != nil)
        let content = "q " + matrix.map(pdfNumber).joined(separator: " ") + " cm /Im0 Do Q\n"
        let minor = max(xObject.minimumMinorVersion, unit == 1 ? 0 : 6) // /UserUnit is PDF 1.6

        try writePage(
            xObject, mediaBox: "[0 0 \(pdfNumber(page.width)) \(pdfNumber(page.height))]",
            userUnit: unit == 1 ? nil : pdfNumber(unit), content: content, minimumVersion: "1.\(minor)",
            image: path, to: output)
    }

    /// Has the bridge build the one-page PDF (`pe_write_image_page`) and writes its
    /// bytes to `path` (`writeChecked`). A failure while building is a library
    /// error about `image`; one while writing, `.cannotWrite` of `path`.
    private static func writePage(
        _ xObject: ImageXObject, mediaBox: String, userUnit: String?, content: String, minimumVersion: String,
        image: String, to path: String
    ) throws(EngineError) {
        let written = WrittenBytes(path: path)
        var status = pe_status()
        let code = withExtendedLifetime(written) {
            xObject.image.withBridgeStream { picture in
                withMask(xObject.mask) { mask in
                    withOptionalCString(userUnit) { unit in
                        withUnsafePointer(to: picture) { picture in
                            pe_write_image_page(
                                picture, mask, mediaBox, unit, content, minimumVersion,
                                { context, bytes, size in
                                    guard let context else { return }
                                    let written = Unmanaged<WrittenBytes>.fromOpaque(context).takeUnretainedValue()
                                    written.write(UnsafeRawBufferPointer(start: bytes, count: size))
                                }, Unmanaged.passUnretained(written).toOpaque(), &status)
                        }
                    }
                }
            }
        }
        guard code == Int32(PE_OK) else {
            let detail = EngineError.detail(of: status)
            throw status.source_index < 0
                ? EngineError.cannotWrite(file: path, reason: detail) : EngineError.library(file: image, message: detail)
        }
        if let failure = written.failure { throw failure }
        guard written.done else { throw EngineError.cannotWrite(file: path, reason: "qpdf produced no output") }
    }

    /// `body` with the mask as the bridge takes it, or NULL.
    private static func withMask<T>(_ mask: ImageStream?, _ body: (UnsafePointer<pe_image_stream>?) -> T) -> T {
        guard let mask else { return body(nil) }
        return mask.withBridgeStream { stream in withUnsafePointer(to: stream) { body($0) } }
    }

    // MARK: Geometry

    /// Size in points as displayed, from the resolution (72 dpi by default), at most
    /// `maximumPageSide` on either side (scaled down), and at least
    /// `PageSize.minimumSide` (scaled up).
    static func naturalSize(_ facts: ImageFacts) -> (width: Double, height: Double) {
        func dpi(_ value: Double?) -> Double { value.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 72 }
        var width = Double(facts.pixelWidth) * 72 / dpi(facts.dpiX)
        var height = Double(facts.pixelHeight) * 72 / dpi(facts.dpiY)
        if facts.swapsAxes { swap(&width, &height) }
        let largest = max(width, height)
        if largest > maximumPageSide {
            width *= maximumPageSide / largest
            height *= maximumPageSide / largest
        }
        // The page-size rule's smallest side (`PageSize.isValidPageSize`): a 1×1
        // pixel image, or 60 pixels at 65,535 dpi, would make a page of a point or
        // less; it is scaled up, keeping the aspect ratio (a long side that passes
        // 14,400 pt then is written with a /UserUnit, as any large page is).
        let smallest = min(width, height)
        if smallest < PageSize.minimumSide, smallest > 0 {
            width *= PageSize.minimumSide / smallest
            height *= PageSize.minimumSide / smallest
        }
        return (width, height)
    }

    /// The rectangle the displayed image fills on the page: all of it, or with
    /// `fit`, the largest centred rectangle of the image's aspect ratio.
    static func imageRect(
        _ facts: ImageFacts, page: (width: Double, height: Double), fit: Bool
    ) -> (x: Double, y: Double, width: Double, height: Double) {
        guard fit else { return (0, 0, page.width, page.height) }
        let natural = naturalSize(facts)
        let scale = min(page.width / natural.width, page.height / natural.height)
        let width = natural.width * scale, height = natural.height * scale
        return ((page.width - width) / 2, (page.height - height) / 2, width, height)
    }

    /// The `cm` matrix `[a b c d e f]` that maps the image's unit square onto
    /// `imageRect` so that the image appears upright: EXIF orientation 2 mirrors,
    /// 3 turns 180°, 4 flips, 5 transposes, 6 turns 90° clockwise, 7 transverses,
    /// 8 turns 90° anticlockwise. (In image space row 0 is at the top of the unit
    /// square: stored pixel (column s, row t), as fractions, is at (s, 1 − t).)
    static func placement(
        _ facts: ImageFacts, page: (width: Double, height: Double), fit: Bool
    ) -> [Double] {
        let (x, y, w, h) = imageRect(facts, page: page, fit: fit)
        switch facts.orientation {
        case 2: return [-w, 0, 0, h, x + w, y]
        case 3: return [-w, 0, 0, -h, x + w, y + h]
        case 4: return [w, 0, 0, -h, x, y + h]
        case 5: return [0, -h, -w, 0, x + w, y + h]
        case 6: return [0, -h, w, 0, x, y + h]
        case 7: return [0, h, w, 0, x, y]
        case 8: return [0, h, -w, 0, x + w, y]
        default: return [w, 0, 0, h, x, y]
        }
    }

    /// A number as PDF syntax: at most four decimals, no exponent, no trailing
    /// zeros (PageModel's `decimalText`); 0 for what PDF syntax cannot write.
    static func pdfNumber(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e11 else { return "0" }
        return decimalText(value, decimals: 4)
    }
}

/// Where `pe_write_image_page` hands its bytes: written to `path` at once (no
/// copy of the file in memory), the failure kept for the caller.
private final class WrittenBytes {
    let path: String
    var failure: EngineError?
    var done = false

    init(path: String) { self.path = path }

    func write(_ bytes: UnsafeRawBufferPointer) {
        do throws(EngineError) {
            try writeChecked(bytes, to: path)
            done = true
        } catch {
            failure = error
        }
    }
}
