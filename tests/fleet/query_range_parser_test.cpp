// The query_range parser on the answers servers really give and on hostile ones.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "fleet/query_range_parser.h"

namespace tokenscope::fleet {
namespace {

TEST(QueryRangeParser, ReadsLabelsPointsAndSpecialValues) {
    const QueryResult r = parse_query_range(R"({"status":"success","data":{"resultType":"matrix",
        "result":[{"metric":{"__name__":"x_bucket","le":"+Inf","model_name":"a\"b\\c\u00e9"},
                   "values":[[1700000000,"12"],[1700003600.5,"NaN"],[1700007200,"+Inf"],
                             [1700010800,"-Inf"],[1700014400,"1e-3"]]}]}})");
    ASSERT_EQ(r.series.size(), 1u);
    const Series& s = r.series[0];
    ASSERT_EQ(s.labels.size(), 2u);  // __name__ dropped
    EXPECT_EQ(*s.label("le"), "+Inf");
    EXPECT_EQ(*s.label("model_name"), "a\"b\\c\xC3\xA9");
    ASSERT_EQ(s.points.size(), 5u);
    EXPECT_EQ(s.points[0].t, 1700000000);
    EXPECT_EQ(s.points[0].v, 12);
    EXPECT_EQ(s.points[1].t, 1700003600.5);
    EXPECT_TRUE(std::isnan(s.points[1].v));
    EXPECT_TRUE(std::isinf(s.points[2].v) && s.points[2].v > 0);
    EXPECT_TRUE(std::isinf(s.points[3].v) && s.points[3].v < 0);
    EXPECT_DOUBLE_EQ(s.points[4].v, 0.001);
}

TEST(QueryRangeParser, ToleratesKeyOrderUnknownKeysMissingValuesAndDisorder) {
    const QueryResult r = parse_query_range(R"( {"data":{"result":[
          {"values":[[20,"2"],[10,"1"]],"metric":{"le":"1","extra":{"nested":[1,2,{"a":null}]}}},
          {"metric":{"le":"2"}},
          {"metric":{},"values":[],"histograms":[[1,{"count":"3"}]]}],
        "resultType":"matrix","stats":{"timings":{}}},
        "warnings":["PromQL info: metric might not be a counter"],"status":"success","infos":[]} )");
    ASSERT_EQ(r.series.size(), 3u);
    ASSERT_EQ(r.series[0].points.size(), 2u);
    EXPECT_EQ(r.series[0].points[0].t, 10);          // sorted by time
    EXPECT_EQ(r.series[0].label("extra"), nullptr);  // not a string: ignored
    EXPECT_TRUE(r.series[1].points.empty());
    EXPECT_TRUE(r.series[2].points.empty());
    ASSERT_EQ(r.warnings.size(), 1u);
}

TEST(QueryRangeParser, ErrorAnswerGivesTypeAndMessage) {
    try {
        parse_query_range(
            R"({"status":"error","errorType":"bad_data","error":"1:5: parse error"})");
        FAIL() << "no exception";
    } catch (const QueryError& e) {
        EXPECT_EQ(e.type(), "bad_data");
        EXPECT_STREQ(e.what(), "bad_data: 1:5: parse error");
    }
}

TEST(QueryRangeParser, RejectsWhatIsNotAMatrixAnswer) {
    for (
        const char* body :
        {"", "<html></html>", "[]", R"({"status":"success"})",
         R"({"status":"success","data":{"resultType":"scalar","result":[1,"2"]}})",
         R"({"status":"success","data":{"resultType":"matrix","result":[{"values":[[1,"x"]]}]}})",
         R"({"status":"success","data":{"resultType":"matrix","result":[]}} trailing)",
         R"({"status":"success","data":{"resultType":"matrix","result":[{"values":[[1,"2"]})",
         R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{"a":"\u12"}}]}})"})
        EXPECT_THROW(parse_query_range(body), ResponseError) << body;
}

TEST(QueryRangeParser, DeepNestingIsAnErrorNotACrash) {
    std::string body = R"({"status":"success","junk":)" + std::string(100000, '[') +
                       std::string(100000, ']') + "}";
    EXPECT_THROW(parse_query_range(body), ResponseError);
}

TEST(QueryRangeParser, TruncatedAnswersNeverReadPastTheEnd) {
    const std::string full = R"({"status":"success","data":{"resultType":"matrix","result":[
        {"metric":{"le":"0.5","model":"a"},"values":[[1,"1"],[2,"2.5"]]}]}})";
    for (std::size_t n = 0; n < full.size(); ++n)
        EXPECT_THROW(parse_query_range(std::string_view(full.data(), n)), ResponseError) << n;
    EXPECT_NO_THROW(parse_query_range(full));
}

// The client reads an answer it does not keep in place: the same series, points and
// errors as through a copy, on bodies whose points are numbers, strings and specials.
TEST(QueryRangeParser, InPlaceReadsTheSameAsACopy) {
    const std::string good = R"({"status":"success","data":{"resultType":"matrix","result":[
        {"metric":{"le":"0.5"},"values":[[3,"1"],[1,2.5],[2,"NaN"],[4,"+Inf"]]},
        {"metric":{"le":"+Inf"},"values":[]},{"metric":{"le":"1"},"value":[7,"9"]}]}})";
    std::string body = good;
    const QueryResult copy = parse_query_range(good);
    const QueryResult in_place = parse_query_range_in_place(body);
    ASSERT_EQ(in_place.series.size(), 3u);
    ASSERT_EQ(copy.series.size(), 3u);
    const std::vector<double> times = {1, 2, 3, 4};  // sorted, as written out of order
    for (std::size_t i = 0; i < 3; ++i) {
        ASSERT_EQ(in_place.series[i].points.size(), copy.series[i].points.size());
        for (std::size_t k = 0; k < copy.series[i].points.size(); ++k) {
            EXPECT_EQ(in_place.series[i].points[k].t, copy.series[i].points[k].t);
            const double a = in_place.series[i].points[k].v, b = copy.series[i].points[k].v;
            EXPECT_TRUE(a == b || (std::isnan(a) && std::isnan(b)));
        }
    }
    ASSERT_EQ(in_place.series[0].points.size(), 4u);
    for (std::size_t k = 0; k < 4; ++k) EXPECT_EQ(in_place.series[0].points[k].t, times[k]);
    EXPECT_EQ(in_place.series[0].points[0].v, 2.5);  // a bare number is a value too
    EXPECT_EQ(in_place.series[2].points.at(0).v, 9);
    std::string bad = R"({"status":"success","data":{"resultType":"matrix","result":[
        {"values":[[1,"2"],[2,true]]}]}})";
    EXPECT_THROW(parse_query_range_in_place(bad), ResponseError);
}

// Each series is reserved the last one's length: longer, shorter and empty series
// after one another keep exactly their own points; a point that is not an array, or
// not JSON at all, is named.
TEST(QueryRangeParser, SeriesOfEveryLengthKeepTheirPoints) {
    std::string body = R"({"status":"success","data":{"resultType":"matrix","result":[)";
    const std::vector<int> lengths = {3, 200, 1, 0, 5};
    for (std::size_t s = 0; s < lengths.size(); ++s) {
        body += std::string(s ? "," : "") + R"({"metric":{"i":")" + std::to_string(s) +
                R"("},"values":[)";
        for (int p = 0; p < lengths[s]; ++p)
            body += std::string(p ? "," : "") + "[" + std::to_string(100 + p) + ",\"" +
                    std::to_string(s * 1000 + static_cast<std::size_t>(p)) + "\"]";
        body += "]}";
    }
    const QueryResult r = parse_query_range(body + "]}}");
    ASSERT_EQ(r.series.size(), lengths.size());
    for (std::size_t s = 0; s < lengths.size(); ++s) {
        ASSERT_EQ(r.series[s].points.size(), static_cast<std::size_t>(lengths[s])) << s;
        for (int p = 0; p < lengths[s]; ++p) {
            EXPECT_EQ(r.series[s].points[static_cast<std::size_t>(p)].t, 100 + p);
            EXPECT_EQ(r.series[s].points[static_cast<std::size_t>(p)].v,
                      static_cast<double>(s * 1000 + static_cast<std::size_t>(p)));
        }
    }
    const std::string head = R"({"status":"success","data":{"resultType":"matrix","result":[)"
                             R"({"values":[[1,"1"],)";
    for (const char* point : {R"("x")", "7", "{}", "null", "x"}) {
        try {
            parse_query_range(head + point + "]}]}}");
            FAIL() << point;
        } catch (const ResponseError& e) {
            const std::string what = e.what();
            if (std::string(point) == "x") {
                EXPECT_NE(what.find("malformed JSON"), std::string::npos) << what;
            } else {
                EXPECT_NE(what.find("a point is not an array"), std::string::npos) << what;
            }
        }
    }
}

}  // namespace
}  // namespace tokenscope::fleet
