// read_plain_object: one object of a clean file read from its bytes, the way
// qpdf's parser reads it, for the copier to copy without that parser.
//
// qpdf 11.3's parser costs about 27,000 instructions for a page's content-stream
// dictionary (tokenizer, a shared object per token, descriptions): 38% of a
// 20,000-page merge. This reader takes only syntax qpdf reads without a warning
// and without decoding (PlainSyntax.hh), makes the values qpdf's parser would
// make (a real keeps its text, an integer its value, a dictionary its keys in
// order without null values), and checks what qpdf checks of a stream: a line
// break after `stream`, /Length (direct, or an integer object read the same way),
// `endstream` that many bytes later, then `endobj`. Anything else returns null
// and the object is left to qpdf.
#include "PlainObjects.hh"

#include <algorithm>
#include <climits>
#include <mutex>

namespace pe {
namespace {

// How much of an object is read first, and the longest one read from its bytes
// (its dictionary; a stream's data is never read here).
constexpr size_t kFirstRead = 4096;
constexpr size_t kLargestObject = 1 << 20;
// How deep values may nest in an object read from its bytes.
constexpr int kDeepest = 32;
// Enough bytes after a stream's data for `endstream endobj` and a little space.
constexpr size_t kStreamEnd = 64;

using Kind = PlainValue::Kind;

class ValueParser : public PlainLexer {
  public:
    using PlainLexer::PlainLexer;

    // "N G obj", a value, then `endobj`, or for a dictionary `stream` and its
    // line break (`stream` set, `data_start` where the data begins).
    bool object(QPDFObjGen og, PlainValue &into, bool &stream, size_t &data_start)
    {
        if (!header(og)) {
            return false;
        }
        skip_space();
        if (!value(into, 0)) {
            return false;
        }
        skip_space();
        if (into.kind == Kind::dictionary && word("stream")) {
            if (at < length && text[at] == '\n') {
                ++at;
            } else if (length - at >= 2 && text[at] == '\r' && text[at + 1] == '\n') {
                at += 2;
            } else {
                return false; // qpdf warns
            }
            stream = true;
            data_start = at;
            return true;
        }
        return word("endobj");
    }

    // What follows a stream's data: `endstream`, then `endobj`.
    bool stream_end()
    {
        skip_space();
        if (!word("endstream")) {
            return false;
        }
        skip_space();
        return word("endobj");
    }

  private:
    bool value(PlainValue &into, int depth)
    {
        if (depth > kDeepest || at >= length) {
            return false;
        }
        char c = text[at];
        if (c == '/') {
            into.kind = Kind::name;
            return any_name(into.text);
        }
        if (c == '[') {
            ++at;
            into.kind = Kind::array;
            for (;;) {
                if (closes("]")) {
                    return true;
                }
                into.items.emplace_back();
                if (!value(into.items.back(), depth + 1)) {
                    return false;
                }
            }
        }
        if (starts("<<")) {
            at += 2;
            return dictionary(into, depth);
        }
        if (c == '<') {
            into.kind = Kind::string;
            return hex_string(into.text);
        }
        if (c == '(') {
            into.kind = Kind::string;
            return literal_string(into.text);
        }
        if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.') {
            return number(into);
        }
        if (word("true") || word("false")) {
            into.kind = Kind::boolean;
            into.flag = c == 't';
            return true;
        }
        if (word("null")) {
            into.kind = Kind::null;
            return true;
        }
        return false; // another keyword, a comment, a stray delimiter
    }

    // After "<<": keys and values to ">>", kept in key order without nulls; a key
    // given twice gives up (qpdf warns).
    bool dictionary(PlainValue &into, int depth)
    {
        into.kind = Kind::dictionary;
        for (;;) {
            if (closes(">>")) {
                break;
            }
            std::string key;
            if (!any_name(key)) {
                return false;
            }
            skip_space();
            into.entries.emplace_back(std::move(key), PlainValue());
            if (!value(into.entries.back().second, depth + 1)) {
                return false;
            }
        }
        auto by_key = [](auto const &a, auto const &b) { return a.first < b.first; };
        std::sort(into.entries.begin(), into.entries.end(), by_key);
        auto same_key = [](auto const &a, auto const &b) { return a.first == b.first; };
        if (std::adjacent_find(into.entries.begin(), into.entries.end(), same_key) != into.entries.end()) {
            return false;
        }
        PlainValue const *type = into.find("/Type");
        if (type != nullptr && type->kind == Kind::reference) {
            return false; // what it names decides whether the copier stops here: qpdf's to resolve
        }
        into.entries.erase(
            std::remove_if(
                into.entries.begin(), into.entries.end(), [](auto const &e) { return e.second.kind == Kind::null; }),
            into.entries.end());
        return true;
    }

    // An integer, a real (kept as written) or a reference "N G R".
    bool number(PlainValue &into)
    {
        size_t start = at;
        bool sign = text[at] == '-' || text[at] == '+';
        if (sign) {
            ++at;
        }
        size_t digits_start = at;
        bool point = false;
        size_t digits = 0;
        while (at < length && !is_delimiter(text[at])) {
            char c = text[at];
            if (c >= '0' && c <= '9') {
                ++digits;
            } else if (c == '.' && !point) {
                point = true;
            } else {
                return false;
            }
            ++at;
        }
        if (at >= length || digits == 0) {
            return false;
        }
        if (point) {
            into.kind = Kind::real;
            into.text.assign(text + start, at - start);
            return true;
        }
        if (at - digits_start > 18) {
            return false; // qpdf's conversion could overflow
        }
        long long value = 0;
        for (size_t i = digits_start; i < at; ++i) {
            value = value * 10 + (text[i] - '0');
        }
        into.kind = Kind::integer;
        into.number = text[start] == '-' ? -value : value;
        if (sign) {
            return true;
        }
        // "N G R": a reference.
        size_t after = at;
        skip_space();
        long long generation = 0;
        if (at < length && text[at] >= '0' && text[at] <= '9' && integer(generation)) {
            skip_space();
            if (word("R")) {
                if (value == 0 || value > INT_MAX || generation > INT_MAX) {
                    return false; // qpdf warns
                }
                into.kind = Kind::reference;
                into.reference = QPDFObjGen(static_cast<int>(value), static_cast<int>(generation));
                return true;
            }
        }
        at = after;
        return true;
    }

    // "(...)" with balanced parentheses, no backslash (an escape) and no carriage
    // return (which qpdf turns into a line feed).
    bool literal_string(std::string &into)
    {
        ++at;
        int open = 1;
        size_t start = at;
        while (at < length) {
            char c = text[at++];
            if (c == '\\' || c == '\r') {
                return false;
            }
            if (c == '(') {
                ++open;
            } else if (c == ')' && --open == 0) {
                into.assign(text + start, at - 1 - start);
                return true;
            }
        }
        return false;
    }

    // "<...>": an even number of hex digits, space between them allowed.
    bool hex_string(std::string &into)
    {
        ++at;
        int high = -1;
        while (at < length) {
            char c = text[at++];
            if (c == '>') {
                return high < 0;
            }
            if (is_space(c)) {
                continue;
            }
            int digit = c >= '0' && c <= '9' ? c - '0'
                : c >= 'a' && c <= 'f'       ? c - 'a' + 10
                : c >= 'A' && c <= 'F'       ? c - 'A' + 10
                                             : -1;
            if (digit < 0) {
                return false;
            }
            if (high < 0) {
                high = digit;
            } else {
                into.push_back(static_cast<char>(high * 16 + digit));
                high = -1;
            }
        }
        return false;
    }
};

std::mutex &registry_mutex()
{
    static std::mutex *mutex = new std::mutex; // never destroyed: threads may outlive exit's destructors
    return *mutex;
}

std::map<unsigned long long, std::weak_ptr<RawSource>> &registry()
{
    static auto *sources = new std::map<unsigned long long, std::weak_ptr<RawSource>>;
    return *sources;
}

} // namespace

PlainValue const *PlainValue::find(char const *key) const
{
    for (auto const &entry : entries) {
        if (entry.first == key) {
            return &entry.second;
        }
    }
    return nullptr;
}

void register_raw_source(QPDF &pdf, std::shared_ptr<RawSource> const &raw)
{
    std::lock_guard<std::mutex> lock(registry_mutex());
    auto &sources = registry();
    for (auto it = sources.begin(); it != sources.end();) {
        it = it->second.expired() ? sources.erase(it) : std::next(it);
    }
    sources[pdf.getUniqueId()] = raw;
}

std::shared_ptr<RawSource> raw_source_of(QPDF &pdf)
{
    std::lock_guard<std::mutex> lock(registry_mutex());
    auto found = registry().find(pdf.getUniqueId());
    return found == registry().end() ? nullptr : found->second.lock();
}

std::unique_ptr<PlainObject> read_plain_object(RawSource const &raw, QPDFObjGen og, FileWindow &window)
{
    auto entry = raw.xref.find(og);
    if (entry == raw.xref.end() || entry->second.getType() != 1) {
        return nullptr;
    }
    qpdf_offset_t offset = entry->second.getOffset();
    auto made = std::make_unique<PlainObject>();
    for (size_t want = kFirstRead;; want *= 4) {
        if (want > kLargestObject) {
            return nullptr;
        }
        size_t got = 0;
        char const *text = window.bytes_at(*raw.file, offset, want, got);
        ValueParser parser(text, got);
        size_t data_start = 0;
        made->value = PlainValue();
        if (parser.object(og, made->value, made->stream, data_start)) {
            made->data_offset = offset + static_cast<qpdf_offset_t>(data_start);
            break;
        }
        if (!parser.ran_out() || got < want) {
            return nullptr;
        }
    }
    if (made->value.kind == Kind::reference) {
        return nullptr; // an object that is another one: left to qpdf
    }
    if (!made->stream) {
        return made;
    }
    PlainValue const *length = made->value.find("/Length");
    long long bytes = -1;
    if (length != nullptr && length->kind == Kind::integer) {
        bytes = length->number;
    } else if (length != nullptr && length->kind == Kind::reference) {
        std::unique_ptr<PlainObject> held = read_plain_object(raw, length->reference, window);
        if (held && !held->stream && held->value.kind == Kind::integer) {
            bytes = held->value.number;
        }
    }
    if (bytes < 0 || bytes > (LLONG_MAX >> 2)) {
        return nullptr; // no /Length qpdf would take as it is
    }
    made->length = static_cast<size_t>(bytes);
    size_t got = 0;
    char const *text = window.bytes_at(*raw.file, made->data_offset + bytes, kStreamEnd, got);
    if (!ValueParser(text, got).stream_end()) {
        return nullptr; // qpdf would look for the data's end itself, and warn
    }
    return made;
}

} // namespace pe
