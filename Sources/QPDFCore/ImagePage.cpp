// pe_write_image_page (QPDFBridgeReader.h): the one-page PDF of a JPEG or PNG
// image. PDFEngine decodes and checks the image and says what the streams hold;
// this builds the document from them and writes it into memory.
#include "Export.hh"

#include <qpdf/Buffer.hh>
#include <qpdf/QPDFWriter.hh>

#include <memory>
#include <stdexcept>
#include <string>

namespace pe {
namespace {

// A new indirect stream of `pdf` holding `made`'s dictionary entries and data.
QPDFObjectHandle image_stream(QPDF &pdf, pe_image_stream const &made)
{
    if (made.dictionary == nullptr || (made.data == nullptr && made.size > 0)) {
        throw std::logic_error("pe_write_image_page: incomplete stream");
    }
    QPDFObjectHandle stream = pdf.newStream();
    QPDFObjectHandle dictionary = stream.getDict();
    QPDFObjectHandle entries = QPDFObjectHandle::parse(made.dictionary);
    for (auto const &key : entries.getKeys()) {
        dictionary.replaceKey(key, entries.getKey(key));
    }
    // The caller's bytes, not a copy (they outlive the write): an image's pixels
    // exist once more only while the writer compresses them.
    auto data = std::make_shared<Buffer>(const_cast<unsigned char *>(made.data), made.size);
    stream.replaceStreamData(
        data,
        made.filter == nullptr ? QPDFObjectHandle::newNull() : QPDFObjectHandle::newName(made.filter),
        made.decode_parms == nullptr ? QPDFObjectHandle::newNull() : QPDFObjectHandle::parse(made.decode_parms));
    return stream;
}

} // namespace
} // namespace pe

extern "C" int pe_write_image_page(
    pe_image_stream const *image,
    pe_image_stream const *mask,
    char const *media_box,
    char const *user_unit,
    char const *content,
    char const *minimum_version,
    pe_bytes_fn out,
    void *out_context,
    pe_status *status)
{
    // A failure while building is source 0's, one while writing the output's.
    return pe::reading(status, [&](pe::Where &where) {
        where = pe::Where{0, 0};
        pe::require(image != nullptr && media_box != nullptr && content != nullptr && minimum_version != nullptr &&
                        out != nullptr,
                    "pe_write_image_page: missing argument");
        QPDF pdf;
        pdf.setSuppressWarnings(true);
        pe::start_empty(pdf);
        QPDFObjectHandle picture = pe::image_stream(pdf, *image);
        if (mask != nullptr) {
            picture.getDict().replaceKey("/SMask", pe::image_stream(pdf, *mask));
        }
        QPDFObjectHandle contents = pdf.newStream(std::string(content));
        QPDFObjectHandle page = QPDFObjectHandle::newDictionary();
        page.replaceKey("/Type", QPDFObjectHandle::newName("/Page"));
        page.replaceKey("/MediaBox", QPDFObjectHandle::parse(media_box));
        QPDFObjectHandle xobjects = QPDFObjectHandle::newDictionary();
        xobjects.replaceKey("/Im0", picture);
        QPDFObjectHandle resources = QPDFObjectHandle::newDictionary();
        resources.replaceKey("/XObject", xobjects);
        page.replaceKey("/Resources", resources);
        page.replaceKey("/Contents", contents);
        if (user_unit != nullptr) {
            page.replaceKey("/UserUnit", QPDFObjectHandle::parse(user_unit));
        }
        pdf.addPage(pdf.makeIndirectObject(page), false);

        where.source = -1;
        QPDFWriter writer(pdf);
        writer.setOutputMemory();
        writer.setDeterministicID(true);
        writer.setCompressStreams(true);
        writer.setDecodeLevel(qpdf_dl_none);
        writer.setMinimumPDFVersion(minimum_version);
        writer.write();
        std::unique_ptr<Buffer> bytes(writer.getBuffer());
        out(out_context, bytes->getBuffer(), bytes->getSize());
    });
}
