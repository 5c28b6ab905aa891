// `floor rotate PAGE --by DEGREES IN -o OUT`: sets one page's /Rotate through
// libqpdf's C API and writes the file, as `qpdf IN --rotate=+DEGREES:PAGE OUT`
// does, after refusing an existing output without --force as pdfedit does. No
// other checks, no fidelity, no safety (no temporary file, no rename): what is
// left is the cost of the stack itself.
import ArgumentParser
import CQPDFFloor
import FoundationEssentials

struct Rotate: ParsableCommand {
    @Argument var page: Int
    @Option var by: Int
    @Argument var input: String
    @Option(name: .shortAndLong) var output: String
    @Flag var force = false
    @Flag(name: .shortAndLong) var quiet = false

    func run() throws {
        if !force && FileManager.default.fileExists(atPath: output) {
            throw ValidationError("\(output): exists; use --force to replace it")
        }
        var qpdf = qpdf_init()
        defer { qpdf_cleanup(&qpdf) }
        guard qpdf_read(qpdf, input, nil) & QPDF_ERRORS == 0 else {
            throw ValidationError("cannot read \(input)")
        }
        let handle = qpdf_get_page_n(qpdf, page - 1)
        let old = qpdf_oh_has_key(qpdf, handle, "/Rotate") != 0
            ? Int(qpdf_oh_get_int_value_as_int(qpdf, qpdf_oh_get_key(qpdf, handle, "/Rotate"))) : 0
        qpdf_oh_replace_key(qpdf, handle, "/Rotate", qpdf_oh_new_integer(qpdf, Int64((old + by) % 360)))
        guard qpdf_init_write(qpdf, output) & QPDF_ERRORS == 0, qpdf_write(qpdf) & QPDF_ERRORS == 0 else {
            throw ValidationError("cannot write \(output)")
        }
        if !quiet {
            print("wrote \(output)")
        }
    }
}

struct Floor: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "floor", subcommands: [Rotate.self])
}

Floor.main()
