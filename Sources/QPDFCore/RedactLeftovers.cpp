// What a redaction by text may leave outside the pages' content (issue 45):
// the output is searched, after it is assembled and before it is written, for
// the texts `redact --text` removed — case folded (ASCII), as the proof
// searches the document information and bookmarks. Each copy found is one
// warning line; with `scrub` it is removed and the line says what went.
//
// Annotations are read by one walk of their strings (annotation_strings),
// which the report and the scrub share. What an annotation shows — its text
// (/Contents), rich text (/RC), the text its appearance streams draw, an
// attachment's name or description — takes the whole annotation when it holds
// the text (its popup goes with it): a FreeText's appearance draws its words,
// and removing only /Contents would leave them drawn, or drawn again by a
// viewer that regenerates the appearance. The strings that name something
// about it — author (/T), subject (/Subj), the strings of its actions (a
// link's URI, a launch action's file and command, an action's file or
// script) — go alone: the key, or the action that holds them; a link keeps
// its rectangle. Form fields' widgets are left to the regions' rules.
// Outside annotations: page label prefixes and embedded files; the document
// information (a key holding the text goes), the XMP packet (goes whole) and
// bookmarks (a title loses the text, an action holding it goes). Structure
// elements' /ActualText, /Alt and /E holding it go even without `scrub`.
#include "Export.hh"

#include "Limits.hh"
#include "ToUnicode.hh"

#include <qpdf/BufferInputSource.hh>
#include <qpdf/QPDFEmbeddedFileDocumentHelper.hh>
#include <qpdf/QPDFNumberTreeObjectHelper.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFTokenizer.hh>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>

namespace pe {
namespace {

std::string folded(std::string text)
{
    for (char &c : text) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return text;
}

class Search {
  public:
    Search(std::vector<std::string> const &texts, bool scrub) : scrub(scrub)
    {
        for (std::string const &text : texts) {
            if (!text.empty()) {
                wanted.emplace_back(text, folded(text));
            }
        }
    }

    // The redacted text `value` (a string) holds, "" when none.
    std::string found(QPDFObjectHandle value) const
    {
        return value.isString() ? found(value.getUTF8Value()) : "";
    }

    // The redacted text `value` (UTF-8) holds, "" when none.
    std::string found(std::string const &value) const
    {
        if (value.empty()) {
            return "";
        }
        std::string text = folded(value);
        for (auto const &[original, lower] : wanted) {
            if (text.find(lower) != std::string::npos) {
                return original;
            }
        }
        return "";
    }

    void say(std::string const &what, std::string const &text)
    {
        lines.push_back(
            (scrub ? "removed " + what + ", which held \"" : what + " still holds \"") + text + "\"" +
            (scrub ? "" : " (--scrub removes it)"));
    }

    // What goes whether or not `scrub` is asked (it stands for removed glyphs).
    void removed(std::string const &what, std::string const &text)
    {
        lines.push_back("removed " + what + ", which held \"" + text + "\"");
    }

    bool const scrub;
    std::vector<std::string> lines;

  private:
    std::vector<std::pair<std::string, std::string>> wanted;
};

// The name of a file specification (a string or a dictionary's /UF, /F).
QPDFObjectHandle spec_name(QPDFObjectHandle spec)
{
    if (spec.isString() || !spec.isDictionary()) {
        return spec;
    }
    QPDFObjectHandle unicode = spec.getKey("/UF");
    return unicode.isString() ? unicode : spec.getKey("/F");
}

// One string of an annotation the search reads (annotation_strings): what
// it is called in a line, its text (UTF-8), and what `--scrub` takes away
// when it holds a redacted text.
struct AnnotationString {
    enum Removal {
        own_key, // the key `key` of `holder` (/T, /Subj, an action: the annotation stays)
        whole,   // the annotation, with its popup: what it shows is the text
    };
    std::string what;
    std::string text;
    Removal removal = own_key;
    QPDFObjectHandle holder;
    std::string key;
};

// A string object's text as UTF-8 (PDFDocEncoding or UTF-16), "" for others.
std::string text_of(QPDFObjectHandle value)
{
    return value.isString() ? value.getUTF8Value() : "";
}

// The fonts of an appearance stream's resources, by resource name: each one's
// /ToUnicode map (read once per font object in `maps`), and whether it is a
// composite (Type0) font, whose codes are not ASCII.
struct AppearanceFont {
    ToUnicode const *map = nullptr;
    bool composite = false;
};

// What the streams of an appearance (a stream or a dictionary of appearance
// states) draw as text, with the forms it names among its resources, to
// `depth`: each shown string read through its font's /ToUnicode map, or as
// PDFDocEncoding where the font has none or its map lacks a code (a simple
// font's codes are mostly ASCII); a composite font without a map draws codes
// no text can be read from, and those are left out.
void append_drawn_text(
    QPDFObjectHandle appearance, long long limit, int depth, std::set<QPDFObjGen> &seen,
    std::map<QPDFObjGen, ToUnicode> &maps, std::string &text)
{
    if (depth > 8 || appearance.isNull()) {
        return;
    }
    if (appearance.isIndirect() && !seen.insert(appearance.getObjGen()).second) {
        return;
    }
    if (appearance.isDictionary() && !appearance.isStream()) {
        for (auto const &entry : appearance.ditems()) {
            append_drawn_text(entry.second, limit, depth + 1, seen, maps, text);
        }
        return;
    }
    if (!appearance.isStream()) {
        return;
    }
    std::string content;
    if (!decode_bounded(appearance, limit, "an annotation's appearance", &content)) {
        return;
    }
    QPDFObjectHandle resources = appearance.getDict().getKey("/Resources");
    QPDFObjectHandle fonts = resources.isDictionary() ? resources.getKey("/Font") : QPDFObjectHandle::newNull();
    auto font_named = [&](std::string const &name) {
        AppearanceFont font;
        QPDFObjectHandle dict = fonts.isDictionary() ? fonts.getKey(name) : QPDFObjectHandle::newNull();
        if (!dict.isDictionary()) {
            return font;
        }
        font.composite = dict.getKey("/Subtype").isNameAndEquals("/Type0");
        QPDFObjectHandle stream = dict.getKey("/ToUnicode");
        if (stream.isStream() && stream.isIndirect()) {
            auto found = maps.find(stream.getObjGen());
            if (found == maps.end()) {
                found = maps.emplace(stream.getObjGen(), ToUnicode::read(stream, limit)).first;
            }
            font.map = found->second.empty() ? nullptr : &found->second;
        }
        return font;
    };
    AppearanceFont font;
    std::string last_name; // the name operand before a Tf
    auto input = std::make_shared<BufferInputSource>("appearance", content);
    QPDFTokenizer tokenizer;
    tokenizer.allowEOF();
    while (true) {
        QPDFTokenizer::Token token = tokenizer.readToken(input, "appearance", true);
        QPDFTokenizer::token_type_e type = token.getType();
        if (type == QPDFTokenizer::tt_eof || type == QPDFTokenizer::tt_bad) {
            break;
        }
        if (type == QPDFTokenizer::tt_name) {
            last_name = token.getValue();
        } else if (type == QPDFTokenizer::tt_string) {
            if (font.map != nullptr) {
                text += font.map->text(token.getValue(), !font.composite);
            } else if (!font.composite) {
                text += text_of(QPDFObjectHandle::newString(token.getValue()));
            }
        } else if (type == QPDFTokenizer::tt_word && token.getValue() == "Tf") {
            font = font_named(last_name);
        } else if (type == QPDFTokenizer::tt_word && token.getValue() == "ET") {
            text += '\n';
        }
    }
    text += '\n';
    QPDFObjectHandle xobjects = resources.isDictionary() ? resources.getKey("/XObject") : QPDFObjectHandle::newNull();
    if (xobjects.isDictionary()) {
        for (auto const &entry : xobjects.ditems()) {
            QPDFObjectHandle form = entry.second;
            if (form.isStream() && form.getDict().getKey("/Subtype").isNameAndEquals("/Form")) {
                append_drawn_text(form, limit, depth + 1, seen, maps, text);
            }
        }
    }
}

// Every action `action` runs (itself and its /Next chain, bounded), with the
// strings of each that name something outside the page: a URI, a launched or
// opened file (/F, a Launch's /Win /F /P /D, /Unix, /Mac), a script (/JS).
void action_strings(
    QPDFObjectHandle action, QPDFObjectHandle holder, std::string const &key, std::string const &where,
    std::vector<AnnotationString> &strings)
{
    std::vector<QPDFObjectHandle> pending{action};
    std::set<QPDFObjGen> seen;
    for (size_t count = 0; !pending.empty() && count < 256; ++count) {
        QPDFObjectHandle next = pending.back();
        pending.pop_back();
        if (!next.isDictionary() || (next.isIndirect() && !seen.insert(next.getObjGen()).second)) {
            continue;
        }
        auto add = [&](std::string const &what, std::string const &text) {
            if (!text.empty()) {
                strings.push_back(AnnotationString{what + where, text, AnnotationString::own_key, holder, key});
            }
        };
        QPDFObjectHandle kind = next.getKey("/S");
        std::string name = kind.isName() ? kind.getName() : "";
        if (name == "/URI") {
            add("a link's address", text_of(next.getKey("/URI")));
        } else if (name == "/JavaScript") {
            add("an action's script", text_of(next.getKey("/JS")));
        } else {
            add(name == "/Launch" ? "a launch action's file" : "an action's file", text_of(spec_name(next.getKey("/F"))));
        }
        if (name == "/Launch") {
            QPDFObjectHandle win = next.getKey("/Win");
            if (win.isDictionary()) {
                for (char const *part : {"/F", "/P", "/D"}) {
                    add("a launch action's command", text_of(win.getKey(part)));
                }
            }
            for (char const *system : {"/Unix", "/Mac"}) {
                add("a launch action's command", text_of(next.getKey(system)));
            }
        }
        QPDFObjectHandle chained = next.getKey("/Next");
        if (chained.isArray()) {
            for (QPDFObjectHandle item : chained.getArrayAsVector()) {
                pending.push_back(item);
            }
        } else {
            pending.push_back(chained);
        }
    }
}

// Every string of annotation `annot` (on the page `where` names) the search
// reads: the one walk the report and `--scrub` share. A form field's widget
// gives its actions' strings, the text its appearance draws (the widget goes
// whole), and its field's value, default value and tooltips, on the widget or
// on the fields above it (that key goes: every widget of the field draws the
// value and goes by its own appearance). Its /T is the field's name, not read.
std::vector<AnnotationString> annotation_strings(
    QPDFObjectHandle annot, std::string const &where, long long limit, std::map<QPDFObjGen, ToUnicode> &maps)
{
    std::vector<AnnotationString> strings;
    QPDFObjectHandle subtype = annot.getKey("/Subtype");
    std::string kind = subtype.isName() ? subtype.getName().substr(1) : "";
    if (kind == "Widget") {
        action_strings(annot.getKey("/A"), annot, "/A", where, strings);
        std::string drawn;
        std::set<QPDFObjGen> seen;
        append_drawn_text(annot.getKey("/AP"), limit, 0, seen, maps, drawn);
        if (!drawn.empty()) {
            strings.push_back(AnnotationString{"the form field widget" + where + " (what its appearance draws)", drawn,
                                               AnnotationString::whole, annot, ""});
        }
        QPDFObjectHandle field = annot;
        std::set<QPDFObjGen> fields;
        for (int depth = 0; depth < 32 && field.isDictionary(); ++depth, field = field.getKey("/Parent")) {
            if (field.isIndirect() && !fields.insert(field.getObjGen()).second) {
                break;
            }
            for (char const *key : {"/V", "/DV", "/TU", "/TM"}) {
                std::string text = text_of(field.getKey(key));
                if (!text.empty()) {
                    strings.push_back(AnnotationString{std::string("a form field's ") + (key + 1) + where, text,
                                                       AnnotationString::own_key, field, key});
                }
            }
        }
        return strings;
    }
    std::string whole = "the " + (kind.empty() ? std::string() : kind + " ") + "annotation" + where;
    auto add = [&](std::string const &what, std::string const &text, AnnotationString::Removal removal,
                   std::string const &key) {
        if (!text.empty()) {
            strings.push_back(AnnotationString{what, text, removal, annot, key});
        }
    };
    if (kind == "FileAttachment") {
        QPDFObjectHandle spec = annot.getKey("/FS");
        QPDFObjectHandle name = spec_name(spec);
        std::string shown = name.isString() ? " \"" + name.getUTF8Value() + "\"" : "";
        add("the attached file" + shown + where, text_of(name), AnnotationString::whole, "");
        if (spec.isDictionary()) {
            add("the attached file" + shown + where, text_of(spec.getKey("/Desc")), AnnotationString::whole, "");
        }
    }
    add(whole + " (its text)", text_of(annot.getKey("/Contents")), AnnotationString::whole, "");
    QPDFObjectHandle rich = annot.getKey("/RC");
    std::string rich_text = text_of(rich);
    if (rich.isStream()) {
        decode_bounded(rich, limit, "an annotation's rich text", &rich_text);
    }
    add(whole + " (its rich text)", rich_text, AnnotationString::whole, "");
    std::string drawn;
    std::set<QPDFObjGen> seen;
    append_drawn_text(annot.getKey("/AP"), limit, 0, seen, maps, drawn);
    add(whole + " (what its appearance draws)", drawn, AnnotationString::whole, "");
    add("an annotation's author" + where, text_of(annot.getKey("/T")), AnnotationString::own_key, "/T");
    add("an annotation's subject" + where, text_of(annot.getKey("/Subj")), AnnotationString::own_key, "/Subj");
    action_strings(annot.getKey("/A"), annot, "/A", where, strings);
    QPDFObjectHandle additional = annot.getKey("/AA");
    if (additional.isDictionary()) {
        for (auto const &entry : additional.ditems()) {
            action_strings(entry.second, additional, entry.first, where, strings);
        }
    }
    return strings;
}

void search_annotations(QPDF &out, Search &search, long long limit)
{
    std::vector<QPDFPageObjectHelper> pages = QPDFPageDocumentHelper(out).getAllPages();
    std::map<QPDFObjGen, ToUnicode> maps; // each font's map read once, however many annotations use it
    for (size_t i = 0; i < pages.size(); ++i) {
        QPDFObjectHandle page = pages[i].getObjectHandle();
        QPDFObjectHandle annots = page.getKey("/Annots");
        if (!annots.isArray()) {
            continue;
        }
        std::string where = " on page " + std::to_string(i + 1);
        std::set<QPDFObjGen> removed;
        std::vector<QPDFObjectHandle> all = annots.getArrayAsVector();
        std::vector<bool> dropped(all.size(), false);
        for (size_t a = 0; a < all.size(); ++a) {
            QPDFObjectHandle annot = all[a];
            if (!annot.isDictionary()) {
                continue;
            }
            std::vector<AnnotationString> strings = annotation_strings(annot, where, limit, maps);
            // The annotation goes whole when what it shows holds the text:
            // one line for it, none for its other strings.
            for (AnnotationString const &string : strings) {
                std::string text = search.found(string.text);
                if (text.empty() || string.removal != AnnotationString::whole) {
                    continue;
                }
                search.say(string.what, text);
                if (search.scrub) {
                    dropped[a] = true;
                    if (annot.isIndirect()) {
                        removed.insert(annot.getObjGen());
                    }
                }
                break;
            }
            for (AnnotationString const &string : strings) {
                std::string text = search.found(string.text);
                // A dropped annotation's own keys go with it; a key of a field
                // above a dropped widget still has to go.
                if (text.empty() || string.removal == AnnotationString::whole ||
                    (dropped[a] && string.holder.isSameObjectAs(annot))) {
                    continue;
                }
                search.say(string.what, text);
                if (search.scrub && string.removal == AnnotationString::own_key) {
                    QPDFObjectHandle(string.holder).removeKey(string.key);
                }
            }
        }
        if (std::find(dropped.begin(), dropped.end(), true) == dropped.end()) {
            continue;
        }
        // A removed annotation's popup, and annotations whose parent went, go with it.
        std::vector<QPDFObjectHandle> kept;
        for (size_t a = 0; a < all.size(); ++a) {
            QPDFObjectHandle annot = all[a];
            auto gone = [&](QPDFObjectHandle other) { return other.isIndirect() && removed.count(other.getObjGen()) > 0; };
            if (dropped[a] || (annot.isDictionary() && gone(annot.getKey("/Parent")))) {
                continue;
            }
            kept.push_back(annot);
        }
        page.replaceKey("/Annots", QPDFObjectHandle::newArray(kept));
        // Out of /Annots is not out of the file: a reply's /IRT, a structure
        // element's OBJR or another page's /Annots may still point at it, and
        // qpdf writes what is pointed at. The object itself becomes null.
        for (QPDFObjGen const &gone : removed) {
            out.replaceObject(gone, QPDFObjectHandle::newNull());
        }
    }
}

void search_labels(QPDF &out, Search &search)
{
    QPDFObjectHandle labels = out.getRoot().getKey("/PageLabels");
    if (!labels.isDictionary()) {
        return;
    }
    QPDFNumberTreeObjectHelper tree(labels, out);
    for (auto entry : tree) {
        QPDFObjectHandle range = entry.second;
        if (!range.isDictionary()) {
            continue;
        }
        if (std::string text = search.found(range.getKey("/P")); !text.empty()) {
            search.say(
                "the page label prefix \"" + range.getKey("/P").getUTF8Value() + "\" from page " +
                    std::to_string(entry.first + 1),
                text);
            if (search.scrub) {
                range.removeKey("/P");
            }
        }
    }
}

void search_embedded_files(QPDF &out, Search &search)
{
    QPDFEmbeddedFileDocumentHelper files(out);
    if (!files.hasEmbeddedFiles()) {
        return;
    }
    std::vector<std::string> removed;
    for (auto const &[key, spec] : files.getEmbeddedFiles()) {
        QPDFObjectHandle object = spec->getObjectHandle();
        std::string text = search.found(QPDFObjectHandle::newUnicodeString(key));
        if (text.empty()) {
            text = search.found(spec_name(object));
        }
        if (text.empty() && object.isDictionary()) {
            text = search.found(object.getKey("/Desc"));
        }
        if (!text.empty()) {
            search.say("the attachment \"" + key + "\"", text);
            removed.push_back(key);
        }
    }
    if (search.scrub) {
        for (std::string const &key : removed) {
            files.removeEmbeddedFile(key);
        }
    }
}

// The document information's strings (Title, Author, Subject, Keywords,
// Creator, any other): with `scrub` the key goes.
void search_information(QPDF &out, Search &search)
{
    QPDFObjectHandle info = out.getTrailer().getKey("/Info");
    if (!info.isDictionary()) {
        return;
    }
    for (std::string const &key : info.getKeys()) {
        if (std::string text = search.found(info.getKey(key)); !text.empty()) {
            search.say("the document's " + key.substr(1), text);
            if (search.scrub) {
                info.removeKey(key);
            }
        }
    }
}

// XML's five predefined entities and numeric references below 128 read back,
// so that "Doe &amp; Co" is found as "Doe & Co".
std::string xml_text(std::string const &xml)
{
    std::string text;
    text.reserve(xml.size());
    for (size_t i = 0; i < xml.size(); ++i) {
        if (xml[i] == '&') {
            size_t end = xml.find(';', i);
            if (end != std::string::npos && end - i <= 8) {
                std::string name = xml.substr(i + 1, end - i - 1);
                static std::map<std::string, char> const named{
                    {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
                auto known = named.find(name);
                long code = name.size() > 1 && name[0] == '#'
                    ? std::strtol(name.c_str() + (name[1] == 'x' ? 2 : 1), nullptr, name[1] == 'x' ? 16 : 10)
                    : 0;
                if (known != named.end() || (code > 0 && code < 128)) {
                    text += known != named.end() ? known->second : static_cast<char>(code);
                    i = end;
                    continue;
                }
            }
        }
        text += xml[i];
    }
    return text;
}

// The catalog's XMP packet (dc:title, dc:creator, dc:description, pdf:Keywords
// and whatever else it holds): with `scrub` the packet goes whole (a PDF/A or
// PDF/UA claim in it with it) — its properties are free-form XML, and a
// packet rewritten property by property could keep the text elsewhere.
void search_xmp(QPDF &out, Search &search, long long limit)
{
    QPDFObjectHandle metadata = out.getRoot().getKey("/Metadata");
    std::string xmp;
    if (!metadata.isStream() || !decode_bounded(metadata, limit, "the XMP metadata stream", &xmp)) {
        return;
    }
    if (std::string text = search.found(xml_text(xmp)); !text.empty()) {
        search.say("the XMP metadata", text);
        if (search.scrub) {
            out.getRoot().removeKey("/Metadata");
        }
    }
}

// Each occurrence of the redacted texts in `title` cut out (ASCII case folded,
// which keeps byte offsets).
std::string without(std::string title, Search const &search)
{
    while (true) {
        std::string text = search.found(title);
        if (text.empty()) {
            return title;
        }
        size_t at = folded(title).find(folded(text));
        title.erase(at, text.size());
    }
}

// The bookmarks' titles and the strings of their actions (a URI, a file):
// with `scrub` a title loses each occurrence of the text (the bookmark keeps
// its place, destination and children), an action holding it goes.
void search_outline(QPDF &out, Search &search)
{
    QPDFObjectHandle outlines = out.getRoot().getKey("/Outlines");
    std::vector<QPDFObjectHandle> pending;
    if (outlines.isDictionary()) {
        pending.push_back(outlines.getKey("/First"));
    }
    std::set<QPDFObjGen> seen;
    while (!pending.empty()) {
        QPDFObjectHandle item = pending.back();
        pending.pop_back();
        if (!item.isDictionary() || (item.isIndirect() && !seen.insert(item.getObjGen()).second)) {
            continue;
        }
        pending.push_back(item.getKey("/Next"));
        pending.push_back(item.getKey("/First"));
        QPDFObjectHandle title = item.getKey("/Title");
        if (std::string text = search.found(title); !text.empty()) {
            search.say("the bookmark \"" + title.getUTF8Value() + "\"", text);
            if (search.scrub) {
                item.replaceKey("/Title", QPDFObjectHandle::newUnicodeString(without(title.getUTF8Value(), search)));
            }
        }
        std::vector<AnnotationString> strings;
        action_strings(item.getKey("/A"), item, "/A", " of a bookmark", strings);
        for (AnnotationString const &string : strings) {
            if (std::string text = search.found(string.text); !text.empty()) {
                search.say(string.what, text);
                if (search.scrub) {
                    QPDFObjectHandle(string.holder).removeKey(string.key);
                }
            }
        }
    }
}

// The structure elements whose replacement texts — /ActualText, /Alt, /E —
// hold the text: those keys go whatever `scrub` says, as a marked-content
// span's go with its glyphs (Redact.cpp): they read the removed glyphs out.
void search_structure(QPDF &out, Search &search)
{
    QPDFObjectHandle tree = out.getRoot().getKey("/StructTreeRoot");
    std::vector<QPDFObjectHandle> pending;
    if (tree.isDictionary()) {
        pending.push_back(tree.getKey("/K"));
    }
    std::set<QPDFObjGen> seen;
    for (size_t count = 0; !pending.empty() && count < 10'000'000; ++count) {
        QPDFObjectHandle element = pending.back();
        pending.pop_back();
        if (element.isIndirect() && !seen.insert(element.getObjGen()).second) {
            continue;
        }
        if (element.isArray()) {
            for (QPDFObjectHandle kid : element.getArrayAsVector()) {
                pending.push_back(kid);
            }
            continue;
        }
        if (!element.isDictionary() || !element.hasKey("/S")) {
            continue; // a marked-content or object reference, a number
        }
        QPDFObjectHandle role = element.getKey("/S");
        std::string shown = role.isName() ? " (" + role.getName() + ")" : "";
        for (auto const &[key, name] : {std::pair{"/ActualText", "replacement text"}, {"/Alt", "alternate text"},
                                        {"/E", "expansion"}}) {
            if (std::string text = search.found(element.getKey(key)); !text.empty()) {
                search.removed(std::string("the ") + name + " of a structure element" + shown, text);
                element.removeKey(key);
            }
        }
        pending.push_back(element.getKey("/K"));
    }
}

} // namespace

std::vector<std::string> redaction_leftovers(
    QPDF &out, std::vector<std::string> const &texts, bool scrub, long long stream_limit)
{
    Search search(texts, scrub);
    search_annotations(out, search, stream_limit);
    search_labels(out, search);
    search_embedded_files(out, search);
    search_information(out, search);
    search_xmp(out, search, stream_limit);
    search_outline(out, search);
    search_structure(out, search);
    return search.lines;
}

} // namespace pe
