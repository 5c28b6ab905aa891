// `--images DPI[:QUALITY]` (see Images.hh): raster images drawn finer than the
// resolution asked for are resampled to it and written again, smaller. Three
// steps: find how large each image is drawn (the pages' content, the CTM at each
// `Do`, through forms, without recursion and within a budget); decide for each
// image whether it can be handled; decode, resample (cairo), encode (libjpeg or
// zlib) and keep the result only when it is smaller. Every decoder here reads
// untrusted bytes within limits checked before the work: the image's own
// /Width and /Height against the pixel limit and `image_bytes_limit`, Flate and
// the other generalized filters through the one bounded decoder
// (decode_bounded), JPEG through pe_jpeg_decode (header checked first, rows
// grown as they arrive).
#include "Images.hh"

#include "Compress.hh"
#include "Limits.hh"

#include "ImageCodecs.h"

#include <qpdf/BufferInputSource.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QPDFTokenizer.hh>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

namespace pe {
namespace {

// Decoded bytes of one image this pass works on (and of its soft mask): a
// 6000 x 4000 RGB photograph is 72 MB. Larger images are left alone, so the
// pass never holds more than a few times this.
constexpr long long image_bytes_limit = 128LL << 20;
// cairo's largest image side.
constexpr long long side_limit = 32767;
// Forms inside forms followed at most this deep (a loop of forms ends here).
constexpr int form_depth_limit = 32;
// Content operators read in all, forms counted each time they are drawn; past
// it the pass changes nothing (a file whose forms draw each other 2^n times).
constexpr long long operator_budget = 50'000'000;
// q without Q kept at most this deep (a reader's own bound is similar).
constexpr size_t state_depth_limit = 1024;
// An image is resampled only when that leaves at most this share of its pixels:
// one just over the resolution is not worth a generation of JPEG loss.
constexpr double worthwhile_share = 0.8;

struct Matrix {
    double a = 1, b = 0, c = 0, d = 1, e = 0, f = 0;

    // this x m, PDF's order: `cm` gives M x CTM.
    Matrix times(Matrix const &m) const
    {
        return {a * m.a + b * m.c, a * m.b + b * m.d, c * m.a + d * m.c, c * m.b + d * m.d,
                e * m.a + f * m.c + m.e, e * m.b + f * m.d + m.f};
    }
};

struct Drawn {
    double width = 0;  // the longest an image's width was drawn, in points
    double height = 0; // and its height
};

struct Job {
    QPDFObjectHandle stream;
    QPDFObjectHandle resources;
    Matrix ctm;
    int depth;
};

bool number(QPDFTokenizer::Token const &token, double &value)
{
    auto type = token.getType();
    if (type != QPDFTokenizer::tt_integer && type != QPDFTokenizer::tt_real) {
        return false;
    }
    char *end = nullptr;
    value = std::strtod(token.getValue().c_str(), &end);
    return end != nullptr && *end == 0 && std::isfinite(value);
}

// What the pages draw: each image XObject's largest drawn size, and whether the
// walk finished within its budget.
class DrawnSizes {
  public:
    explicit DrawnSizes(long long stream_limit) : stream_limit(stream_limit) {}

    std::map<QPDFObjGen, Drawn> sizes;
    // Images reached some other way than a `Do` this walk follows, or from a
    // stream it could not read: left alone.
    std::set<QPDFObjGen> excluded;
    bool complete = true;

    void page(QPDFObjectHandle page)
    {
        QPDFPageObjectHelper helper(page);
        QPDFObjectHandle resources = helper.getAttribute("/Resources", false);
        Matrix ctm;
        QPDFObjectHandle unit = page.getKey("/UserUnit");
        if (unit.isNumber() && unit.getNumericValue() > 0) {
            ctm.a = ctm.d = unit.getNumericValue();
        }
        for (QPDFObjectHandle stream : helper.getPageContents()) {
            pending.push_back({stream, resources, ctm, 0});
        }
        QPDFObjectHandle annotations = page.getKey("/Annots");
        if (annotations.isArray()) {
            for (QPDFObjectHandle annotation : annotations.aitems()) {
                appearances(annotation, ctm);
            }
        }
        exclude_reachable(page.getKey("/Thumb"));
        run();
    }

  private:
    long long stream_limit;
    long long operators = 0;
    std::vector<Job> pending;
    std::set<QPDFObjGen> reach_seen;

    // An annotation's appearance streams are drawn as a reader draws them: the
    // form's /BBox, transformed by its /Matrix, is fitted to the annotation's
    // /Rect. Anything else it reaches (icons, pop-ups) is excluded.
    void appearances(QPDFObjectHandle annotation, Matrix const &page)
    {
        if (!annotation.isDictionary()) {
            return;
        }
        QPDFObjectHandle rect = annotation.getKey("/Rect");
        double r[4];
        bool placed = rect.isArray() && rect.getArrayNItems() == 4;
        for (int i = 0; placed && i < 4; ++i) {
            QPDFObjectHandle value = rect.getArrayItem(i);
            placed = value.isNumber();
            r[i] = placed ? value.getNumericValue() : 0;
        }
        QPDFObjectHandle ap = annotation.getKey("/AP");
        if (ap.isDictionary()) {
            for (char const *key : {"/N", "/R", "/D"}) {
                QPDFObjectHandle entry = ap.getKey(key);
                std::vector<QPDFObjectHandle> forms;
                if (entry.isStream()) {
                    forms.push_back(entry);
                } else if (entry.isDictionary()) {
                    for (auto [state, form] : entry.ditems()) {
                        forms.push_back(form);
                    }
                }
                for (QPDFObjectHandle form : forms) {
                    if (!placed || !appearance(form, std::fabs(r[2] - r[0]), std::fabs(r[3] - r[1]), page)) {
                        exclude_reachable(form);
                    }
                }
            }
        }
        for (auto [key, value] : annotation.ditems()) {
            if (key != "/AP" && !links_away(key)) {
                exclude_reachable(value);
            }
        }
    }

    // Queues appearance `form` fitted to a rectangle of `width` x `height`;
    // false when its /BBox or /Matrix cannot be read.
    bool appearance(QPDFObjectHandle form, double width, double height, Matrix const &page)
    {
        if (!form.isStream() || !std::isfinite(width) || !std::isfinite(height)) {
            return false;
        }
        QPDFObjectHandle dict = form.getDict();
        QPDFObjectHandle box = dict.getKey("/BBox");
        QPDFObjectHandle matrix = dict.getKey("/Matrix");
        double b[4];
        double m[6] = {1, 0, 0, 1, 0, 0};
        if (!box.isArray() || box.getArrayNItems() != 4) {
            return false;
        }
        for (int i = 0; i < 4; ++i) {
            if (!box.getArrayItem(i).isNumber()) {
                return false;
            }
            b[i] = box.getArrayItem(i).getNumericValue();
        }
        if (matrix.isArray()) {
            if (matrix.getArrayNItems() != 6) {
                return false;
            }
            for (int i = 0; i < 6; ++i) {
                if (!matrix.getArrayItem(i).isNumber()) {
                    return false;
                }
                m[i] = matrix.getArrayItem(i).getNumericValue();
            }
        }
        Matrix own{m[0], m[1], m[2], m[3], m[4], m[5]};
        double low_x = INFINITY, low_y = INFINITY, high_x = -INFINITY, high_y = -INFINITY;
        for (double x : {b[0], b[2]}) {
            for (double y : {b[1], b[3]}) {
                double tx = x * own.a + y * own.c + own.e;
                double ty = x * own.b + y * own.d + own.f;
                low_x = std::min(low_x, tx);
                high_x = std::max(high_x, tx);
                low_y = std::min(low_y, ty);
                high_y = std::max(high_y, ty);
            }
        }
        double box_width = high_x - low_x;
        double box_height = high_y - low_y;
        if (!(box_width > 0) || !(box_height > 0) || !std::isfinite(box_width) || !std::isfinite(box_height)) {
            return false;
        }
        Matrix fit{width / box_width, 0, 0, height / box_height, 0, 0};
        QPDFObjectHandle resources = dict.getKey("/Resources");
        pending.push_back({form, resources, own.times(fit).times(page), 1});
        return true;
    }

    // Keys that lead away from what an object draws: the page tree, the
    // annotation's page, actions and destinations, pop-ups, replies.
    static bool links_away(std::string const &key)
    {
        return key == "/Parent" || key == "/P" || key == "/Dest" || key == "/A" || key == "/AA" || key == "/Popup" ||
            key == "/IRT" || key == "/StructParent";
    }

    // Every image stream reachable from `root` (not through page-tree or
    // action links) is excluded: annotation appearances, patterns, soft-mask
    // groups, Type 3 glyphs draw images at sizes this walk does not follow.
    void exclude_reachable(QPDFObjectHandle root)
    {
        std::vector<QPDFObjectHandle> stack{root};
        while (!stack.empty()) {
            QPDFObjectHandle object = stack.back();
            stack.pop_back();
            if (object.isIndirect() && !reach_seen.insert(object.getObjGen()).second) {
                continue;
            }
            if (object.isStream()) {
                QPDFObjectHandle dict = object.getDict();
                if (dict.getKey("/Subtype").isNameAndEquals("/Image") && object.isIndirect()) {
                    excluded.insert(object.getObjGen());
                }
                stack.push_back(dict);
            } else if (object.isArray()) {
                for (QPDFObjectHandle item : object.aitems()) {
                    stack.push_back(item);
                }
            } else if (object.isDictionary()) {
                for (auto [key, value] : object.ditems()) {
                    if (!links_away(key)) {
                        stack.push_back(value);
                    }
                }
            }
        }
    }

    // The resources' entries that draw outside `Do`: patterns, graphics states
    // (soft-mask groups), fonts (Type 3 glyphs).
    void exclude_indirect_users(QPDFObjectHandle resources)
    {
        if (!resources.isDictionary()) {
            return;
        }
        for (char const *key : {"/Pattern", "/ExtGState", "/Font", "/Shading"}) {
            QPDFObjectHandle entry = resources.getKey(key);
            if (entry.isDictionary()) {
                exclude_reachable(entry);
            }
        }
    }

    void run()
    {
        while (!pending.empty() && complete) {
            Job job = pending.back();
            pending.pop_back();
            content(job);
        }
        pending.clear();
    }

    void draw(std::string const &name, Job job, Matrix const &ctm)
    {
        QPDFObjectHandle xobjects =
            job.resources.isDictionary() ? job.resources.getKey("/XObject") : QPDFObjectHandle::newNull();
        QPDFObjectHandle xobject = xobjects.isDictionary() ? xobjects.getKey(name) : QPDFObjectHandle::newNull();
        if (!xobject.isStream()) {
            return;
        }
        QPDFObjectHandle dict = xobject.getDict();
        QPDFObjectHandle subtype = dict.getKey("/Subtype");
        if (subtype.isNameAndEquals("/Image")) {
            if (!xobject.isIndirect()) {
                return;
            }
            Drawn &drawn = sizes[xobject.getObjGen()];
            drawn.width = std::max(drawn.width, std::hypot(ctm.a, ctm.b));
            drawn.height = std::max(drawn.height, std::hypot(ctm.c, ctm.d));
            return;
        }
        if (!subtype.isNameAndEquals("/Form")) {
            return;
        }
        if (job.depth + 1 > form_depth_limit) {
            complete = false;
            return;
        }
        Matrix form;
        QPDFObjectHandle matrix = dict.getKey("/Matrix");
        if (matrix.isArray() && matrix.getArrayNItems() == 6) {
            double values[6];
            for (int i = 0; i < 6; ++i) {
                QPDFObjectHandle item = matrix.getArrayItem(i);
                if (!item.isNumber()) {
                    return; // a reader draws nothing
                }
                values[i] = item.getNumericValue();
            }
            form = {values[0], values[1], values[2], values[3], values[4], values[5]};
        }
        QPDFObjectHandle resources = dict.getKey("/Resources");
        pending.push_back({xobject, resources.isDictionary() ? resources : job.resources, form.times(ctm), job.depth + 1});
    }

    void content(Job job)
    {
        exclude_indirect_users(job.resources);
        std::string data;
        bool decoded = false;
        try {
            decoded = decode_bounded(job.stream, stream_limit, "a content stream", &data);
        } catch (std::exception const &) {
            decoded = false;
        }
        if (!decoded) {
            // What it draws is unknown: nothing its resources hold is changed.
            QPDFObjectHandle xobjects =
                job.resources.isDictionary() ? job.resources.getKey("/XObject") : QPDFObjectHandle::newNull();
            exclude_reachable(xobjects);
            return;
        }
        auto input = std::make_shared<BufferInputSource>("content", data);
        QPDFTokenizer tokenizer;
        tokenizer.allowEOF();
        std::vector<Matrix> saved;
        Matrix ctm = job.ctm;
        std::vector<double> operands;
        std::string name;
        while (true) {
            QPDFTokenizer::Token token = tokenizer.readToken(input, "content", true);
            auto type = token.getType();
            if (type == QPDFTokenizer::tt_eof) {
                break;
            }
            if (type == QPDFTokenizer::tt_bad) {
                // A reader may draw on past it: what it draws is unknown.
                exclude_reachable(
                    job.resources.isDictionary() ? job.resources.getKey("/XObject") : QPDFObjectHandle::newNull());
                return;
            }
            double value = 0;
            if (number(token, value)) {
                operands.push_back(value);
                if (operands.size() > 6) {
                    operands.erase(operands.begin());
                }
                continue;
            }
            if (type == QPDFTokenizer::tt_name) {
                name = token.getValue();
                continue;
            }
            if (type != QPDFTokenizer::tt_word) {
                continue;
            }
            if (++operators > operator_budget) {
                complete = false;
                return;
            }
            std::string const &word = token.getValue();
            if (word == "q") {
                if (saved.size() < state_depth_limit) {
                    saved.push_back(ctm);
                }
            } else if (word == "Q") {
                if (!saved.empty()) {
                    ctm = saved.back();
                    saved.pop_back();
                }
            } else if (word == "cm" && operands.size() == 6) {
                Matrix m{operands[0], operands[1], operands[2], operands[3], operands[4], operands[5]};
                ctm = m.times(ctm);
            } else if (word == "Do" && !name.empty()) {
                draw(name, job, ctm);
            } else if (word == "ID") {
                char separator = 0;
                input->read(&separator, 1); // the one white-space character after ID
                tokenizer.expectInlineImage(input);
                tokenizer.readToken(input, "content", true); // the image data, up to EI
            }
            operands.clear();
            name.clear();
        }
    }
};

// An image's samples as the pass reads them.
struct Samples {
    int width = 0;
    int height = 0;
    int components = 0; // 1, 3 or 4
    int bits = 0;       // 8, or 1 (gray and stencil masks)
    bool jpeg = false;  // the source was DCT
    std::string data;   // packed rows, (width * components * bits + 7) / 8 bytes each
};

// Components of a colour space the pass handles (values keep their meaning when
// averaged): the device and CIE-based gray, RGB and CMYK spaces and ICC profiles
// of 1, 3 or 4 components; 0 for anything else.
int components_of(QPDFObjectHandle space)
{
    if (space.isName()) {
        std::string name = space.getName();
        if (name == "/DeviceGray" || name == "/CalGray") {
            return 1;
        }
        if (name == "/DeviceRGB" || name == "/CalRGB") {
            return 3;
        }
        if (name == "/DeviceCMYK") {
            return 4;
        }
        return 0;
    }
    if (!space.isArray() || space.getArrayNItems() < 1 || !space.getArrayItem(0).isName()) {
        return 0;
    }
    std::string family = space.getArrayItem(0).getName();
    if (family == "/CalGray") {
        return 1;
    }
    if (family == "/CalRGB") {
        return 3;
    }
    if (family == "/ICCBased" && space.getArrayNItems() >= 2 && space.getArrayItem(1).isStream()) {
        QPDFObjectHandle n = space.getArrayItem(1).getDict().getKey("/N");
        if (n.isInteger()) {
            long long value = n.getIntValue();
            return value == 1 || value == 3 || value == 4 ? static_cast<int>(value) : 0;
        }
    }
    return 0;
}

// The filters of `dict`, outermost first; false when they are not names.
bool filters_of(QPDFObjectHandle dict, std::vector<std::string> &names)
{
    QPDFObjectHandle filter = dict.getKey("/Filter");
    if (filter.isNull()) {
        return true;
    }
    if (filter.isName()) {
        names.push_back(filter.getName());
        return true;
    }
    if (!filter.isArray()) {
        return false;
    }
    for (QPDFObjectHandle item : filter.aitems()) {
        if (!item.isName()) {
            return false;
        }
        names.push_back(item.getName());
    }
    return true;
}

long long integer_key(QPDFObjectHandle dict, char const *key)
{
    QPDFObjectHandle value = dict.getKey(key);
    return value.isInteger() ? value.getIntValue() : -1;
}

// Reads the samples of image `stream` with `components` and `bits`; false when
// it cannot (filters it does not decode, over a limit, damaged or short data).
bool read_samples(QPDFObjectHandle stream, int components, int bits, ImageSettings const &settings, Samples &samples)
{
    QPDFObjectHandle dict = stream.getDict();
    long long width = integer_key(dict, "/Width");
    long long height = integer_key(dict, "/Height");
    if (width <= 0 || height <= 0 || width > side_limit || height > side_limit) {
        return false;
    }
    if (settings.max_pixels > 0 && width * height > settings.max_pixels) {
        return false;
    }
    long long row = (width * components * bits + 7) / 8;
    long long bytes = row * height;
    long long limit = image_bytes_limit;
    if (settings.max_stream_bytes > 0) {
        limit = std::min(limit, settings.max_stream_bytes);
    }
    if (bytes > limit) {
        return false;
    }
    std::vector<std::string> filters;
    if (!filters_of(dict, filters)) {
        return false;
    }
    samples.width = static_cast<int>(width);
    samples.height = static_cast<int>(height);
    samples.components = components;
    samples.bits = bits;
    bool dct = filters.size() == 1 && filters[0] == "/DCTDecode";
    if (dct) {
        QPDFObjectHandle parms = dict.getKey("/DecodeParms");
        if (bits != 8 || (components != 1 && components != 3) ||
            (parms.isDictionary() && parms.hasKey("/ColorTransform"))) {
            return false;
        }
        std::shared_ptr<Buffer> raw = stream.getRawStreamData();
        uint8_t *pixels = nullptr;
        char message[200];
        if (!pe_jpeg_decode(raw->getBuffer(), raw->getSize(), samples.width, samples.height, components,
                            static_cast<size_t>(bytes), &pixels, message, sizeof message)) {
            return false;
        }
        samples.data.assign(reinterpret_cast<char const *>(pixels), static_cast<size_t>(bytes));
        std::free(pixels);
        samples.jpeg = true;
        return true;
    }
    static std::set<std::string> const generalized{
        "/FlateDecode", "/Fl", "/LZWDecode", "/LZW", "/ASCIIHexDecode", "/AHx", "/ASCII85Decode", "/A85",
        "/RunLengthDecode", "/RL"};
    for (std::string const &name : filters) {
        if (generalized.count(name) == 0) {
            return false; // DCT inside another filter, CCITT, JBIG2, JPX, Crypt
        }
    }
    // A little slack for producers that pad the data; more is not an image of this size.
    try {
        if (!decode_bounded(stream, bytes + row + 1024, "an image", &samples.data)) {
            return false;
        }
    } catch (std::exception const &) {
        return false;
    }
    if (static_cast<long long>(samples.data.size()) < bytes) {
        return false; // short data: a reader shows what is there, we would invent the rest
    }
    samples.data.resize(static_cast<size_t>(bytes));
    return true;
}

// 1-bit rows as 0/255 bytes.
std::string unpacked(Samples const &samples)
{
    size_t row = (static_cast<size_t>(samples.width) + 7) / 8;
    std::string out(static_cast<size_t>(samples.width) * samples.height, '\0');
    for (int y = 0; y < samples.height; ++y) {
        for (int x = 0; x < samples.width; ++x) {
            unsigned char byte = static_cast<unsigned char>(samples.data[y * row + x / 8]);
            out[static_cast<size_t>(y) * samples.width + x] = (byte >> (7 - x % 8)) & 1 ? '\xff' : '\0';
        }
    }
    return out;
}

// 0..255 bytes as 1-bit rows, at half way.
std::string packed(std::string const &bytes, int width, int height)
{
    size_t row = (static_cast<size_t>(width) + 7) / 8;
    std::string out(row * height, '\0');
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            if (static_cast<unsigned char>(bytes[static_cast<size_t>(y) * width + x]) >= 128) {
                out[y * row + x / 8] = static_cast<char>(out[y * row + x / 8] | (0x80 >> (x % 8)));
            }
        }
    }
    return out;
}

// `samples` (8 bits) resampled to `width` x `height`; false if cairo fails.
bool resampled(Samples const &samples, std::string const &eight_bit, int width, int height, std::string &into)
{
    uint8_t *out = nullptr;
    if (!pe_resample(reinterpret_cast<uint8_t const *>(eight_bit.data()), samples.width, samples.height,
                     samples.components, width, height, &out)) {
        return false;
    }
    into.assign(reinterpret_cast<char const *>(out), static_cast<size_t>(width) * height * samples.components);
    std::free(out);
    return true;
}

// Few distinct colours (a chart, a screenshot, a scanned drawing): such an image
// is written with Flate, which keeps its edges, not JPEG. Stops counting early.
bool few_colours(Samples const &samples)
{
    size_t limit = samples.components == 1 ? 16 : 256;
    std::unordered_set<uint32_t> seen;
    size_t pixels = static_cast<size_t>(samples.width) * samples.height;
    for (size_t i = 0; i < pixels; ++i) {
        uint32_t colour = 0;
        for (int c = 0; c < samples.components; ++c) {
            colour = (colour << 8) | static_cast<unsigned char>(samples.data[i * samples.components + c]);
        }
        if (seen.insert(colour).second && seen.size() > limit) {
            return false;
        }
    }
    return true;
}

// New data for an image or mask resampled to width x height: JPEG when `jpeg`,
// else Flate at zlib's best level (1-bit samples packed again).
bool encoded(
    Samples const &samples, std::string const &pixels, int width, int height, bool jpeg, int quality,
    std::string &into)
{
    if (jpeg) {
        uint8_t *out = nullptr;
        unsigned long size = 0;
        char message[200];
        if (!pe_jpeg_encode(reinterpret_cast<uint8_t const *>(pixels.data()), width, height,
                            samples.components == 3 ? PE_PIXELS_RGB : PE_PIXELS_GRAY, quality, 0, &out, &size,
                            message, sizeof message)) {
            return false;
        }
        into.assign(reinterpret_cast<char const *>(out), size);
        std::free(out);
        return true;
    }
    return deflate_best(samples.bits == 1 ? packed(pixels, width, height) : pixels, into);
}

// Bytes of a stream as stored.
long long stored_size(QPDFObjectHandle stream)
{
    return static_cast<long long>(stream.getRawStreamData()->getSize());
}

void replace(QPDFObjectHandle stream, std::string const &data, bool jpeg, int width, int height)
{
    QPDFObjectHandle dict = stream.getDict();
    stream.replaceStreamData(
        data, QPDFObjectHandle::newName(jpeg ? "/DCTDecode" : "/FlateDecode"), QPDFObjectHandle::newNull());
    dict.replaceKey("/Width", QPDFObjectHandle::newInteger(width));
    dict.replaceKey("/Height", QPDFObjectHandle::newInteger(height));
}

// A soft mask resampled to at most width x height (it may differ from its
// image's size, as PDF allows); true when it was written smaller.
bool resample_mask(QPDFObjectHandle mask, int width, int height, ImageSettings const &settings, std::string &data)
{
    Samples samples;
    QPDFObjectHandle dict = mask.getDict();
    QPDFObjectHandle decode = dict.getKey("/Decode");
    if (integer_key(dict, "/BitsPerComponent") != 8 || (!decode.isNull() && !(decode.isArray() && decode.getArrayNItems() == 2)) ||
        !read_samples(mask, 1, 8, settings, samples)) {
        return false;
    }
    int new_width = std::min(width, samples.width);
    int new_height = std::min(height, samples.height);
    if (new_width == samples.width && new_height == samples.height) {
        return false;
    }
    std::string pixels;
    if (!resampled(samples, samples.data, new_width, new_height, pixels) ||
        !encoded(samples, pixels, new_width, new_height, false, 0, data) ||
        static_cast<long long>(data.size()) >= stored_size(mask)) {
        return false;
    }
    replace(mask, data, false, new_width, new_height);
    return true;
}

} // namespace

void downsample_images(
    QPDF &pdf, ImageSettings const &settings, pe_compress_report &report, std::set<QPDFObjGen> &written)
{
    if (settings.dpi <= 0) {
        return;
    }
    DrawnSizes walk(settings.max_stream_bytes);
    for (QPDFPageObjectHelper &page : QPDFPageDocumentHelper(pdf).getAllPages()) {
        walk.page(page.getObjectHandle());
        if (!walk.complete) {
            return; // past a budget: what the pages draw is not known, nothing changes
        }
    }
    // Soft masks belong to their images: one also drawn on its own is left alone.
    std::set<QPDFObjGen> masks;
    for (auto const &[og, drawn] : walk.sizes) {
        QPDFObjectHandle mask = pdf.getObject(og).getDict().getKey("/SMask");
        if (mask.isStream() && mask.isIndirect()) {
            masks.insert(mask.getObjGen());
        }
    }
    int quality = std::clamp(settings.quality, 1, 100);
    for (auto const &[og, drawn] : walk.sizes) {
        if (walk.excluded.count(og) != 0 || masks.count(og) != 0 || written.count(og) != 0) {
            continue;
        }
        QPDFObjectHandle image = pdf.getObject(og);
        QPDFObjectHandle dict = image.getDict();
        long long width = integer_key(dict, "/Width");
        long long height = integer_key(dict, "/Height");
        if (width <= 0 || height <= 0 || drawn.width <= 0 || drawn.height <= 0) {
            continue;
        }
        // The pixels the drawn size needs at the resolution asked for.
        double wanted_width = std::ceil(drawn.width / 72.0 * settings.dpi);
        double wanted_height = std::ceil(drawn.height / 72.0 * settings.dpi);
        int new_width = static_cast<int>(std::max(1.0, std::min<double>(static_cast<double>(width), wanted_width)));
        int new_height =
            static_cast<int>(std::max(1.0, std::min<double>(static_cast<double>(height), wanted_height)));
        if (static_cast<double>(new_width) * new_height > worthwhile_share * static_cast<double>(width) * height) {
            continue;
        }
        bool stencil = dict.getKey("/ImageMask").isBool() && dict.getKey("/ImageMask").getBoolValue();
        long long bits = integer_key(dict, "/BitsPerComponent");
        int components = stencil ? 1 : components_of(dict.getKey("/ColorSpace"));
        QPDFObjectHandle colour_key = dict.getKey("/Mask");
        QPDFObjectHandle decode = dict.getKey("/Decode");
        QPDFObjectHandle mask = dict.getKey("/SMask");
        if (components == 0 || (bits != 8 && bits != 1) || (stencil && bits != 1) ||
            (bits == 1 && components != 1) || colour_key.isArray() ||
            (!decode.isNull() && !(decode.isArray() && decode.getArrayNItems() == 2 * components)) ||
            (mask.isStream() && mask.getDict().hasKey("/Matte")) || (!mask.isNull() && !mask.isStream())) {
            continue;
        }
        Samples samples;
        if (!read_samples(image, components, static_cast<int>(bits), settings, samples)) {
            continue;
        }
        std::string pixels;
        std::string eight_bit = bits == 1 ? unpacked(samples) : std::string();
        if (!resampled(samples, bits == 1 ? eight_bit : samples.data, new_width, new_height, pixels)) {
            continue;
        }
        bool jpeg = bits == 8 && components != 4 && (samples.jpeg || !few_colours(samples));
        std::string data;
        long long before = stored_size(image);
        if (!encoded(samples, pixels, new_width, new_height, jpeg, quality, data) ||
            static_cast<long long>(data.size()) >= before) {
            continue;
        }
        replace(image, data, jpeg, new_width, new_height);
        dict.removeKey("/DecodeParms");
        written.insert(og);
        report.images += 1;
        report.images_saved += before - static_cast<long long>(data.size());
        if (mask.isStream() && mask.isIndirect() && written.count(mask.getObjGen()) == 0) {
            long long mask_before = stored_size(mask);
            std::string mask_data;
            if (resample_mask(mask, new_width, new_height, settings, mask_data)) {
                written.insert(mask.getObjGen());
                report.images_saved += mask_before - static_cast<long long>(mask_data.size());
            }
        }
    }
}

} // namespace pe
