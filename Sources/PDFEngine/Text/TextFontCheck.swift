import CPango
import PageModel

extension TextPicture.Font {
    /// The generic families fontconfig maps to an installed font by its own rules.
    static let genericFamilies: Set<String> = [
        "sans-serif", "sans", "serif", "monospace", "mono", "cursive", "fantasy", "system-ui", "emoji", "math",
    ]

    /// Why this font cannot be used, nil when it can: a file FreeType cannot
    /// read as a font, a name fontconfig cannot parse, or a family no
    /// installed font has (fontconfig would quietly use another one).
    package var problem: String? {
        switch self {
        case .file(let path):
            var count: Int32 = 0
            guard let pattern = FcFreeTypeQuery(path, 0, nil, &count) else {
                return "not a font file FreeType can read (TrueType, OpenType)"
            }
            FcPatternDestroy(pattern)
            return nil
        case .pattern(let text):
            guard let pattern = FcNameParse(text) else { return "\"\(text)\" is not a font name fontconfig understands" }
            defer { FcPatternDestroy(pattern) }
            guard let wanted = Self.family(of: pattern) else { return nil }
            if Self.genericFamilies.contains(wanted.lowercased()) { return nil }
            FcConfigSubstitute(nil, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            guard let match = FcFontMatch(nil, pattern, &result) else {
                return "no installed font is called \"\(wanted)\" (fc-list : family lists them)"
            }
            defer { FcPatternDestroy(match) }
            let found = Self.families(of: match)
            guard found.contains(where: { $0.lowercased() == wanted.lowercased() }) else {
                return "no installed font is called \"\(wanted)\"; fontconfig would use \"\(found.first ?? "?")\" (fc-list : family lists them)"
            }
            return nil
        }
    }

    private static func family(of pattern: OpaquePointer) -> String? { families(of: pattern).first }

    private static func families(of pattern: OpaquePointer) -> [String] {
        var names: [String] = []
        var index: Int32 = 0
        while true {
            var value: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(pattern, FC_FAMILY, index, &value) == FcResultMatch, let value else { break }
            names.append(String(cString: value))
            index += 1
        }
        return names
    }
}
