// What drawing a page costs a reader, measured before poppler is given it: the
// content operators it runs (a form XObject counted each time it is drawn), the
// largest image it decodes (image XObjects at any depth, inline images, those of
// annotation appearances and tiling patterns), and whether it holds something a
// renderer skips without a word (an image wider or taller than cairo draws, a
// stream that cannot be decoded). Every stream is inflated through the one
// bounded decoder (decode_bounded) and tokenized by qpdf's QPDFTokenizer.
//
// Why: a 2 KB file whose forms each draw the next twice made `info` run for
// minutes (poppler draws 2^n forms); a page whose only ink was a large image
// inside a form was drawn white and removed as empty; a 30,000-pixel-square
// image inside a form got past the pixel limit. A form's cost is computed once
// per document (memo) from its own operators and its children's costs, without
// recursion, so the measuring itself is linear in the file's size.
#include "Limits.hh"
#include "Export.hh"

#include <qpdf/BufferInputSource.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QPDFTokenizer.hh>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace pe {
namespace {

// The widest or tallest image cairo can draw: poppler draws a larger one as
// nothing, silently.
constexpr long long kRendererSide = 32767;

// What drawing one form XObject counts for, in operators: poppler saves and
// restores its whole state around each (a file whose forms each draw the next
// twice, 16 levels deep, took `info` 12 s for 2^16 forms of a few operators).
constexpr long long kFormCost = 100;

long long saturating_add(long long a, long long b)
{
    long long const top = 1LL << 62;
    return a > top - b ? top : a + b;
}

long long saturating_multiply(long long a, long long b)
{
    long long const top = 1LL << 62;
    if (a <= 0 || b <= 0) {
        return 0;
    }
    return a > top / b ? top : a * b;
}

// One content stream's own operators and the XObject names it draws with Do (in
// order, with repeats).
struct Scan {
    long long operators = 0;
    std::vector<std::string> drawn;
    PageWork images; // inline images only (operators unused)
};

// An image of `width` x `height` samples into `work`; refuses one over `pixels`.
void note_image(PageWork &work, long long width, long long height, long long pixels, std::string const &what)
{
    long long samples = saturating_multiply(width, height);
    work.largest_image = std::max(work.largest_image, samples);
    if (width > kRendererSide || height > kRendererSide) {
        work.skipped = true;
    }
    if (pixels > 0 && samples > pixels) {
        throw OverLimit(
            what + " has " + std::to_string(width) + "x" + std::to_string(height) + " pixels, more than " +
            std::to_string(pixels) + " (PDFEDIT_MAX_PIXELS)");
    }
}

// Tokenizes decoded content `data`; stops counting once past `budget` operators.
Scan scan_content(std::string const &data, long long budget, long long pixels, std::string const &what)
{
    Scan scan;
    auto input = std::make_shared<BufferInputSource>(what, data);
    QPDFTokenizer tokenizer;
    tokenizer.allowEOF();
    std::string last_name;
    bool in_inline_dictionary = false;
    std::string inline_key;
    long long inline_width = 0;
    long long inline_height = 0;
    while (scan.operators <= budget) {
        QPDFTokenizer::Token token = tokenizer.readToken(input, what, true);
        QPDFTokenizer::token_type_e type = token.getType();
        if (type == QPDFTokenizer::tt_eof) {
            break;
        }
        if (type == QPDFTokenizer::tt_name) {
            if (in_inline_dictionary) {
                if (inline_key.empty()) {
                    inline_key = token.getValue();
                    continue;
                }
                inline_key.clear(); // a name as a value (/CS /G)
                continue;
            }
            last_name = token.getValue();
            continue;
        }
        if (type == QPDFTokenizer::tt_integer && in_inline_dictionary) {
            long long value = 0;
            try {
                value = std::stoll(token.getValue());
            } catch (std::exception const &) {
                value = 0;
            }
            if (inline_key == "/W" || inline_key == "/Width") {
                inline_width = value;
            } else if (inline_key == "/H" || inline_key == "/Height") {
                inline_height = value;
            }
            inline_key.clear();
            continue;
        }
        if (type != QPDFTokenizer::tt_word) {
            if (in_inline_dictionary && !inline_key.empty()) {
                inline_key.clear(); // some other value
            }
            continue;
        }
        ++scan.operators;
        std::string const &word = token.getValue();
        if (word == "Do") {
            if (!last_name.empty()) {
                scan.drawn.push_back(last_name);
            }
        } else if (word == "BI") {
            in_inline_dictionary = true;
            inline_key.clear();
            inline_width = 0;
            inline_height = 0;
        } else if (word == "ID") {
            in_inline_dictionary = false;
            note_image(scan.images, inline_width, inline_height, pixels, "an inline image in " + what);
            char separator = 0;
            input->read(&separator, 1); // the one white-space character after ID
            tokenizer.expectInlineImage(input);
            tokenizer.readToken(input, what, true); // the image data, up to EI
        }
        last_name.clear();
    }
    return scan;
}

// The decoded data of `stream` within `limit` bytes; false when it cannot be
// decoded (the renderer skips it).
bool decoded(QPDFObjectHandle stream, long long limit, std::string const &what, std::string &data)
{
    return decode_bounded(stream, limit, what, &data);
}

std::string object_name(QPDFObjectHandle object)
{
    return object.isIndirect() ? " (object " + object.getObjGen().unparse(' ') + ")" : "";
}

class Measure {
  public:
    Measure(std::map<QPDFObjGen, PageWork> &memo, PageLimits const &limits) : memo(memo), limits(limits) {}

    // The work of drawing content `streams` with `resources` (and `fallback`
    // resources for forms without their own, as old files expect).
    PageWork content(std::vector<QPDFObjectHandle> const &streams, QPDFObjectHandle resources, std::string const &what)
    {
        PageWork work;
        for (QPDFObjectHandle stream : streams) {
            if (!stream.isStream()) {
                continue;
            }
            std::string data;
            std::string name = what + object_name(stream);
            if (!decoded(stream, limits.stream_bytes, "a content stream" + object_name(stream), data)) {
                work.skipped = true;
                continue;
            }
            Scan scan = scan_content(data, budget_left(work), limits.pixels, name);
            work.operators = saturating_add(work.operators, scan.operators);
            merge_images(work, scan.images);
            check_budget(work, what);
            for (std::string const &drawn : scan.drawn) {
                QPDFObjectHandle xobject = resources.isDictionary() ? dict_key(resources.getKey("/XObject"), drawn)
                                                                    : QPDFObjectHandle::newNull();
                add(work, xobject, drawn, resources);
                check_budget(work, what);
            }
        }
        return work;
    }

    PageWork page(QPDFObjectHandle page)
    {
        // Inherited from the page tree where the page has none of its own, as a
        // reader resolves them (a document opened for reading keeps its tree).
        QPDFObjectHandle resources = inherited_value(page, "/Resources");
        PageWork work = content(QPDFPageObjectHelper(page).getPageContents(), resources, "the page");
        // Tiling patterns draw their own content (at least once each).
        if (resources.isDictionary()) {
            QPDFObjectHandle patterns = resources.getKey("/Pattern");
            if (patterns.isDictionary()) {
                for (auto entry : patterns.ditems()) {
                    if (entry.second.isStream()) {
                        add(work, entry.second, entry.first, resources);
                        check_budget(work, "the page");
                    }
                }
            }
        }
        // Annotation appearances, which poppler draws with the page.
        QPDFObjectHandle annots = page.getKey("/Annots");
        if (annots.isArray()) {
            for (QPDFObjectHandle annot : annots.getArrayAsVector()) {
                QPDFObjectHandle normal = dict_key(dict_key(annot, "/AP"), "/N");
                std::vector<QPDFObjectHandle> appearances;
                if (normal.isStream()) {
                    appearances.push_back(normal);
                } else if (normal.isDictionary()) {
                    for (auto state : normal.ditems()) {
                        appearances.push_back(state.second);
                    }
                }
                for (QPDFObjectHandle appearance : appearances) {
                    if (appearance.isStream()) {
                        add(work, appearance, "an annotation's appearance", resources);
                        check_budget(work, "the page");
                    }
                }
            }
        }
        return work;
    }

  private:
    long long budget_left(PageWork const &work) const
    {
        return limits.operators > 0 ? std::max(0LL, limits.operators - work.operators) : (1LL << 62);
    }

    void check_budget(PageWork const &work, std::string const &what) const
    {
        if (limits.operators > 0 && work.operators > limits.operators) {
            throw OverLimit(
                what + " draws more than " + std::to_string(limits.operators) +
                " content operators, counting each form as often as it is drawn, as 100 (PDFEDIT_MAX_OPERATORS)");
        }
    }

    static void merge_images(PageWork &into, PageWork const &from)
    {
        into.largest_image = std::max(into.largest_image, from.largest_image);
        into.skipped = into.skipped || from.skipped;
    }

    // Adds what drawing `xobject` (named `name`) costs to `work`.
    void add(PageWork &work, QPDFObjectHandle xobject, std::string const &name, QPDFObjectHandle inherited)
    {
        if (!xobject.isStream()) {
            return;
        }
        QPDFObjectHandle dict = xobject.getDict();
        if (dict.getKey("/Subtype").isNameAndEquals("/Image")) {
            long long width = 0;
            long long height = 0;
            read_integer(dict.getKey("/Width"), 0, 1LL << 31, width);
            read_integer(dict.getKey("/Height"), 0, 1LL << 31, height);
            note_image(work, width, height, limits.pixels, "image XObject " + name + object_name(xobject));
            return;
        }
        work.operators = saturating_add(work.operators, kFormCost); // the form itself
        merge(work, form(xobject, name, inherited));
    }

    static void merge(PageWork &into, PageWork const &from)
    {
        into.operators = saturating_add(into.operators, from.operators);
        merge_images(into, from);
    }

    // The work of a form XObject (or tiling pattern, or appearance), once per
    // document: its operators plus those of what it draws, each time it draws
    // them. A form on the path that is being measured (a loop) costs nothing
    // more: readers stop at it. No recursion: an explicit stack of forms whose
    // children are being measured.
    PageWork form(QPDFObjectHandle root, std::string const &root_name, QPDFObjectHandle inherited)
    {
        if (root.isIndirect()) {
            auto known = memo.find(root.getObjGen());
            if (known != memo.end()) {
                return known->second;
            }
        }
        struct Frame {
            QPDFObjectHandle stream;
            QPDFObjectHandle resources;
            std::string name;
            std::vector<std::string> drawn;
            size_t next = 0;
            PageWork work;
            int depth = 1;
        };
        std::vector<Frame> stack;
        std::set<QPDFObjGen> on_path;
        PageWork result;
        auto start = [&](QPDFObjectHandle stream, std::string const &name, QPDFObjectHandle outer, int depth) {
            Frame frame;
            frame.stream = stream;
            frame.name = name;
            frame.depth = depth;
            QPDFObjectHandle own = stream.getDict().getKey("/Resources");
            frame.resources = own.isDictionary() ? own : outer;
            std::string data;
            std::string what = "form " + name + object_name(stream);
            if (depth > page_tree_maximum_depth()) {
                throw OverLimit(what + " nests forms more than " + std::to_string(page_tree_maximum_depth()) +
                    " levels deep (PDFEDIT_MAX_DEPTH)");
            }
            if (decoded(stream, limits.stream_bytes, what, data)) {
                Scan scan = scan_content(data, budget_left(frame.work), limits.pixels, what);
                frame.work.operators = scan.operators;
                merge_images(frame.work, scan.images);
                frame.drawn = std::move(scan.drawn);
            } else {
                frame.work.skipped = true;
            }
            check_budget(frame.work, what);
            if (stream.isIndirect()) {
                on_path.insert(stream.getObjGen());
            }
            stack.push_back(std::move(frame));
        };
        start(root, root_name, inherited, 1);
        while (!stack.empty()) {
            Frame &top = stack.back();
            if (top.next == top.drawn.size()) {
                Frame done = std::move(stack.back());
                stack.pop_back();
                if (done.stream.isIndirect()) {
                    on_path.erase(done.stream.getObjGen());
                    memo[done.stream.getObjGen()] = done.work;
                }
                if (stack.empty()) {
                    result = done.work;
                } else {
                    stack.back().work.operators = saturating_add(stack.back().work.operators, kFormCost);
                    merge(stack.back().work, done.work);
                    check_budget(stack.back().work, "form " + stack.back().name);
                }
                continue;
            }
            std::string name = top.drawn[top.next++];
            QPDFObjectHandle child =
                top.resources.isDictionary() ? dict_key(top.resources.getKey("/XObject"), name) : QPDFObjectHandle();
            if (!child.isInitialized() || !child.isStream()) {
                continue;
            }
            if (child.getDict().getKey("/Subtype").isNameAndEquals("/Image")) {
                add(top.work, child, name, top.resources);
                continue;
            }
            if (child.isIndirect()) {
                if (on_path.count(child.getObjGen()) != 0) {
                    continue; // a loop
                }
                auto known = memo.find(child.getObjGen());
                if (known != memo.end()) {
                    top.work.operators = saturating_add(top.work.operators, kFormCost);
                    merge(top.work, known->second);
                    check_budget(top.work, "form " + top.name);
                    continue;
                }
            }
            QPDFObjectHandle outer = top.resources;
            int depth = top.depth + 1;
            start(child, name, outer, depth); // may move `top`: not used after
        }
        return result;
    }

    std::map<QPDFObjGen, PageWork> &memo;
    PageLimits const &limits;
};

} // namespace

PageWork measure_page(QPDFObjectHandle page, PageLimits const &limits, std::map<QPDFObjGen, PageWork> &memo)
{
    return Measure(memo, limits).page(page);
}

} // namespace pe
