// Internal to QPDFBridge: reading PDF syntax from a file's bytes where it is
// plain, for the readers that stand in for qpdf's parser on clean files (the page
// list, QuickPages.cpp; objects copied from their bytes, PlainObjects.cpp).
// "Plain" is syntax qpdf reads without a warning and without anything to decode:
// no comments, no name with # escapes, no string with a backslash or a carriage
// return. Anything else makes a reader give up, and the object is left to qpdf.
#ifndef PDFEDIT_QPDF_BRIDGE_PLAIN_SYNTAX_HH
#define PDFEDIT_QPDF_BRIDGE_PLAIN_SYNTAX_HH

#include "Source.hh"

#include <qpdf/QPDFObjGen.hh>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace pe {

// Tokens of PDF syntax read from `length` bytes at `text`. Every reading returns
// false, leaving the position anywhere, when the bytes do not hold what it reads.
class PlainLexer {
  public:
    PlainLexer(char const *text, size_t length) : text(text), length(length) {}

    // Whether the reading stopped near the end of the bytes given, within a
    // token of it: more of the object may tell.
    bool ran_out() const { return at + kTokenMargin >= length; }

    // How far the reading got.
    size_t position() const { return at; }

  protected:
    // Longer than any token the readers accept in one piece but strings.
    static constexpr size_t kTokenMargin = 64;

    static bool is_space(char c)
    {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\0';
    }

    static bool is_delimiter(char c)
    {
        return is_space(c) || c == '/' || c == '[' || c == ']' || c == '<' || c == '>' || c == '(' || c == ')' ||
            c == '{' || c == '}' || c == '%';
    }

    void skip_space()
    {
        while (at < length && is_space(text[at])) {
            ++at;
        }
    }

    bool starts(char const *expected) const
    {
        size_t n = std::strlen(expected);
        return length - at >= n && std::memcmp(text + at, expected, n) == 0;
    }

    // After white space, the closing `close` (">>" or "]"): skipped, and true.
    bool closes(char const *close)
    {
        skip_space();
        if (!starts(close)) {
            return false;
        }
        at += std::strlen(close);
        return true;
    }

    // A keyword followed by a delimiter.
    bool word(char const *expected)
    {
        size_t n = std::strlen(expected);
        if (length - at < n + 1 || std::memcmp(text + at, expected, n) != 0 || !is_delimiter(text[at + n])) {
            return false;
        }
        at += n;
        return true;
    }

    // An unsigned integer of at most 10 digits, followed by a delimiter.
    bool integer(long long &value)
    {
        size_t start = at;
        value = 0;
        while (at < length && text[at] >= '0' && text[at] <= '9' && at - start < 10) {
            value = value * 10 + (text[at] - '0');
            ++at;
        }
        return at > start && at < length && is_delimiter(text[at]);
    }

    // A name without escapes, its slash included, followed by a delimiter.
    bool any_name(std::string &into)
    {
        if (at >= length || text[at] != '/') {
            return false;
        }
        size_t start = at++;
        while (at < length && !is_delimiter(text[at])) {
            if (text[at] == '#') {
                return false;
            }
            ++at;
        }
        if (at >= length || at - start < 2) {
            return false; // at the end, or "/" alone
        }
        into.assign(text + start, at - start);
        return true;
    }

    // `og`'s object header: "N G obj".
    bool header(QPDFObjGen og)
    {
        long long number = 0;
        long long generation = 0;
        skip_space();
        if (!integer(number) || number != og.getObj()) {
            return false;
        }
        skip_space();
        if (!integer(generation) || generation != og.getGen()) {
            return false;
        }
        skip_space();
        return word("obj");
    }

    char const *text;
    size_t length;
    size_t at = 0;
};

// A window on a file's bytes, read again only when a reading needs bytes it
// does not hold: objects read one after another usually lie near each other.
class FileWindow {
  public:
    FileWindow() : FileWindow(65536) {}
    explicit FileWindow(size_t size) : size(size) {}

    // The file's bytes from `offset`, `want` of them where the file has them
    // (`got`: how many); valid until the next call.
    char const *bytes_at(ReadInputSource &file, qpdf_offset_t offset, size_t want, size_t &got)
    {
        if (want > size) {
            large.resize(want);
            got = file.read_bytes_at(offset, large.data(), want);
            return large.data();
        }
        if (!window) {
            window.reset(new char[size]); // not zeroed: only what was read is used
        }
        bool covered = offset >= start && offset <= end && (offset + static_cast<qpdf_offset_t>(want) <= end || at_end);
        if (!covered) {
            size_t read = file.read_bytes_at(offset, window.get(), size);
            start = offset;
            end = offset + static_cast<qpdf_offset_t>(read);
            at_end = read < size;
        }
        qpdf_offset_t available = end - offset;
        got = static_cast<size_t>(available < static_cast<qpdf_offset_t>(want) ? available : static_cast<qpdf_offset_t>(want));
        return window.get() + (offset - start);
    }

    // Forgets what it holds (to read another file).
    void clear()
    {
        start = 0;
        end = 0;
        at_end = false;
    }

  private:
    size_t size;
    std::unique_ptr<char[]> window;
    std::vector<char> large; // a reading longer than the window
    qpdf_offset_t start = 0;
    qpdf_offset_t end = 0;
    bool at_end = false; // the window holds the rest of the file
};

} // namespace pe

#endif
