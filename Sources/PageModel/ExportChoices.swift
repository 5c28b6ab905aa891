/// What an export does with page labels (`export --labels`).
public enum PageLabelPolicy: String, Sendable, Equatable, CaseIterable {
    /// Each page keeps the label it had in its source (plain numbers in their
    /// source for pages of sources without labels); none when no source has any.
    case keep
    /// Plain 1…n.
    case renumber
    /// No page labels.
    case none
}

/// What the readers of an encrypted output may do without its owner password
/// (`export --allow`).
public enum OutputPermission: String, Sendable, Hashable, CaseIterable {
    /// Print (at full resolution).
    case print
    /// Copy text and images out of it.
    case copy
    /// Other changes to the document.
    case modify
    /// Add or change annotations.
    case annotate
    /// Fill in form fields.
    case form
    /// Insert, remove and rotate pages.
    case assemble
}

/// Passwords and permissions an exported file is encrypted with (AES-256, R6;
/// `export --encrypt`).
public struct OutputEncryption: Sendable, Equatable {
    /// Needed to open the file.
    public var userPassword: String
    /// Needed to change the file's permissions.
    public var ownerPassword: String
    /// What is allowed without the owner password (by default everything).
    public var allowed: Set<OutputPermission>

    /// Encryption with these passwords and permissions.
    public init(
        userPassword: String, ownerPassword: String, allowed: Set<OutputPermission> = Set(OutputPermission.allCases)
    ) {
        self.userPassword = userPassword
        self.ownerPassword = ownerPassword
        self.allowed = allowed
    }
}

/// `--images DPI[:QUALITY]`: raster images drawn finer than `dpi` dots per inch
/// are resampled to it and written again (photographs as JPEG at `quality`,
/// line art, 1-bit images and masks with Flate); see the manual's "Smaller files".
public struct ImageResampling: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The resolution images are brought down to (9 to 2400).
    public var dpi: Int
    /// The JPEG quality of images written as JPEG (1 to 100).
    public var quality: Int

    /// The quality when `--images` names none: libjpeg's scale, where 75 is
    /// its own default (visibly the same as the source at screen sizes).
    public static let defaultQuality = 75
    /// The resolutions accepted: below 9 dpi an image is a few blocks of colour.
    public static let dpiRange = 9...2400
    /// The qualities accepted.
    public static let qualityRange = 1...100

    /// Resampling to `dpi` at `quality`; nil when either is outside its range.
    public init?(dpi: Int, quality: Int = ImageResampling.defaultQuality) {
        guard Self.dpiRange.contains(dpi), Self.qualityRange.contains(quality) else { return nil }
        self.dpi = dpi
        self.quality = quality
    }

    /// `DPI` or `DPI:QUALITY` as the command line writes it; nil when it is not one.
    public init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let dpi = Self.whole(parts[0]) else { return nil }
        var quality = Self.defaultQuality
        if parts.count == 2 {
            guard let given = Self.whole(parts[1]) else { return nil }
            quality = given
        }
        self.init(dpi: dpi, quality: quality)
    }

    /// `DPI:QUALITY`, which `init(argument:)` reads back.
    public var description: String { "\(dpi):\(quality)" }

    private static func whole(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 6, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }
}

/// How a session's document is written by every export (`optimize` in a
/// session): what `export --compress --linearize --images` would ask for, set
/// once as one undo step. An export's own flags add to them (its `--images`
/// wins over the document's).
public struct OptimizeSettings: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Lossless: identical streams once, Flate at zlib's best level, object streams.
    public var compress: Bool
    /// Linearized for fast web view.
    public var linearize: Bool
    /// Lossy: images resampled (see `ImageResampling`); nil: none.
    public var images: ImageResampling?

    /// The settings `optimize` makes: it always compresses.
    public init(compress: Bool = true, linearize: Bool = false, images: ImageResampling? = nil) {
        self.compress = compress
        self.linearize = linearize
        self.images = images
    }

    /// "compressed, linearized, images at 150 dpi (JPEG quality 75)": what `status` shows.
    public var description: String {
        var parts: [String] = []
        if compress { parts.append("compressed") }
        if linearize { parts.append("linearized") }
        if let images { parts.append("images at \(images.dpi) dpi (JPEG quality \(images.quality))") }
        return parts.isEmpty ? "as written" : parts.joined(separator: ", ")
    }
}
