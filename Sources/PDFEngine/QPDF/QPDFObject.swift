import CQPDF

/// A handle to one object of a `QPDFDocument` (`qpdf_oh`).
///
/// Keeps its document alive. Only ever built from a handle qpdf returned without an
/// error, so an uninitialised handle is never stored or passed back to qpdf.
public struct QPDFObject {
    let document: QPDFDocument
    let handle: qpdf_oh

    init(document: QPDFDocument, handle: qpdf_oh) {
        self.document = document
        self.handle = handle
    }

    private func ask<T>(_ call: (qpdf_data, qpdf_oh) -> T) throws(EngineError) -> T {
        try document.checked { call($0, handle) }
    }

    /// `qpdf_oh_is_null`; also true for an uninitialised handle.
    public var isNull: Bool {
        get throws(EngineError) {
            try ask { qpdf_oh_is_initialized($0, $1) == QPDF_FALSE || qpdf_oh_is_null($0, $1) != QPDF_FALSE }
        }
    }
    public var isDictionary: Bool { get throws(EngineError) { try ask { qpdf_oh_is_dictionary($0, $1) } != QPDF_FALSE } }
    public var isArray: Bool { get throws(EngineError) { try ask { qpdf_oh_is_array($0, $1) } != QPDF_FALSE } }
    public var isNumber: Bool { get throws(EngineError) { try ask { qpdf_oh_is_number($0, $1) } != QPDF_FALSE } }
    public var isName: Bool { get throws(EngineError) { try ask { qpdf_oh_is_name($0, $1) } != QPDF_FALSE } }
    public var isString: Bool { get throws(EngineError) { try ask { qpdf_oh_is_string($0, $1) } != QPDF_FALSE } }

    /// `qpdf_oh_get_key` (the name without its slash): a missing key gives a null object, never an error.
    public func key(_ name: String) throws(EngineError) -> QPDFObject {
        let oh = try ask { qpdf_oh_get_key($0, $1, "/" + name) }
        return QPDFObject(document: document, handle: oh)
    }

    /// `qpdf_oh_has_key` on a dictionary; false for anything else.
    public func hasKey(_ name: String) throws(EngineError) -> Bool {
        guard try isDictionary else { return false }
        return try ask { qpdf_oh_has_key($0, $1, "/" + name) } != QPDF_FALSE
    }

    /// The key's value, or nil when it is absent or null.
    public func value(_ name: String) throws(EngineError) -> QPDFObject? {
        guard try hasKey(name) else { return nil }
        let child = try key(name)
        return try child.isNull ? nil : child
    }

    public var arrayCount: Int {
        get throws(EngineError) { try isArray ? Int(try ask { qpdf_oh_get_array_n_items($0, $1) }) : 0 }
    }

    public func item(_ index: Int) throws(EngineError) -> QPDFObject {
        QPDFObject(document: document, handle: try ask { qpdf_oh_get_array_item($0, $1, Int32(index)) })
    }

    public var arrayItems: [QPDFObject] {
        get throws(EngineError) {
            var items: [QPDFObject] = []
            for index in 0..<(try arrayCount) { items.append(try item(index)) }
            return items
        }
    }

    /// `qpdf_oh_get_numeric_value`, for integers and reals alike.
    /// The value of an integer object (`qpdf_oh_is_integer`), nil for anything else.
    public var integer: Int64? {
        get throws(EngineError) {
            try ask { qpdf_oh_is_integer($0, $1) } != QPDF_FALSE ? Int64(try ask { qpdf_oh_get_int_value($0, $1) }) : nil
        }
    }

    public var number: Double? {
        get throws(EngineError) { try isNumber ? try ask { qpdf_oh_get_numeric_value($0, $1) } : nil }
    }

    public var name: String? {
        get throws(EngineError) { try isName ? try ask { String(cString: qpdf_oh_get_name($0, $1)) } : nil }
    }

    /// A text string decoded to UTF-8 (`qpdf_oh_get_utf8_value`).
    public var text: String? {
        get throws(EngineError) { try isString ? try ask { String(cString: qpdf_oh_get_utf8_value($0, $1)) } : nil }
    }

    /// Object number, 0 for a direct object (`qpdf_oh_get_object_id`).
    public var objectID: Int { get throws(EngineError) { Int(try ask { qpdf_oh_get_object_id($0, $1) }) } }

    /// A rectangle `[llx lly urx ury]` as four numbers, normalised so that ll < ur.
    public var rectangle: PDFRect? {
        get throws(EngineError) {
            guard try arrayCount == 4 else { return nil }
            var numbers: [Double] = []
            for element in try arrayItems {
                guard let value = try element.number, value.isFinite else { return nil }
                numbers.append(value)
            }
            return PDFRect(
                x0: min(numbers[0], numbers[2]), y0: min(numbers[1], numbers[3]),
                x1: max(numbers[0], numbers[2]), y1: max(numbers[1], numbers[3]))
        }
    }
}
