// `--compress`: identical streams shared and Flate recompressed at zlib's best
// level, before the output is written (see Compress.hh). The level is zlib's
// own argument here, not Pl_Flate::setCompressionLevel: that is a static of
// qpdf's, the whole process's setting, which a library must leave to its host.
#include "Compress.hh"

#include "CheckedFile.hh"
#include "Limits.hh"
#include "Status.hh"

#include <qpdf/Buffer.hh>
#include <qpdf/QPDFObjectHandle.hh>

#include <zlib.h>

#include <sched.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

namespace pe {
namespace {

// Dictionaries nested deeper than this inside a stream's dictionary make it
// unique (never merged): the key is built by recursion, which this bounds.
constexpr int key_depth_limit = 32;
// Rounds of merging (each may let objects that refer to merged ones merge):
// font -> descriptor -> font file, resources -> font -> ... need one each.
constexpr int merge_rounds_limit = 32;

struct ObjGenHash {
    size_t operator()(QPDFObjGen const &og) const noexcept
    {
        return std::hash<long long>()((static_cast<long long>(og.getObj()) << 16) ^ og.getGen());
    }
};

using Redirects = std::unordered_map<QPDFObjGen, QPDFObjGen, ObjGenHash>;

// Where `og` ends after the merges so far.
QPDFObjGen resolved(Redirects const &redirects, QPDFObjGen og)
{
    for (auto found = redirects.find(og); found != redirects.end(); found = redirects.find(og)) {
        og = found->second;
    }
    return og;
}

// The text of an object with each reference written as the object it now leads
// to; false when it nests deeper than key_depth_limit. `depth` -1: an indirect
// object itself (not written as a reference); 0: a stream's dictionary.
bool append_key(
    QPDFObjectHandle object, Redirects const &redirects, int depth, std::string &key, std::vector<QPDFObjGen> &refs)
{
    if (depth > key_depth_limit) {
        return false;
    }
    if (object.isIndirect() && depth != -1) {
        refs.push_back(object.getObjGen());
        QPDFObjGen og = resolved(redirects, object.getObjGen());
        key += std::to_string(og.getObj()) + " " + std::to_string(og.getGen()) + " R ";
        return true;
    }
    int next = depth < 0 ? 1 : depth + 1;
    if (object.isArray()) {
        key += "[ ";
        for (QPDFObjectHandle item : object.aitems()) {
            if (!append_key(item, redirects, next, key, refs)) {
                return false;
            }
        }
        key += "] ";
        return true;
    }
    if (object.isDictionary()) {
        // An XObject's /Name is PDF 1.0's resource name, which readers have
        // ignored since PDF 1.2 (object streams need 1.5): producers that set it
        // write the same image once per name it is drawn under.
        bool xobject = depth == 0 &&
            (object.getKey("/Subtype").isNameAndEquals("/Image") || object.getKey("/Subtype").isNameAndEquals("/Form"));
        key += "<< ";
        for (auto [name, value] : object.ditems()) { // sorted by key: the same text for the same dictionary
            if (depth == 0 && name == "/Length") { // a stream's own: its data is compared instead
                continue;
            }
            if (xobject && name == "/Name") {
                continue;
            }
            key += QPDFObjectHandle::newName(name).unparse() + " ";
            if (!append_key(value, redirects, next, key, refs)) {
                return false;
            }
        }
        key += ">> ";
        return true;
    }
    key += object.unparse() + " ";
    return true;
}

// Every stream the trailer reaches, and every indirect object on the way (in
// object-number order), found without recursion.
void reachable(QPDF &pdf, std::vector<QPDFObjectHandle> &objects)
{
    std::set<QPDFObjGen> seen;
    std::vector<QPDFObjectHandle> pending{pdf.getTrailer()};
    while (!pending.empty()) {
        QPDFObjectHandle object = pending.back();
        pending.pop_back();
        if (object.isIndirect()) {
            if (!seen.insert(object.getObjGen()).second) {
                continue;
            }
            objects.push_back(object);
        }
        if (object.isStream()) {
            pending.push_back(object.getDict());
        } else if (object.isArray()) {
            for (QPDFObjectHandle item : object.aitems()) {
                pending.push_back(item);
            }
        } else if (object.isDictionary()) {
            for (auto [name, value] : object.ditems()) {
                pending.push_back(value);
            }
        }
    }
    std::sort(objects.begin(), objects.end(), [](QPDFObjectHandle const &a, QPDFObjectHandle const &b) {
        return a.getObjGen() < b.getObjGen();
    });
}

// Points every reference in the direct parts of `object` that leads to a merged
// stream at the one kept, without recursion.
void redirect(QPDFObjectHandle object, Redirects const &redirects)
{
    auto target = [&](QPDFObjectHandle value, QPDFObjectHandle &into) {
        if (!value.isIndirect()) {
            return false;
        }
        QPDFObjGen og = resolved(redirects, value.getObjGen());
        if (og == value.getObjGen()) {
            return false;
        }
        into = value.getOwningQPDF()->getObject(og);
        return true;
    };
    std::vector<QPDFObjectHandle> pending{object.isStream() ? object.getDict() : object};
    while (!pending.empty()) {
        QPDFObjectHandle container = pending.back();
        pending.pop_back();
        QPDFObjectHandle replacement;
        if (container.isArray()) {
            int count = container.getArrayNItems();
            for (int i = 0; i < count; ++i) {
                QPDFObjectHandle item = container.getArrayItem(i);
                if (target(item, replacement)) {
                    container.setArrayItem(i, replacement);
                } else if (!item.isIndirect() && (item.isArray() || item.isDictionary())) {
                    pending.push_back(item);
                }
            }
        } else if (container.isDictionary()) {
            std::vector<std::pair<std::string, QPDFObjectHandle>> replaced; // not while iterating it
            for (auto [name, value] : container.ditems()) {
                if (target(value, replacement)) {
                    replaced.emplace_back(name, replacement);
                } else if (!value.isIndirect() && (value.isArray() || value.isDictionary())) {
                    pending.push_back(value);
                }
            }
            for (auto const &[name, value] : replaced) {
                container.replaceKey(name, value);
            }
        }
    }
}

// A stream's data as stored (decrypted, still encoded).
std::string raw_data(QPDFObjectHandle stream)
{
    std::shared_ptr<Buffer> buffer = stream.getRawStreamData();
    return std::string(reinterpret_cast<char const *>(buffer->getBuffer()), buffer->getSize());
}

std::string digest(std::string const &data)
{
    char hex[65] = {0};
    if (pe_sha256_bytes(reinterpret_cast<unsigned char const *>(data.data()), data.size(), hex) != 0) {
        throw std::runtime_error("SHA-256 failed");
    }
    return std::string(hex) + ":" + std::to_string(data.size());
}

// Whether an object that is not a stream may be shared with an identical one:
// what pages use as resources (fonts and their descriptors, encodings, graphics
// states, color spaces, functions, shadings, resource dictionaries, arrays such
// as /Widths). Never what has an identity of its own: pages and the page tree,
// annotations and form fields (one per page and field), outline items,
// structure elements, layers (/OCG), the catalog; those name a /Type outside
// the list or carry one of the keys below.
bool shareable(QPDFObjectHandle object)
{
    if (object.isArray()) {
        return true;
    }
    if (!object.isDictionary()) {
        return false;
    }
    QPDFObjectHandle type = object.getKey("/Type");
    if (!type.isNull()) {
        static std::set<std::string> const kinds{
            "/Font", "/FontDescriptor", "/Encoding", "/ExtGState", "/Pattern", "/Halftone", "/Group"};
        return type.isName() && kinds.count(type.getName()) != 0;
    }
    static char const *const identity_keys[] = {
        "/Parent", "/P", "/Kids", "/S", "/T", "/FT", "/Rect", "/Subtype", "/Title", "/First", "/Last",
        "/Next", "/Prev", "/K", "/Pg", "/Dest", "/A", "/AA", "/Names", "/Dests", "/Nums", "/Limits"};
    for (char const *key : identity_keys) {
        if (object.hasKey(key)) {
            return false;
        }
    }
    return true;
}

// Step 1: identical streams (and the objects above) written once. Returns the
// merges: each duplicate and the object it equals (met first, in object-number
// order). The first round keys every candidate; a later one only those that
// refer to an object merged in the round before (a file of 85,000 objects
// would otherwise be keyed again in full for every level of its resources).
Redirects share_identical(std::vector<QPDFObjectHandle> const &objects, pe_compress_report &report)
{
    struct Candidate {
        QPDFObjectHandle object;
        std::string data_key; // a stream's hash and length
        std::string key;      // its current key; "" when it cannot be keyed
        bool merged = false;
    };
    std::vector<Candidate> candidates;
    for (QPDFObjectHandle object : objects) {
        if (object.isStream()) {
            candidates.push_back({object, digest(raw_data(object)), "", false});
        } else if (shareable(object)) {
            candidates.push_back({object, "", "", false});
        }
    }
    std::unordered_map<QPDFObjGen, size_t, ObjGenHash> index;
    for (size_t i = 0; i < candidates.size(); ++i) {
        index[candidates[i].object.getObjGen()] = i;
    }
    // Who refers to an object (candidates only), moved to the object kept when
    // it merges, so a merge further down the chain finds them.
    std::unordered_map<QPDFObjGen, std::vector<size_t>, ObjGenHash> referrers;
    std::map<std::string, size_t> first; // key -> the candidate kept with it
    Redirects redirects;
    std::vector<size_t> pending(candidates.size());
    for (size_t i = 0; i < pending.size(); ++i) {
        pending[i] = i;
    }
    for (int round = 0; round < merge_rounds_limit && !pending.empty(); ++round) {
        std::vector<QPDFObjGen> merged_now;
        for (size_t i : pending) {
            Candidate &candidate = candidates[i];
            if (candidate.merged) {
                continue;
            }
            auto previous = first.find(candidate.key);
            if (!candidate.key.empty() && previous != first.end() && previous->second == i) {
                first.erase(previous); // its key changes: it no longer stands for the old one
            }
            QPDFObjectHandle object = candidate.object;
            bool stream = object.isStream();
            std::string key = stream ? "stream " + candidate.data_key + " " : "object ";
            std::vector<QPDFObjGen> refs;
            bool keyed = append_key(stream ? object.getDict() : object, redirects, stream ? 0 : -1, key, refs);
            candidate.key = keyed ? key : "";
            if (round == 0) {
                for (QPDFObjGen const &ref : refs) {
                    referrers[ref].push_back(i);
                }
            }
            if (!keyed) {
                continue;
            }
            auto [found, inserted] = first.emplace(key, i);
            if (inserted) {
                continue;
            }
            Candidate &kept = candidates[found->second];
            long long bytes = static_cast<long long>(key.size());
            if (stream) {
                // Equal hashes and lengths; the bytes themselves decide.
                std::string data = raw_data(object);
                if (data != raw_data(kept.object)) {
                    continue;
                }
                bytes = static_cast<long long>(data.size());
            }
            QPDFObjGen og = object.getObjGen();
            redirects[og] = kept.object.getObjGen();
            candidate.merged = true;
            merged_now.push_back(og);
            report.duplicates += 1;
            report.duplicate_bytes += bytes;
        }
        std::set<size_t> dirty;
        for (QPDFObjGen const &og : merged_now) {
            auto found = referrers.find(og);
            if (found == referrers.end()) {
                continue;
            }
            std::vector<size_t> moved = std::move(found->second);
            referrers.erase(found);
            dirty.insert(moved.begin(), moved.end());
            std::vector<size_t> &into = referrers[redirects[og]];
            into.insert(into.end(), moved.begin(), moved.end());
        }
        pending.assign(dirty.begin(), dirty.end());
    }
    return redirects;
}

// A tag of an XMP packet, as without_white_space reads it.
struct Tag {
    // other: a processing instruction (the packet's own <?xpacket ...?>).
    // Comments are not kept as `previous`: they are not an element's content.
    enum Kind { open, close, empty, comment, other } kind = other;
    std::string name;
    // An open tag whose content is character data to keep as it is, white
    // space included: rdf:parseType="Literal" (an XML literal: its text and
    // markup are the value) or xml:space="preserve".
    bool verbatim = false;
};

// Whether the attributes of the tag xmp[from, to) (after its name) make its
// content verbatim (see Tag). The attribute's prefix of parseType is the
// packet's own choice (rdf: by convention); xml: is fixed by XML.
bool verbatim_attributes(std::string const &xmp, size_t from, size_t to)
{
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    size_t at = from;
    while (at < to) {
        while (at < to && (space(xmp[at]) || xmp[at] == '/')) {
            ++at;
        }
        size_t name = at;
        while (at < to && !space(xmp[at]) && xmp[at] != '=' && xmp[at] != '/') {
            ++at;
        }
        std::string attribute = xmp.substr(name, at - name);
        while (at < to && space(xmp[at])) {
            ++at;
        }
        if (at >= to || xmp[at] != '=') {
            continue; // not name="value": the tag's end, or not XML this reads
        }
        ++at;
        while (at < to && space(xmp[at])) {
            ++at;
        }
        if (at >= to || (xmp[at] != '"' && xmp[at] != '\'')) {
            continue;
        }
        size_t close = xmp.find(xmp[at], at + 1);
        if (close == std::string::npos || close >= to) {
            return false;
        }
        std::string value = xmp.substr(at + 1, close - at - 1);
        at = close + 1;
        size_t colon = attribute.rfind(':');
        std::string local = colon == std::string::npos ? attribute : attribute.substr(colon + 1);
        if ((local == "parseType" && value == "Literal") || (attribute == "xml:space" && value == "preserve")) {
            return true;
        }
    }
    return false;
}

// `xmp` without its insignificant white space: the padding before
// `<?xpacket end=` (2 KB or more from most producers: room to edit the packet
// in place, which a file written again does not need; one line break stays)
// and the white space between tags (indentation: RDF/XML gives it no meaning
// between the elements of a property's element content). Character data is
// never touched: text that is not all white space stays whole, and so does
// white space that is an element's whole value (<a>  </a>, also around a
// comment: <a> <!-- c --> </a>), and everything inside an element whose
// content is verbatim (Tag), where white space between tags is part of the
// value. False when the packet is not
// XML this reads (an unterminated tag or comment, CDATA, a DOCTYPE): then it
// stays as it is.
bool without_white_space(std::string const &xmp, std::string &out)
{
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    Tag previous;
    int verbatim_depth = 0; // open elements inside (and including) a verbatim one
    size_t at = 0;
    size_t const size = xmp.size();
    while (at < size) {
        if (xmp[at] == '<') {
            Tag tag;
            size_t end;
            if (xmp.compare(at, 4, "<!--") == 0 || xmp.compare(at, 2, "<?") == 0) {
                bool comment = xmp[at + 1] == '!';
                end = xmp.find(comment ? "-->" : "?>", at + 2);
                if (end == std::string::npos) {
                    return false;
                }
                end += comment ? 3 : 2;
                tag.kind = comment ? Tag::comment : Tag::other;
            } else if (xmp.compare(at, 2, "<!") == 0) {
                return false; // CDATA or a DOCTYPE
            } else {
                char quote = 0;
                end = at + 1;
                for (; end < size; ++end) {
                    char c = xmp[end];
                    if (quote != 0) {
                        quote = c == quote ? 0 : quote;
                    } else if (c == '"' || c == '\'') {
                        quote = c;
                    } else if (c == '>') {
                        break;
                    }
                }
                if (end >= size) {
                    return false;
                }
                bool closing = xmp[at + 1] == '/';
                size_t name = at + (closing ? 2 : 1);
                size_t name_end = name;
                while (name_end < end && !space(xmp[name_end]) && xmp[name_end] != '/') {
                    ++name_end;
                }
                tag.name = xmp.substr(name, name_end - name);
                tag.kind = closing ? Tag::close : xmp[end - 1] == '/' ? Tag::empty : Tag::open;
                if (tag.kind == Tag::open) {
                    tag.verbatim = verbatim_depth > 0 || verbatim_attributes(xmp, name_end, end);
                    verbatim_depth += tag.verbatim ? 1 : 0;
                } else if (tag.kind == Tag::close && verbatim_depth > 0) {
                    --verbatim_depth;
                }
                ++end;
            }
            out.append(xmp, at, end - at);
            if (tag.kind != Tag::comment) {
                previous = tag; // comments are not the element's content
            }
            at = end;
            continue;
        }
        size_t next = std::min(xmp.find('<', at), size);
        bool blank = true;
        for (size_t i = at; i < next && blank; ++i) {
            blank = space(xmp[i]);
        }
        // The next tag after any comments (and white space between them).
        size_t tag_at = next;
        while (xmp.compare(tag_at, 4, "<!--") == 0) {
            size_t comment_end = xmp.find("-->", tag_at + 4);
            tag_at = comment_end == std::string::npos ? size : comment_end + 3;
            while (tag_at < size && space(xmp[tag_at])) {
                ++tag_at;
            }
        }
        std::string const closing = "</" + previous.name;
        bool value = !blank || verbatim_depth > 0 ||
            (previous.kind == Tag::open && xmp.compare(tag_at, closing.size(), closing) == 0 &&
             tag_at + closing.size() < size &&
             (xmp[tag_at + closing.size()] == '>' || space(xmp[tag_at + closing.size()])));
        if (value) {
            out.append(xmp, at, next - at);
        } else if (xmp.compare(next, 14, "<?xpacket end=") == 0) {
            out += '\n';
        }
        at = next;
    }
    return true;
}

// Whether `stream` is Flate alone with a predictor (/DecodeParms /Predictor 2
// or more): what deflated_unpredicted can undo.
bool predicted(QPDFObjectHandle stream)
{
    QPDFObjectHandle dict = stream.getDict();
    QPDFObjectHandle filter = dict.getKey("/Filter");
    QPDFObjectHandle parms = dict.getKey("/DecodeParms");
    if (filter.isArray() && filter.getArrayNItems() == 1) {
        filter = filter.getArrayItem(0);
        parms = parms.isArray() && parms.getArrayNItems() == 1 ? parms.getArrayItem(0) : parms;
    }
    if (!filter.isNameAndEquals("/FlateDecode") || !parms.isDictionary()) {
        return false;
    }
    QPDFObjectHandle predictor = parms.getKey("/Predictor");
    return predictor.isInteger() && predictor.getIntValue() >= 2;
}

// Step 2 for one stream, in three parts, so that the byte work (inflating,
// deflating at level 9, trimming an XMP packet) may run on any thread while
// every call into qpdf stays on the calling one (qpdf's objects are not
// thread-safe): `gather` reads what the stream needs from qpdf, `work` makes
// the new data from plain strings alone, `apply` gives it to qpdf. The bytes
// are the same whichever thread ran `work`.
struct Recompression {
    enum Kind { xmp, flate, plain } kind = plain;
    // unchanged: left as it came; same_filters: the outer Flate layer deflated
    // again, the filters and /DecodeParms kept; unpredicted: decoded data
    // deflated, /DecodeParms dropped; new_flate: unfiltered data deflated;
    // trimmed: an XMP packet without its insignificant white space, unfiltered.
    enum Outcome { unchanged, same_filters, unpredicted, new_flate, trimmed } outcome = unchanged;
    long long limit = 0;
    std::string raw;            // the stream's data as stored; freed by `work`
    std::string samples;        // a predicted stream's data decoded (inflated, predictor undone)
    bool has_samples = false;   // `samples` is the whole decoded data
    long long raw_size = 0;
    long long input_bytes = 0;  // raw and samples: what it holds until applied
    std::string data;           // the new data, unless unchanged
    std::exception_ptr failure; // what `work` threw (std::bad_alloc...), rethrown by `apply`
    bool done = false;          // `work` ran (guarded by the pool's mutex)
};

// What step 2 needs of `stream`, read on the calling thread; nullptr when the
// stream is not one step 2 rewrites (images' own codecs: DCT, CCITT, JBIG2,
// JPX, and the rare LZW or ASCII filters; a filtered XMP packet).
std::unique_ptr<Recompression> gather(QPDFObjectHandle stream, long long limit)
{
    QPDFObjectHandle dict = stream.getDict();
    QPDFObjectHandle filter = dict.getKey("/Filter");
    bool plain = filter.isNull() || (filter.isArray() && filter.getArrayNItems() == 0);
    auto job = std::make_unique<Recompression>();
    job->limit = limit;
    if (dict.getKey("/Type").isNameAndEquals("/Metadata")) {
        // XMP stays readable as text: QPDFWriter writes every metadata stream
        // unfiltered (some tools read packets from the file's bytes, PDF/A
        // wants them so). Only its padding and indentation go, and only from
        // a packet stored unfiltered.
        if (!plain) {
            return nullptr;
        }
        job->kind = Recompression::xmp;
    } else {
        QPDFObjectHandle outer = filter.isArray() && filter.getArrayNItems() > 0 ? filter.getArrayItem(0) : filter;
        bool flate = outer.isNameAndEquals("/FlateDecode");
        if (!flate && !plain) {
            return nullptr;
        }
        job->kind = flate ? Recompression::flate : Recompression::plain;
    }
    job->raw = raw_data(stream);
    job->raw_size = static_cast<long long>(job->raw.size());
    // A predictor (PNG or TIFF rows of differences) helps photographs and
    // hurts flat drawings and screenshots: deflated without it, such images
    // are smaller (qpdf's --recompress-flate always drops it). Both are tried;
    // qpdf undoes the predictor here, by the one bounded decoder.
    if (job->kind == Recompression::flate && predicted(stream)) {
        try {
            job->has_samples = decode_bounded(stream, limit, "a stream", &job->samples);
        } catch (std::exception const &) {
            job->has_samples = false; // over the limit or damaged: the predicted form is kept
        }
        if (!job->has_samples) {
            std::string().swap(job->samples);
        }
    }
    job->input_bytes = job->raw_size + static_cast<long long>(job->samples.size());
    return job;
}

// The new data of `job` from its strings alone (any thread). Never throws: a
// failure is kept in job.failure. A stream that does not inflate within the
// limit, that zlib cannot deflate, or that would not be smaller stays unchanged.
void work(Recompression &job) noexcept
{
    try {
        if (job.kind == Recompression::xmp) {
            std::string trimmed;
            if (without_white_space(job.raw, trimmed) && trimmed.size() < job.raw.size()) {
                job.outcome = Recompression::trimmed;
                job.data = std::move(trimmed);
            }
        } else {
            bool flate = job.kind == Recompression::flate;
            std::string inflated;
            if (!flate || inflate_bounded(job.raw, job.limit, inflated)) {
                std::string smaller;
                bool deflated = deflate_best(flate ? inflated : job.raw, smaller);
                std::string().swap(inflated);
                std::string unpredicted;
                if (!deflated) {
                    // zlib failed: left as it came
                } else if (job.has_samples && deflate_best(job.samples, unpredicted) &&
                           unpredicted.size() < smaller.size()) {
                    if (static_cast<long long>(unpredicted.size()) < job.raw_size) {
                        job.outcome = Recompression::unpredicted;
                        job.data = std::move(unpredicted);
                    }
                } else if (static_cast<long long>(smaller.size()) < job.raw_size) {
                    job.outcome = flate ? Recompression::same_filters : Recompression::new_flate;
                    job.data = std::move(smaller);
                }
            }
        }
    } catch (...) {
        job.outcome = Recompression::unchanged;
        job.failure = std::current_exception();
    }
    // What `apply` no longer needs, freed on the worker.
    std::string().swap(job.raw);
    std::string().swap(job.samples);
}

// Gives `stream` the new data of `job` (calling thread), or rethrows what
// `work` threw.
void apply(QPDFObjectHandle stream, Recompression &job, pe_compress_report &report)
{
    if (job.failure) {
        std::rethrow_exception(job.failure);
    }
    QPDFObjectHandle none = QPDFObjectHandle::newNull();
    switch (job.outcome) {
    case Recompression::unchanged:
        return;
    case Recompression::trimmed:
        stream.replaceStreamData(job.data, none, none);
        break;
    case Recompression::same_filters: {
        QPDFObjectHandle dict = stream.getDict();
        stream.replaceStreamData(job.data, dict.getKey("/Filter"), dict.getKey("/DecodeParms"));
        break;
    }
    case Recompression::unpredicted:
    case Recompression::new_flate:
        stream.replaceStreamData(job.data, QPDFObjectHandle::newName("/FlateDecode"), none);
        break;
    }
    report.recompressed += 1;
    report.recompressed_saved += job.raw_size - static_cast<long long>(job.data.size());
}

// Worker threads that run `work` on the jobs handed to them, first come first
// served. The calling thread hands them out and, while it waits for one, works
// on those still queued itself. Every thread is joined by the destructor
// (also when the caller leaves by an exception); a job a worker has started is
// finished first, none queued is started after. A thread that cannot be made
// leaves its share to the others, the calling thread last.
class RecompressPool {
  public:
    explicit RecompressPool(int workers)
    {
        for (int i = 0; i < workers; ++i) {
            try {
                threads.emplace_back([this] { run(); });
            } catch (std::system_error const &) {
                break;
            }
        }
    }

    RecompressPool(RecompressPool const &) = delete;
    RecompressPool &operator=(RecompressPool const &) = delete;

    ~RecompressPool()
    {
        {
            std::lock_guard<std::mutex> lock(mutex);
            stopping = true;
        }
        wake.notify_all();
        for (std::thread &thread : threads) {
            thread.join();
        }
    }

    void submit(Recompression *job)
    {
        {
            std::lock_guard<std::mutex> lock(mutex);
            queue.push_back(job);
        }
        wake.notify_one();
    }

    // Takes `job` back if no thread has started it; false when one has (it is
    // then finished, or will be, before the pool is destroyed).
    bool withdraw(Recompression *job)
    {
        std::lock_guard<std::mutex> lock(mutex);
        auto found = std::find(queue.begin(), queue.end(), job);
        if (found == queue.end()) {
            return false;
        }
        queue.erase(found);
        return true;
    }

    bool is_done(Recompression const *job)
    {
        std::lock_guard<std::mutex> lock(mutex);
        return job->done;
    }

    // Returns once `job` is done, working on queued jobs meanwhile.
    void finish(Recompression *job)
    {
        std::unique_lock<std::mutex> lock(mutex);
        while (!job->done) {
            if (queue.empty()) {
                finished.wait(lock);
                continue;
            }
            Recompression *next = queue.front();
            queue.pop_front();
            lock.unlock();
            work(*next);
            lock.lock();
            next->done = true;
        }
    }

  private:
    void run()
    {
        std::unique_lock<std::mutex> lock(mutex);
        for (;;) {
            wake.wait(lock, [this] { return stopping || !queue.empty(); });
            if (stopping) {
                return;
            }
            Recompression *job = queue.front();
            queue.pop_front();
            lock.unlock();
            work(*job);
            lock.lock();
            job->done = true;
            finished.notify_all();
        }
    }

    std::mutex mutex;
    std::condition_variable wake;     // a job queued, or stopping
    std::condition_variable finished; // a worker finished a job
    std::deque<Recompression *> queue; // submitted, not started
    bool stopping = false;
    std::vector<std::thread> threads;
};

// Decoded input (stored and predictor-free data) step 2 holds at once, beyond
// the stream each thread works on: streams are gathered ahead of the workers
// until this much waits, then the oldest is applied first.
constexpr long long bytes_in_flight_limit = 64LL << 20;

// Step 2 on `threads` threads (the calling one included). With more than one,
// `start_early` hands the workers the streams step 2 will probably rewrite
// before step 1 runs, so that they deflate while the calling thread shares
// identical objects; `run` then applies, in object order, the results of the
// streams step 1 kept (a merged stream's result is dropped) and does the rest.
class Recompressor {
  public:
    Recompressor(long long limit, int threads, pe_flag const *cancel) : limit(limit), cancel(cancel)
    {
        if (threads > 1) {
            pool = std::make_unique<RecompressPool>(threads - 1);
        }
    }

    // Gathers and queues the streams of `objects` (the reachable ones, in
    // object order) while at most bytes_in_flight_limit waits.
    void start_early(std::vector<QPDFObjectHandle> const &objects)
    {
        if (!pool) {
            return;
        }
        for (QPDFObjectHandle object : objects) {
            if (!object.isStream()) {
                continue;
            }
            stop_if_cancelled();
            std::unique_ptr<Recompression> job = gather(object, limit);
            if (!job) {
                continue;
            }
            in_flight += job->input_bytes;
            pool->submit(job.get());
            early.emplace(object.getObjGen(), std::move(job));
            if (in_flight > bytes_in_flight_limit) {
                return;
            }
        }
    }

    // Step 2 over `streams` (those step 1 kept, in object order).
    void run(std::vector<QPDFObjectHandle> &streams, pe_compress_report &report)
    {
        if (!early.empty()) {
            std::set<QPDFObjGen> kept;
            for (QPDFObjectHandle &stream : streams) {
                kept.insert(stream.getObjGen());
            }
            // A stream step 1 merged: its result is not wanted (a job a
            // worker has started stays until the pool is gone).
            for (auto &[og, job] : early) {
                if (job && kept.count(og) == 0) {
                    in_flight -= job->input_bytes;
                    if (pool->withdraw(job.get())) {
                        job.reset();
                    }
                }
            }
        }
        for (QPDFObjectHandle &stream : streams) {
            stop_if_cancelled();
            std::unique_ptr<Recompression> job;
            auto found = early.find(stream.getObjGen());
            if (found != early.end()) {
                job = std::move(found->second);
                early.erase(found);
            } else {
                job = gather(stream, limit);
                if (!job) {
                    continue;
                }
                in_flight += job->input_bytes;
                if (pool) {
                    pool->submit(job.get());
                }
            }
            window.emplace_back(stream, std::move(job));
            while (!window.empty() &&
                   (!pool || in_flight > bytes_in_flight_limit || pool->is_done(window.front().second.get()))) {
                apply_first(report);
            }
        }
        while (!window.empty()) {
            apply_first(report);
        }
    }

  private:
    void stop_if_cancelled()
    {
        if (cancel_requested() || pe_flag_is_raised(cancel)) {
            throw PlanError("cancelled");
        }
    }

    void apply_first(pe_compress_report &report)
    {
        Recompression &job = *window.front().second;
        if (pool) {
            pool->finish(&job);
        } else {
            work(job);
        }
        apply(window.front().first, job, report);
        in_flight -= job.input_bytes;
        window.pop_front();
    }

    long long limit;
    pe_flag const *cancel;
    long long in_flight = 0;
    // The jobs, declared before the pool so destroyed after it (its destructor
    // joins the workers): none is freed while a worker is on it.
    std::map<QPDFObjGen, std::unique_ptr<Recompression>> early; // queued by start_early, not yet in the window
    std::deque<std::pair<QPDFObjectHandle, std::unique_ptr<Recompression>>> window; // in object order
    std::unique_ptr<RecompressPool> pool;
};

} // namespace

namespace {

// zlib's deflate of `data` at level 9 with `strategy`, appended to `into`.
bool deflate_with(std::string const &data, int strategy, std::string &into)
{
    z_stream stream;
    std::memset(&stream, 0, sizeof stream);
    if (deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15, 9, strategy) != Z_OK) {
        return false;
    }
    size_t offered = 0;
    unsigned char buffer[65536];
    int result = Z_OK;
    while (result == Z_OK || result == Z_BUF_ERROR) {
        if (stream.avail_in == 0 && offered < data.size()) {
            size_t chunk = std::min<size_t>(data.size() - offered, 1u << 30);
            stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.data() + offered));
            stream.avail_in = static_cast<uInt>(chunk);
            offered += chunk;
        }
        stream.next_out = buffer;
        stream.avail_out = sizeof buffer;
        result = deflate(&stream, offered == data.size() ? Z_FINISH : Z_NO_FLUSH);
        into.append(reinterpret_cast<char *>(buffer), sizeof buffer - stream.avail_out);
        if (result == Z_BUF_ERROR && stream.avail_out == sizeof buffer) {
            break; // no progress: cannot happen with room and input left
        }
    }
    deflateEnd(&stream);
    return result == Z_STREAM_END;
}

// Data up to this size is also deflated with Z_FILTERED (see deflate_best).
constexpr size_t filtered_trial_limit = 4096;

} // namespace

bool deflate_best(std::string const &data, std::string &into)
{
    std::string best;
    if (!deflate_with(data, Z_DEFAULT_STRATEGY, best)) {
        return false;
    }
    // Small streams (a Type 3 glyph's drawing, a short content stream) are often
    // a few bytes smaller with Z_FILTERED, which favours Huffman coding over
    // short matches: 49 bytes over the 146 glyph procedures of
    // pdfjs-issue918.pdf. A second deflate of at most 4 KB costs microseconds.
    std::string filtered;
    if (data.size() <= filtered_trial_limit && deflate_with(data, Z_FILTERED, filtered) &&
        filtered.size() < best.size()) {
        best.swap(filtered);
    }
    into += best;
    return true;
}

int compress_threads(int wanted)
{
    if (wanted >= 1 && wanted <= 64) {
        return wanted;
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    int cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set)
                                                          : static_cast<int>(std::thread::hardware_concurrency());
    return std::max(1, std::min(cpus, 4));
}

void compress_streams(
    QPDF &pdf, long long max_stream_bytes, ImageSettings const &images, pe_compress_report &report, CompressRun run)
{
    std::vector<QPDFObjectHandle> objects;
    reachable(pdf, objects);
    Recompressor recompressor(max_stream_bytes, std::max(1, run.threads), run.cancel);
    // Lossless only: the images --images rewrites would be read before it does.
    if (images.dpi <= 0) {
        recompressor.start_early(objects);
    }
    Redirects redirects = share_identical(objects, report);
    if (!redirects.empty()) {
        redirect(pdf.getTrailer(), redirects);
        for (QPDFObjectHandle object : objects) {
            if (redirects.count(object.getObjGen()) == 0) {
                redirect(object, redirects);
            }
        }
    }
    std::set<QPDFObjGen> written;
    downsample_images(pdf, images, report, written);
    std::vector<QPDFObjectHandle> streams;
    for (QPDFObjectHandle object : objects) {
        if (object.isStream() && redirects.count(object.getObjGen()) == 0 && written.count(object.getObjGen()) == 0) {
            streams.push_back(object);
        }
    }
    recompressor.run(streams, report);
}

} // namespace pe
