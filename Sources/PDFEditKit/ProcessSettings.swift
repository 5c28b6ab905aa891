internal import PDFEngine

/// Settings of the whole process that the kit leaves to the program hosting it,
/// as it leaves signal handling: the kit never calls these itself, since they
/// change what every thread of the process does, other libraries' use of qpdf
/// included. Call them once, at start-up, before any export runs.
public enum ProcessSettings {
    /// The zlib level, from 1 (fastest) to 9 (smallest), or -1 for zlib's
    /// default (6, qpdf's own), at which qpdf deflates what it compresses while
    /// writing — object streams, cross-reference streams, streams written
    /// unfiltered — in every output of the process from now on, whatever
    /// library writes it (qpdf keeps the level in one static,
    /// `Pl_Flate::setCompressionLevel`; it has no setting per output). Another
    /// value is ignored.
    ///
    /// The streams `--compress` (`ExportSettings.compress`) rewrites are
    /// deflated at level 9 whatever this is; with level 9 here too, such an
    /// output's object and cross-reference streams are as small as qpdf's
    /// `--compression-level=9` makes them. The `pdfedit` command sets 9 when
    /// its command line asks for smaller outputs (`optimize`, `--compress`).
    public static func setWriterFlateLevel(_ level: Int) {
        WriterFlateLevel.setProcessWide(level)
    }
}
