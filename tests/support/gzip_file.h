#pragma once
// A gzip-compressed fixture read whole, as the tests' own reference reads it: zlib
// directly, never the importer under test. The test links zlib (the importers' tests
// get it through tokenscope_import; others link ZLIB::ZLIB themselves).
#include <zlib.h>

#include <stdexcept>
#include <string>

namespace tokenscope::test {

// The decompressed text of `path`; throws std::runtime_error naming the file when it
// cannot be opened or is not gzip (zlib reads a plain file as it is).
inline std::string gunzip(const std::string& path) {
    gzFile f = gzopen(path.c_str(), "rb");
    if (f == nullptr) throw std::runtime_error(path + ": cannot open");
    std::string out;
    char buf[1 << 16];
    int n = 0;
    while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
    const bool failed = n < 0;
    gzclose(f);
    if (failed) throw std::runtime_error(path + ": corrupt gzip data");
    return out;
}

}  // namespace tokenscope::test
