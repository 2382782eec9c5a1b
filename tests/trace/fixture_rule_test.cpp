// The rule for missing fixtures (tests/support/fixtures.h): a checkout without
// ../shared/fixtures skips the tests that read them; CI (TOKENSCOPE_REQUIRE_FIXTURES=1,
// set by .ci/run) fails them instead, so real-format coverage is never lost silently.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "support/fixtures.h"

namespace {

void need_missing_fixture() {
    TOKENSCOPE_NEED_FIXTURE("no-such-folder/no-such-trace.json.gz");
}

class FixtureRule : public testing::Test {
  protected:
    void SetUp() override {
        const char* v = std::getenv("TOKENSCOPE_REQUIRE_FIXTURES");
        saved_ = v != nullptr ? std::optional<std::string>(v) : std::nullopt;
    }
    void TearDown() override {
        if (saved_)
            setenv("TOKENSCOPE_REQUIRE_FIXTURES", saved_->c_str(), 1);
        else
            unsetenv("TOKENSCOPE_REQUIRE_FIXTURES");
    }
    std::optional<std::string> saved_;
};

TEST_F(FixtureRule, AMissingFixtureFailsUnderCi) {
    setenv("TOKENSCOPE_REQUIRE_FIXTURES", "1", 1);
    EXPECT_TRUE(tokenscope::test::fixtures_required());
    EXPECT_FATAL_FAILURE(need_missing_fixture(), "fixture missing (TOKENSCOPE_REQUIRE_FIXTURES");
}

TEST_F(FixtureRule, AMissingFixtureOnlySkipsElsewhere) {
    for (const char* off : {"", "0"}) {
        setenv("TOKENSCOPE_REQUIRE_FIXTURES", off, 1);
        EXPECT_FALSE(tokenscope::test::fixtures_required()) << "'" << off << "'";
    }
    unsetenv("TOKENSCOPE_REQUIRE_FIXTURES");
    EXPECT_FALSE(tokenscope::test::fixtures_required());
}

}  // namespace
