// The shared real traces, read in place from TOKENSCOPE_FIXTURES_DIR (tests/CMakeLists.txt:
// ../shared/fixtures beside the checkout). A checkout without them, as a new user's clone
// is, skips the tests that read them and names the missing file, instead of failing them.
#pragma once

#include <filesystem>
#include <string>

namespace tokenscope::test {

inline std::string fixture_path(const std::string& relative) {
    return std::string(TOKENSCOPE_FIXTURES_DIR) + "/" + relative;
}

inline bool has_fixture(const std::string& relative) {
    return std::filesystem::exists(fixture_path(relative));
}

}  // namespace tokenscope::test

// In a GoogleTest body: skip unless the fixture (a path under the fixtures folder) is there.
#define TOKENSCOPE_NEED_FIXTURE(relative)                                                      \
    do {                                                                                       \
        if (!::tokenscope::test::has_fixture(relative))                                        \
            GTEST_SKIP() << "fixture missing: " << ::tokenscope::test::fixture_path(relative); \
    } while (0)

// The same in a Qt Test slot.
#define TOKENSCOPE_QT_NEED_FIXTURE(relative)                                                       \
    do {                                                                                           \
        if (!::tokenscope::test::has_fixture(relative))                                            \
            QSKIP(qPrintable(QStringLiteral("fixture missing: ") +                                 \
                             QString::fromStdString(::tokenscope::test::fixture_path(relative)))); \
    } while (0)
