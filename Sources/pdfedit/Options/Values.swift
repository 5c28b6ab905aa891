import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PDFEditKit
import PageModel

// Option values: parsed once, here at the edge, into the kit's and the model's
// types; a wrong one is a usage error (64) with the model's own message.

func parseSelection(_ text: String) throws(PDFEditError) -> PageSelection {
    do throws(SelectionError) { return try PageSelection.parse(text) } catch { throw PDFEditError.selection(error) }
}

func parsePosition(_ text: String) throws(PDFEditError) -> Position {
    do throws(SelectionError) { return try Position.parse(text) } catch { throw PDFEditError.selection(error) }
}

func parseSize(_ text: String) throws(PDFEditError) -> PageSizeSpec {
    do throws(SizeError) { return try PageSize.parse(text) } catch { throw PDFEditError.edit(.size(error)) }
}

/// `--fit SIZE` of insert and fill: a paper size or WxH, not like:P.
func parseFitSize(_ text: String?) throws(PDFEditError) -> PageSize? {
    switch try text.map(parseSize) {
    case .fixed(let size)?: return size
    case .like?: throw PDFEditError.usage("--fit takes a paper size or WxH, not like:P")
    case nil: return nil
    }
}

/// `0.3`, `1`, `30%`: above 0 and at most 1.
func parseOpacity(_ text: String) throws(PDFEditError) -> Double {
    let trimmed = text.trimmingSpaces()
    let value: Double?
    if trimmed.hasSuffix("%") {
        value = Double(trimmed.dropLast()).map { $0 / 100 }
    } else {
        value = Double(trimmed)
    }
    guard let value, Stamp.isValidOpacity(value) else {
        throw PDFEditError.usage("--opacity takes a number above 0 and at most 1 (or 1% to 100%), not \"\(text)\"")
    }
    return value
}

/// `export --labels keep|renumber|none`.
enum LabelsChoice: String, ExpressibleByArgument {
    case keep, renumber, none

    /// The help lists the values in its own words (HelpSnapshotTests).
    static var allValueStrings: [String] { [] }

    func apply(to settings: inout ExportSettings) {
        switch self {
        case .keep: settings.pageLabels = .keep
        case .renumber: settings.pageLabels = .renumber
        case .none: settings.pageLabels = .none
        }
    }
}

/// `export --outline keep|per-source|none`.
enum OutlineChoice: String, ExpressibleByArgument {
    case keep
    case perSource = "per-source"
    case none

    /// The help lists the values in its own words (HelpSnapshotTests).
    static var allValueStrings: [String] { [] }

    var policy: OutlinePolicy {
        switch self {
        case .keep: .keep
        case .perSource: .perSource
        case .none: .none
        }
    }
}

/// `export --placeholders refuse|blank`.
enum PlaceholdersChoice: String, ExpressibleByArgument {
    case refuse, blank

    static var allValueStrings: [String] { [] }

    var policy: PlaceholderPolicy {
        switch self {
        case .refuse: return .refuse
        case .blank: return .blank
        }
    }
}

/// `--color`, `--background`, `--outline`: a name (red), #rrggbb, or CMYK as c,m,y,k.
func parseColor(_ text: String?, option: String) throws(PDFEditError) -> TextColor? {
    guard let text else { return nil }
    guard let color = TextColor.parse(text) else {
        throw PDFEditError.usage(
            "\(option) takes a colour name (\(TextColor.names.keys.sorted().joined(separator: ", "))), #rrggbb or CMYK as c,m,y,k (0 to 1 or 0% to 100% each), not \"\(text)\"")
    }
    return color
}
