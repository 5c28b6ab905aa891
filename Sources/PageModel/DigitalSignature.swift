/// One digital signature a PDF carries (a signed signature field): what `info`
/// and `list` report and what an export that would invalidate it names.
public struct DigitalSignature: Codable, Equatable, Hashable, Sendable {
    /// The signature field's fully qualified name (`Signature1`, `form.approval`).
    public var field: String
    /// Who signed: the common name (CN) of the signer's certificate in the
    /// signature's CMS data, else the signature dictionary's /Name; nil when neither is known.
    public var signer: String?
    /// When it was signed, ISO 8601 (`2024-05-01T09:30:00Z`): the signed
    /// signing time of the CMS data, else the dictionary's /M; nil when neither is given.
    public var signingTime: String?
    /// Whether /ByteRange covers the whole file: the signature is of the file
    /// as it is, not of an earlier revision that later updates were appended to.
    public var coversWholeFile: Bool
    /// The certification (DocMDP) permission when this signature certifies the
    /// document: 1 no changes, 2 form filling and signing, 3 those and
    /// annotations (PDF 32000-1 §12.8.2.2); nil for an approval signature.
    public var docMDP: Int?
    /// The signed byte ranges (offset, length, offset, length); nil when /ByteRange is unusable.
    public var byteRange: [Int]?

    /// A signature as the reader found it (see the properties).
    public init(
        field: String, signer: String? = nil, signingTime: String? = nil, coversWholeFile: Bool,
        docMDP: Int? = nil, byteRange: [Int]? = nil
    ) {
        self.field = field
        self.signer = signer
        self.signingTime = signingTime
        self.coversWholeFile = coversWholeFile
        self.docMDP = docMDP
        self.byteRange = byteRange
    }

    private enum CodingKeys: String, CodingKey {
        case field, signer, signingTime, coversWholeFile, docMDP, byteRange
    }

    /// Writes every key, an absent value as `null` (the JSON shape docs/manual.md documents).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(field, forKey: .field)
        try container.encode(signer, forKey: .signer)
        try container.encode(signingTime, forKey: .signingTime)
        try container.encode(coversWholeFile, forKey: .coversWholeFile)
        try container.encode(docMDP, forKey: .docMDP)
        try container.encode(byteRange, forKey: .byteRange)
    }

    /// How messages name it: `"Signature1" (Alice Example)`.
    public var shownName: String {
        "\"\(field)\"" + (signer.map { " (\($0))" } ?? "")
    }

    /// What a DocMDP permission allows, in words.
    public static func permissionPhrase(_ permission: Int) -> String {
        switch permission {
        case 1: "no changes"
        case 2: "form filling and signing only"
        default: "form filling, signing and annotations only"
        }
    }

    /// A PDF date (`D:20240501093000+02'00'`, PDF 32000-1 §7.9.4) as ISO 8601 in
    /// UTC (`2024-05-01T07:30:00Z`); a date without a time zone is taken as UTC.
    /// nil when it is not one (the fields it gives must be in range).
    public static func isoDate(fromPDFDate text: String) -> String? {
        var rest = Substring(text)
        if rest.hasPrefix("D:") { rest = rest.dropFirst(2) }
        func number(_ count: Int, default value: Int?) -> Int? {
            let digits = rest.prefix(count)
            guard digits.count == count, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                return rest.isEmpty || !(rest.first?.isNumber ?? false) ? value : nil
            }
            rest = rest.dropFirst(count)
            return Int(digits)
        }
        guard let year = number(4, default: nil), let month = number(2, default: 1), let day = number(2, default: 1),
            let hour = number(2, default: 0), let minute = number(2, default: 0), let second = number(2, default: 0),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var offset = 0
        if let sign = rest.first, sign == "+" || sign == "-" {
            rest = rest.dropFirst()
            guard let hours = number(2, default: nil), hours < 24 else { return nil }
            if rest.first == "'" { rest = rest.dropFirst() }
            let minutes = number(2, default: 0) ?? 0
            guard minutes < 60 else { return nil }
            offset = (hours * 60 + minutes) * (sign == "+" ? 1 : -1)
        }
        // Days since 1970 by the civil-from-days inverse (proleptic Gregorian).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second - offset * 60
        return isoDate(secondsSince1970: seconds)
    }

    /// Seconds since 1970 as ISO 8601 in UTC (`2024-05-01T07:30:00Z`).
    public static func isoDate(secondsSince1970 seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let inDay = seconds - days * 86400
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)-\(two(month))-\(two(day))T\(two(inDay / 3600)):\(two(inDay / 60 % 60)):\(two(inDay % 60))Z"
    }
}
