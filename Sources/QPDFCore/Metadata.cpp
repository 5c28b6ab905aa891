// XMP metadata, output intents and the PDF/A and PDF/UA claims of an output.
//
// - /Metadata and /OutputIntents come from the source of the output's first page
//   (copied; the packet keeps everything it had but what is changed below).
// - The packet is updated: pdf:Producer, xmp:ModifyDate and xmp:MetadataDate are
//   replaced (removed wherever they are, written in one new rdf:Description
//   before </rdf:RDF>), and dc:title when a title is given (set_xmp_title);
//   dc:creator, dc:description and pdf:Keywords when an author, subject or
//   keywords are given (removed, then written in that rdf:Description; "" only
//   removes). An output with none gets a new packet when any of them is given
//   (`meta`), so Info and XMP say the same. The
//   document information (/Info), when the output has one, gets the same
//   /Producer and /ModDate, as PDF/A requires the two to agree.
// - The date is the newest modification time of the files of the output's
//   sources, not the time of the export: the same export twice gives the same
//   bytes (exports are deterministic).
// - A PDF/A identification (pdfaid:*) or PDF/UA identification (pdfuaid:*) is
//   kept only when the output still meets it as far as this can tell: nothing
//   was dropped from any source (the Dropped line is empty), every source of
//   the output's pages makes the same claim, and (PDF/A) no later source has
//   output intents other than the first's. Else it is removed from the packet
//   and named in the Dropped line ("PDF/A-2B claim (a.pdf)"). A packet that
//   cannot be edited safely (not one </rdf:RDF>) is left as it is, unless a claim
//   must go: then the output has no XMP ("XMP metadata" in the Dropped line).
//
// The packet is edited as text, not parsed: properties are found by the prefixes
// their namespace is declared with (xmlns:p="..."), in element form
// (<p:name>v</p:name>, <p:name/>) and attribute form (p:name="v").
#include "Export.hh"
#include "Limits.hh"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <ctime>
#include <set>

namespace pe {

namespace {

char const *const producer = "pdfedit";
char const *const pdf_namespace = "http://ns.adobe.com/pdf/1.3/";
char const *const xmp_namespace = "http://ns.adobe.com/xap/1.0/";
char const *const dc_namespace = "http://purl.org/dc/elements/1.1/";
char const *const pdfa_namespace = "http://www.aiim.org/pdfa/ns/id/";
char const *const pdfua_namespace = "http://www.aiim.org/pdfua/ns/id/";

bool is_name_char(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == ':' ||
        (static_cast<unsigned char>(c) >= 0x80);
}

// The prefixes `uri` is declared with in the packet (xmlns:p="uri" or 'uri').
std::set<std::string> prefixes_of(std::string const &xmp, std::string const &uri)
{
    std::set<std::string> prefixes;
    std::string const marker = "xmlns:";
    for (size_t at = xmp.find(marker); at != std::string::npos; at = xmp.find(marker, at + 1)) {
        size_t start = at + marker.size();
        size_t end = start;
        while (end < xmp.size() && is_name_char(xmp[end]) && xmp[end] != ':') {
            ++end;
        }
        size_t quote = end;
        while (quote < xmp.size() && (xmp[quote] == '=' || std::isspace(static_cast<unsigned char>(xmp[quote])))) {
            ++quote;
        }
        if (end == start || quote >= xmp.size() || (xmp[quote] != '"' && xmp[quote] != '\'')) {
            continue;
        }
        size_t close = xmp.find(xmp[quote], quote + 1);
        if (close != std::string::npos && xmp.compare(quote + 1, close - quote - 1, uri) == 0) {
            prefixes.insert(xmp.substr(start, end - start));
        }
    }
    return prefixes;
}

// One occurrence of a property: where it starts and ends in the packet (the
// whole element, or the attribute with the white space before it) and its value.
struct Occurrence {
    size_t start;
    size_t end;
    std::string value;
};

// The next occurrence of property `qname` at or after `from`; false when none.
bool find_property(std::string const &xmp, std::string const &qname, size_t from, Occurrence &found)
{
    for (size_t at = xmp.find(qname, from); at != std::string::npos; at = xmp.find(qname, at + 1)) {
        size_t after = at + qname.size();
        if (at == 0 || after >= xmp.size() || is_name_char(xmp[after]) || is_name_char(xmp[at - 1])) {
            continue;
        }
        if (xmp[at - 1] == '<') {
            size_t close = xmp.find('>', after);
            if (close == std::string::npos) {
                return false;
            }
            if (xmp[close - 1] == '/') {
                found = Occurrence{at - 1, close + 1, ""};
                return true;
            }
            std::string const closing = "</" + qname + ">";
            size_t end = xmp.find(closing, close);
            if (end == std::string::npos) {
                return false;
            }
            found = Occurrence{at - 1, end + closing.size(), xmp.substr(close + 1, end - close - 1)};
            return true;
        }
        if (std::isspace(static_cast<unsigned char>(xmp[at - 1]))) {
            size_t quote = after;
            while (quote < xmp.size() && std::isspace(static_cast<unsigned char>(xmp[quote]))) {
                ++quote;
            }
            if (quote >= xmp.size() || xmp[quote] != '=') {
                continue;
            }
            ++quote;
            while (quote < xmp.size() && std::isspace(static_cast<unsigned char>(xmp[quote]))) {
                ++quote;
            }
            if (quote >= xmp.size() || (xmp[quote] != '"' && xmp[quote] != '\'')) {
                continue;
            }
            size_t close = xmp.find(xmp[quote], quote + 1);
            if (close == std::string::npos) {
                return false;
            }
            size_t start = at - 1;
            while (start > 0 && std::isspace(static_cast<unsigned char>(xmp[start - 1]))) {
                --start;
            }
            found = Occurrence{start, close + 1, xmp.substr(quote + 1, close - quote - 1)};
            return true;
        }
    }
    return false;
}

// The value of property `local` of namespace `uri` (its first occurrence), "" when none.
std::string property(std::string const &xmp, std::string const &uri, std::string const &local)
{
    for (std::string const &prefix : prefixes_of(xmp, uri)) {
        Occurrence found;
        if (find_property(xmp, prefix + ":" + local, 0, found)) {
            std::string value = found.value;
            size_t first = value.find_first_not_of(" \t\r\n");
            size_t last = value.find_last_not_of(" \t\r\n");
            return first == std::string::npos ? "" : value.substr(first, last - first + 1);
        }
    }
    return "";
}

// Erases an occurrence with the white space before it (an element's
// indentation: white space between property elements carries nothing);
// returns where the erased text started.
size_t erase_occurrence(std::string &xmp, Occurrence const &found)
{
    size_t start = found.start;
    while (start > 0 && std::isspace(static_cast<unsigned char>(xmp[start - 1]))) {
        --start;
    }
    xmp.erase(start, found.end - start);
    return start;
}

// Removes every occurrence of the properties `locals` of namespace `uri`.
void remove_properties(std::string &xmp, std::string const &uri, std::vector<std::string> const &locals)
{
    for (std::string const &prefix : prefixes_of(xmp, uri)) {
        for (std::string const &local : locals) {
            Occurrence found;
            while (find_property(xmp, prefix + ":" + local, 0, found)) {
                erase_occurrence(xmp, found);
            }
        }
    }
}

// Sets simple property `local` of namespace `uri` to `value` (already escaped)
// where the packet has it: its first element occurrence is rewritten in place,
// with the packet's own prefix, and every other occurrence removed. False
// (every occurrence removed) when it has none in element form: the caller
// writes it in a new rdf:Description. In place, the packet does not grow by a
// description and its namespace declarations for a value it already holds.
bool replace_property(std::string &xmp, std::string const &uri, std::string const &local, std::string const &value)
{
    bool kept = false;
    for (std::string const &prefix : prefixes_of(xmp, uri)) {
        std::string const qname = prefix + ":" + local;
        Occurrence found;
        size_t from = 0;
        while (find_property(xmp, qname, from, found)) {
            if (!kept && xmp[found.start] == '<') {
                std::string rewritten = "<" + qname + ">" + value + "</" + qname + ">";
                xmp.replace(found.start, found.end - found.start, rewritten);
                kept = true;
                from = found.start + rewritten.size();
            } else {
                from = erase_occurrence(xmp, found);
            }
        }
    }
    return kept;
}

// Takes what an edit added to a packet out of its padding: the white space
// before `<?xpacket end=` is there for editors to grow the packet in place
// (XMP Part 3, 1.1.4), so the packet stays as large as it was where it can.
void consume_padding(std::string &xmp, size_t original_size)
{
    if (xmp.size() <= original_size) {
        return;
    }
    size_t end = xmp.rfind("<?xpacket end=");
    if (end == std::string::npos) {
        return;
    }
    size_t start = end;
    while (start > 0 && std::isspace(static_cast<unsigned char>(xmp[start - 1]))) {
        --start;
    }
    // One line break is left before the trailer.
    size_t available = end - start > 0 ? end - start - 1 : 0;
    size_t taken = std::min(available, xmp.size() - original_size);
    xmp.erase(start, taken);
}

std::string upper(std::string text)
{
    for (char &c : text) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    return text;
}

std::string formatted(long long seconds, char const *format)
{
    std::time_t time = static_cast<std::time_t>(seconds);
    std::tm parts{};
    gmtime_r(&time, &parts);
    char text[64];
    size_t length = std::strftime(text, sizeof text, format, &parts);
    return std::string(text, length);
}

// What an XMP packet claims to conform to ("PDF/A-2B", "PDF/UA-1"; "" none).
struct Claims {
    std::string pdfa;
    std::string pdfua;
};

// The PDF/A and PDF/UA identification of an XMP packet.
Claims xmp_claims(std::string const &xmp)
{
    Claims claims;
    std::string part = property(xmp, pdfa_namespace, "part");
    if (!part.empty()) {
        claims.pdfa = "PDF/A-" + part + upper(property(xmp, pdfa_namespace, "conformance"));
    }
    std::string ua = property(xmp, pdfua_namespace, "part");
    if (!ua.empty()) {
        claims.pdfua = "PDF/UA-" + ua;
    }
    return claims;
}

// `text` with &, <, > and " written as XML entities.
std::string xml_escaped(std::string const &text)
{
    std::string result;
    for (char c : text) {
        switch (c) {
        case '&':
            result += "&amp;";
            break;
        case '<':
            result += "&lt;";
            break;
        case '>':
            result += "&gt;";
            break;
        case '"':
            result += "&quot;";
            break;
        default:
            result += c;
        }
    }
    return result;
}

// Sets dc:title in an XMP packet; false when the packet is not in a form this can
// change safely.
bool set_xmp_title(std::string &xmp, std::string const &title)
{
    std::string const element = "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">" +
        xml_escaped(title) + "</rdf:li></rdf:Alt></dc:title>";
    std::string const open = "<dc:title";
    size_t start = xmp.find(open);
    if (start != std::string::npos) {
        if (xmp.find(open, start + 1) != std::string::npos) {
            return false;
        }
        size_t after = start + open.size();
        if (after >= xmp.size() ||
            !(xmp[after] == '>' || xmp[after] == '/' ||
              std::isspace(static_cast<unsigned char>(xmp[after])))) {
            return false; // <dc:titleSomething>
        }
        size_t close = xmp.find('>', after);
        if (close == std::string::npos) {
            return false;
        }
        size_t end = close + 1;
        if (xmp[close - 1] != '/') {
            std::string const closing = "</dc:title>";
            size_t found = xmp.find(closing, close);
            if (found == std::string::npos) {
                return false;
            }
            end = found + closing.size();
        }
        xmp.replace(start, end - start, element);
        return true;
    }
    if (xmp.find("dc:title") != std::string::npos) {
        return false;
    }
    std::string const rdf_end = "</rdf:RDF>";
    size_t at = xmp.find(rdf_end);
    if (at == std::string::npos || xmp.find(rdf_end, at + 1) != std::string::npos) {
        return false;
    }
    xmp.insert(
        at,
        "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\">" +
            element + "</rdf:Description>\n");
    return true;
}

// The claims of a source's XMP (none when it has no readable packet).
Claims source_claims(Source &source, long long limit)
{
    QPDFObjectHandle metadata = source.catalog("/Metadata");
    std::string xmp;
    if (!metadata.isStream() || !decode_bounded(metadata, limit, "the XMP metadata stream", &xmp)) {
        return Claims{};
    }
    return xmp_claims(xmp);
}

// What a source's output intents say, to compare them between sources: each
// intent's /S and /OutputConditionIdentifier and the decoded bytes of its
// /DestOutputProfile (empty when it has none or it cannot be read).
std::vector<std::string> intents_of(Source &source, long long limit)
{
    std::vector<std::string> said;
    QPDFObjectHandle intents = source.catalog("/OutputIntents");
    if (!intents.isArray()) {
        return said;
    }
    for (QPDFObjectHandle intent : intents.getArrayAsVector()) {
        if (!intent.isDictionary()) {
            continue;
        }
        QPDFObjectHandle kind = intent.getKey("/S");
        QPDFObjectHandle condition = intent.getKey("/OutputConditionIdentifier");
        std::string entry = (kind.isName() ? kind.getName() : "") + "\n" +
            (condition.isString() ? condition.getUTF8Value() : "") + "\n";
        QPDFObjectHandle profile = intent.getKey("/DestOutputProfile");
        std::string bytes;
        if (profile.isStream() && decode_bounded(profile, limit, "an output intent's ICC profile", &bytes)) {
            entry += bytes;
        }
        said.push_back(entry);
    }
    return said;
}

// The newest modification time of the files of `order`'s sources.
long long newest_time(std::vector<Source> const &sources, std::vector<int> const &order)
{
    long long newest = 0;
    for (int s : order) {
        newest = std::max(newest, sources[static_cast<size_t>(s)].modified);
    }
    return newest;
}

} // namespace

long long file_modified(char const *path)
{
    struct stat status{};
    if (path == nullptr || stat(path, &status) != 0) {
        return 0;
    }
    return static_cast<long long>(status.st_mtime);
}

bool update_xmp(std::string &xmp, XmpUpdate const &update)
{
    std::string const rdf_end = "</rdf:RDF>";
    size_t at = xmp.find(rdf_end);
    if (at == std::string::npos || xmp.find(rdf_end, at + 1) != std::string::npos) {
        return false;
    }
    std::string edited = xmp;
    MetadataFields const &fields = update.fields;
    if (fields.title != nullptr && *fields.title != '\0') {
        set_xmp_title(edited, fields.title); // a dc:title in another form stays as it is
    } else if (fields.title != nullptr) {
        remove_properties(edited, dc_namespace, {"title"});
    }
    // The other fields: removed wherever they are, written (when not "") in
    // the new rdf:Description below.
    std::string dc_elements;
    std::string pdf_elements;
    if (fields.author != nullptr) {
        remove_properties(edited, dc_namespace, {"creator"});
        if (*fields.author != '\0') {
            dc_elements += "<dc:creator><rdf:Seq><rdf:li>" + xml_escaped(fields.author) +
                "</rdf:li></rdf:Seq></dc:creator>";
        }
    }
    if (fields.subject != nullptr) {
        remove_properties(edited, dc_namespace, {"description"});
        if (*fields.subject != '\0') {
            dc_elements += "<dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">" +
                xml_escaped(fields.subject) + "</rdf:li></rdf:Alt></dc:description>";
        }
    }
    if (fields.keywords != nullptr) {
        remove_properties(edited, pdf_namespace, {"Keywords"});
        if (*fields.keywords != '\0') {
            pdf_elements += "<pdf:Keywords>" + xml_escaped(fields.keywords) + "</pdf:Keywords>";
        }
    }
    if (update.drop_pdfa) {
        remove_properties(edited, pdfa_namespace, {"part", "conformance", "amd", "corr", "rev"});
    }
    if (update.drop_pdfua) {
        remove_properties(edited, pdfua_namespace, {"part", "amd", "corr", "rev"});
    }
    // Producer and the dates: rewritten where the packet has them as elements,
    // else written below.
    std::string date = formatted(update.time, "%Y-%m-%dT%H:%M:%SZ");
    if (!replace_property(edited, pdf_namespace, "Producer", producer)) {
        pdf_elements = std::string("<pdf:Producer>") + producer + "</pdf:Producer>" + pdf_elements;
    }
    std::string xmp_elements;
    for (char const *local : {"ModifyDate", "MetadataDate"}) {
        if (!replace_property(edited, xmp_namespace, local, date)) {
            xmp_elements += std::string("<xmp:") + local + ">" + date + "</xmp:" + local + ">";
        }
    }
    at = edited.find(rdf_end);
    if (at == std::string::npos) {
        return false;
    }
    if (!pdf_elements.empty() || !xmp_elements.empty() || !dc_elements.empty()) {
        auto declare = [](std::string const &elements, char const *prefix, char const *uri) {
            return elements.empty() ? std::string() : std::string(" xmlns:") + prefix + "=\"" + uri + "\"";
        };
        edited.insert(
            at,
            "<rdf:Description rdf:about=\"\"" + declare(pdf_elements, "pdf", pdf_namespace) +
                declare(xmp_elements, "xmp", xmp_namespace) + declare(dc_elements, "dc", dc_namespace) + ">" +
                pdf_elements + xmp_elements + dc_elements + "</rdf:Description>\n");
    }
    consume_padding(edited, xmp.size());
    xmp = edited;
    return true;
}

QPDFObjectHandle new_xmp_stream(QPDF &pdf)
{
    std::string const packet = "<?xpacket begin=\"\xEF\xBB\xBF\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
                               "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n"
                               "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n"
                               "</rdf:RDF>\n"
                               "</x:xmpmeta>\n"
                               "<?xpacket end=\"w\"?>";
    QPDFObjectHandle stream = QPDFObjectHandle::newStream(&pdf, packet);
    QPDFObjectHandle dict = stream.getDict();
    dict.replaceKey("/Type", QPDFObjectHandle::newName("/Metadata"));
    dict.replaceKey("/Subtype", QPDFObjectHandle::newName("/XML"));
    return stream;
}

void update_info(QPDF &pdf, long long time)
{
    QPDFObjectHandle info = pdf.getTrailer().getKey("/Info");
    if (!info.isDictionary()) {
        return;
    }
    info.replaceKey("/Producer", QPDFObjectHandle::newString(producer));
    info.replaceKey("/ModDate", QPDFObjectHandle::newString(formatted(time, "D:%Y%m%d%H%M%SZ")));
}

void copy_metadata(
    QPDF &out,
    std::vector<Source> &sources,
    std::vector<int> const &order,
    MetadataFields const &fields,
    long long limit,
    Dropped &dropped,
    Where &where)
{
    if (order.empty()) {
        return;
    }
    long long time = newest_time(sources, order);
    if (!fields.strip_sources) {
        update_info(out, time);
    }
    where = Where{order.front(), 0};
    Source &first = sources[static_cast<size_t>(order.front())];
    QPDFObjectHandle intents = first.catalog("/OutputIntents");
    if (intents.isArray()) {
        out.getRoot().replaceKey("/OutputIntents", import_value(out, intents));
    }
    QPDFObjectHandle metadata = fields.strip_sources ? QPDFObjectHandle::newNull() : first.catalog("/Metadata");
    if (!metadata.isStream() && fields.any()) {
        // Metadata set by `meta`: Info and XMP say the same, so a packet is made.
        std::string xmp;
        QPDFObjectHandle made = new_xmp_stream(out);
        if (decode_bounded(made, 0, "the XMP metadata stream", &xmp) &&
            update_xmp(xmp, XmpUpdate{fields, time, false, false})) {
            made.replaceStreamData(xmp, QPDFObjectHandle::newNull(), QPDFObjectHandle::newNull());
            out.getRoot().replaceKey("/Metadata", made);
        }
        where = Where{};
        return;
    }
    if (!metadata.isStream()) {
        where = Where{};
        return;
    }
    std::string xmp;
    // An unknown filter: the packet stays as it is.
    bool readable = decode_bounded(metadata, limit, "the XMP metadata stream", &xmp);
    Claims claims = readable ? xmp_claims(xmp) : Claims{};
    XmpUpdate update{fields, time, false, false};
    bool nothing_dropped = dropped.empty();
    // A later source with other output intents than the first's: its pages'
    // colours would be read through the first source's profile, so the output
    // no longer meets PDF/A (a source without output intents needs none).
    // Decoded only when a PDF/A claim and a second source make it matter.
    std::vector<std::string> first_intents;
    bool first_intents_read = false;
    for (int s : order) {
        if (s == order.front()) {
            continue;
        }
        Source &source = sources[static_cast<size_t>(s)];
        Claims other = source_claims(source, limit);
        update.drop_pdfa = update.drop_pdfa || other.pdfa != claims.pdfa;
        update.drop_pdfua = update.drop_pdfua || other.pdfua != claims.pdfua;
        if (!update.drop_pdfa && !claims.pdfa.empty()) {
            if (!first_intents_read) {
                first_intents = intents_of(first, limit);
                first_intents_read = true;
            }
            std::vector<std::string> intents = intents_of(source, limit);
            update.drop_pdfa = !intents.empty() && intents != first_intents;
        }
    }
    update.drop_pdfa = !claims.pdfa.empty() && (update.drop_pdfa || !nothing_dropped);
    update.drop_pdfua = !claims.pdfua.empty() && (update.drop_pdfua || !nothing_dropped || fields.untagged);
    where = Where{order.front(), 0};
    QPDFObjectHandle copy = copy_foreign(out, metadata);
    if (readable && update_xmp(xmp, update)) {
        copy.replaceStreamData(xmp, QPDFObjectHandle::newNull(), QPDFObjectHandle::newNull());
    } else if (update.drop_pdfa || update.drop_pdfua) {
        dropped.add("XMP metadata", order.front(), first.label);
        where = Where{};
        return;
    }
    if (update.drop_pdfa) {
        dropped.add(claims.pdfa + " claim", order.front(), first.label);
    }
    if (update.drop_pdfua) {
        dropped.add(claims.pdfua + " claim", order.front(), first.label);
    }
    out.getRoot().replaceKey("/Metadata", copy);
    where = Where{};
}

} // namespace pe
