// copy_foreign: a source's objects copied into an output in one walk without
// recursion, in place of qpdf 11.3's copyForeignObject (and of the walk that had
// to measure its depth first).
//
// qpdf's copier walks what it copies twice (reserveObjects, then
// replaceForeignIndirectObjects), recursing once per array, dictionary and stream,
// without a bound: a long chain of nested form XObjects overflowed the stack, so
// every copy was walked a third time beforehand to measure its depth. It also asks
// isPagesObject and isPageObject of every value, each a call to getAllPages. This
// copier makes the same objects, in the same order (each indirect object gets its
// number when the walk first meets it, depth first, dictionary keys sorted, as
// qpdf reserves them), with the same rules: it stops at /Pages nodes and at pages
// other than the one asked for (a reference to either becomes null unless that
// page was copied before), copies each object once per output and source, and
// hands stream data over when the output is written, decrypted and still encoded.
#include "Export.hh"
#include "Limits.hh"

#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace pe {
namespace {

// An object and generation as one 64-bit key, for hash containers.
struct ObjGenHash {
    size_t operator()(QPDFObjGen const &og) const noexcept
    {
        return std::hash<unsigned long long>()(
            (static_cast<unsigned long long>(static_cast<unsigned>(og.getObj())) << 32) |
            static_cast<unsigned>(og.getGen()));
    }
};

// The data of the output's copied streams: each is piped from its source stream
// when the output is written, as it is stored (decrypted, filters kept). It can
// be asked again without filtering when the writer's attempt to decode fails, as
// qpdf's own provider can.
class SourceStreams : public QPDFObjectHandle::StreamDataProvider {
  public:
    SourceStreams() : QPDFObjectHandle::StreamDataProvider(true) {}

    void add(QPDFObjGen copy, QPDFObjectHandle source) { streams[copy] = std::move(source); }

    bool provideStreamData(QPDFObjGen const &og, Pipeline *pipeline, bool suppress_warnings, bool will_retry) override
    {
        auto found = streams.find(og);
        if (found == streams.end()) {
            throw std::logic_error("a copied stream without its source");
        }
        // The form that says whether the data went through, not whether
        // filtering was attempted (none is).
        return found->second.pipeStreamData(pipeline, nullptr, 0, qpdf_dl_none, suppress_warnings, will_retry);
    }

  private:
    std::unordered_map<QPDFObjGen, QPDFObjectHandle, ObjGenHash> streams;
};

// What this thread has copied into one output (by QPDF::getUniqueId, which no
// other QPDF of the process gets): per source, each copied object's copy. One
// output is built at a time on a thread; a new one starts afresh.
struct Copies {
    unsigned long long out = ULLONG_MAX; // none yet (qpdf numbers its documents from 0)
    std::map<unsigned long long, std::unordered_map<QPDFObjGen, QPDFObjectHandle, ObjGenHash>> made;
    std::shared_ptr<SourceStreams> streams;
    std::set<unsigned long long> streams_from; // sources the output reads stream data from
    // A null given where qpdf only removes a key for it (replaceStreamData's
    // missing /DecodeParms), never put into an object: one, not one per stream.
    QPDFObjectHandle null;
};

thread_local Copies copies;

// Whether qpdf's copier would stop at `dictionary` (isPagesObject, or
// isPageObject below the top): a page tree node, or a page other than the one
// asked for. A dictionary made in memory (no owning QPDF) is neither.
bool is_pages_node(QPDFObjectHandle dictionary)
{
    return dictionary.getOwningQPDF() != nullptr && dictionary.getKey("/Type").isNameAndEquals("/Pages");
}

bool is_page(QPDFObjectHandle dictionary)
{
    if (dictionary.getOwningQPDF() == nullptr) {
        return false;
    }
    QPDFObjectHandle type = dictionary.getKey("/Type");
    // Files have been seen with /Type (Page), which qpdf takes as a page too.
    return type.isNameAndEquals("/Page") || (type.isString() && type.getStringValue() == "Page");
}

class Copier {
  public:
    Copier(QPDF &out, QPDF &from) :
        out(out), from(from), made(copies.made[from.getUniqueId()]), limit(static_cast<size_t>(page_tree_maximum_depth()))
    {
        if (!copies.streams) {
            copies.streams = std::make_shared<SourceStreams>();
        }
    }

    // `asked`: `foreign` is the object asked for (a page is copied whole);
    // else it is a value met below some object (a page not copied before is null).
    QPDFObjectHandle copy(QPDFObjectHandle foreign, bool asked)
    {
        QPDFObjectHandle top = value(foreign, asked, true);
        if (!top.isInitialized()) {
            top = QPDFObjectHandle::newNull();
        }
        while (!frames.empty()) {
            size_t owner = frames.size() - 1;
            Frame &frame = frames[owner];
            if (frame.next == frame.values.size()) {
                finish(frame);
                frames.pop_back();
                continue;
            }
            size_t at = frame.next++;
            bool reserving = frame.reserving;
            // value() may push a frame, which moves `frame`: found again by index.
            QPDFObjectHandle original = frame.values[at].second;
            QPDFObjectHandle copied = value(original, false, reserving);
            place(frames[owner], at, copied);
        }
        return top;
    }

  private:
    // An array, dictionary or stream dictionary being filled: its values in
    // qpdf's order (array items; dictionary values by sorted key), the copy they
    // go into, and for a stream, the stream whose data is attached at the end.
    struct Frame {
        std::vector<std::pair<std::string, QPDFObjectHandle>> values;
        size_t next = 0;
        QPDFObjectHandle into;     // the array or dictionary filled
        bool array = false;
        QPDFObjectHandle stream;   // the copied stream (into is its dictionary)
        QPDFObjectHandle original; // its source stream
        // False below a dictionary qpdf's copier does not descend into (a page
        // tree node, another page, given directly): its indirect objects are not
        // copied, only mapped to copies made before, as qpdf's second pass does.
        bool reserving = true;
    };

    // Puts `copied`, the copy of the `at`th value of `frame`, into its array or
    // dictionary; an uninitialised one is null: an array gets a null, a
    // dictionary not the key (as qpdf's replaceKey with a null).
    static void place(Frame &frame, size_t at, QPDFObjectHandle copied)
    {
        if (frame.array) {
            frame.into.appendItem(copied.isInitialized() ? copied : QPDFObjectHandle::newNull());
        } else if (copied.isInitialized()) {
            std::string const &key = frame.values[at].first;
            frame.into.replaceKey(key, copied); // null drops the key, as qpdf
        }
    }

    // The copy of `foreign`, a value met in the walk (`top`: the object asked
    // for), or an uninitialised handle for null where qpdf's copier gives a
    // null (a page tree node, another page): no null object made for a key
    // that is then dropped (every page's /Parent). A copied array, dictionary
    // or stream is made empty here and filled by the frame pushed for it.
    QPDFObjectHandle value(QPDFObjectHandle foreign, bool top, bool reserving)
    {
        if (foreign.isIndirect()) {
            QPDFObjGen og = foreign.getObjGen();
            auto found = made.find(og);
            if (found != made.end()) {
                return found->second;
            }
            if (!reserving) {
                return QPDFObjectHandle();
            }
        }
        qpdf_object_type_e type = foreign.getTypeCode();
        switch (type) {
        case ::ot_array:
        case ::ot_dictionary:
        case ::ot_stream:
            break;
        case ::ot_null:
        case ::ot_boolean:
        case ::ot_integer:
        case ::ot_real:
        case ::ot_string:
        case ::ot_name:
        case ::ot_operator:
        case ::ot_inlineimage:
            if (foreign.isIndirect()) {
                // An indirect number, name, null...: an indirect copy.
                QPDFObjectHandle copy = out.makeIndirectObject(foreign.shallowCopy());
                made[foreign.getObjGen()] = copy;
                return copy;
            }
            return foreign.shallowCopy(); // owned by no QPDF, as qpdf's copier makes it
        default:
            throw std::logic_error("copying a source object that is neither a value nor null");
        }
        bool dictionary = type == ::ot_dictionary;
        bool stops = dictionary && (is_pages_node(foreign) || (!top && is_page(foreign)));
        if (stops && foreign.isIndirect()) {
            return QPDFObjectHandle(); // null: not copied, not mapped
        }
        Frame frame;
        frame.reserving = reserving && !stops;
        if (type == ::ot_stream) {
            frame.stream = out.newStream();
            frame.original = foreign;
            frame.into = frame.stream.getDict();
            take_entries(foreign.getDict().getDictAsMap(), frame.values);
        } else if (dictionary) {
            frame.into = QPDFObjectHandle::newDictionary();
            take_entries(foreign.getDictAsMap(), frame.values);
        } else {
            frame.array = true;
            frame.into = QPDFObjectHandle::newArray();
            std::vector<QPDFObjectHandle> items = foreign.getArrayAsVector();
            frame.values.reserve(items.size());
            for (QPDFObjectHandle &item : items) {
                frame.values.emplace_back(std::string(), std::move(item));
            }
        }
        QPDFObjectHandle copy = frame.stream.isInitialized() ? frame.stream : frame.into;
        if (foreign.isIndirect()) {
            if (!frame.stream.isInitialized()) {
                copy = out.makeIndirectObject(frame.into);
                frame.into = copy;
            }
            made[foreign.getObjGen()] = copy;
        }
        push(std::move(frame));
        return copy;
    }

    // A dictionary's entries (the copy qpdf's getDictAsMap made) as a frame's
    // values, in its key order.
    static void take_entries(
        std::map<std::string, QPDFObjectHandle> entries, std::vector<std::pair<std::string, QPDFObjectHandle>> &values)
    {
        values.reserve(entries.size());
        for (auto &entry : entries) {
            values.emplace_back(entry.first, std::move(entry.second));
        }
    }

    void push(Frame frame)
    {
        if (frames.size() >= limit) {
            throw OverLimit(
                "its objects are nested more than " + std::to_string(limit) + " levels deep (PDFEDIT_MAX_DEPTH)",
                from.getFilename());
        }
        frames.push_back(std::move(frame));
    }

    // A filled frame: a stream gets its data, read from the source when the
    // output is written, with the filters its copied dictionary names.
    void finish(Frame &frame)
    {
        if (frame.stream.isInitialized()) {
            copies.streams->add(frame.stream.getObjGen(), frame.original);
            copies.streams_from.insert(from.getUniqueId());
            frame.stream.replaceStreamData(
                copies.streams, key_or_null(frame.into, "/Filter"), key_or_null(frame.into, "/DecodeParms"));
        }
    }

    // The value of `key` in `dictionary`, or the one shared null (qpdf's getKey
    // makes a new null object for each missing key).
    static QPDFObjectHandle key_or_null(QPDFObjectHandle dictionary, char const *key)
    {
        if (dictionary.hasKey(key)) {
            return dictionary.getKey(key);
        }
        if (!copies.null.isInitialized()) {
            copies.null = QPDFObjectHandle::newNull();
        }
        return copies.null;
    }

    QPDF &out;
    QPDF &from;
    std::unordered_map<QPDFObjGen, QPDFObjectHandle, ObjGenHash> &made;
    size_t const limit;
    std::vector<Frame> frames;
};

} // namespace

namespace {

QPDFObjectHandle copy_from_source(QPDF &out, QPDFObjectHandle foreign, bool asked)
{
    if (!foreign.isIndirect()) {
        throw std::logic_error("copy_foreign called with a direct object");
    }
    QPDF *from = foreign.getOwningQPDF();
    if (from == nullptr || from == &out) {
        throw std::logic_error("copy_foreign called with an object of the output");
    }
    if (copies.out != out.getUniqueId()) {
        copies = Copies{};
        copies.out = out.getUniqueId();
    }
    // Pages are known by their /Type: a source's pages were listed when it was
    // opened, by getAllPages, which sets a missing /Type. Not listed again here.
    return Copier(out, *from).copy(foreign, asked);
}

} // namespace

QPDFObjectHandle copy_foreign(QPDF &out, QPDFObjectHandle foreign)
{
    return copy_from_source(out, foreign, true);
}

bool is_page_tree_object(QPDFObjectHandle value)
{
    return value.isIndirect() && value.isDictionary() && (is_pages_node(value) || is_page(value));
}

QPDFObjectHandle copy_foreign_value(QPDF &out, QPDFObjectHandle foreign)
{
    QPDFObjectHandle copy = copy_from_source(out, foreign, false);
    return copy.isInitialized() ? copy : QPDFObjectHandle::newNull();
}

void forget_copies(QPDF &out)
{
    if (copies.out == out.getUniqueId()) {
        copies = Copies{};
    }
}

bool reads_streams_of(QPDF &out, QPDF &from)
{
    return copies.out == out.getUniqueId() && copies.streams_from.count(from.getUniqueId()) != 0;
}

} // namespace pe
