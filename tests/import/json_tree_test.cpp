// json::Tree, the reader of the serving and client results: values by key and
// index, numbers as the file writes them, Python's non-finite words, one error style.
#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "json/tree.h"

namespace tokenscope::json {
namespace {

using Kind = Node::Kind;

TEST(JsonTree, ValuesByKeyAndIndex) {
    Tree tree;
    const Value root = tree.parse(
        R"({"a": [1, -2, 3.5, "x\u00e9", true, null, {"b": []}], "s": "plain", "o": {}})", {});
    ASSERT_TRUE(root.is_object());
    EXPECT_EQ(root.size(), 3u);
    const Value a = root.find("a");
    ASSERT_TRUE(a.is_array());
    ASSERT_EQ(a.size(), 7u);
    EXPECT_EQ(a[0].kind(), Kind::Int);
    EXPECT_EQ(a[0].int64(), 1);
    EXPECT_EQ(a[1].int64(), -2);
    EXPECT_EQ(a[2].kind(), Kind::Double);
    EXPECT_EQ(a[2].number(), 3.5);
    EXPECT_EQ(a[3].string(), "x\xc3\xa9");  // é in UTF-8
    EXPECT_TRUE(a[4].is_bool());
    EXPECT_TRUE(a[4].boolean());
    EXPECT_TRUE(a[5].is_null());
    EXPECT_TRUE(a[6].find("b").is_array());
    EXPECT_EQ(a[6].find("b").size(), 0u);
    EXPECT_FALSE(a[7]);  // past the end: none
    EXPECT_EQ(root.find("s").string(), "plain");
    EXPECT_TRUE(root.find("o").is_object());
    EXPECT_FALSE(root.find("missing"));
    EXPECT_FALSE(a.find("a"));  // an array has no members
    EXPECT_EQ(root.key_at(1), "s");
    EXPECT_EQ(root.value_at(1).string(), "plain");
}

// Every escape JSON has, written out by hand in UTF-8; lone UTF-16 surrogates become
// U+FFFD (EF BF BD); escapes at either end and between long plain runs.
struct EscapeCase {
    const char* json;      // the string's body as written in the file
    std::string expected;  // its bytes once unescaped
};

void PrintTo(const EscapeCase& c, std::ostream* os) {
    *os << c.json;
}

class JsonTreeEscapes : public ::testing::TestWithParam<EscapeCase> {};

TEST_P(JsonTreeEscapes, UnescapeToTheBytesMeant) {
    Tree tree;
    const Value root = tree.parse(std::string("[\"") + GetParam().json + "\"]", {});
    ASSERT_TRUE(root.is_array());
    EXPECT_EQ(root[0].string(), GetParam().expected) << GetParam().json;
}

INSTANTIATE_TEST_SUITE_P(
    Table, JsonTreeEscapes,
    ::testing::Values(EscapeCase{R"(\"\\\/\b\f\n\r\t)", "\"\\/\b\f\n\r\t"},
                      EscapeCase{R"(\u0041\u00e9\u20ac)", "A\xC3\xA9\xE2\x82\xAC"},
                      EscapeCase{R"(\ud83d\ude00)", "\xF0\x9F\x98\x80"},  // U+1F600
                      EscapeCase{R"(a\ud800b)",
                                 "a\xEF\xBF\xBD"
                                 "b"},                          // lone high
                      EscapeCase{R"(\udc00)", "\xEF\xBF\xBD"},  // lone low
                      EscapeCase{R"(\ud800\u0041)",
                                 "\xEF\xBF\xBD"
                                 "A"},  // high, no low
                      EscapeCase{R"(\u0000x)", std::string("\0x", 2)},
                      EscapeCase{R"(data: {\"choices\":[{\"delta\":{\"content\":\" word\"}}]}\n\n)",
                                 "data: {\"choices\":[{\"delta\":{\"content\":\" word\"}}]}\n\n"},
                      EscapeCase{R"(plain text before the only escape at the very end\n)",
                                 "plain text before the only escape at the very end\n"}),
    [](const ::testing::TestParamInfo<EscapeCase>& param) {
        return "case" + std::to_string(param.index);
    });

TEST(JsonTree, BadEscapesAreSyntaxErrors) {
    for (const char* body : {R"(["\x"])", R"(["\u12"])", R"(["\u12G4"])", R"(["ab\)"}) {
        Tree tree;
        EXPECT_THROW(tree.parse(body, {}), SyntaxError) << body;
    }
}

TEST(JsonTree, RepeatedKeyKeepsTheLast) {
    Tree tree;
    EXPECT_EQ(tree.parse(R"({"k": 1, "k": 2})", {}).find("k").int64(), 2);
}

TEST(JsonTree, IntegersBeyondInt64AreUnsigned) {
    Tree tree;
    // 2^63 = 9223372036854775808; epoch ns of 2025 fit int64.
    const Value v = tree.parse("[9223372036854775808, 1759813207532900363]", {});
    EXPECT_EQ(v[0].kind(), Kind::Uint);
    EXPECT_EQ(v[0].uint64(), 9223372036854775808ull);
    EXPECT_EQ(v[1].kind(), Kind::Int);
    EXPECT_EQ(v[1].int64(), 1759813207532900363);
    // Past 64 bits, the nearest double, as Python reads it; past a double, an error.
    const Value big = tree.parse("[123456789012345678901234567890, -99999999999999999999]", {});
    EXPECT_EQ(big[0].kind(), Kind::Double);
    EXPECT_EQ(big[0].number(), 1.2345678901234568e29);
    EXPECT_EQ(big[1].number(), -1e20);
    EXPECT_THROW(tree.parse("[1e400]", {}), SyntaxError);
}

TEST(JsonTree, PythonNonFiniteWordsReadAsNull) {
    Tree tree;
    const Value v = tree.parse(R"({"m": NaN, "l": [Infinity, -Infinity, 1], "s": "NaN"})", {true});
    EXPECT_TRUE(v.find("m").is_null());
    EXPECT_TRUE(v.find("l")[0].is_null());
    EXPECT_TRUE(v.find("l")[1].is_null());
    EXPECT_EQ(v.find("l")[2].int64(), 1);
    EXPECT_EQ(v.find("s").string(), "NaN");
    // Strict JSON otherwise.
    EXPECT_THROW(tree.parse(R"({"m": NaN})", {}), SyntaxError);
    EXPECT_THROW(tree.parse(R"({"m": NaNa})", {true}), SyntaxError);
}

TEST(JsonTree, SyntaxErrorsSayWhereAndWhat) {
    Tree tree;
    try {
        tree.parse(R"({"ttfts": [0.1, )", {}, 100);
        ADD_FAILURE() << "no error";
    } catch (const SyntaxError& e) {
        // 16 bytes of text: it ends inside the array; base 100 is added.
        EXPECT_EQ(e.offset(), 116u);
        EXPECT_TRUE(e.at_end());
    }
    try {
        tree.parse(R"({"a" 1})", {});
        ADD_FAILURE() << "no error";
    } catch (const SyntaxError& e) {
        EXPECT_EQ(e.offset(), 5u);  // where ':' was expected
        EXPECT_NE(e.problem().find("expected ':'"), std::string::npos) << e.problem();
    }
    EXPECT_THROW(tree.parse("[1] 2", {}), SyntaxError);
}

TEST(JsonTree, ScalarDocumentsAndReuse) {
    Tree tree;
    EXPECT_EQ(tree.parse("42", {}).int64(), 42);
    EXPECT_EQ(tree.parse(R"("text")", {}).string(), "text");
    const std::string line = R"({"x": 1}
{"x": 2})";
    EXPECT_EQ(tree.parse_copy(std::string_view(line).substr(0, 8), {}).find("x").int64(), 1);
    EXPECT_EQ(tree.parse_copy(std::string_view(line).substr(9), {}).find("x").int64(), 2);
}

TEST(JsonTree, DeepNestingIsRefusedNotACrash) {
    Tree tree;
    const std::string deep = std::string(5000, '[') + std::string(5000, ']');
    EXPECT_THROW(tree.parse(deep, {}), SyntaxError);
}

}  // namespace
}  // namespace tokenscope::json
