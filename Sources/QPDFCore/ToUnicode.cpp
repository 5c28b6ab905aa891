// A font's /ToUnicode map, read with qpdf's tokenizer: the code space ranges
// (begincodespacerange), single codes (beginbfchar: <code> <UTF-16BE>) and
// ranges (beginbfrange: <low> <high> <UTF-16BE>, the last unit counted up, or
// <low> <high> [<text> ...]). Used where pdfedit must read text its own way,
// without poppler: redaction's search of annotation appearances
// (RedactLeftovers.cpp). The map comes from an untrusted file: at most
// kMaxStored strings kept in all (an array holds no more than its range has
// codes), ranges of at most kMaxRange codes, codes of 1–4 bytes.
#include "ToUnicode.hh"

#include "Limits.hh"

#include <qpdf/BufferInputSource.hh>
#include <qpdf/QPDFTokenizer.hh>
#include <qpdf/QUtil.hh>

#include <memory>

namespace pe {
namespace {

constexpr size_t kMaxStored = 100'000;
constexpr uint32_t kMaxRange = 65'536;
// Ranges before a code's that are looked at when ranges overlap (a producer's
// map rarely has more than a few at one place).
constexpr int kOverlapsLooked = 64;

uint32_t code_value(std::string const &bytes)
{
    uint32_t value = 0;
    for (unsigned char byte : bytes) {
        value = (value << 8) | byte;
    }
    return value;
}

// UTF-16BE text whose odd length means a producer wrote a one-byte value.
std::string units(std::string text)
{
    return text.size() % 2 == 1 ? std::string(1, '\0') + text : text;
}

} // namespace

ToUnicode ToUnicode::read(QPDFObjectHandle stream, long long limit)
{
    ToUnicode map;
    std::string data;
    if (!stream.isStream() || !decode_bounded(stream, limit, "a font's /ToUnicode map", &data)) {
        return map;
    }
    enum class Section { none, spaces, chars, ranges } section = Section::none;
    std::vector<std::string> strings; // the section's operands since its last entry
    std::vector<std::string> array;   // a range's [<text> ...]
    size_t array_room = 0;            // how many texts the range's codes can take
    bool in_array = false;
    auto input = std::make_shared<BufferInputSource>("ToUnicode", data);
    QPDFTokenizer tokenizer;
    tokenizer.allowEOF();
    while (map.stored < kMaxStored) {
        QPDFTokenizer::Token token = tokenizer.readToken(input, "ToUnicode", true);
        QPDFTokenizer::token_type_e type = token.getType();
        if (type == QPDFTokenizer::tt_eof || type == QPDFTokenizer::tt_bad) {
            break;
        }
        if (type == QPDFTokenizer::tt_word) {
            std::string const &word = token.getValue();
            section = word == "begincodespacerange" ? Section::spaces
                : word == "beginbfchar"             ? Section::chars
                : word == "beginbfrange"            ? Section::ranges
                                                    : (word.rfind("end", 0) == 0 ? Section::none : section);
            strings.clear();
            in_array = false;
            continue;
        }
        if (section == Section::ranges && type == QPDFTokenizer::tt_array_open && strings.size() == 2) {
            in_array = true;
            array.clear();
            uint32_t low = code_value(strings[0]);
            uint32_t high = code_value(strings[1]);
            array_room = high >= low && high - low < kMaxRange ? high - low + 1 : 0;
            continue;
        }
        if (section == Section::ranges && type == QPDFTokenizer::tt_array_close && in_array) {
            in_array = false;
            map.add(strings[0], strings[1], "", std::move(array));
            array.clear();
            strings.clear();
            continue;
        }
        if (type != QPDFTokenizer::tt_string) {
            if (section != Section::none && !in_array) {
                strings.clear(); // a name or number where a string belongs: the entry is skipped
            }
            continue;
        }
        if (in_array) {
            if (array.size() < array_room) {
                array.push_back(token.getValue());
                ++map.stored;
            }
            continue;
        }
        strings.push_back(token.getValue());
        if (section == Section::spaces && strings.size() == 2) {
            if (strings[0].size() == strings[1].size() && !strings[0].empty() && strings[0].size() <= 4) {
                map.spaces.push_back(Space{strings[0], strings[1]});
                ++map.stored;
            }
            strings.clear();
        } else if (section == Section::chars && strings.size() == 2) {
            if (!strings[0].empty() && strings[0].size() <= 4) {
                map.singles[{static_cast<int>(strings[0].size()), code_value(strings[0])}] = units(strings[1]);
                ++map.stored;
            }
            strings.clear();
        } else if (section == Section::ranges && strings.size() == 3) {
            map.add(strings[0], strings[1], strings[2], {});
            strings.clear();
        }
    }
    return map;
}

void ToUnicode::add(std::string const &low, std::string const &high, std::string const &first, std::vector<std::string> each)
{
    if (low.empty() || low.size() > 4 || low.size() != high.size()) {
        return;
    }
    for (std::string &text : each) {
        text = units(text);
    }
    uint32_t from = code_value(low);
    uint32_t to = code_value(high);
    if (to < from || to - from >= kMaxRange) {
        return;
    }
    entries[{static_cast<int>(low.size()), from}] = Entry{to, static_cast<int>(low.size()), units(first), std::move(each)};
    ++stored;
}

int ToUnicode::code_length(std::string const &codes, size_t at) const
{
    for (Space const &space : spaces) {
        size_t bytes = space.low.size();
        if (at + bytes > codes.size()) {
            continue;
        }
        bool inside = true;
        for (size_t i = 0; i < bytes && inside; ++i) {
            auto byte = static_cast<unsigned char>(codes[at + i]);
            inside = byte >= static_cast<unsigned char>(space.low[i]) && byte <= static_cast<unsigned char>(space.high[i]);
        }
        if (inside) {
            return static_cast<int>(bytes);
        }
    }
    // No code space (or none matches): the length of the map's own codes.
    if (!singles.empty()) {
        return singles.begin()->first.first;
    }
    return entries.empty() ? 1 : entries.begin()->first.first;
}

// The UTF-16BE text of one code: a single code's own entry first, else the
// range holding it (overlapping ranges: the latest starting one that does);
// `counted` holds a range's counted-up text. nullptr when the map has none.
std::string const *ToUnicode::mapped(int bytes, uint32_t code, std::string &counted) const
{
    if (auto single = singles.find({bytes, code}); single != singles.end()) {
        return &single->second;
    }
    auto found = entries.upper_bound({bytes, code});
    for (int looked = 0; found != entries.begin() && looked < kOverlapsLooked; ++looked) {
        --found;
        if (found->first.first != bytes) {
            break;
        }
        Entry const &entry = found->second;
        if (code > entry.high) {
            continue;
        }
        uint32_t offset = code - found->first.second;
        if (!entry.each.empty()) {
            return offset < entry.each.size() ? &entry.each[offset] : nullptr;
        }
        if (entry.first.size() < 2) {
            return nullptr;
        }
        counted = entry.first;
        // The last UTF-16 unit counted up by the code's place in the range.
        uint32_t last = (static_cast<unsigned char>(counted[counted.size() - 2]) << 8) |
            static_cast<unsigned char>(counted[counted.size() - 1]);
        last += offset;
        counted[counted.size() - 2] = static_cast<char>((last >> 8) & 0xff);
        counted[counted.size() - 1] = static_cast<char>(last & 0xff);
        return &counted;
    }
    return nullptr;
}

std::string ToUnicode::text(std::string const &codes, bool simple) const
{
    std::string utf8;
    std::string unmapped; // a simple font's bytes the map lacks, read as PDFDocEncoding
    std::string counted;
    for (size_t at = 0; at < codes.size();) {
        int bytes = simple ? 1 : code_length(codes, at);
        if (at + static_cast<size_t>(bytes) > codes.size()) {
            break;
        }
        std::string code = codes.substr(at, static_cast<size_t>(bytes));
        at += static_cast<size_t>(bytes);
        if (std::string const *text = mapped(bytes, code_value(code), counted)) {
            utf8 += QUtil::pdf_doc_to_utf8(unmapped);
            unmapped.clear();
            utf8 += QUtil::utf16_to_utf8("\xfe\xff" + *text);
        } else if (simple) {
            unmapped += code;
        }
    }
    return utf8 + QUtil::pdf_doc_to_utf8(unmapped);
}

} // namespace pe
