// Internal to QPDFBridge: the file an export writes, with every error checked.
#ifndef PDFEDIT_QPDF_BRIDGE_CHECKED_FILE_HH
#define PDFEDIT_QPDF_BRIDGE_CHECKED_FILE_HH

#include "Status.hh"

#include <qpdf/Pipeline.hh>

#include <memory>
#include <string>

namespace pe {

// The end of QPDFWriter's pipeline for an output file (QPDFWriter::setOutputPipeline).
//
// qpdf's own file output (setOutputFilename, Pl_StdioFile) writes through a stdio
// buffer and ignores the error of its last fflush and of fclose, so a full disk or a
// file size limit gave a truncated PDF and a successful write. Here every write(2)
// is checked, and close() flushes, fsyncs (the rename that follows must not publish
// a file whose data is not on disk yet) and closes, each checked.
//
// write() and finish() never throw: QPDFWriter calls finish() from destructors
// (popping a pipeline above this one), where an exception would terminate the
// process. The first error is kept, later data is dropped, and close(), called
// once QPDFWriter::write has returned, throws QPDFSystemError naming the file with
// that errno (ENOSPC, EFBIG, EIO...).
class CheckedFile : public Pipeline {
  public:
    // Creates (or truncates) `path`, mode 0600 (it is a temporary file: the caller
    // gives it its final mode when renaming it into place); throws when it cannot.
    // Without `sync`, close() does not fsync: the caller writes many files and
    // syncs their file system once (sync_file_system_of) before renaming any.
    CheckedFile(char const *path, bool sync);
    ~CheckedFile() override;
    CheckedFile(CheckedFile const &) = delete;
    CheckedFile &operator=(CheckedFile const &) = delete;

    void write(unsigned char const *data, size_t length) override;
    void finish() override { flush(); }
    // Flush, fsync, close; throws the first error met since the file was opened.
    void close();

  private:
    void flush() noexcept;
    void write_all(unsigned char const *data, size_t length) noexcept;
    [[noreturn]] void fail(char const *what, int error) const;

    std::string path;
    bool sync;
    int descriptor = -1;
    // The first failed system call and its errno; none while `error` is 0.
    char const *failed_call = nullptr;
    int error = 0;
    // Bytes not yet written: buffer_capacity of them, `used` filled. A plain
    // array filled with memcpy: QPDFWriter writes about a million pieces of a
    // few bytes for a 20,000-page merge and 900,000 for freeculture's split, and
    // a vector's insert made a piece cost 130 instructions with the flushes
    // (69 now).
    std::unique_ptr<unsigned char[]> buffer;
    size_t used = 0;
};

// Whether pe_cancel was called: the process is exiting on a signal.
bool cancel_requested() noexcept;

// syncfs(2) of the file system that holds `path` (a file just written): one call
// instead of an fsync per file when an export writes thousands of parts. Throws
// QPDFSystemError on failure.
void sync_file_system_of(char const *path);

} // namespace pe

#endif
