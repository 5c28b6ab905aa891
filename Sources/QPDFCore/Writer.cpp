// QPDFWriter set up for exports: the output pipeline (CheckedFile), PDF version,
// object streams, encryption (Encryption.cpp) or a deterministic /ID, progress,
// and --compress (Compress.cpp) and --linearize.
#include "Writer.hh"

#include "CheckedFile.hh"
#include "Compress.hh"
#include "Encryption.hh"
#include "Limits.hh"
#include "Timing.hh"

#include <qpdf/Pl_Flate.hh>
#include <qpdf/QPDFWriter.hh>

#include <pthread.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <string>

namespace pe {
namespace {

// Outputs with fewer pages are written without object streams.
constexpr size_t object_stream_minimum = 16;

// qpdf 11.3 linearizes through a recursive walk of the object graph
// (updateObjectMaps): a stack frame of about 350 bytes for each object on the
// path it follows, so a chain of 24,000 bookmarks (/Next) overflowed the
// default 8 MB stack and ended the process (qpdf's own command too). The path
// never holds an object twice, so never more objects than the output has: a
// linearized output is written on a thread of its own whose stack has 1 KB for
// each object (at least 8 MB, at most 512 MB); one with more objects than that
// is refused before a byte is written.
constexpr size_t linearize_stack_per_object = 1024;
constexpr size_t linearize_stack_least = size_t(8) << 20;
constexpr size_t linearize_stack_most = size_t(512) << 20;

void write_linearized(QPDF &pdf, QPDFWriter &writer)
{
    size_t objects = static_cast<size_t>(pdf.getObjectCount());
    if (objects > linearize_stack_most / linearize_stack_per_object) {
        throw OverLimit(
            "over a limit: the output has " + std::to_string(objects) + " objects, more than --linearize can take (" +
            std::to_string(linearize_stack_most / linearize_stack_per_object) + ")");
    }
    struct Job {
        QPDFWriter *writer;
        std::exception_ptr failure;
    } job{&writer, nullptr};
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) {
        throw std::runtime_error("cannot start the linearizing writer");
    }
    size_t stack = std::max(linearize_stack_least, objects * linearize_stack_per_object);
    pthread_t thread;
    int started = pthread_attr_setstacksize(&attributes, stack);
    if (started == 0) {
        started = pthread_create(
            &thread, &attributes,
            [](void *argument) -> void * {
                Job &running = *static_cast<Job *>(argument);
                try {
                    running.writer->write();
                } catch (...) {
                    running.failure = std::current_exception();
                }
                return nullptr;
            },
            &job);
    }
    pthread_attr_destroy(&attributes);
    if (started != 0) {
        throw std::runtime_error(
            "not enough memory to linearize " + std::to_string(objects) + " objects (a stack of " +
            std::to_string(stack >> 20) + " MB)");
    }
    pthread_join(thread, nullptr);
    if (job.failure) {
        std::rethrow_exception(job.failure);
    }
}

} // namespace

void write_output(
    QPDF &pdf,
    char const *out_path,
    PDFVersion const &minimum,
    size_t pages,
    bool object_streams,
    pe_export_options const *options,
    bool &started,
    bool sync,
    bool report,
    QPDF *kept_encryption_of)
{
    PhaseClock clock(Phase::write);
    QPDFWriter writer(pdf);
    if (report && options != nullptr && options->progress != nullptr) {
        auto progress = options->progress;
        void *context = options->progress_context;
        writer.registerProgressReporter(std::make_shared<QPDFWriter::FunctionProgressReporter>(
            [progress, context](int percent) { progress(context, percent, 100); }));
    }
    started = true;
    // Not setOutputFilename: see CheckedFile for why qpdf's file output is not used.
    CheckedFile file(out_path, sync);
    writer.setOutputPipeline(&file);
    writer.setMinimumPDFVersion(minimum);
    // Object streams when a source has them, as qpdf's default (preserve) keeps
    // them, and the output is not tiny. They make a large output about half as
    // big (20,000 pages: 2.7 MB instead of 6.1 MB) but cost a tenth of the time of
    // writing it, and two zlib streams per file, which was most of the time of
    // writing a one-page part of a split.
    bool compress = options != nullptr && (options->compress != 0 || options->images_dpi > 0);
    if (compress) {
        // --compress: streams shared and recompressed here (Compress.cpp), then
        // written as given: decode level none keeps qpdf from inflating them and
        // deflating them again at its own level; it still compresses the object
        // and cross-reference streams it makes.
        pe_compress_report done{};
        ImageSettings images;
        images.dpi = options->images_dpi;
        images.quality = options->images_quality > 0 ? options->images_quality : images.quality;
        images.max_stream_bytes = options->max_stream_bytes;
        images.max_pixels = options->max_pixels;
        compress_streams( // timed as part of "write"
            pdf, options->max_stream_bytes, images, done, {compress_threads(options->threads), options->cancel});
        if (options->compress_report != nullptr) {
            *options->compress_report = done;
        }
        writer.setObjectStreamMode(qpdf_o_generate);
        writer.setDecodeLevel(qpdf_dl_none);
    } else {
        writer.setObjectStreamMode(object_streams && pages >= object_stream_minimum ? qpdf_o_generate : qpdf_o_disable);
    }
    writer.setCompressStreams(true);
    writer.setLinearization(options != nullptr && options->linearize != 0);
    bool encrypted = set_encryption(writer, options, kept_encryption_of);
    if (!encrypted && (options == nullptr || options->deterministic_id != 0)) {
        // qpdf's deterministic /ID: an MD5 of the bytes written, the same for the
        // same output (qpdf cannot make one for encrypted output).
        writer.setDeterministicID(true);
    }
    if (options != nullptr && options->linearize != 0) {
        write_linearized(pdf, writer);
    } else {
        writer.write();
    }
    file.close();
}

} // namespace pe

extern "C" void pe_set_process_flate_level(int level)
{
    if (level == -1 || (level >= 1 && level <= 9)) {
        Pl_Flate::setCompressionLevel(level); // process-wide: see QPDFBridge.h
    }
}
