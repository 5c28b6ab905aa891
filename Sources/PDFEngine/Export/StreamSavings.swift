/// What `--compress` saved on the streams of one output before it was written
/// (`pe_compress_report`): the rest of what it saves (object streams, a
/// cross-reference stream, objects nothing refers to) is the writer's and is
/// known only as the difference of the file sizes.
package struct StreamSavings: Sendable, Equatable {
    /// Copies left out of identical streams (dictionary and data) and of the
    /// resource objects around them (fonts, color spaces, resource dictionaries).
    package var duplicates: Int
    /// Their bytes as the sources held them (an object's text for those not streams).
    package var duplicateBytes: Int
    /// Streams made smaller by zlib at its best level (Flate recompressed, or
    /// unfiltered data deflated).
    package var recompressed: Int
    /// The bytes that saved.
    package var recompressedBytes: Int
    /// Images resampled and written again (`--images`).
    package var images: Int = 0
    /// The bytes that saved (their soft masks' included).
    package var imageBytes: Int = 0

    package init(duplicates: Int = 0, duplicateBytes: Int = 0, recompressed: Int = 0, recompressedBytes: Int = 0) {
        self.duplicates = duplicates
        self.duplicateBytes = duplicateBytes
        self.recompressed = recompressed
        self.recompressedBytes = recompressedBytes
    }
}
