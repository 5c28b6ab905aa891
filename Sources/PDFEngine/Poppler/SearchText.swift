import CPoppler

/// Unicode forms for text search, from GLib (loaded with poppler, whose text is
/// what is searched): NFKC, so a ligature such as "ﬃ" (U+FB03) is "ffi", and
/// full case folding ("ß" is "ss"). Foundation's forms would bring ICU into
/// every command's start-up.
package enum SearchText {
    /// `text` in NFKC; with `caseFolded`, case-folded and normalised again
    /// (folding can leave a non-normalised form).
    package static func normalized(_ text: String, caseFolded: Bool) -> String {
        let normal = glib(text) { g_utf8_normalize($0, -1, G_NORMALIZE_NFKC) }
        guard caseFolded else { return normal }
        return glib(glib(normal) { g_utf8_casefold($0, -1) }) { g_utf8_normalize($0, -1, G_NORMALIZE_NFKC) }
    }

    /// `text` case-folded only (no normalisation): for finding where a folded
    /// match lies in text shown as it is.
    package static func folded(_ text: String) -> String {
        glib(text) { g_utf8_casefold($0, -1) }
    }

    /// The GLib string `transform` makes of `text` (freed here); `text` itself if
    /// GLib refuses it (it takes valid UTF-8, which a Swift string always is).
    private static func glib(_ text: String, _ transform: (UnsafePointer<CChar>) -> UnsafeMutablePointer<CChar>?) -> String {
        text.withCString { pointer in
            guard let result = transform(pointer) else { return text }
            defer { g_free(result) }
            return String(cString: result)
        }
    }
}
