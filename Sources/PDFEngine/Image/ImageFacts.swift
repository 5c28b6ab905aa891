/// What `ImagePage.inspect` learns about a JPEG or PNG file from its markers or
/// chunks, without decoding pixels.
package struct ImageFacts: Sendable, Equatable {
    /// The colour model of the stored samples (before any palette lookup).
    package enum ColorModel: String, Sendable, Equatable {
        case gray
        case rgb
        case cmyk
        /// PNG colour type 3: samples index a palette of RGB colours.
        case indexed
    }

    /// `.jpeg` or `.png`, from the file's signature.
    package var kind: FileKind
    /// Stored size, before EXIF orientation.
    package var pixelWidth: Int
    package var pixelHeight: Int
    /// Resolution in dots per inch, nil when the file gives none (JFIF units 0, no
    /// pHYs, pHYs unit 0) or gives nonsense (0).
    package var dpiX: Double?
    package var dpiY: Double?
    /// EXIF orientation 1...8 (1: as stored); PNGs are always 1.
    package var orientation: Int
    package var colorModel: ColorModel
    /// Colour components per pixel, without alpha (1 for `.indexed`).
    package var components: Int
    /// Bits per sample: 8 for JPEG; 1, 2, 4, 8 or 16 for PNG.
    package var bitsPerComponent: Int
    /// An alpha channel or a PNG `tRNS` chunk.
    package var hasAlpha: Bool
    /// A progressive JPEG or an Adam7-interlaced PNG.
    package var interlaced: Bool
    /// A 4-component JPEG with an Adobe APP14 marker: its CMYK values are stored
    /// inverted (the Adobe/Photoshop convention).
    package var invertedCMYK: Bool

    package init(
        kind: FileKind, pixelWidth: Int, pixelHeight: Int, dpiX: Double? = nil, dpiY: Double? = nil,
        orientation: Int = 1, colorModel: ColorModel, components: Int, bitsPerComponent: Int,
        hasAlpha: Bool = false, interlaced: Bool = false, invertedCMYK: Bool = false
    ) {
        self.kind = kind
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.dpiX = dpiX
        self.dpiY = dpiY
        self.orientation = (1...8).contains(orientation) ? orientation : 1
        self.colorModel = colorModel
        self.components = components
        self.bitsPerComponent = bitsPerComponent
        self.hasAlpha = hasAlpha
        self.interlaced = interlaced
        self.invertedCMYK = invertedCMYK
    }

    /// Orientations 5...8 turn the image a quarter: width and height swap on display.
    package var swapsAxes: Bool { orientation >= 5 }

    /// Size in pixels as displayed, after EXIF orientation.
    package var displayWidth: Int { swapsAxes ? pixelHeight : pixelWidth }
    package var displayHeight: Int { swapsAxes ? pixelWidth : pixelHeight }

    /// Refuses (`.overLimit`, 65) an image wider or taller than
    /// `ImagePage.maximumSide` or of more than `maximumPixels` pixels
    /// (`Limits.pixels`, PDFEDIT_MAX_PIXELS), from its declared size alone.
    func checkSize(file: String, maximumPixels: Int) throws(EngineError) {
        let size = "\(pixelWidth) x \(pixelHeight) pixels"
        guard pixelWidth <= ImagePage.maximumSide, pixelHeight <= ImagePage.maximumSide else {
            throw EngineError.overLimit(
                file: file, page: nil, what: "an image of \(size) (at most \(ImagePage.maximumSide) on a side)")
        }
        let (pixels, overflow) = pixelWidth.multipliedReportingOverflow(by: pixelHeight)
        guard !overflow, pixels <= maximumPixels else {
            throw EngineError.overLimit(
                file: file, page: nil,
                what: "an image of \(size) (limit \(maximumPixels) pixels, PDFEDIT_MAX_PIXELS)")
        }
    }
}

/// Bounds-checked big- and little-endian reads from a byte array. Every read
/// returns nil past the end, so a truncated file is an ordinary condition.
struct ByteReader {
    let bytes: [UInt8]

    func u8(_ offset: Int) -> Int? {
        offset >= 0 && offset < bytes.count ? Int(bytes[offset]) : nil
    }

    func u16(_ offset: Int, bigEndian: Bool = true) -> Int? {
        guard let a = u8(offset), let b = u8(offset + 1) else { return nil }
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(_ offset: Int, bigEndian: Bool = true) -> Int? {
        guard let high = u16(offset, bigEndian: bigEndian), let low = u16(offset + 2, bigEndian: bigEndian) else {
            return nil
        }
        return bigEndian ? high << 16 | low : low << 16 | high
    }

    /// Whether `bytes[offset...]` starts with `prefix`.
    func matches(_ prefix: [UInt8], at offset: Int) -> Bool {
        offset >= 0 && offset + prefix.count <= bytes.count
            && bytes[offset..<offset + prefix.count].elementsEqual(prefix)
    }
}
