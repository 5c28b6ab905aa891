import Glibc
import Testing

@testable import PDFEngine

/// `EnvironmentVariables.process` reads this process's variables by name when
/// asked (no snapshot: a variable set later is seen); given ones are a dictionary.
@Suite struct EnvironmentVariablesTests {
    @Test func theProcessVariablesAreReadWhenAsked() {
        let name = "PDFEDIT_TEST_VARIABLE_\(getpid())"
        #expect(EnvironmentVariables.process[name] == nil)
        setenv(name, "née 1", 1)
        defer { unsetenv(name) }
        #expect(EnvironmentVariables.process[name] == "née 1")
        setenv(name, "", 1)
        #expect(EnvironmentVariables.process[name] == "")
        #expect(EnvironmentVariables.process.values(of: [name, name + "_UNSET"]) == [name: ""])
    }

    @Test func givenVariablesAreTheOnlyOnes() {
        let given: EnvironmentVariables = ["A": "1", "B": "2"]
        #expect(given["A"] == "1")
        #expect(given["PATH"] == nil)
        #expect(given.values(of: ["B", "C"]) == ["B": "2"])
        #expect(EnvironmentVariables(["A": "x"])["A"] == "x")
    }
}
