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
#include "PlainObjects.hh"

#include <algorithm>
#include <climits>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
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

// The data of the output's streams read from their bytes (read_plain_object):
// piped from the source file as it is stored there (the source is unencrypted),
// when the output is written; the source's QPDF need not live until then. As
// qpdf pipes a source stream's data (QPDF::pipeStreamData): in reads of 10,240
// bytes, and when the writer's decoding fails, the same warnings, naming the
// source file, the stream's object and where the last read began, then false,
// for the writer to ask again without decoding. They are the output's warnings,
// which pdfedit passes on as the source's (forward_output_warnings).
class RawStreams : public QPDFObjectHandle::StreamDataProvider {
  public:
    explicit RawStreams(QPDF &out) : QPDFObjectHandle::StreamDataProvider(true), out(out) {}

    struct Data {
        std::shared_ptr<ReadInputSource> file;
        QPDFObjGen source; // the stream's number in its file
        qpdf_offset_t offset;
        size_t length;
    };

    void add(QPDFObjGen copy, Data data) { streams[copy] = std::move(data); }

    bool provideStreamData(QPDFObjGen const &og, Pipeline *pipeline, bool suppress_warnings, bool will_retry) override
    {
        auto found = streams.find(og);
        if (found == streams.end()) {
            throw std::logic_error("a copied stream without its source");
        }
        Data const &data = found->second;
        char buffer[10240];
        qpdf_offset_t last = data.offset; // where the last read began
        try {
            size_t done = 0;
            while (done < data.length) {
                size_t want = std::min(sizeof(buffer), data.length - done);
                last = data.offset + static_cast<qpdf_offset_t>(done);
                size_t got = data.file->read_bytes_at(last, buffer, want);
                if (got == 0) {
                    throw QPDFExc(qpdf_e_damaged_pdf, data.file->getName(), "", last, "unexpected EOF reading stream data");
                }
                pipeline->write(reinterpret_cast<unsigned char const *>(buffer), got);
                done += got;
            }
            pipeline->finish();
            return true;
        } catch (QPDFExc &e) {
            if (!suppress_warnings) {
                out.warn(e);
            }
        } catch (std::exception &e) {
            if (!suppress_warnings) {
                out.warn(QPDFExc(
                    qpdf_e_damaged_pdf, data.file->getName(), "", last,
                    "error decoding stream data for object " + data.source.unparse(' ') + ": " + e.what()));
                if (will_retry) {
                    out.warn(QPDFExc(
                        qpdf_e_damaged_pdf, data.file->getName(), "", last,
                        "stream will be re-processed without filtering to avoid data loss"));
                }
            }
        }
        try {
            pipeline->finish();
        } catch (std::exception &) {
            // what qpdf does too: the pipeline's own complaint adds nothing
        }
        return false;
    }

  private:
    QPDF &out;
    std::unordered_map<QPDFObjGen, Data, ObjGenHash> streams;
};

// What this thread has copied into one output (by QPDF::getUniqueId, which no
// other QPDF of the process gets): per source, each copied object's copy. One
// output is built at a time on a thread; a new one starts afresh.
struct Copies {
    unsigned long long out = ULLONG_MAX; // none yet (qpdf numbers its documents from 0)
    std::map<unsigned long long, std::unordered_map<QPDFObjGen, QPDFObjectHandle, ObjGenHash>> made;
    std::shared_ptr<SourceStreams> streams;
    std::set<unsigned long long> streams_from; // sources the output reads stream data from
    std::shared_ptr<RawStreams> raw_streams;
};

thread_local Copies copies;

// What this thread has read from sources' bytes, kept from one output to the
// next (the parts of a split read the same source): for the source last read,
// a window on its file and the objects qpdf's copier stops at (page tree nodes,
// pages), each page's /Parent among them, so that each is read once.
struct SourceReading {
    unsigned long long source = ULLONG_MAX; // none yet (qpdf numbers its documents from 0)
    std::weak_ptr<RawSource> raw; // the Source that opened it holds it
    FileWindow window;
    std::unordered_set<QPDFObjGen, ObjGenHash> stops;
    // Objects read for more than one output (a split's parts share fonts and
    // the like) are kept once read twice, as qpdf keeps what it parsed; an
    // object read once (a page's content) is not.
    std::unordered_set<QPDFObjGen, ObjGenHash> read_once;
    std::unordered_map<QPDFObjGen, std::shared_ptr<PlainObject const>, ObjGenHash> kept;

    void start(unsigned long long id, std::shared_ptr<RawSource> const &of)
    {
        source = id;
        raw = of;
        window.clear();
        stops.clear();
        read_once.clear();
        kept.clear();
    }

    // Object `og` of `from` read from its bytes, or null.
    std::shared_ptr<PlainObject const> read(RawSource const &from, QPDFObjGen og)
    {
        auto known = kept.find(og);
        if (known != kept.end()) {
            return known->second;
        }
        std::shared_ptr<PlainObject const> object = read_plain_object(from, og, window);
        if (object && !read_once.insert(og).second) {
            kept.emplace(og, object);
        }
        return object;
    }
};

thread_local SourceReading reading;

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

// is_pages_node and is_page for a dictionary read from its bytes.
bool is_pages_node(PlainValue const &dictionary)
{
    PlainValue const *type = dictionary.find("/Type");
    return type != nullptr && type->kind == PlainValue::Kind::name && type->text == "/Pages";
}

bool is_page(PlainValue const &dictionary)
{
    PlainValue const *type = dictionary.find("/Type");
    return type != nullptr &&
        ((type->kind == PlainValue::Kind::name && type->text == "/Page") ||
         (type->kind == PlainValue::Kind::string && type->text == "Page"));
}

// A scalar read from its bytes as the direct object qpdf's parser makes.
QPDFObjectHandle scalar(PlainValue const &value)
{
    switch (value.kind) {
    case PlainValue::Kind::boolean:
        return QPDFObjectHandle::newBool(value.flag);
    case PlainValue::Kind::integer:
        return QPDFObjectHandle::newInteger(value.number);
    case PlainValue::Kind::real:
        return QPDFObjectHandle::newReal(value.text);
    case PlainValue::Kind::name:
        return QPDFObjectHandle::newName(value.text);
    case PlainValue::Kind::string:
        return QPDFObjectHandle::newString(value.text);
    case PlainValue::Kind::null:
        return QPDFObjectHandle::newNull();
    case PlainValue::Kind::reference:
    case PlainValue::Kind::array:
    case PlainValue::Kind::dictionary:
        break;
    }
    throw std::logic_error("a value read from its bytes taken as a scalar");
}

class Copier {
  public:
    Copier(QPDF &out, QPDF &from, CopyReads reads) :
        out(out), from(from), made(copies.made[from.getUniqueId()]), limit(static_cast<size_t>(page_tree_maximum_depth()))
    {
        if (!copies.streams) {
            copies.streams = std::make_shared<SourceStreams>();
        }
        if (reads != CopyReads::bytes) {
            return;
        }
        if (reading.source != from.getUniqueId()) {
            reading.start(from.getUniqueId(), raw_source_of(from));
        }
        raw = reading.raw.lock(); // held while this copy reads
    }

    QPDFObjectHandle copy(QPDFObjectHandle foreign)
    {
        QPDFObjectHandle top = value(foreign, true, true);
        while (!frames.empty()) {
            size_t owner = frames.size() - 1;
            Frame &frame = frames[owner];
            if (frame.next == (frame.from_bytes ? frame.plain.size() : frame.values.size())) {
                finish(frame);
                frames.pop_back();
                continue;
            }
            size_t at = frame.next++;
            bool reserving = frame.reserving;
            // value() and plain_value() may push a frame, which moves `frame`:
            // found again by index.
            QPDFObjectHandle copied;
            if (frame.from_bytes) {
                PlainValue const *original = frame.plain[at].second;
                copied = plain_value(*original, reserving);
            } else {
                QPDFObjectHandle original = frame.values[at].second;
                copied = value(original, false, reserving);
            }
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
        // Read from the file's bytes (read_plain_object): `plain` instead of
        // `values`, pointing into `object`, which the frame of the indirect
        // object holds (its direct arrays and dictionaries' frames sit above it).
        bool from_bytes = false;
        std::vector<std::pair<std::string, PlainValue const *>> plain;
        std::shared_ptr<PlainObject const> object;
        QPDFObjGen source; // the indirect object read

    };

    // Puts `copied`, the copy of the `at`th value of `frame`, into its array or
    // dictionary.
    static void place(Frame &frame, size_t at, QPDFObjectHandle copied)
    {
        if (frame.array) {
            frame.into.appendItem(copied);
        } else {
            std::string const &key = frame.from_bytes ? frame.plain[at].first : frame.values[at].first;
            frame.into.replaceKey(key, copied); // null drops the key, as qpdf
        }
    }

    // The copy of `foreign`, a value met in the walk (`top`: the object asked
    // for). A copied array, dictionary or stream is made empty here and filled by
    // the frame pushed for it.
    QPDFObjectHandle value(QPDFObjectHandle foreign, bool top, bool reserving)
    {
        if (foreign.isIndirect()) {
            QPDFObjGen og = foreign.getObjGen();
            auto found = made.find(og);
            if (found != made.end()) {
                return found->second;
            }
            if (!reserving) {
                return QPDFObjectHandle::newNull();
            }
            if (raw != nullptr && !top) {
                // What the object asked for refers to: from its bytes where they
                // are plain. The object asked for itself (a page, a stamp's form)
                // is qpdf's, with whatever pdfedit changed in it.
                if (reading.stops.count(og) != 0) {
                    return QPDFObjectHandle::newNull();
                }
                std::shared_ptr<PlainObject const> plain = reading.read(*raw, og);
                if (plain) {
                    return indirect_from_bytes(og, std::move(plain));
                }
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
            return QPDFObjectHandle::newNull(); // not copied, not mapped
        }
        Frame frame;
        frame.reserving = reserving && !stops;
        if (type == ::ot_stream) {
            frame.stream = out.newStream();
            frame.original = foreign;
            frame.into = frame.stream.getDict();
            for (auto &entry : foreign.getDict().getDictAsMap()) {
                frame.values.emplace_back(entry.first, entry.second);
            }
        } else if (dictionary) {
            frame.into = QPDFObjectHandle::newDictionary();
            for (auto &entry : foreign.getDictAsMap()) {
                frame.values.emplace_back(entry.first, entry.second);
            }
        } else {
            frame.array = true;
            frame.into = QPDFObjectHandle::newArray();
            for (QPDFObjectHandle &item : foreign.getArrayAsVector()) {
                frame.values.emplace_back(std::string(), item);
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

    // The copy of indirect object `og` read from its bytes, as value() makes it
    // from qpdf's object: a stream or container made empty (its frame fills it),
    // a scalar as an indirect copy; null for a page tree node or a page, which
    // qpdf's copier does not copy.
    QPDFObjectHandle indirect_from_bytes(QPDFObjGen og, std::shared_ptr<PlainObject const> plain)
    {
        PlainValue const &value = plain->value;
        if (value.kind != PlainValue::Kind::array && value.kind != PlainValue::Kind::dictionary) {
            QPDFObjectHandle copy = out.makeIndirectObject(scalar(value));
            made[og] = copy;
            return copy;
        }
        if (!plain->stream && value.kind == PlainValue::Kind::dictionary && (is_pages_node(value) || is_page(value))) {
            reading.stops.insert(og);
            return QPDFObjectHandle::newNull(); // not copied, not mapped
        }
        Frame frame;
        fill_from_bytes(frame, value);
        QPDFObjectHandle copy;
        if (plain->stream) {
            frame.stream = out.newStream();
            frame.into = frame.stream.getDict();
            copy = frame.stream;
        } else {
            frame.into = out.makeIndirectObject(frame.array ? QPDFObjectHandle::newArray() : QPDFObjectHandle::newDictionary());
            copy = frame.into;
        }
        made[og] = copy;
        frame.object = std::move(plain);
        frame.source = og;
        push(std::move(frame));
        return copy;
    }

    // The copy of a value inside an object read from its bytes.
    QPDFObjectHandle plain_value(PlainValue const &value, bool reserving)
    {
        switch (value.kind) {
        case PlainValue::Kind::reference:
            return this->value(from.getObject(value.reference), false, reserving);
        case PlainValue::Kind::array:
        case PlainValue::Kind::dictionary: {
            Frame frame;
            fill_from_bytes(frame, value);
            // A dictionary qpdf's copier stops at, given directly: what it refers
            // to is only mapped.
            bool stops = !frame.array && (is_pages_node(value) || is_page(value));
            frame.reserving = reserving && !stops;
            frame.into = frame.array ? QPDFObjectHandle::newArray() : QPDFObjectHandle::newDictionary();
            QPDFObjectHandle copy = frame.into;
            push(std::move(frame));
            return copy;
        }
        default:
            return scalar(value);
        }
    }

    // A frame's values from an array's or dictionary's bytes.
    static void fill_from_bytes(Frame &frame, PlainValue const &value)
    {
        frame.from_bytes = true;
        if (value.kind == PlainValue::Kind::array) {
            frame.array = true;
            for (PlainValue const &item : value.items) {
                frame.plain.emplace_back(std::string(), &item);
            }
        } else {
            for (auto const &entry : value.entries) {
                frame.plain.emplace_back(entry.first, &entry.second);
            }
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
        if (frame.stream.isInitialized() && frame.from_bytes) {
            if (!copies.raw_streams) {
                copies.raw_streams = std::make_shared<RawStreams>(out);
            }
            copies.raw_streams->add(
                frame.stream.getObjGen(),
                RawStreams::Data{raw->file, frame.source, frame.object->data_offset, frame.object->length});
            frame.stream.replaceStreamData(
                copies.raw_streams, frame.into.getKey("/Filter"), frame.into.getKey("/DecodeParms"));
            return;
        }
        if (frame.stream.isInitialized()) {
            copies.streams->add(frame.stream.getObjGen(), frame.original);
            copies.streams_from.insert(from.getUniqueId());
            frame.stream.replaceStreamData(
                copies.streams, frame.into.getKey("/Filter"), frame.into.getKey("/DecodeParms"));
        }
    }

    QPDF &out;
    QPDF &from;
    std::shared_ptr<RawSource const> raw; // `from`'s, when its objects may be read from their bytes
    std::unordered_map<QPDFObjGen, QPDFObjectHandle, ObjGenHash> &made;
    size_t const limit;
    std::vector<Frame> frames;
};

} // namespace

QPDFObjectHandle copy_foreign(QPDF &out, QPDFObjectHandle foreign, CopyReads reads)
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
    // opened, by getAllPages, which sets a missing /Type, or without it where
    // every page has one (list_pages_unparsed). Not listed again here: that
    // would parse every page of the source.
    return Copier(out, *from, reads).copy(foreign);
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
