// Internal to QPDFBridge: the file an export writes, with every error checked.
#ifndef PDFEDIT_QPDF_BRIDGE_CHECKED_FILE_HH
#define PDFEDIT_QPDF_BRIDGE_CHECKED_FILE_HH

#include "Status.hh"

#include <qpdf/Pipeline.hh>

#include <cstdint>
#include <memory>
#include <string>

namespace pe {

// A 128-bit digest of a byte stream, fed in pieces of any size (the same bytes
// give the same digest however they are cut): four 64-bit lanes, each taking
// every fourth 8-byte word of 32-byte blocks with a multiply and a rotation,
// folded and mixed at the end with the length. Not cryptographic: it names a
// file (its /ID), it protects nothing. Over 64 MB it took 7-15 ms, and the
// search for the static id 6-14 ms, where the MD5 of QPDFWriter's deterministic
// /ID over every byte of an output took 142-163 ms.
class ContentDigest {
  public:
    void add(unsigned char const *data, size_t length) noexcept;
    // The digest of everything added, as 32 lowercase hex digits.
    std::string hex() const;

  private:
    void block(unsigned char const *data) noexcept;

    std::uint64_t lanes[4] = {
        0x243F6A8885A308D3ull, 0x13198A2E03707344ull, 0xA4093822299F31D0ull, 0x082EFA98EC4E6C89ull};
    unsigned char pending[32] = {};
    size_t pending_length = 0;
    std::uint64_t total = 0;
};

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
    void finish() override;
    // Flush, fsync, close; throws the first error met since the file was opened.
    void close();

    // Gives the file a deterministic /ID after QPDFWriter has written it with its
    // static one (setStaticID: "/ID [<3141...795><3141...795>]" in the trailer, the
    // last such run in the file): every byte is digested as it is flushed
    // (ContentDigest), and close() writes the digest over both static ids before
    // it syncs. close() throws std::logic_error when no static /ID was written.
    void stamp_id();

  private:
    void flush() noexcept;
    // Writes `length` bytes at the file's end, digested first when stamping.
    void put(unsigned char const *data, size_t length) noexcept;
    void note(unsigned char const *data, size_t length) noexcept;
    void write_all(unsigned char const *data, size_t length, long long offset) noexcept;
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
    // stamp_id: the digest of the bytes flushed, how many, the last bytes flushed
    // (a static /ID may straddle two flushes), where the last static /ID starts.
    bool stamping = false;
    ContentDigest digest;
    long long flushed = 0;
    unsigned char carry[73] = {}; // the length of the static /ID run, less one
    size_t carry_length = 0;
    long long id_at = -1;
};

// Whether pe_cancel was called: the process is exiting on a signal.
bool cancel_requested() noexcept;

// syncfs(2) of the file system that holds `path` (a file just written): one call
// instead of an fsync per file when an export writes thousands of parts. Throws
// QPDFSystemError on failure.
void sync_file_system_of(char const *path);

} // namespace pe

#endif
