#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PDFEditKit
import PageModel

/// `10`, `-5mm`, `0.5in`, `1cm`, `12pt`: a length in points (pt is the default unit).
func parseLength(_ text: String, option: String) throws(PDFEditError) -> Double {
    let trimmed = text.trimmingSpaces().lowercased()
    let units: [(String, Double)] = [("mm", 72 / 25.4), ("cm", 72 / 2.54), ("in", 72), ("pt", 1)]
    var number = Substring(trimmed)
    var factor = 1.0
    if let (unit, perUnit) = units.first(where: { trimmed.hasSuffix($0.0) }) {
        number = number.dropLast(unit.count)
        factor = perUnit
    }
    guard !number.isEmpty, number.allSatisfy({ ("0"..."9").contains($0) || $0 == "." || $0 == "-" || $0 == "+" }),
        let value = Double(number), value.isFinite
    else {
        throw PDFEditError.usage("\(option) takes lengths in pt (default), mm, cm or in, not \"\(text)\"")
    }
    return value * factor
}

/// A comma-separated list of lengths (`--margins 10,20mm`).
func parseLengths(_ text: String, option: String) throws(PDFEditError) -> [Double] {
    var values: [Double] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
        values.append(try parseLength(String(part), option: option))
    }
    return values
}
