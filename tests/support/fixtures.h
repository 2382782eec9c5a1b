// The shared real traces, read in place from TOKENSCOPE_FIXTURES_DIR (tests/CMakeLists.txt:
// ../shared/fixtures beside the checkout). A checkout without them, as a new user's clone
// is, skips the tests that read them and names the missing file. Under CI
// (TOKENSCOPE_REQUIRE_FIXTURES=1, set by .ci/run) a missing fixture fails the test instead:
// losing every real-format test without a word is what CI must not do.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

namespace tokenscope::test {

inline std::string fixture_path(const std::string& relative) {
    return std::string(TOKENSCOPE_FIXTURES_DIR) + "/" + relative;
}

inline bool has_fixture(const std::string& relative) {
    return std::filesystem::exists(fixture_path(relative));
}

// True when a missing fixture must fail the test rather than skip it.
inline bool fixtures_required() {
    const char* v = std::getenv("TOKENSCOPE_REQUIRE_FIXTURES");
    return v != nullptr && std::string_view(v) != "" && std::string_view(v) != "0";
}

}  // namespace tokenscope::test

// In a GoogleTest body (or SetUp): skip (fail under CI) unless the fixture at `path`, a
// full path into the fixtures folder, is there.
#define TOKENSCOPE_NEED_FIXTURE_FILE(path)                                               \
    do {                                                                                 \
        const std::string fixture_file_ = (path);                                        \
        if (!std::filesystem::exists(fixture_file_)) {                                   \
            if (::tokenscope::test::fixtures_required()) {                               \
                GTEST_FAIL() << "fixture missing (TOKENSCOPE_REQUIRE_FIXTURES is set): " \
                             << fixture_file_;                                           \
            }                                                                            \
            GTEST_SKIP() << "fixture missing: " << fixture_file_;                        \
        }                                                                                \
    } while (0)

// The same for a path under the fixtures folder.
#define TOKENSCOPE_NEED_FIXTURE(relative)                                                      \
    do {                                                                                       \
        if (!::tokenscope::test::has_fixture(relative)) {                                      \
            if (::tokenscope::test::fixtures_required()) {                                     \
                GTEST_FAIL() << "fixture missing (TOKENSCOPE_REQUIRE_FIXTURES is set): "       \
                             << ::tokenscope::test::fixture_path(relative);                    \
            }                                                                                  \
            GTEST_SKIP() << "fixture missing: " << ::tokenscope::test::fixture_path(relative); \
        }                                                                                      \
    } while (0)

// The same in a Qt Test slot.
#define TOKENSCOPE_QT_NEED_FIXTURE(relative)                                         \
    do {                                                                             \
        if (!::tokenscope::test::has_fixture(relative)) {                            \
            const QString missing =                                                  \
                QStringLiteral("fixture missing: ") +                                \
                QString::fromStdString(::tokenscope::test::fixture_path(relative));  \
            if (::tokenscope::test::fixtures_required()) QFAIL(qPrintable(missing)); \
            QSKIP(qPrintable(missing));                                              \
        }                                                                            \
    } while (0)
