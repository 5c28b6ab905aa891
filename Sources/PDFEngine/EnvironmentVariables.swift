#if canImport(Glibc)
import Glibc
#endif

/// The variables of an environment, looked up by name: `process`, this
/// process's own, read with `getenv` at each lookup, or given ones (tests, as a
/// dictionary literal).
///
/// Not `ProcessInfo.environment`: it builds the whole environment as a
/// dictionary at every call (0.3M instructions with 35 variables), and a
/// one-page edit asked for it eight times, 8% of its instructions.
package struct EnvironmentVariables: Sendable, ExpressibleByDictionaryLiteral {
    /// Nil for the process's own variables.
    private let given: [String: String]?

    /// This process's variables, as they are when looked up.
    package static let process = EnvironmentVariables(given: nil)

    private init(given: [String: String]?) { self.given = given }

    package init(_ variables: [String: String]) { given = variables }

    package init(dictionaryLiteral elements: (String, String)...) {
        given = Dictionary(elements, uniquingKeysWith: { _, last in last })
    }

    /// The value of variable `name`, or nil when it is not set.
    package subscript(name: String) -> String? {
        if let given { return given[name] }
        guard let value = getenv(name) else { return nil }
        // A value may name a file (PDFEDIT_SESSION, TMPDIR): its bytes are kept (`FileNames`).
        return FileNames.string(cString: value)
    }

    /// The variables among `names` that are set, with their values.
    package func values(of names: some Sequence<String>) -> [String: String] {
        var found: [String: String] = [:]
        for name in names {
            if let value = self[name] { found[name] = value }
        }
        return found
    }
}
