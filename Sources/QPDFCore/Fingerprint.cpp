// What a page draws, as one SHA-256 (the `dup` selection token), and how many
// annotations it carries (`annotated`): pe_document_page_fingerprint.
//
// The digest covers the page's content streams, its resources, its annotations
// and its geometry, each object written by value — dictionaries with sorted
// keys, streams as their dictionary and their bytes as stored (never
// inflated, so a small file cannot make this work large) — never by object
// number, so the same page copied within a file or into another file has the
// same digest (an indirect object is written as its own digest, computed once
// per document). Back-references that are not what the page draws (/Parent,
// /P, /StructParent(s), an annotation's /Popup) are left out, which also keeps
// the walk off the page tree. An annotation's action and destination (/A, /AA,
// /Dest, /PA) say where a click leads, not what is drawn, and are left out too:
// an export that renumbers pages rewrites them (a named destination becomes a
// page reference), and the page must still compare equal to the one it copies
// (`diff` pairs such pages without drawing them). A reference met again while
// its own value is being written (a loop) is written as a marker.
#include "Geometry.hh"
#include "Inputs.hh"

#include <qpdf/QPDFCryptoProvider.hh>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace pe {
namespace {

// One SHA-256 being written: every value length-prefixed, so no two sequences
// of values write the same bytes.
class Hasher {
  public:
    Hasher() : sha(QPDFCryptoProvider::getImpl())
    {
        sha->SHA2_init(256);
    }

    void text(std::string const &value)
    {
        std::string length = std::to_string(value.size()) + ":";
        sha->SHA2_update(reinterpret_cast<unsigned char const *>(length.data()), length.size());
        if (!value.empty()) {
            sha->SHA2_update(reinterpret_cast<unsigned char const *>(value.data()), value.size());
        }
    }

    std::string finish()
    {
        sha->SHA2_finalize();
        std::string digest = sha->SHA2_digest();
        static char const digits[] = "0123456789abcdef";
        std::string hex;
        for (unsigned char byte : digest) {
            hex += digits[byte >> 4];
            hex += digits[byte & 15];
        }
        return hex;
    }

  private:
    std::shared_ptr<QPDFCryptoImpl> sha;
};

// Writes objects by value. Each indirect object is hashed once on its own and
// written as its digest, kept in `memo` for the whole document (fonts and images
// shared by every page, an object referenced a thousand times by a tiny hostile
// file, cost one walk) — unless its value reached back to an object still being
// written above it (a loop), whose marker depends on where the walk came from.
class PageDigest {
  public:
    // At most this many objects and stream bytes per page.
    static constexpr long long kMaximumObjects = 1'000'000;
    static constexpr long long kMaximumBytes = 1LL << 30;

    explicit PageDigest(std::map<QPDFObjGen, std::string> &known) : memo(known) {}

    void write(Hasher &into, QPDFObjectHandle value, int depth)
    {
        if (value.isIndirect()) {
            into.text("ref");
            into.text(digest_of(value, depth));
        } else {
            write_value(into, value, depth);
        }
    }

    // A page's /Annots: each annotation written by value without what a click
    // does (`skipped_in_annotation`) into `into`; the array by value whether or
    // not indirect. What a click does goes into `clicks`, annotation by
    // annotation, so that `dup` still tells apart pages whose links differ.
    void write_annotations(Hasher &into, Hasher &clicks, QPDFObjectHandle annots)
    {
        if (!annots.isArray()) {
            write(into, annots, 0);
            return;
        }
        int count = annots.getArrayNItems();
        into.text("annots");
        into.text(std::to_string(count));
        for (int i = 0; i < count; ++i) {
            QPDFObjectHandle annotation = annots.getArrayItem(i);
            if (annotation.isDictionary()) {
                write_value(into, annotation, 1, true);
                clicks.text("annotation " + std::to_string(i));
                for (char const *key : {"/A", "/AA", "/Dest", "/PA"}) {
                    QPDFObjectHandle action = annotation.getKey(key);
                    if (action.isInitialized() && !action.isNull()) {
                        clicks.text(key);
                        write(clicks, action, 2);
                    }
                }
            } else {
                write(into, annotation, 1);
            }
        }
    }

  private:
    std::string digest_of(QPDFObjectHandle value, int depth)
    {
        QPDFObjGen id = value.getObjGen();
        auto known = memo.find(id);
        if (known != memo.end()) {
            return known->second;
        }
        auto open = std::find(stack.begin(), stack.end(), id);
        if (open != stack.end()) {
            size_t at = static_cast<size_t>(open - stack.begin());
            lowest_loop = std::min(lowest_loop, at);
            return "loop " + std::to_string(stack.size() - at);
        }
        stack.push_back(id);
        size_t index = stack.size() - 1;
        Hasher own;
        write_value(own, value, depth);
        std::string digest = own.finish();
        stack.pop_back();
        if (lowest_loop >= index) {
            memo[id] = digest;
            lowest_loop = SIZE_MAX;
        }
        return digest;
    }

    void write_value(Hasher &into, QPDFObjectHandle value, int depth, bool annotation = false)
    {
        if (++objects > kMaximumObjects || depth > 256) {
            throw OverLimit("the page is too complex to compare (over a million objects or 256 levels)");
        }
        if (value.isDictionary() || value.isStream()) {
            QPDFObjectHandle dictionary = value.isStream() ? value.getDict() : value;
            std::vector<std::string> keys;
            for (auto const &key : dictionary.getKeys()) {
                if (!skipped(key, value.isStream()) && !(annotation && skipped_in_annotation(key))) {
                    keys.push_back(key);
                }
            }
            std::sort(keys.begin(), keys.end());
            into.text(value.isStream() ? "stream" : "dict");
            into.text(std::to_string(keys.size()));
            for (auto const &key : keys) {
                into.text(key);
                write(into, dictionary.getKey(key), depth + 1);
            }
            if (value.isStream()) {
                std::shared_ptr<Buffer> data = value.getRawStreamData();
                bytes += static_cast<long long>(data->getSize());
                if (bytes > kMaximumBytes) {
                    throw OverLimit("the page is too large to compare (over 1 GB of streams)");
                }
                into.text(std::string(reinterpret_cast<char const *>(data->getBuffer()), data->getSize()));
            }
        } else if (value.isArray()) {
            int count = value.getArrayNItems();
            into.text("array");
            into.text(std::to_string(count));
            for (int i = 0; i < count; ++i) {
                write(into, value.getArrayItem(i), depth + 1);
            }
        } else {
            // Scalars by their PDF syntax; a name or string written two ways
            // (#20 escapes, hex) unparses the same way.
            into.text(value.unparseResolved());
        }
    }

    static bool skipped(std::string const &key, bool stream)
    {
        if (stream && (key == "/Length" || key == "/DL")) {
            return true;
        }
        return key == "/Parent" || key == "/P" || key == "/StructParent" || key == "/StructParents" ||
            key == "/Popup";
    }

    static bool skipped_in_annotation(std::string const &key)
    {
        return key == "/A" || key == "/AA" || key == "/Dest" || key == "/PA";
    }

    std::map<QPDFObjGen, std::string> &memo;
    std::vector<QPDFObjGen> stack;
    size_t lowest_loop = SIZE_MAX;
    long long objects = 0;
    long long bytes = 0;
};

// Annotations a reader shows as their own: a /Popup belongs to its parent's.
int annotation_count(QPDFObjectHandle annots)
{
    if (!annots.isArray()) {
        return 0;
    }
    int count = 0;
    int size = annots.getArrayNItems();
    for (int i = 0; i < size; ++i) {
        QPDFObjectHandle annotation = annots.getArrayItem(i);
        if (!annotation.isDictionary()) {
            continue;
        }
        QPDFObjectHandle subtype = annotation.getKey("/Subtype");
        if (subtype.isName() && subtype.getName() == "/Popup") {
            continue;
        }
        ++count;
    }
    return count;
}

} // namespace
} // namespace pe

extern "C" int pe_document_page_fingerprint(
    pe_document *document, int page, char *hex, char *clicks_hex, int *annotations, pe_status *status)
{
    return pe::reading(status, [&](pe::Where &) {
        pe::require(document != nullptr && hex != nullptr && clicks_hex != nullptr && annotations != nullptr,
                    "pe_document_page_fingerprint: no document or no result");
        int count = static_cast<int>(document->source.pages.size());
        if (page < 0 || page >= count) {
            throw pe::PlanError("no such page", count);
        }
        QPDFObjectHandle handle = document->source.pages[static_cast<size_t>(page)];
        pe::PageGeometry geometry = pe::page_geometry(handle);
        pe::PageDigest walker(document->page_digests);
        pe::Hasher digest;
        pe::Hasher clicks;
        for (double side : {geometry.media.llx, geometry.media.lly, geometry.media.urx, geometry.media.ury,
                            geometry.visible.llx, geometry.visible.lly, geometry.visible.urx, geometry.visible.ury,
                            static_cast<double>(geometry.rotation), geometry.unit}) {
            digest.text(std::to_string(side));
        }
        for (char const *key : {"/Contents", "/Resources", "/Annots", "/Group"}) {
            digest.text(key);
            QPDFObjectHandle value =
                std::string(key) == "/Resources" ? pe::inherited_value(handle, key) : handle.getKey(key);
            if (!value.isInitialized() || value.isNull()) {
                continue;
            }
            if (std::string(key) == "/Annots") {
                walker.write_annotations(digest, clicks, value);
            } else {
                walker.write(digest, value, 0);
            }
        }
        std::string found = digest.finish();
        std::copy(found.begin(), found.end(), hex);
        hex[found.size()] = '\0';
        std::string clicked = clicks.finish();
        std::copy(clicked.begin(), clicked.end(), clicks_hex);
        clicks_hex[clicked.size()] = '\0';
        *annotations = pe::annotation_count(handle.getKey("/Annots"));
    });
}
