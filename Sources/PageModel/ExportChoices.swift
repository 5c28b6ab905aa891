/// What an export does with page labels (`export --labels`).
public enum PageLabelPolicy: String, Sendable, Equatable, CaseIterable {
    /// Each page keeps the label it had in its source (plain numbers in their
    /// source for pages of sources without labels); none when no source has any.
    case keep
    /// Plain 1…n.
    case renumber
    /// No page labels.
    case none
}

/// What the readers of an encrypted output may do without its owner password
/// (`export --allow`).
public enum OutputPermission: String, Sendable, Hashable, CaseIterable {
    /// Print (at full resolution).
    case print
    /// Copy text and images out of it.
    case copy
    /// Other changes to the document.
    case modify
    /// Add or change annotations.
    case annotate
    /// Fill in form fields.
    case form
    /// Insert, remove and rotate pages.
    case assemble
}

/// Passwords and permissions an exported file is encrypted with (AES-256, R6;
/// `export --encrypt`).
public struct OutputEncryption: Sendable, Equatable {
    /// Needed to open the file.
    public var userPassword: String
    /// Needed to change the file's permissions.
    public var ownerPassword: String
    /// What is allowed without the owner password (by default everything).
    public var allowed: Set<OutputPermission>

    /// Encryption with these passwords and permissions.
    public init(
        userPassword: String, ownerPassword: String, allowed: Set<OutputPermission> = Set(OutputPermission.allCases)
    ) {
        self.userPassword = userPassword
        self.ownerPassword = ownerPassword
        self.allowed = allowed
    }
}
