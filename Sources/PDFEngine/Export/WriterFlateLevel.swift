import QPDFCore

/// The zlib level at which qpdf's writer deflates what it compresses itself
/// (object streams, cross-reference streams, unfiltered streams): a setting of
/// the whole process (`pe_set_process_flate_level`, qpdf's static
/// `Pl_Flate::setCompressionLevel`). The engine never sets it; the kit's
/// `ProcessSettings.setWriterFlateLevel` passes a host's choice on.
package enum WriterFlateLevel {
    /// Sets the level for every output the process writes from now on; a value
    /// outside -1 (zlib's default) and 1...9 is ignored.
    package static func setProcessWide(_ level: Int) {
        pe_set_process_flate_level(Int32(clamping: level))
    }
}
