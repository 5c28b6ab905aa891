extension StringProtocol {
    /// Without spaces and tabs at either end: what Foundation's
    /// `trimmingCharacters(in: .whitespaces)` removes (tab and the Unicode space
    /// separators, not line breaks), which FoundationEssentials does not have.
    package func trimmingSpaces() -> String {
        func isSpace(_ character: Character) -> Bool {
            character.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
        }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
