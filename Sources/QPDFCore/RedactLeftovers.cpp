// What a redaction by text may leave outside the pages' content (issue 45):
// the output is searched, after it is assembled and before it is written, for
// the texts `redact --text` removed — case folded (ASCII), as the proof
// searches the document information and bookmarks — in link URIs, annotation
// /Contents, file attachment annotations' and embedded files' names and
// descriptions, and page label prefixes. Each is one warning line; with
// `scrub` it is removed (the link's URI action, the /Contents, the attachment
// annotation or embedded file, the prefix) and the line says what went.
#include "Export.hh"

#include <qpdf/QPDFEmbeddedFileDocumentHelper.hh>
#include <qpdf/QPDFNumberTreeObjectHelper.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>

#include <cctype>

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
        if (!value.isString()) {
            return "";
        }
        std::string text = folded(value.getUTF8Value());
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

void search_annotations(QPDF &out, Search &search)
{
    std::vector<QPDFPageObjectHelper> pages = QPDFPageDocumentHelper(out).getAllPages();
    for (size_t i = 0; i < pages.size(); ++i) {
        QPDFObjectHandle page = pages[i].getObjectHandle();
        QPDFObjectHandle annots = page.getKey("/Annots");
        if (!annots.isArray()) {
            continue;
        }
        std::string where = " on page " + std::to_string(i + 1);
        std::vector<QPDFObjectHandle> kept;
        bool dropped = false;
        for (QPDFObjectHandle annot : annots.getArrayAsVector()) {
            if (!annot.isDictionary()) {
                kept.push_back(annot);
                continue;
            }
            QPDFObjectHandle subtype = annot.getKey("/Subtype");
            if (subtype.isName() && subtype.getName() == "/FileAttachment") {
                QPDFObjectHandle spec = annot.getKey("/FS");
                QPDFObjectHandle name = spec_name(spec);
                std::string text = search.found(name);
                if (text.empty() && spec.isDictionary()) {
                    text = search.found(spec.getKey("/Desc"));
                }
                if (text.empty()) {
                    text = search.found(annot.getKey("/Contents"));
                }
                if (!text.empty()) {
                    std::string shown = name.isString() ? " \"" + name.getUTF8Value() + "\"" : "";
                    search.say("the attached file" + shown + where, text);
                    if (search.scrub) {
                        dropped = true;
                        continue;
                    }
                }
                kept.push_back(annot);
                continue;
            }
            if (std::string text = search.found(annot.getKey("/Contents")); !text.empty()) {
                search.say("an annotation's text" + where, text);
                if (search.scrub) {
                    annot.removeKey("/Contents");
                }
            }
            QPDFObjectHandle action = annot.getKey("/A");
            if (action.isDictionary() && action.getKey("/S").isName() && action.getKey("/S").getName() == "/URI") {
                if (std::string text = search.found(action.getKey("/URI")); !text.empty()) {
                    search.say("a link's address" + where, text);
                    if (search.scrub) {
                        annot.removeKey("/A");
                    }
                }
            }
            kept.push_back(annot);
        }
        if (dropped) {
            page.replaceKey("/Annots", QPDFObjectHandle::newArray(kept));
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

} // namespace

std::vector<std::string> redaction_leftovers(QPDF &out, std::vector<std::string> const &texts, bool scrub)
{
    Search search(texts, scrub);
    search_annotations(out, search);
    search_labels(out, search);
    search_embedded_files(out, search);
    return search.lines;
}

} // namespace pe
