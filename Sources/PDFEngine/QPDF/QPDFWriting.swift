import CQPDF
import Foundation

/// A PDF built from nothing through libqpdf's C API (`qpdf_empty_pdf`) and written
/// once (`qpdf_init_write` + `qpdf_write`).
///
/// Owns its `qpdf_data` and frees it in `deinit` (`qpdf_cleanup`). As with
/// `QPDFDocument`, every call goes through `checked`, which asks `qpdf_has_error`
/// afterwards, so a handle is only ever kept when qpdf returned it without an error.
/// Errors while building name `file` (the input the document is made from) as
/// `.library`; errors while writing name the output as `.cannotWrite`.
///
/// Not `Sendable`: a `qpdf_data` must not be shared between threads.
final class QPDFNewDocument {
    private let handle: qpdf_data
    /// The file the document is made from, named in errors.
    let file: String
    /// Warnings qpdf raised (drained after every call, never printed).
    private(set) var warnings: [String] = []

    /// `qpdf_init` + `qpdf_empty_pdf`: a document with a catalog and an empty page tree.
    init(file: String) throws(EngineError) {
        guard let data = qpdf_init() else {
            throw EngineError.library(file: file, message: "qpdf_init failed")
        }
        handle = data
        self.file = file
        qpdf_silence_errors(handle)
        qpdf_set_suppress_warnings(handle, QPDF_TRUE)
        _ = try checked { qpdf_empty_pdf($0) }
    }

    deinit {
        var data: qpdf_data? = handle
        qpdf_cleanup(&data)
    }

    // MARK: Error plumbing

    /// Runs one C call; throws what `failure` makes of qpdf's message if it recorded an error.
    private func checked<T>(
        _ call: (qpdf_data) -> T,
        failure: (String) -> EngineError
    ) throws(EngineError) -> T {
        let value = call(handle)
        drainWarnings()
        if qpdf_has_error(handle) != QPDF_FALSE, let error = qpdf_get_error(handle) {
            throw failure(String(cString: qpdf_get_error_message_detail(handle, error)))
        }
        return value
    }

    /// `checked` for building: an error is a library error about `file`.
    private func checked<T>(_ call: (qpdf_data) -> T) throws(EngineError) -> T {
        let file = self.file
        return try checked(call) { EngineError.library(file: file, message: $0) }
    }

    private func drainWarnings() {
        while qpdf_more_warnings(handle) != QPDF_FALSE {
            guard let warning = qpdf_next_warning(handle) else { break }
            warnings.append(String(cString: qpdf_get_error_full_text(handle, warning)))
        }
    }

    // MARK: Objects

    /// A direct object from PDF syntax (`qpdf_oh_parse`), e.g. `<< /Predictor 15 >>`.
    func parse(_ syntax: String) throws(EngineError) -> qpdf_oh {
        try checked { qpdf_oh_parse($0, syntax) }
    }

    /// `qpdf_oh_new_name`; `name` includes its slash.
    func name(_ name: String) throws(EngineError) -> qpdf_oh {
        try checked { qpdf_oh_new_name($0, name) }
    }

    /// `qpdf_oh_new_dictionary` filled with `entries` (keys with their slash) by
    /// `qpdf_oh_replace_key`.
    func dictionary(_ entries: KeyValuePairs<String, qpdf_oh>) throws(EngineError) -> qpdf_oh {
        let dict = try checked { qpdf_oh_new_dictionary($0) }
        for (key, value) in entries { try set(key, value, in: dict) }
        return dict
    }

    /// `qpdf_oh_replace_key`; `key` includes its slash.
    func set(_ key: String, _ value: qpdf_oh, in dictionary: qpdf_oh) throws(EngineError) {
        try checked { qpdf_oh_replace_key($0, dictionary, key, value) }
    }

    /// A new (indirect) stream whose dictionary holds `entries` besides the
    /// `/Length`, `/Filter` and `/DecodeParms` that `setData` manages
    /// (`qpdf_oh_new_stream`, `qpdf_oh_get_dict`, `qpdf_oh_replace_key`).
    func stream(_ entries: KeyValuePairs<String, qpdf_oh>) throws(EngineError) -> qpdf_oh {
        let stream = try checked { qpdf_oh_new_stream($0) }
        let dict = try checked { qpdf_oh_get_dict($0, stream) }
        for (key, value) in entries { try set(key, value, in: dict) }
        return stream
    }

    /// Adds `key` to a stream's dictionary (`qpdf_oh_get_dict` + `qpdf_oh_replace_key`).
    func set(_ key: String, _ value: qpdf_oh, inStream stream: qpdf_oh) throws(EngineError) {
        let dict = try checked { qpdf_oh_get_dict($0, stream) }
        try set(key, value, in: dict)
    }

    /// Replaces a stream's data (`qpdf_oh_replace_stream_data`, which copies the
    /// bytes). `filter` and `decodeParms` describe how `bytes` are encoded; nil
    /// means raw data, which the writer compresses.
    func setData(
        _ bytes: UnsafeRawBufferPointer, of stream: qpdf_oh, filter: qpdf_oh? = nil, decodeParms: qpdf_oh? = nil
    ) throws(EngineError) {
        let null = try checked { qpdf_oh_new_null($0) }
        let filter = filter ?? null
        let parms = decodeParms ?? null
        try checked {
            qpdf_oh_replace_stream_data(
                $0, stream, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, filter, parms)
        }
    }

    /// `setData` for bytes held in an array.
    func setData(
        _ bytes: [UInt8], of stream: qpdf_oh, filter: qpdf_oh? = nil, decodeParms: qpdf_oh? = nil
    ) throws(EngineError) {
        // withUnsafeBytes rethrows untyped errors: carry the typed one out in a Result.
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(EngineError) in
                try setData(buffer, of: stream, filter: filter, decodeParms: decodeParms)
            }
        }
        try result.get()
    }

    /// A stream's data with its general-purpose filters (Flate, predictors) undone
    /// (`qpdf_oh_get_stream_data` at `qpdf_dl_generalized`). Throws `failure(detail)`
    /// when qpdf cannot decode it, or decodes it only with complaints (a warning).
    func decodedData(
        of stream: qpdf_oh, failure: (String) -> EngineError
    ) throws(EngineError) -> MallocBuffer {
        var filtered: QPDF_BOOL = QPDF_FALSE
        var pointer: UnsafeMutablePointer<UInt8>? = nil
        var length = 0
        let warningsBefore = warnings.count
        _ = try checked({ qpdf_oh_get_stream_data($0, stream, qpdf_dl_generalized, &filtered, &pointer, &length) },
            failure: failure)
        let buffer = MallocBuffer(pointer: pointer, count: length)
        if warnings.count > warningsBefore {
            throw failure(warnings[warningsBefore])
        }
        guard filtered != QPDF_FALSE else { throw failure("the compressed data cannot be decoded") }
        return buffer
    }

    /// `qpdf_make_indirect_object`.
    func makeIndirect(_ object: qpdf_oh) throws(EngineError) -> qpdf_oh {
        try checked { qpdf_make_indirect_object($0, object) }
    }

    /// Appends a page dictionary to the page tree (`qpdf_add_page`, this document
    /// being both source and destination).
    func addPage(_ page: qpdf_oh) throws(EngineError) {
        _ = try checked { qpdf_add_page($0, $0, page, QPDF_FALSE) }
    }

    // MARK: Writing

    /// Writes the document to `path` (`qpdf_init_write`, `qpdf_write`) with a
    /// deterministic `/ID` (`qpdf_set_deterministic_ID`), so that the same objects
    /// give the same bytes. Streams that already have a filter are written as they
    /// are (`qpdf_set_decode_level(qpdf_dl_none)`: JPEG and PNG data pass through
    /// untouched); raw streams are Flate-compressed (`qpdf_set_compress_streams`).
    /// `path` is written as given: callers write a temporary name and rename it.
    ///
    /// qpdf writes into memory (`qpdf_init_write_memory`, `qpdf_get_buffer`) and the
    /// bytes go to the file with every `write(2)` checked and an `fsync`: qpdf's own
    /// file output (`qpdf_init_write`) ignores the error of its last `fflush`, so a
    /// full disk gave a truncated file and no error.
    func write(to path: String, minimumVersion: String) throws(EngineError) {
        let failure: (String) -> EngineError = { EngineError.cannotWrite(file: path, reason: $0) }
        _ = try checked({ qpdf_init_write_memory($0) }, failure: failure)
        try checked({ qpdf_set_deterministic_ID($0, QPDF_TRUE) }, failure: failure)
        try checked({ qpdf_set_compress_streams($0, QPDF_TRUE) }, failure: failure)
        try checked({ qpdf_set_decode_level($0, qpdf_dl_none) }, failure: failure)
        try checked({ qpdf_set_minimum_pdf_version($0, minimumVersion) }, failure: failure)
        _ = try checked({ qpdf_write($0) }, failure: failure)
        let length = qpdf_get_buffer_length(handle)
        guard let bytes = qpdf_get_buffer(handle) else { throw failure("qpdf produced no output") }
        try writeChecked(UnsafeRawBufferPointer(start: bytes, count: length), to: path)
    }
}

/// Writes `bytes` to a new file at `path` (created or truncated), checking every
/// `write(2)`, then `fsync` and `close`; on failure the file is removed. Mode 0600:
/// it is a temporary that the caller renames into place with its final mode.
func writeChecked(_ bytes: UnsafeRawBufferPointer, to path: String) throws(EngineError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw EngineError.cannotWrite(file: path, reason: String(cString: strerror(errno))) }
    var failure: Int32 = 0
    var offset = 0
    while failure == 0, offset < bytes.count, let base = bytes.baseAddress {
        let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
        if written < 0 {
            if errno != EINTR { failure = errno }
            continue
        }
        offset += written
    }
    if failure == 0, fsync(descriptor) != 0 { failure = errno }
    if close(descriptor) != 0, failure == 0, errno != EINTR { failure = errno }
    if failure != 0 {
        unlink(path)
        throw EngineError.cannotWrite(file: path, reason: String(cString: strerror(failure)))
    }
}

/// Memory that a C function allocated with `malloc` and handed over; freed in `deinit`.
final class MallocBuffer {
    let pointer: UnsafeMutablePointer<UInt8>?
    let count: Int

    init(pointer: UnsafeMutablePointer<UInt8>?, count: Int) {
        self.pointer = pointer
        self.count = pointer == nil ? 0 : count
    }

    deinit { free(pointer) }

    /// `count` zero bytes (`calloc`), or nil when memory is short. Zero bytes
    /// need no allocation.
    static func zeroed(count: Int) -> MallocBuffer? {
        guard count > 0 else { return MallocBuffer(pointer: nil, count: 0) }
        guard let raw = calloc(count, 1) else { return nil }
        return MallocBuffer(pointer: raw.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// The bytes, mutable in place; empty when nothing was allocated.
    var bytes: UnsafeMutableBufferPointer<UInt8> { UnsafeMutableBufferPointer(start: pointer, count: count) }
}
