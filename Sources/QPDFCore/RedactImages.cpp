// Image samples under a redacted region (Redact.hh's redact_image): decoded
// by qpdf (qpdf_dl_all: JPEG too) through the bounded decoder, the region's
// samples replaced at any depth of 1 to 16 bits, /Decode respected, written
// back Flate-encoded; a soft mask made opaque there, an image mask unpainted.
#include "Limits.hh"
#include "Redact.hh"
#include "Status.hh"

#include <qpdf/Pl_Buffer.hh>
#include <qpdf/Pl_DCT.hh>
#include <qpdf/Pl_Flate.hh>

#include <memory>

namespace pe {
namespace redaction {
namespace {


int components_of(QPDFObjectHandle space, std::string &family)
{
    if (space.isArray() && space.getArrayNItems() > 0) {
        QPDFObjectHandle head = space.getArrayItem(0);
        family = head.isName() ? head.getName() : "";
        if (family == "/ICCBased" && space.getArrayNItems() > 1) {
            QPDFObjectHandle stream = space.getArrayItem(1);
            return stream.isStream() ? static_cast<int>(number_of(stream.getDict().getKey("/N"), 0)) : 0;
        }
        if (family == "/Indexed" || family == "/Separation" || family == "/CalGray") {
            return 1;
        }
        if (family == "/CalRGB" || family == "/Lab") {
            return 3;
        }
        if (family == "/DeviceN" && space.getArrayNItems() > 1 && space.getArrayItem(1).isArray()) {
            return space.getArrayItem(1).getArrayNItems();
        }
        return 0;
    }
    family = space.isName() ? space.getName() : "";
    if (family == "/DeviceGray" || family == "/G") {
        return 1;
    }
    if (family == "/DeviceRGB" || family == "/RGB") {
        return 3;
    }
    if (family == "/DeviceCMYK" || family == "/CMYK") {
        return 4;
    }
    return 0;
}

// The fill colour as the image's components (0..1 each).
std::vector<double> fill_components(int count, std::string const &family, pe_redact_region const &r)
{
    std::vector<double> values(static_cast<size_t>(count), 0.0);
    if (count == 1 && family != "/Indexed" && family != "/Separation") {
        values[0] = 0.299 * r.red + 0.587 * r.green + 0.114 * r.blue;
    } else if (count == 3 && family != "/Lab") {
        values = {r.red, r.green, r.blue};
    } else if (count == 4) {
        double k = 1 - std::max({r.red, r.green, r.blue});
        double rest = k < 1 ? 1 - k : 1;
        values = {(1 - r.red - k) / rest, (1 - r.green - k) / rest, (1 - r.blue - k) / rest, k};
    }
    return values;
}

} // namespace

void redact_image(
    QPDFObjectHandle image, Matrix const &ctm, std::vector<pe_redact_region> const &regions, long long stream_limit,
    std::string const &what, bool soft_mask)
{
    QPDFObjectHandle dict = image.getDict();
    long long width = static_cast<long long>(number_of(dict.getKey("/Width"), 0));
    long long height = static_cast<long long>(number_of(dict.getKey("/Height"), 0));
    bool mask = dict.getKey("/ImageMask").isBool() && dict.getKey("/ImageMask").getBoolValue();
    int bpc = mask ? 1 : static_cast<int>(number_of(dict.getKey("/BitsPerComponent"), 8));
    std::string family;
    int components = mask ? 1 : components_of(dict.getKey("/ColorSpace"), family);
    if (width <= 0 || height <= 0 || components <= 0 || (bpc != 1 && bpc != 2 && bpc != 4 && bpc != 8 && bpc != 16)) {
        throw RedactRefused("an image in " + what + " reaches into a region, and its samples cannot be read");
    }
    std::string data;
    if (!decode_bounded(image, stream_limit, "an image in " + what, &data, qpdf_dl_all)) {
        QPDFObjectHandle filter = dict.getKey("/Filter");
        throw RedactRefused(
            "an image in " + what + " reaches into a region, and its data cannot be decoded" +
            (filter.isName() ? " (" + filter.getName().substr(1) + ")" : ""));
    }
    long long row_bytes = (width * components * bpc + 7) / 8;
    if (static_cast<long long>(data.size()) < row_bytes * height) {
        data.resize(static_cast<size_t>(row_bytes * height), '\0');
    }
    Matrix to_image;
    if (!ctm.inverse(to_image)) {
        return;
    }
    QPDFObjectHandle decode = dict.getKey("/Decode");
    long long top = (1LL << bpc) - 1;
    for (pe_redact_region const &r : regions) {
        Box unit = transformed(to_image, r.x0, r.y0, r.x1, r.y1);
        if (unit.x1 <= 0 || unit.x0 >= 1 || unit.y1 <= 0 || unit.y0 >= 1) {
            continue;
        }
        // A millionth of a sample of slack, so that a region on a sample's
        // edge does not take the neighbour through rounding in the inverse.
        constexpr double slack = 1e-6;
        long long c0 = std::max(0LL, static_cast<long long>(std::floor(unit.x0 * width + slack)));
        long long c1 = std::min(width, static_cast<long long>(std::ceil(unit.x1 * width - slack)));
        long long r0 = std::max(0LL, static_cast<long long>(std::floor((1 - unit.y1) * height + slack)));
        long long r1 = std::min(height, static_cast<long long>(std::ceil((1 - unit.y0) * height - slack)));
        std::vector<double> values;
        if (mask) {
            values = {1.0}; // not painted: the fill shows
        } else if (soft_mask) {
            values = {1.0}; // opaque: the fill is what shows
        } else {
            values = fill_components(components, family, r);
        }
        std::vector<long long> samples;
        for (int k = 0; k < components; ++k) {
            double v = values[static_cast<size_t>(k)];
            if (decode.isArray() && decode.getArrayNItems() >= 2 * (k + 1)) {
                double low = number_of(decode.getArrayItem(2 * k), 0);
                double high = number_of(decode.getArrayItem(2 * k + 1), 1);
                v = high != low ? (v - low) / (high - low) : 0;
            }
            v = std::min(1.0, std::max(0.0, v));
            samples.push_back(static_cast<long long>(std::lround(v * static_cast<double>(top))));
        }
        for (long long row = r0; row < r1; ++row) {
            unsigned char *line = reinterpret_cast<unsigned char *>(&data[static_cast<size_t>(row * row_bytes)]);
            for (long long col = c0; col < c1; ++col) {
                for (int k = 0; k < components; ++k) {
                    long long sample = samples[static_cast<size_t>(k)];
                    long long index = col * components + k;
                    if (bpc == 8) {
                        line[index] = static_cast<unsigned char>(sample);
                    } else if (bpc == 16) {
                        line[index * 2] = static_cast<unsigned char>(sample >> 8);
                        line[index * 2 + 1] = static_cast<unsigned char>(sample & 255);
                    } else {
                        long long bit = index * bpc;
                        int shift = 8 - bpc - static_cast<int>(bit % 8);
                        unsigned char keep = static_cast<unsigned char>(~(top << shift));
                        line[bit / 8] = static_cast<unsigned char>((line[bit / 8] & keep) | (sample << shift));
                    }
                }
            }
        }
    }
    // A JPEG stays a JPEG (qpdf's Pl_DCT over libjpeg, at its default
    // quality): a scan written back as Flate grew fourfold. Anything else is
    // Flate-encoded.
    QPDFObjectHandle filter = dict.getKey("/Filter");
    if (filter.isArray() && filter.getArrayNItems() > 0) {
        filter = filter.getArrayItem(filter.getArrayNItems() - 1);
    }
    bool jpeg = filter.isName() && filter.getName() == "/DCTDecode" && !mask && bpc == 8 &&
        (components == 1 || components == 3 || components == 4);
    Pl_Buffer buffer("redacted image");
    if (jpeg) {
        J_COLOR_SPACE space = components == 1 ? JCS_GRAYSCALE : components == 3 ? JCS_RGB : JCS_CMYK;
        Pl_DCT dct(
            "redacted image dct", &buffer, static_cast<JDIMENSION>(width), static_cast<JDIMENSION>(height), components,
            space);
        dct.write(reinterpret_cast<unsigned char const *>(data.data()), data.size());
        dct.finish();
    } else {
        Pl_Flate flate("redacted image flate", &buffer, Pl_Flate::a_deflate);
        flate.write(reinterpret_cast<unsigned char const *>(data.data()), data.size());
        flate.finish();
    }
    std::unique_ptr<Buffer> packed(buffer.getBuffer());
    std::string encoded(reinterpret_cast<char const *>(packed->getBuffer()), packed->getSize());
    image.replaceStreamData(
        encoded, QPDFObjectHandle::newName(jpeg ? "/DCTDecode" : "/FlateDecode"), QPDFObjectHandle::newNull());
    QPDFObjectHandle smask = dict.getKey("/SMask");
    if (!soft_mask && smask.isStream()) {
        QPDFObjectHandle own = smask.copyStream();
        redact_image(own, ctm, regions, stream_limit, what, true);
        dict.replaceKey("/SMask", own);
    }
}


} // namespace redaction
} // namespace pe
