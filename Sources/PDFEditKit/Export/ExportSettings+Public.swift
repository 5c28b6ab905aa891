import PageModel
extension ExportSettings {
    /// The defaults: no `force`, placeholders refused, not encrypted, labels kept, the first source's title.
    public static var defaults: ExportSettings { ExportSettings() }
}
